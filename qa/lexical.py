"""The lexical index: field-aware BM25 over character unigrams and bigrams of normalized passages.

Tokens are the characters of each CJK segment and the bigrams inside it (a segment never
spans punctuation, see :func:`qa.query.split_segments`), plus English words as whole
tokens. Scoring is BM25 with length normalization against the average length *of the
passage's layer* and a per-layer weight, so a short 注 gloss of the asked term outranks a
long 疏 piece that only quotes it. The per-passage term weights are computed once at build
time (as bm25s does) and kept as a sparse matrix; a query is one sparse dot product.

Saved as named files in a directory: ``meta.json``, ``vocab.json`` and the CSC matrix as
``weights.data.npy`` / ``weights.indices.npy`` / ``weights.indptr.npy``. No pickle.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np

from .errors import IndexStoreError
from .query import Query, split_segments

if TYPE_CHECKING:  # pragma: no cover
    from .passages import Passage

log = logging.getLogger(__name__)

#: Bump when tokens or weights change: a saved index of another version is refused.
FORMAT_VERSION = 2
#: BM25 term-frequency saturation and length normalization.
K1 = 1.2
B = 0.75
#: Per-layer weights: the 經 and 注 are what a question is about; a 疏 piece often only quotes them.
LAYER_WEIGHTS: Mapping[str, float] = {"jing": 1.0, "zhu": 1.0, "shu": 0.8, "xiyi": 0.6, "notes": 0.6}
#: Query-side token weights: a bigram is a word-sized match; a lone character of a longer word is weak.
BIGRAM_WEIGHT = 1.0
UNIGRAM_WEIGHT = 0.35
#: A one-character segment or term (賓, 介) is a whole word: it weighs as much as a bigram.
WORD_CHAR_WEIGHT = 1.0
#: Glossary expansions and follow-up context count less than the question's own words.
EXPANSION_WEIGHT = 0.6
#: In an English question the glossary terms are its content words in the corpus's script (guest → 賓):
#: they weigh almost as its own words (corpus words it types itself weigh more). Measured: dev English
#: MRR 0.693 → 0.705, held-out English evidence-in-answer 0.714 → 0.857, nothing lost elsewhere.
ENGLISH_EXPANSION_WEIGHT = 0.8
CONTEXT_WEIGHT = 0.35
#: A passage is scored in the context of its lemma unit: its own BM25 plus this share of the best
#: match in each *other* layer of the same unit (a 注 that glosses the asked term counts for more
#: when the 經 it comments on also matches). The unit's best passage stays its best.
UNIT_CONTEXT_WEIGHT = 0.5
#: A question that names a rite (鄉飲酒禮, 燕禮) prefers that rite's units; the first named most.
RITE_BOOST = 1.5
RITE_BOOST_OTHER = 1.15
#: A question that names a commentator (方苞, 鄭玄) prefers passages of that layer.
LAYER_HINT_BOOST = 1.7
#: One token's query weight never exceeds this (repeated words add up, but not without bound).
MAX_QUERY_TOKEN_WEIGHT = 2.0

_FILES = ("meta.json", "vocab.json", "idf.npy", "weights.data.npy", "weights.indices.npy", "weights.indptr.npy")


def segment_tokens(segment: str) -> list[str]:
    """Tokens of one segment: an English word as itself; a CJK run's characters and bigrams."""
    if segment.isascii():
        return [segment]
    return list(segment) + [segment[i : i + 2] for i in range(len(segment) - 1)]


def passage_tokens(text: str) -> list[str]:
    """All tokens of a passage's original text (normalized, split at punctuation)."""
    return [t for seg in split_segments(text) for t in segment_tokens(seg)]


def query_weights(query: Query) -> dict[str, float]:
    """Token → weight for a query: its core, then glossary expansions and follow-up context, weighed lower."""
    weights: dict[str, float] = {}

    def add(segments: Iterable[str], scale: float) -> None:
        for seg in segments:
            if not seg:
                continue
            if seg.isascii():
                toks = [(seg, BIGRAM_WEIGHT)]
            elif len(seg) == 1:
                toks = [(seg, WORD_CHAR_WEIGHT)]
            else:
                toks = [(c, UNIGRAM_WEIGHT) for c in seg] + [(seg[i : i + 2], BIGRAM_WEIGHT) for i in range(len(seg) - 1)]
            for tok, w in toks:
                weights[tok] = min(MAX_QUERY_TOKEN_WEIGHT, weights.get(tok, 0.0) + w * scale)

    add(query.segments, 1.0)
    add(query.expansions, ENGLISH_EXPANSION_WEIGHT if query.lang == "en" else EXPANSION_WEIGHT)
    add(getattr(query, "context", ()), CONTEXT_WEIGHT)
    return weights


def rite_of(unit_id: str) -> str:
    """The rite id of a unit id (work.rite.sequence), "" when the id has no rite part."""
    parts = unit_id.split(".")
    return parts[1] if len(parts) >= 3 else ""


def passages_digest(passages: Sequence["Passage"]) -> str:
    """A hash of what the index was built from, checked on load."""
    h = hashlib.sha256()
    for p in passages:
        h.update(f"{p.unit_id}\t{p.layer}\t{p.part}\t{p.norm}\n".encode())
    return h.hexdigest()


class LexicalIndex:
    """BM25 over passages; ``search`` returns (passage index, score) pairs, best first."""

    def __init__(self, vocab: Sequence[str], weights, idf: np.ndarray, meta: dict, passages: Sequence["Passage"]) -> None:
        from scipy import sparse

        self.vocab: dict[str, int] = {t: i for i, t in enumerate(vocab)}
        self.weights = sparse.csc_matrix(weights)  # passages × terms, BM25 weight of each term in each passage
        self.idf = np.asarray(idf, dtype=np.float32)
        self.meta = meta
        self._term_idf: dict[str, float] | None = None
        self.rites = np.array([rite_of(p.unit_id) for p in passages])
        self.layers = np.array([p.layer for p in passages])
        self.layer_names, self.layer_index = np.unique(self.layers, return_inverse=True)
        # (unit, layer) group of each passage, for the unit-context term
        groups: dict[tuple[str, str], int] = {}
        self.group = np.array([groups.setdefault((p.unit_id, p.layer), len(groups)) for p in passages], dtype=np.int64)
        units: dict[str, int] = {}
        unit_of_group = np.zeros(len(groups), dtype=np.int64)
        for (unit_id, _), g in groups.items():
            unit_of_group[g] = units.setdefault(unit_id, len(units))
        self.unit_of_group = unit_of_group
        self.n_units = len(units)

    def term_idf(self) -> dict[str, float]:
        """Token → its BM25 idf over passages (for weighing terms elsewhere, e.g. qa.rerank)."""
        if self._term_idf is None:
            self._term_idf = {t: float(self.idf[i]) for t, i in self.vocab.items()}
        return self._term_idf

    @property
    def n_passages(self) -> int:
        return int(self.weights.shape[0])

    @classmethod
    def build(cls, passages: Sequence["Passage"]) -> "LexicalIndex":
        """Index ``passages`` (positions in the sequence are the ids ``search`` returns)."""
        from scipy import sparse

        vocab: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        tfs: list[float] = []
        lengths = np.zeros(len(passages), dtype=np.float64)
        for d, p in enumerate(passages):
            tokens = passage_tokens(p.text)
            lengths[d] = sum(1 for t in tokens if len(t) == 1 or t.isascii())
            for tok, tf in Counter(tokens).items():
                rows.append(d)
                cols.append(vocab.setdefault(tok, len(vocab)))
                tfs.append(tf)
        n = len(passages)
        counts = sparse.csr_matrix((np.asarray(tfs, dtype=np.float64), (rows, cols)), shape=(n, max(len(vocab), 1)))
        df = np.bincount(np.asarray(cols, dtype=np.int64), minlength=counts.shape[1]).astype(np.float64)
        idf = np.log1p((n - df + 0.5) / (df + 0.5))
        layers = [p.layer for p in passages]
        avgdl: dict[str, float] = {}
        for layer in set(layers):
            mask = np.array([lay == layer for lay in layers])
            avgdl[layer] = float(lengths[mask].mean()) or 1.0
        norm_len = np.array([lengths[d] / avgdl[layers[d]] for d in range(n)])
        coo = counts.tocoo()
        tf = coo.data
        denom = tf + K1 * (1.0 - B + B * norm_len[coo.row])
        data = idf[coo.col] * tf * (K1 + 1.0) / denom
        weights = sparse.csc_matrix((data.astype(np.float32), (coo.row, coo.col)), shape=counts.shape)
        meta = {
            "format_version": FORMAT_VERSION,
            "n_passages": n,
            "n_terms": len(vocab),
            "k1": K1,
            "b": B,
            "avgdl": avgdl,
            "passages_digest": passages_digest(passages),
        }
        log.info("lexical index: %d passages, %d terms", n, len(vocab))
        return cls(sorted(vocab, key=vocab.__getitem__), weights, idf, meta, passages)

    def scores(self, query: Query) -> np.ndarray:
        """The BM25 score of every passage for ``query`` (zeros when nothing matches)."""
        qw = query_weights(query)
        ids = [self.vocab[t] for t in qw if t in self.vocab]
        if not ids:
            return np.zeros(self.n_passages, dtype=np.float32)
        vec = np.array([qw[t] for t in qw if t in self.vocab], dtype=np.float32)
        # Layer weights apply at query time, so tuning them needs no rebuild.
        layer_weights = np.array([LAYER_WEIGHTS.get(str(n), 1.0) for n in self.layer_names], dtype=np.float32)
        scores = np.asarray(self.weights[:, ids] @ vec).ravel() * layer_weights[self.layer_index]
        rites = getattr(query, "rites", ())
        if rites and self.rites.size:
            boost = np.ones_like(scores)
            for rite in rites[1:]:
                boost[self.rites == rite] = RITE_BOOST_OTHER
            boost[self.rites == rites[0]] = RITE_BOOST
            scores = scores * boost
        layers = getattr(query, "layers", ())
        if layers and self.layers.size:
            scores = scores * np.where(np.isin(self.layers, layers), LAYER_HINT_BOOST, 1.0)
        return self._in_unit_context(scores)

    def _in_unit_context(self, scores: np.ndarray) -> np.ndarray:
        """Add UNIT_CONTEXT_WEIGHT × the best score of each other layer of the passage's unit."""
        if not UNIT_CONTEXT_WEIGHT or not scores.size:
            return scores
        best = np.zeros(self.unit_of_group.size, dtype=np.float64)
        np.maximum.at(best, self.group, scores)  # best passage of each (unit, layer)
        unit_sum = np.bincount(self.unit_of_group, weights=best, minlength=self.n_units)
        others = unit_sum[self.unit_of_group[self.group]] - best[self.group]
        return (scores + UNIT_CONTEXT_WEIGHT * others * (scores > 0)).astype(np.float32)

    def search(self, query: Query, k: int) -> list[tuple[int, float]]:
        """The ``k`` best passages as (passage index, score), best first; only passages that match."""
        scores = self.scores(query)
        if k <= 0 or not scores.size:
            return []
        k = min(k, scores.size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(i), float(scores[i])) for i in top if scores[i] > 0]

    def save(self, directory: Path) -> None:
        """Write the index as named files into ``directory`` (created if needed)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        w = self.weights
        np.save(directory / "weights.data.npy", w.data.astype(np.float32), allow_pickle=False)
        np.save(directory / "weights.indices.npy", w.indices.astype(np.int32), allow_pickle=False)
        np.save(directory / "weights.indptr.npy", w.indptr.astype(np.int64), allow_pickle=False)
        np.save(directory / "idf.npy", self.idf.astype(np.float32), allow_pickle=False)
        vocab = sorted(self.vocab, key=self.vocab.__getitem__)
        (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
        meta = dict(self.meta, shape=list(w.shape))
        (directory / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, directory: Path, passages: Sequence["Passage"]) -> "LexicalIndex":
        """Read an index written by :meth:`save`; IndexStoreError if it is missing, corrupt or stale."""
        from scipy import sparse

        directory = Path(directory)
        missing = [f for f in _FILES if not (directory / f).is_file()]
        if missing:
            raise IndexStoreError(f"{directory}: lexical index incomplete (missing {', '.join(missing)})")
        try:
            meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
            vocab = json.loads((directory / "vocab.json").read_text(encoding="utf-8"))
            data = np.load(directory / "weights.data.npy", allow_pickle=False)
            indices = np.load(directory / "weights.indices.npy", allow_pickle=False)
            indptr = np.load(directory / "weights.indptr.npy", allow_pickle=False)
            idf = np.load(directory / "idf.npy", allow_pickle=False)
            shape = tuple(int(x) for x in meta["shape"])
            weights = sparse.csc_matrix((data, indices, indptr), shape=shape)
            weights.check_format(full_check=True)
        except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as exc:
            raise IndexStoreError(f"{directory}: lexical index unreadable ({exc})") from None
        if meta.get("format_version") != FORMAT_VERSION or (meta.get("k1"), meta.get("b")) != (K1, B):
            raise IndexStoreError(
                f"{directory}: lexical index format {meta.get('format_version')}, k1={meta.get('k1')}, b={meta.get('b')} (expected {FORMAT_VERSION}, {K1}, {B}); rebuild with `qa build --force`"
            )
        if shape != (len(passages), len(vocab)) or idf.shape != (len(vocab),) or meta.get("passages_digest") != passages_digest(passages):
            raise IndexStoreError(f"{directory}: lexical index does not match the passages; rebuild with `qa build --force`")
        return cls(vocab, weights, idf, meta, passages)


__all__ = [
    "LexicalIndex",
    "passage_tokens",
    "query_weights",
    "segment_tokens",
    "LAYER_WEIGHTS",
    "K1",
    "B",
]
