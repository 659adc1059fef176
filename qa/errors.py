"""The QAError family: every error the library raises on purpose."""

from __future__ import annotations


class QAError(Exception):
    """Base class; its message is one line a user can act on."""


class CorpusError(QAError):
    """A seed file is missing, unreadable, not UTF-8, or not in its declared format."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")
        self.path = path
        self.line = line


class CatalogError(QAError):
    """seeds/catalog.toml is missing or malformed."""


class ConfigError(QAError):
    """A setting (flag or QA_* variable) has an invalid value."""


class QueryError(QAError):
    """A query cannot be answered as given (empty, whitespace only, ...)."""


class IndexStoreError(QAError):
    """The index directory is missing, stale, corrupt or cannot be written."""


class EncoderError(QAError):
    """An encoder model cannot be found, loaded or run."""


class InputFormatError(QAError):
    """A batch or evaluation input file cannot be read in its declared format."""


class DataTableError(QAError):
    """A table of the data directory (qa/data, QA_DATA_DIR) is missing, not UTF-8, or has a malformed row."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")
        self.path = path
        self.line = line


__all__ = [
    "QAError",
    "CorpusError",
    "CatalogError",
    "ConfigError",
    "QueryError",
    "IndexStoreError",
    "EncoderError",
    "InputFormatError",
    "DataTableError",
]
