"""The lexical index: field-aware BM25 over character unigrams and bigrams of normalized passages.

Tokens are the characters of each CJK segment and the bigrams inside it (a segment never
spans punctuation, see :func:`qa.retrieval.query.split_segments`), plus English words as whole
tokens. Scoring is BM25 with length normalization against the average length *of the
passage's layer* and a per-layer weight, so a short 注 gloss of the asked term outranks a
long 疏 piece that only quotes it. The per-passage term weights are computed once at build
time (as bm25s does) and kept as a term-major (CSC) sparse matrix, so a query touches only
the postings of its own terms; the per-layer weights, hints and unit context are then applied
only to units whose upper bound can reach the top k (exact: same results as scoring every
passage), and the top k is a partition, never a sort of the corpus.
Building tokenizes with ``str.translate`` and numpy over chunks of passages (no per-token
Python objects), which is what makes a million-unit corpus buildable in minutes and a few GiB.

Saved as named files in a directory: ``meta.json``, ``vocab.json`` and the CSC matrix as
``weights.data.npy`` / ``weights.indices.npy`` / ``weights.indptr.npy``. No pickle.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence

import numpy as np

from ..corpus.units import rite_id
from ..errors import IndexStoreError
from .lexical_build import BUILD_CHUNK, K1, B, bm25_weights, codes, passage_tokens, segment_tokens

if TYPE_CHECKING:  # pragma: no cover
    from .passages import Passage

log = logging.getLogger(__name__)


class Query(Protocol):
    """What the lexical index reads of an analysed question (:class:`qa.retrieval.query.Query` has it).

    A protocol, so the index (a lower layer) does not import query analysis (a higher one).
    """

    @property
    def segments(self) -> tuple[str, ...]: ...
    @property
    def expansions(self) -> tuple[str, ...]: ...
    @property
    def context(self) -> tuple[str, ...]: ...
    @property
    def rites(self) -> tuple[str, ...]: ...
    @property
    def layers(self) -> tuple[str, ...]: ...
    @property
    def lang(self) -> str: ...

#: Bump when tokens or weights change: a saved index of another version is refused.
FORMAT_VERSION = 2
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
    add(query.context, CONTEXT_WEIGHT)
    return weights


def passages_digest(passages: Sequence["Passage"]) -> str:
    """A hash of what the index was built from, checked on load."""
    h = hashlib.sha256()
    for p in passages:
        h.update(f"{p.unit_id}\t{p.layer}\t{p.part}\t{p.norm}\n".encode())
    return h.hexdigest()


#: Search first scores the units of the PRUNE_FIRST × k passages with the best raw BM25, for the threshold that skips the rest.
PRUNE_FIRST = 20


def _run_starts(a: np.ndarray) -> np.ndarray:
    """Boolean mask of where a new run of equal values begins in ``a``."""
    mask = np.empty(a.size, dtype=bool)
    if a.size:
        mask[0] = True
        np.not_equal(a[1:], a[:-1], out=mask[1:])
    return mask


def top_k(ids: np.ndarray | None, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best (id, score), best first, ties by id (``ids`` None: positions); never a sort of all of ``scores``.

    A threshold from a strided sample first: the k-th best of a subset is at most the k-th best
    of the whole, so everything at or above it is kept and the result is exact.
    """
    if scores.size > 64 * k:
        sample = scores[:: max(1, int(math.sqrt(scores.size / k)))]
        if sample.size > k:
            keep = np.flatnonzero(scores >= np.partition(sample, sample.size - k)[sample.size - k])
            ids, scores = (keep if ids is None else ids[keep]), scores[keep]
    if ids is None:
        ids = np.arange(scores.size)
    if scores.size > k:
        keep = np.flatnonzero(scores >= -np.partition(-scores, k - 1)[k - 1])
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:k]
    return ids[order], scores[order]


class LexicalIndex:
    """BM25 over passages; ``search`` returns (passage index, score) pairs, best first."""

    def __init__(self, vocab: Sequence[str], weights, idf: np.ndarray, meta: dict, passages: Sequence["Passage"]) -> None:
        from scipy import sparse

        self.vocab: dict[str, int] = {t: i for i, t in enumerate(vocab)}
        self.weights = sparse.csc_matrix(weights)  # passages × terms, BM25 weight of each term in each passage
        self.idf = np.asarray(idf, dtype=np.float32)
        self.meta = meta
        self._term_idf: dict[str, float] | None = None
        n = len(passages)
        self.layer_names, self.layer_index = codes((p.layer for p in passages), n)
        self.layer_index = self.layer_index.astype(np.int8)
        unit_ids, unit = codes((p.unit_id for p in passages), n)
        self.rite_names, rite_of_unit = codes((rite_id(u) for u in unit_ids), len(unit_ids))
        self.rite_code = rite_of_unit[unit].astype(np.int32) if n else np.zeros(0, dtype=np.int32)
        self.n_units = len(unit_ids)
        # (unit, layer) group of each passage, numbered in order of first appearance, for the unit context.
        # make_passages keeps each unit's layers together: then groups and units are runs, and a query
        # works on its matching passages alone (see _with_unit_context); otherwise on the whole corpus.
        pair = unit * len(self.layer_names) + self.layer_index
        new_group = _run_starts(pair)
        self.contiguous = int(new_group.sum()) == np.unique(pair).size and int(_run_starts(unit).sum()) == self.n_units
        if self.contiguous:
            self.group = np.cumsum(new_group) - 1
            self.unit_of_group = unit[new_group]
            self.unit_run = np.cumsum(_run_starts(unit)) - 1  # intp: what bincount reads without a copy
            self.unit_starts = np.append(np.flatnonzero(_run_starts(unit)), n)  # passages of unit run u: [u], [u + 1]
        else:
            groups: dict[tuple[str, str], int] = {}
            self.group = np.array([groups.setdefault((p.unit_id, p.layer), len(groups)) for p in passages], dtype=np.int64)
            self.unit_of_group = np.zeros(len(groups), dtype=np.int64)
            code = {u: i for i, u in enumerate(unit_ids)}
            for (unit_id, _), g in groups.items():
                self.unit_of_group[g] = code[unit_id]

    def term_idf(self) -> dict[str, float]:
        """Token → its BM25 idf over passages (for weighing terms elsewhere, e.g. qa.retrieval.rerank)."""
        if self._term_idf is None:
            self._term_idf = {t: float(self.idf[i]) for t, i in self.vocab.items()}
        return self._term_idf

    @property
    def n_passages(self) -> int:
        return int(self.weights.shape[0])

    @classmethod
    def build(cls, passages: Sequence["Passage"], chunk: int = BUILD_CHUNK) -> "LexicalIndex":
        """Index ``passages`` (positions in the sequence are the ids ``search`` returns)."""
        vocab, weights, idf, avgdl = bm25_weights(passages, chunk)
        meta = {
            "format_version": FORMAT_VERSION,
            "n_passages": len(passages),
            "n_terms": len(vocab),
            "k1": K1,
            "b": B,
            "avgdl": avgdl,
            "passages_digest": passages_digest(passages),
        }
        return cls(vocab, weights, idf, meta, passages)

    def _raw_bm25(self, query: Query) -> np.ndarray | None:
        """Σ query weight × BM25 weight of every passage (None when no query term is indexed)."""
        qw = query_weights(query)
        ids = [self.vocab[t] for t in qw if t in self.vocab]
        if not ids:
            return None
        vec = np.array([qw[t] for t in qw if t in self.vocab], dtype=np.float32)
        try:
            from scipy.sparse._sparsetools import csc_matvec
        except ImportError:  # pragma: no cover - a scipy without it: slicing copies the columns, same sums
            return np.asarray(self.weights[:, ids] @ vec).ravel()
        # Column by column over views of the postings (no copy), in the order a sliced matrix's
        # product would add them, so the float32 sums are the same to the last bit.
        w, n = self.weights, self.n_passages
        out = np.zeros(n, dtype=np.float32)
        for j, x in zip(ids, vec):
            a, b = int(w.indptr[j]), int(w.indptr[j + 1])
            csc_matvec(n, 1, np.array([0, b - a], dtype=w.indptr.dtype), w.indices[a:b], w.data[a:b], np.array([x], dtype=np.float32), out)
        return out

    def _multipliers(self, query: Query) -> tuple[np.ndarray, list[int], list[int]]:
        """Per-layer weights (applied at query time, so tuning them needs no rebuild), rite and layer-hint codes."""
        layer_weights = np.array([LAYER_WEIGHTS.get(str(n), 1.0) for n in self.layer_names], dtype=np.float32)
        rites = [self.rite_names.index(r) if r in self.rite_names else -1 for r in getattr(query, "rites", ())]
        layers = [self.layer_names.index(x) for x in getattr(query, "layers", ()) if x in self.layer_names]
        return layer_weights, rites, layers

    def _weigh(self, query: Query, raw: np.ndarray, hit: np.ndarray) -> np.ndarray:
        """Scores of the passages ``hit`` (raw > 0): BM25 × layer weight × rite and commentator hints."""
        layer_weights, rites, layers = self._multipliers(query)
        scores = raw[hit] * layer_weights[self.layer_index[hit]]
        if rites and hit.size:
            code = self.rite_code[hit]
            boost = np.ones_like(scores)
            for rite in rites[1:]:
                boost[code == rite] = RITE_BOOST_OTHER
            boost[code == rites[0]] = RITE_BOOST
            scores = scores * boost
        if getattr(query, "layers", ()) and hit.size:
            scores = scores * np.where(np.isin(self.layer_index[hit], layers), LAYER_HINT_BOOST, 1.0)
        return scores

    def _matching(self, query: Query) -> tuple[np.ndarray, np.ndarray]:
        """(ids, scores) of all passages that match ``query``, ids ascending (before the unit context)."""
        raw = self._raw_bm25(query)
        if raw is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        hit = np.flatnonzero(raw)  # BM25 weights and query weights are positive: nonzero is a match
        return hit, self._weigh(query, raw, hit)

    def _unit_bounds(self, query: Query, raw: np.ndarray) -> np.ndarray:
        """An upper bound of the final score of any passage of each unit (units as runs of passages).

        A passage scores s_p + c·Σ best of the other layers ≤ (1 − c)·best + c·U (U: Σ best of each
        layer) ≤ (max(1 − c, 0) + c)·Σ s over its unit (c = UNIT_CONTEXT_WEIGHT), and s ≤ raw × the
        largest multiplier the query can give; the slack covers float32 rounding.
        """
        layer_weights, rites, layers = self._multipliers(query)
        weights = raw
        if layers:  # a hinted layer's passages weigh LAYER_HINT_BOOST× the others: bound per passage
            hint = layer_weights * np.where(np.isin(np.arange(layer_weights.size), layers), LAYER_HINT_BOOST, 1.0)
            weights = raw * hint.astype(np.float32)[self.layer_index]
            top = 1.0
        else:
            top = float(layer_weights.max())
        total: np.ndarray = np.bincount(self.unit_run, weights=weights, minlength=self.unit_starts.size - 1)  # sequential float64
        if rites:
            unit_rite = self.rite_code[self.unit_starts[:-1]]
            boost = np.ones(total.size, dtype=np.float64)
            boost[np.isin(unit_rite, rites[1:])] = RITE_BOOST_OTHER
            boost[unit_rite == rites[0]] = RITE_BOOST
            total = total * boost
        c = UNIT_CONTEXT_WEIGHT
        return total * ((max(1.0 - c, 0.0) + c) * top * (1.0 + 1e-4))

    def _score_units(self, query: Query, raw: np.ndarray, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ids, final scores) of the matching passages of ``units`` (unit run numbers, ascending)."""
        starts, ends = self.unit_starts[units], self.unit_starts[units + 1]
        sizes = ends - starts
        ids = np.repeat(starts - np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes) + np.arange(int(sizes.sum()))
        hit = ids[raw[ids] > 0]
        return hit, self._with_unit_context(hit, self._weigh(query, raw, hit))

    def _with_unit_context(self, hit: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """Add UNIT_CONTEXT_WEIGHT × the best score of each other layer of the passage's unit.

        Only matching passages have a context (others score 0); groups and units are runs of
        ``hit``, so maxima and sums are per-run reductions over the matches alone. The sums add
        in group order, as a bincount over all groups would, so the scores are the same floats.
        """
        if not UNIT_CONTEXT_WEIGHT or not scores.size:
            return scores
        if not self.contiguous:
            full = np.zeros(self.n_passages, dtype=scores.dtype)
            full[hit] = scores
            return self._in_unit_context(full)[hit]
        group = self.group[hit]
        new_group = _run_starts(group)
        best = np.maximum.reduceat(scores, np.flatnonzero(new_group)).astype(np.float64)  # best of each (unit, layer)
        new_unit = _run_starts(self.unit_of_group[group[new_group]])
        unit_of_run = np.cumsum(new_unit) - 1
        others = np.bincount(unit_of_run, weights=best)[unit_of_run] - best
        return (scores + UNIT_CONTEXT_WEIGHT * others[np.cumsum(new_group) - 1]).astype(np.float32)

    def scores(self, query: Query) -> np.ndarray:
        """The score of every passage for ``query`` (zeros where nothing matches)."""
        hit, scores = self._matching(query)
        out = np.zeros(self.n_passages, dtype=np.float32)
        out[hit] = self._with_unit_context(hit, scores)
        return out

    def _in_unit_context(self, scores: np.ndarray) -> np.ndarray:
        """_with_unit_context over the whole corpus, for passages whose units are not runs."""
        best = np.zeros(self.unit_of_group.size, dtype=np.float64)
        np.maximum.at(best, self.group, scores)  # best passage of each (unit, layer)
        unit_sum = np.bincount(self.unit_of_group, weights=best, minlength=self.n_units)
        others = unit_sum[self.unit_of_group[self.group]] - best[self.group]
        return (scores + UNIT_CONTEXT_WEIGHT * others * (scores > 0)).astype(np.float32)

    def search(self, query: Query, k: int) -> list[tuple[int, float]]:
        """The ``k`` best passages as (passage index, score), best first (ties: lower index); only passages that match.

        Exact, but only units that can reach the top k are scored in full: the units of the passages
        with the best raw BM25 are scored first, and their k-th score θ (a real score, so at most the
        true k-th) skips every unit whose bound (see _unit_bounds) is below it.
        """
        raw = self._raw_bm25(query) if k > 0 else None
        if raw is None:
            return []
        if not self.contiguous or not UNIT_CONTEXT_WEIGHT:
            hit = np.flatnonzero(raw)
            ids, best = top_k(hit, self._with_unit_context(hit, self._weigh(query, raw, hit)), k)
        else:
            bound = self._unit_bounds(query, raw)
            units = np.flatnonzero(bound)
            if units.size > PRUNE_FIRST * k:
                # the units of the passages with the best raw BM25 hold (nearly) the top k, so θ is tight
                first = np.unique(self.unit_run[top_k(None, raw, PRUNE_FIRST * k)[0]])
                _, scores = self._score_units(query, raw, first)
                if scores.size >= k:
                    theta = -np.partition(-scores, k - 1)[k - 1]
                    units = units[bound[units] >= theta]
            ids, best = top_k(*self._score_units(query, raw, units), k)
        return [(int(i), float(s)) for i, s in zip(ids, best)]

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
