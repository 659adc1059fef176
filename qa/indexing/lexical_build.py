"""Building the lexical index: its tokens (character unigrams and bigrams of normalized CJK
segments, English words whole) and their per-passage BM25 weights.

:func:`passage_tokens` is the reference definition; :func:`chunk_postings` computes the same
tokens for many passages at once with ``str.translate`` and numpy (no per-token Python
objects), which is what makes a million-unit lexical index buildable in minutes.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from ..text.normalize import fold_char
from ..text.tokens import segment_tokens, split_segments

if TYPE_CHECKING:  # pragma: no cover
    from .passages import Passage

log = logging.getLogger(__name__)

#: BM25 term-frequency saturation and length normalization.
K1 = 1.2
B = 0.75
#: Passages tokenized per numpy pass: bounds the build's working memory (≈ 200 MB a chunk).
BUILD_CHUNK = 1 << 16


def passage_tokens(text: str) -> list[str]:
    """All tokens of a passage's original text (normalized, split at punctuation)."""
    return [t for seg in split_segments(text) for t in segment_tokens(seg)]


#: Token keys for the numpy build: a character is its code point, a bigram packs two code points,
#: an English word is numbered above both (code points need 21 bits).
_CP_BITS = 21
_WORD_BASE = 1 << (2 * _CP_BITS)
_DOC_SHIFT = 2 * _CP_BITS + 1
_SEP = "\x00"  # never survives normalization (a control character), so it can mark dropped characters
_ASCII = re.compile(r"[\x01-\x7f]")


class FoldTable(dict):
    """``str.translate`` table: each character's matching fold; a dropped one (punctuation) becomes _SEP."""

    def __missing__(self, code: int) -> str:
        folded = fold_char(chr(code)) or _SEP
        self[code] = folded
        return folded


def fast_segments(text: str, table: FoldTable) -> tuple[str, list[str]]:
    """CJK segments of ``text`` joined by _SEP, and its English words: what split_segments gives, faster.

    A text whose fold has no ASCII is its translation split at dropped characters (exactly the
    runs split_segments makes); one with ASCII (English words, digits) goes through split_segments.
    """
    folded = text.translate(table)
    if not _ASCII.search(folded):
        return folded, []
    segments = split_segments(text)
    return _SEP.join(s for s in segments if not s.isascii()), [s for s in segments if s.isascii()]


def chunk_postings(texts: Sequence[str], words: dict[str, int], table: FoldTable):
    """(local passage of each posting, token key, tf) sorted by passage then key, and each passage's length."""
    runs, word_docs, word_keys = [], [], []
    for d, text in enumerate(texts):
        run, english = fast_segments(text, table)
        runs.append(run)
        for w in english:
            word_docs.append(d)
            word_keys.append(_WORD_BASE + words.setdefault(w, len(words)))
    n = len(texts)
    cp = np.frombuffer((_SEP.join(runs) + _SEP).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    doc = np.repeat(np.arange(n, dtype=np.int64), [len(r) + 1 for r in runs])
    live = cp != 0
    uni = np.flatnonzero(live)
    bi = np.flatnonzero(live[:-1] & live[1:])  # _SEP ends every passage: a bigram never spans two
    word_docs_a = np.asarray(word_docs, dtype=np.int64)
    keys = np.concatenate([cp[uni], (cp[bi] << _CP_BITS) | cp[bi + 1], np.asarray(word_keys, dtype=np.int64)])
    docs = np.concatenate([doc[uni], doc[bi], word_docs_a])
    lengths = np.bincount(doc[uni], minlength=n) + np.bincount(word_docs_a, minlength=n)  # characters + words
    pairs, tf = np.unique((docs << _DOC_SHIFT) | keys, return_counts=True)
    return pairs >> _DOC_SHIFT, pairs & ((1 << _DOC_SHIFT) - 1), tf.astype(np.int32), lengths


def key_token(key: int, word_of: Sequence[str]) -> str:
    """The token a numpy build key stands for."""
    if key >= _WORD_BASE:
        return word_of[key - _WORD_BASE]
    if key >> _CP_BITS:
        return chr(key >> _CP_BITS) + chr(key & ((1 << _CP_BITS) - 1))
    return chr(key)


def codes(values: Iterable[str], n: int) -> tuple[list[str], np.ndarray]:
    """(sorted distinct values, code of each value): a string column as small integers."""
    first: dict[str, int] = {}
    ids = np.fromiter((first.setdefault(v, len(first)) for v in values), dtype=np.int64, count=n)
    names = sorted(first)
    rank = {v: i for i, v in enumerate(names)}
    remap = np.array([rank[v] for v in first] or [0], dtype=np.int64)
    return names, remap[ids] if n else ids


def bm25_weights(passages: Sequence["Passage"], chunk: int = BUILD_CHUNK) -> tuple[list[str], Any, np.ndarray, dict[str, float]]:
    """(vocabulary, term-major CSC matrix of per-passage BM25 term weights, idf, average length per layer).

    Lengths are normalized against the average length of the passage's own layer.
    """
    from scipy import sparse

    n = len(passages)
    table = FoldTable()
    words: dict[str, int] = {}
    keys: list[np.ndarray] = []
    tfs: list[np.ndarray] = []
    count_chunks: list[np.ndarray] = []
    length_chunks: list[np.ndarray] = []
    for start in range(0, n, chunk):
        docs, k, tf, length = chunk_postings([p.text for p in passages[start : start + chunk]], words, table)
        keys.append(k)
        tfs.append(tf)
        count_chunks.append(np.bincount(docs, minlength=length.size))
        length_chunks.append(length)
    # Terms numbered by key (characters, then bigrams, then words): the order never reaches a score.
    term_keys = np.unique(np.concatenate([np.unique(k) for k in keys])) if keys else np.zeros(0, dtype=np.int64)
    cols = [np.searchsorted(term_keys, k).astype(np.int32) for k in keys]
    del keys
    n_terms = max(len(term_keys), 1)
    df = np.bincount(np.concatenate(cols), minlength=n_terms).astype(np.float64) if cols else np.zeros(n_terms)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    lengths = np.concatenate(length_chunks).astype(np.float64) if length_chunks else np.zeros(0)
    counts = np.concatenate(count_chunks) if count_chunks else np.zeros(0, dtype=np.int64)
    layer_names, layer = codes((p.layer for p in passages), n)
    avgdl = {name: float(lengths[layer == i].mean()) or 1.0 for i, name in enumerate(layer_names)}
    norm_len = lengths / np.array([avgdl[name] for name in layer_names] or [1.0])[layer]
    data = []
    for i, (c, tf) in enumerate(zip(cols, tfs)):
        rows = np.repeat(np.arange(i * chunk, i * chunk + counts[i * chunk : (i + 1) * chunk].size), counts[i * chunk : (i + 1) * chunk])
        tf = tf.astype(np.float64)
        denom = tf + K1 * (1.0 - B + B * norm_len[rows])
        data.append((idf[c] * tf * (K1 + 1.0) / denom).astype(np.float32))
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    csr = sparse.csr_matrix(
        (np.concatenate(data) if data else np.zeros(0, np.float32), np.concatenate(cols) if cols else np.zeros(0, np.int32), indptr),
        shape=(n, n_terms),
    )
    del data, cols
    weights = csr.tocsc()
    del csr
    word_of = sorted(words, key=words.__getitem__)
    log.info("lexical index: %d passages, %d terms, %d postings", n, len(term_keys), weights.nnz)
    return [key_token(int(k), word_of) for k in term_keys], weights, idf, avgdl


__all__ = ["bm25_weights", "codes", "K1", "B", "BUILD_CHUNK", "segment_tokens", "passage_tokens", "FoldTable", "fast_segments", "chunk_postings", "key_token"]
