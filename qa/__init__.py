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
    "LemmaUnit": "qa.units",
    "ShuPart": "qa.units",
    "ParseWarning": "qa.units",
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
    # corpus and normalization
    "Corpus": "qa.corpus",
    "load_corpus": "qa.corpus",
    "SeedFile": "qa.catalog",
    "load_catalog": "qa.catalog",
    "normalize": "qa.normalize",
    # retrieval
    "Retriever": "qa.retriever",
    "Hit": "qa.retriever",
    "PassageMatch": "qa.retriever",
    # answers
    "Answer": "qa.answer",
    "Evidence": "qa.answer",
    "compose_answer": "qa.answer",
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
    from .answer import Answer, Evidence, compose_answer
    from .catalog import SeedFile, load_catalog
    from .corpus import Corpus, load_corpus
    from .errors import (
        CatalogError,
        ConfigError,
        CorpusError,
        EncoderError,
        IndexStoreError,
        InputFormatError,
        QAError,
        QueryError,
    )
    from .evaluate import evaluate
    from .normalize import normalize
    from .retriever import Hit, PassageMatch, Retriever
    from .settings import Settings
    from .units import LemmaUnit, ParseWarning, ShuPart
