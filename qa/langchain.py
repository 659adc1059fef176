"""LangChain adapter (optional extra ``yili-qa[langchain]``): a ``BaseRetriever`` returning one Document per hit.

    >>> from qa.langchain import as_langchain
    >>> docs = as_langchain(k=3).invoke("賓為什麼說旨？")
    >>> docs[0].metadata["citation"]
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .errors import QAError
from .corpus.units import LAYER_LABELS

if TYPE_CHECKING:
    from .retrieval.retriever import Hit, Retriever


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

    class YiliRetriever(BaseRetriever):
        """Yili QA's hybrid retriever as a LangChain retriever."""

        model_config = ConfigDict(arbitrary_types_allowed=True)
        retriever: Any
        k: int = 5

        def _get_relevant_documents(self, query: str, *, run_manager=None) -> list:
            return [hit_to_document(h) for h in self.retriever.search(query, self.k)]

    return YiliRetriever


def as_langchain(retriever: "Retriever | None" = None, *, k: int | None = None, **load_kwargs: Any):
    """Wrap ``retriever`` (default: ``Retriever.load(**load_kwargs)``) as a LangChain ``BaseRetriever``."""
    cls = retriever_class()
    if retriever is None:
        from .answering.pipeline import Retriever

        retriever = Retriever.load(**load_kwargs)
    return cls(retriever=retriever, k=k or retriever.settings.k)


__all__ = ["as_langchain", "hit_to_document", "retriever_class"]
