"""Matching normalization: one idempotent, table-driven fold for queries and text alike.

Display and citations never use this: it only decides what matches what.
Steps, per character: NFKC width folding; drop whitespace, punctuation, symbols,
control and private-use characters (U+E000–F8FF glyphs of 001); OpenCC t2s
(which also collapses 002's 雲/云, 麵/面, 複/復 mis-conversions and folds 於 to 于);
then the variant table in ``qa/data/variants.tsv``; ASCII is lower-cased, and a single
space is kept only between two ASCII letters or digits so English words stay words.

Conversion is per character so that every normalized character maps back to one
position in the original text (see :func:`normalize_with_map`), which is what lets
the UI highlight matches in the source's own characters.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources

#: Bump when the tables or rules change: index manifests record it and rebuild on change.
NORMALIZER_VERSION = "1"

_DROP_CATEGORIES = ("P", "S", "Z", "C")  # punctuation, symbols, separators, control/format/private-use


@lru_cache(maxsize=1)
def _opencc():
    import opencc  # imported lazily: importing qa must stay cheap

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=1)
def variant_table() -> dict[str, str]:
    """The variant folds from ``qa/data/variants.tsv``."""
    table: dict[str, str] = {}
    text = resources.files("qa").joinpath("data/variants.tsv").read_text(encoding="utf-8")
    for raw in text.splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        src, dst = raw.split("\t")[:2]
        table[src] = dst
    return table


@lru_cache(maxsize=65536)
def fold_char(ch: str) -> str:
    """Fold one character; returns "" for characters dropped from matching."""
    ch = unicodedata.normalize("NFKC", ch)
    if len(ch) != 1:  # NFKC may expand (e.g. ligatures); fold each piece
        return "".join(fold_char(c) for c in ch)
    if unicodedata.category(ch)[0] in _DROP_CATEGORIES:
        return ""
    if ch.isascii():
        return ch.lower()
    out = _opencc().convert(ch)
    table = variant_table()
    return "".join(table.get(c, c) for c in out)


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Normalize ``text`` and return, for each output character, its index in ``text``."""
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


@lru_cache(maxsize=NORMALIZE_CACHE)
def normalize(text: str) -> str:
    """The matching form of ``text`` (idempotent: normalize(normalize(t)) == normalize(t)).

    Pure, so it is memoized: the same text always gives the same form.
    """
    return normalize_with_map(text)[0]


__all__ = ["NORMALIZER_VERSION", "normalize", "normalize_with_map", "fold_char", "variant_table"]
