"""Yili QA: question answering over 儀禮 and its commentaries (經, 注, 疏, 析疑).

The public API. Importing ``qa`` loads no model, sets up no logging and emits no
warnings: names are resolved lazily on first use.

    >>> from qa import Retriever
    >>> r = Retriever.load()               # builds index/ on first use
    >>> hits = r.search("賓為什麼說旨？", k=5)
    >>> hits[0].unit.jing
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name → defining module
_EXPORTS: dict[str, str] = {
    # data contracts
    "LemmaUnit": "qa.corpus.units",
    "ShuPart": "qa.corpus.units",
    "ParseWarning": "qa.corpus.units",
    # settings and errors
    "Settings": "qa.settings",
    "QAError": "qa.errors",
    "CorpusError": "qa.errors",
    "CatalogError": "qa.errors",
    "ConfigError": "qa.errors",
    "QueryError": "qa.errors",
    "IndexStoreError": "qa.errors",
    "EncoderError": "qa.errors",
    "InputFormatError": "qa.errors",
    "DataTableError": "qa.errors",
    # corpus and normalization
    "Corpus": "qa.corpus.load",
    "load_corpus": "qa.corpus.load",
    "SeedFile": "qa.corpus.catalog",
    "load_catalog": "qa.corpus.catalog",
    "normalize": "qa.text.normalize",
    # retrieval
    "Retriever": "qa.answering.pipeline",
    "HybridRetriever": "qa.retrieval.retriever",
    "Hit": "qa.retrieval.retriever",
    "PassageMatch": "qa.retrieval.retriever",
    # answers
    "Answer": "qa.answering.compose",
    "Evidence": "qa.answering.compose",
    "compose_answer": "qa.answering.compose",
    # evaluation
    "evaluate": "qa.evaluate",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'qa' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .answering.compose import Answer, Evidence, compose_answer
    from .answering.pipeline import Retriever
    from .corpus.catalog import SeedFile, load_catalog
    from .corpus.load import Corpus, load_corpus
    from .corpus.units import LemmaUnit, ParseWarning, ShuPart
    from .errors import (
        CatalogError,
        ConfigError,
        CorpusError,
        DataTableError,
        EncoderError,
        IndexStoreError,
        InputFormatError,
        QAError,
        QueryError,
    )
    from .evaluate import evaluate
    from .retrieval.retriever import Hit, HybridRetriever, PassageMatch
    from .settings import Settings
    from .text.normalize import normalize
