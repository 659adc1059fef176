"""LangChain adapter (optional extra ``yili-qa[langchain]``): a ``BaseRetriever`` returning one Document per hit.

    >>> from qa.langchain import as_langchain
    >>> docs = as_langchain(k=3).invoke("賓為什麼說旨？")
    >>> docs[0].metadata["citation"]
    >>> as_langchain(rites=["燕禮"]).invoke("公降一等", k=2, layers=["析疑"])   # per call: k, rites, layers, history

Retrieval goes through the one pipeline (:meth:`qa.Retriever.ask`), so ``k`` (1–50), filters and
question limits behave as at every other door; options set on the retriever are its defaults,
options passed to ``invoke`` override them for that call.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .corpus.units import LAYER_LABELS
from .errors import QAError, QueryError

if TYPE_CHECKING:
    from .answering.pipeline import Retriever
    from .retrieval.retriever import Hit


def _langchain_core():
    try:
        from langchain_core.documents import Document
        from langchain_core.retrievers import BaseRetriever
    except ImportError:
        raise QAError("the LangChain adapter needs langchain-core: pip install 'yili-qa[langchain]'") from None
    return BaseRetriever, Document


def hit_to_document(hit: "Hit"):
    """A LangChain Document: the unit's layers as labelled text; its fields, citation and match in metadata."""
    _, Document = _langchain_core()
    unit = hit.unit
    content = "\n".join(f"{LAYER_LABELS[layer]}：{text}" for layer, text in unit.layer_texts.items())
    metadata: dict[str, Any] = {
        **unit.to_dict(),
        "citation": unit.citation(),
        "score": hit.score,
        "low_confidence": hit.low_confidence,
        "matched": [{"layer": p.layer, "part": p.part, "text": p.text, "via": p.via, "score": p.score} for p in hit.passages],
    }
    return Document(page_content=content, metadata=metadata, id=unit.id)


@lru_cache(maxsize=1)
def retriever_class() -> type:
    """The ``YiliRetriever`` class (created on first use, so importing qa never imports LangChain)."""
    BaseRetriever, _ = _langchain_core()
    from pydantic import ConfigDict

    class YiliRetriever(BaseRetriever):  # type: ignore[misc, valid-type]  # a class made at run time
        """Yili QA's hybrid retriever as a LangChain retriever."""

        model_config = ConfigDict(arbitrary_types_allowed=True)
        retriever: Any
        k: int = 5
        #: only units of these rites (ids or names: xiangyin, 燕禮, …); empty: all
        rites: list[str] = []
        #: only units having one of these layers (jing, zhu, shu, xiyi or 經, 注, 疏, 析疑); empty: all
        layers: list[str] = []

        def _get_relevant_documents(self, query: str, *, run_manager=None, k: int | None = None,
                                    rites: list[str] | None = None, layers: list[str] | None = None,
                                    history: list[str] | None = None, **unknown: Any) -> list:
            if unknown:
                raise QueryError(f"unknown option {', '.join(map(repr, unknown))}: use k, rites, layers or history")
            answer = self.retriever.ask(
                query,
                k=self.k if k is None else k,
                rites=self.rites if rites is None else _names(rites),
                layers=self.layers if layers is None else _names(layers),
                history=history or (),
            )
            return [hit_to_document(h) for h in answer.hits]

    return YiliRetriever


def as_langchain(retriever: "Retriever | None" = None, *, k: int | None = None, rites: Sequence[str] = (),
                 layers: Sequence[str] = (), **load_kwargs: Any):
    """Wrap ``retriever`` (default: ``Retriever.load(**load_kwargs)``) as a LangChain ``BaseRetriever``
    with default ``k`` and filters (checked here: a bad one fails now, not on the first call)."""
    cls = retriever_class()
    if retriever is None:
        from .answering.pipeline import Retriever

        retriever = Retriever.load(**load_kwargs)
    from .answering.filters import check_filters
    from .answering.pipeline import check_k

    k = check_k(k, retriever.settings)
    rites, layers = _names(rites), _names(layers)
    check_filters(rites, layers, retriever.rite_names)
    return cls(retriever=retriever, k=k, rites=rites, layers=layers)


def _names(names: Sequence[str] | str) -> list[str]:
    return [names] if isinstance(names, str) else list(names)


__all__ = ["as_langchain", "hit_to_document", "retriever_class"]
