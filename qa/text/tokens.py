"""Tokens of normalized text: the one CJK range, runs, character n-grams, segments and common runs.

Every stage that cuts text into characters and bigrams (lexical index, encoders, query terms,
re-ranking, confidence, alignment, evaluation) uses these, so they all agree on what a CJK
character is and where a bigram may form: never across punctuation, a dropped glyph or an
English word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .normalize import normalize_with_map

#: The one CJK range: unified ideographs, extension A, compatibility ideographs and the
#: supplementary planes (extensions B–H). NFKC folds most compatibility forms before this.
CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_CJK_RUN = re.compile(f"[{CJK_CLASS}]+")
#: English words of normalized (lower-cased) text.
WORD = re.compile(r"[a-z0-9]+")


def is_cjk(ch: str) -> bool:
    """True for a CJK ideograph (the range of :data:`CJK_CLASS`)."""
    return bool(_CJK_RUN.fullmatch(ch))


def cjk_runs(norm: str) -> list[str]:
    """The maximal runs of CJK ideographs in normalized text."""
    return _CJK_RUN.findall(norm)


def bigrams(run: str) -> list[str]:
    """Adjacent-character bigrams of one run, in order (none for a run of one character)."""
    return [run[i : i + 2] for i in range(len(run) - 1)]


def char_ngrams(run: str) -> list[str]:
    """A run's characters, then its bigrams: the index's tokens of one CJK segment."""
    return list(run) + bigrams(run)


def word_terms(segments: Iterable[str]) -> set[str]:
    """Matching terms of segments: a one-character run as itself (a word: 旨, 介), longer runs as bigrams.

    ASCII characters are dropped first, so only the CJK of each segment counts.
    """
    out: set[str] = set()
    for seg in segments:
        run = "".join(c for c in seg if not c.isascii())
        if len(run) == 1:
            out.add(run)
        out.update(bigrams(run))
    return out


def _base_letter(ch: str) -> str:
    if ch.isascii() or is_cjk(ch):
        return ch
    base = unicodedata.normalize("NFKD", ch)[:1]
    return base if base.isascii() and base.isalpha() else ch


def fold_latin(text: str) -> str:
    """``text`` with each accented Latin letter as its base letter (ǚ, ü → u; á → a; é → e), every other
    character as is, one for one: pinyin typed with its tone marks (lǚshí, xuánjiǔ) and loanwords (café)
    are words, not CJK runs."""
    return "".join(_base_letter(ch) for ch in text)


def pieces(text: str) -> list[tuple[str, str]]:
    """(kind, string) pieces of normalize(text): "cjk" runs and English "word"s, in order.

    A CJK run ends where the original had punctuation or a dropped glyph, so no bigram spans them.
    An accented Latin letter reads as its base letter (:func:`fold_latin`).
    """
    norm, pos = normalize_with_map(fold_latin(text))
    out: list[tuple[str, str]] = []
    run: list[str] = []
    prev = -2
    i = 0
    while i < len(norm):
        ch = norm[i]
        if ch == " ":
            i += 1
            continue
        if ch.isascii():
            if run:
                out.append(("cjk", "".join(run)))
                run = []
            j = i
            while j < len(norm) and norm[j].isascii() and norm[j] != " ":
                j += 1
            out.extend(("word", w) for w in WORD.findall(norm[i:j]))
            prev = -2
            i = j
            continue
        if run and pos[i] - prev > 1:  # punctuation or a dropped glyph lay between: a new run
            out.append(("cjk", "".join(run)))
            run = []
        run.append(ch)
        prev = pos[i]
        i += 1
    if run:
        out.append(("cjk", "".join(run)))
    return out


def split_segments(text: str) -> list[str]:
    """normalize(text) as segments: CJK runs (split where the original had punctuation) and English words."""
    return [s for _, s in pieces(text)]


def segment_tokens(segment: str) -> list[str]:
    """Tokens of one segment: an English word as itself; a CJK run's characters and bigrams."""
    if segment.isascii():
        return [segment]
    return char_ngrams(segment)


def longest_common_run(a: str, b: str) -> int:
    """Length of the longest contiguous run of ``a`` that occurs in ``b`` (longest common substring)."""
    best = 0
    start = 0
    # Grow a window over a: each extension is one substring test, so this is near-linear in len(a).
    for end in range(1, len(a) + 1):
        while start < end and a[start:end] not in b:
            start += 1
        best = max(best, end - start)
    return best


def ngram_set(text: str) -> set[str]:
    """The set of a text's bigrams, or the text itself when it has one character (for coverage)."""
    return set(bigrams(text)) or ({text} if text else set())


__all__ = [
    "CJK_CLASS",
    "fold_latin",
    "WORD",
    "bigrams",
    "char_ngrams",
    "cjk_runs",
    "is_cjk",
    "longest_common_run",
    "ngram_set",
    "pieces",
    "segment_tokens",
    "split_segments",
    "word_terms",
]

