"""Matching normalization: one idempotent, table-driven fold for queries and text alike.

Display and citations never use this: it only decides what matches what.
Steps, per character: NFKC width folding; drop whitespace, punctuation, symbols,
control and private-use characters (U+E000–F8FF glyphs of 001); OpenCC t2s
(which also collapses 002's 雲/云, 麵/面, 複/復 mis-conversions and folds 於 to 于);
then the variant table ``variants.tsv`` of the data directory (``qa/data`` or
``QA_DATA_DIR``, see qa.text.tables); ASCII is lower-cased, and a single
space is kept only between two ASCII letters or digits so English words stay words.

Conversion is per character so that every normalized character maps back to one
position in the original text (see :func:`normalize_with_map`), which is what lets
the UI highlight matches in the source's own characters.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Callable

from .tables import data_dir, per_directory, read_table, register_cache

_DROP_CATEGORIES = ("P", "S", "Z", "C")  # punctuation, symbols, separators, control/format/private-use


@lru_cache(maxsize=1)
def _opencc():
    import opencc  # imported lazily: importing qa must stay cheap

    return opencc.OpenCC("t2s")


def variant_table() -> dict[str, str]:
    """The variant folds from ``variants.tsv`` of the data directory (qa.text.tables.data_dir)."""
    return _variant_table(data_dir())


@per_directory
def _variant_table(directory: Path) -> dict[str, str]:
    table: dict[str, str] = {}
    rows = read_table("variants.tsv", directory)
    for row in rows:
        src, dst = row.fields[0], row.fields[1]
        if len(src) != 1:
            raise row.error(f"'from' must be one character, not {src!r} (folds are per character)")
        table[src] = dst
    for row in rows:  # idempotence: a target is never folded again
        dst = row.fields[1]
        if any(c in table for c in dst) or _opencc().convert(dst) != dst:
            raise row.error(f"target {dst!r} is not a fixed point of OpenCC t2s and of the table (normalization must stay idempotent)")
    return table


def fold_char(ch: str) -> str:
    """Fold one character; returns "" for characters dropped from matching."""
    return _folder(data_dir())(ch)


@per_directory
def _folder(directory: Path) -> Callable[[str], str]:
    """The per-character fold with the tables of ``directory`` (cached per directory, then per character)."""

    @lru_cache(maxsize=65536)
    def fold(ch: str) -> str:
        ch = unicodedata.normalize("NFKC", ch)
        if len(ch) != 1:  # NFKC may expand (e.g. ligatures); fold each piece
            return "".join(fold(c) for c in ch)
        if unicodedata.category(ch)[0] in _DROP_CATEGORIES:
            return ""
        if ch.isascii():
            return ch.lower()
        out = _opencc().convert(ch)
        table = _variant_table(directory)
        return "".join(table.get(c, c) for c in out)

    return fold


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Normalize ``text`` and return, for each output character, its index in ``text``."""
    return _normalize_with_map(text, data_dir())


def _normalize_with_map(text: str, directory: Path) -> tuple[str, list[int]]:
    fold_char = _folder(directory)  # one lookup per text, not per character
    out: list[str] = []
    pos: list[int] = []
    pending_space = False
    for i, ch in enumerate(text):
        folded = fold_char(ch)
        if not folded:
            if ch.isspace() and out and out[-1].isascii() and out[-1].isalnum():
                pending_space = True
            continue
        if pending_space and folded[0].isascii() and folded[0].isalnum():
            out.append(" ")
            pos.append(i - 1)
        pending_space = False
        for c in folded:
            out.append(c)
            pos.append(i)
    return "".join(out), pos


#: Distinct texts whose matching form is remembered. Answering normalizes the same corpus
#: sentences again and again (about 600 calls an ask, nearly all repeats): computed once, they
#: are a dictionary look-up; 64k short strings stay within a few MB.
NORMALIZE_CACHE = 1 << 16


def normalize(text: str) -> str:
    """The matching form of ``text`` (idempotent: normalize(normalize(t)) == normalize(t)).

    Pure for given tables, so it is memoized per data directory (and forgotten when a table changes).
    """
    return _normalize(text, data_dir())


@register_cache
@lru_cache(maxsize=NORMALIZE_CACHE)
def _normalize(text: str, directory: Path) -> str:
    return _normalize_with_map(text, directory)[0]


__all__ = ["normalize", "normalize_with_map", "fold_char", "variant_table"]
