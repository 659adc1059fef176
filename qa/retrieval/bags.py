"""BM25 over weighted bags of words, one bag per unit: the scoring both document-translation
channels share (the English shadow of :mod:`qa.retrieval.shadow` and the plain renderings of
:mod:`qa.retrieval.renderings`).

A bag maps a word to a weighted term frequency (a word of the 經 may weigh more than one of the
疏); lengths are the bags' weighted lengths. Postings hold each word's BM25 contribution per unit,
so a question costs one array addition per word it shares with the corpus.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# BM25 saturation and length normalization: the lexical index's (lengths here are weighted lengths)
from ..indexing.lexical_build import K1, B


@dataclass(frozen=True, slots=True)
class Postings:
    units: np.ndarray  # unit indices holding the word
    scores: np.ndarray  # the word's BM25 contribution (idf × saturated tf) in each of them


@dataclass(frozen=True)
class BagIndex:
    """BM25 over one weighted bag of words per unit. Build with :meth:`build`."""

    n_units: int
    postings: Mapping[str, Postings]

    @classmethod
    def build(cls, bags: Sequence[Mapping[str, float]], *, skip_empty: bool = False) -> "BagIndex":
        """``skip_empty``: an empty bag is no document (the collection size and the mean length that BM25 reads
        count only the others), as when one list of documents holds two languages, each bag empty in the other's
        index: the English questions are then scored among the English ones alone, whatever the Chinese ones number."""
        lengths = np.array([sum(b.values()) for b in bags], dtype=np.float64)
        present = lengths[lengths > 0] if skip_empty else lengths
        n = len(present)
        avg = float(present.mean()) if n and present.mean() > 0 else 1.0
        by_word: dict[str, list[tuple[int, float]]] = {}
        for i, bag in enumerate(bags):
            for w, tf in bag.items():
                by_word.setdefault(w, []).append((i, tf))
        postings: dict[str, Postings] = {}
        for w, rows in by_word.items():
            df = len(rows)
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            idx = np.array([i for i, _ in rows], dtype=np.int64)
            tfs = np.array([t for _, t in rows], dtype=np.float64)
            norm = K1 * (1.0 - B + B * lengths[idx] / avg)
            postings[w] = Postings(idx, idf * tfs * (K1 + 1.0) / (tfs + norm))
        return cls(len(bags), postings)

    def scores(self, words: Mapping[str, float]) -> np.ndarray:
        """Each unit's BM25 score for the weighted ``words``."""
        total = np.zeros(self.n_units, dtype=np.float64)
        for w, qw in words.items():
            p = self.postings.get(w)
            if p is not None:
                total[p.units] += qw * p.scores
        return total

    def rank(self, words: Mapping[str, float], depth: int) -> list[tuple[int, float]]:
        """The ``depth`` best units (index, score) with a positive score, best first."""
        return self.top(self.scores(words), depth) if words else []

    @staticmethod
    def top(scores: np.ndarray, depth: int) -> list[tuple[int, float]]:
        """The ``depth`` best (index, score) of ``scores`` with a positive score, best first (ties by index)."""
        hit = np.flatnonzero(scores > 0)
        if not len(hit):
            return []
        best = hit[np.argsort(-scores[hit], kind="stable")[:depth]]
        return [(int(i), float(scores[i])) for i in best]

    def words_of(self, unit_index: int) -> dict[str, float]:
        """One unit's bag as its BM25 contributions (for tests and inspection)."""
        out = {}
        for w, p in self.postings.items():
            hit = np.flatnonzero(p.units == unit_index)
            if len(hit):
                out[w] = float(p.scores[hit[0]])
        return out


__all__ = ["BagIndex", "Postings"]
