"""Text made safe at the batch door: valid Unicode, and spreadsheet cells that cannot run."""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
#: What a spreadsheet reads as the start of a formula (=, +, -, @) or of a hidden one (tab, CR).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def valid_text(s: str) -> str:
    """``s`` with lone surrogates (from JSON escapes or undecodable argv) replaced by U+FFFD,
    so it can be written in UTF-8 anywhere further on."""
    return _SURROGATE.sub("\ufffd", s)


def has_undecodable(s: str) -> bool:
    """True when ``s`` holds bytes kept by the ``surrogateescape`` error handler."""
    return any("\udc80" <= ch <= "\udcff" for ch in s)


def safe_cell(value: Any) -> Any:
    """A value for a .csv / .xlsx cell: text that a spreadsheet would run as a formula is
    prefixed with ``'`` (OWASP's advice); numbers and empty cells are kept as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


__all__ = ["has_undecodable", "safe_cell", "valid_text"]
