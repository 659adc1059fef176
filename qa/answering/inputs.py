"""What every door does to text from outside before anything else: make it valid, bound its size.

A lone surrogate (``"\\ud800"``, which JSON can carry and Python accepts) cannot be encoded
as UTF-8, so a reply echoing it tears the stream; it becomes U+FFFD here. A question is cut
to :func:`raw_limit` characters before the analyzer walks it (the analyzer then cuts what is
left to ``max_query_chars`` with a warning), so a megabyte of text costs no more than a page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

_SURROGATE = re.compile("[\ud800-\udfff]")
#: Control characters are cut before the length bound is taken, so the bound is generous.
RAW_FACTOR = 4


def raw_limit(settings: "Settings") -> int:
    """Characters of raw text kept before cleaning: a bound on the analyzer's work."""
    return RAW_FACTOR * settings.max_query_chars


def valid_text(text: str, limit: int | None = None) -> str:
    """``text`` cut to ``limit`` characters, lone surrogates replaced by U+FFFD (pure, idempotent)."""
    if limit is not None and len(text) > limit:
        text = text[:limit]
    return _SURROGATE.sub("\ufffd", text)


def door_question(question: Any, settings: "Settings") -> Any:
    """A question as a door receives it: text made valid and bounded; anything else unchanged
    (the pipeline gives the error for a non-text question)."""
    return valid_text(question, raw_limit(settings)) if isinstance(question, str) else question


def door_history(history: Sequence[Any] | None, settings: "Settings") -> list[Any]:
    """The earlier turns a door passes on: at most ``settings.history_turns`` (the newest), each
    text made valid and bounded; non-text items (Answers) kept as they are."""
    turns = list(history or ())
    turns = turns[-settings.history_turns :] if settings.history_turns else []
    return [door_question(t, settings) for t in turns]


__all__ = ["RAW_FACTOR", "door_history", "door_question", "raw_limit", "valid_text"]
