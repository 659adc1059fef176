"""FAISS inner-product search over L2-normalized float32 vectors: exact when small, HNSW when large.

Usable on its own on any float32 matrix (benchmarks do)::

    index = DenseIndex.build(vectors)            # IndexFlatIP below ann_threshold rows
    scores, ids = index.search(queries, k=10)    # best first; id -1 / score -inf pad short rows
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from .errors import IndexStoreError

log = logging.getLogger(__name__)

#: Above this many vectors the index is approximate (HNSW); below it, exact.
ANN_THRESHOLD = 50_000
#: HNSW graph degree and build-time beam; larger is more accurate and slower to build.
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 200
#: HNSW query-time beam: chosen so recall@10 against exact search stays ≥ 0.95.
HNSW_EF_SEARCH = 128


def _faiss():
    import faiss  # lazy: importing qa stays cheap

    return faiss


def _as_matrix(vectors: np.ndarray, dim: int | None = None) -> np.ndarray:
    m = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32))
    if m.ndim == 1:
        m = m.reshape(1, -1)
    if m.ndim != 2:
        raise ValueError(f"expected a 2-D matrix of vectors, got shape {m.shape}")
    if dim is not None and m.shape[1] != dim:
        raise ValueError(f"vectors have {m.shape[1]} dimensions, the index has {dim}")
    return m


class DenseIndex:
    """A FAISS index of row vectors; ids are row numbers of the matrix it was built from."""

    def __init__(self, index, *, ef_search: int = HNSW_EF_SEARCH) -> None:
        self.index = index
        if self.kind == "hnsw":
            self.index.hnsw.efSearch = ef_search

    @classmethod
    def build(cls, vectors: np.ndarray, *, ann_threshold: int = ANN_THRESHOLD, m: int = HNSW_M,
              ef_construction: int = HNSW_EF_CONSTRUCTION, ef_search: int = HNSW_EF_SEARCH) -> "DenseIndex":
        """Exact ``IndexFlatIP`` when ``len(vectors) < ann_threshold``, else ``IndexHNSWFlat`` (inner product)."""
        faiss = _faiss()
        matrix = _as_matrix(vectors)
        dim = matrix.shape[1]
        if len(matrix) < ann_threshold:
            index = faiss.IndexFlatIP(dim)
        else:
            index = faiss.IndexHNSWFlat(dim, m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = ef_construction
        index.add(matrix)
        log.debug("dense index: %s, %d × %d", type(index).__name__, len(matrix), dim)
        return cls(index, ef_search=ef_search)

    @property
    def kind(self) -> str:
        """``flat`` (exact) or ``hnsw`` (approximate)."""
        return "hnsw" if hasattr(self.index, "hnsw") else "flat"

    @property
    def dim(self) -> int:
        return int(self.index.d)

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def search(self, vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """For each query row, the ``k`` best (scores, ids), best first; padded with (-inf, -1)."""
        queries = _as_matrix(vectors, self.dim)
        out_scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        out_ids = np.full((len(queries), k), -1, dtype=np.int64)
        kk = min(k, len(self))
        if kk <= 0 or len(queries) == 0:
            return out_scores, out_ids
        scores, ids = self.index.search(queries, kk)
        valid = ids >= 0
        out_scores[:, :kk] = np.where(valid, scores, -np.inf)
        out_ids[:, :kk] = ids
        return out_scores, out_ids

    def save(self, path: Path) -> None:
        _faiss().write_index(self.index, str(path))

    @classmethod
    def load(cls, path: Path, *, ef_search: int = HNSW_EF_SEARCH) -> "DenseIndex":
        """Read a saved index; a missing, truncated or garbled file is an IndexStoreError."""
        path = Path(path)
        if not path.is_file():
            raise IndexStoreError(f"{path}: dense index file missing")
        try:
            index = _faiss().read_index(str(path))
        except Exception as exc:  # noqa: BLE001 - faiss raises RuntimeError with a C++ trace
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise IndexStoreError(f"{path}: dense index unreadable (truncated or corrupt): {first[:160]}") from None
        return cls(index, ef_search=ef_search)


def brute_force(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact inner-product top-k in numpy: the oracle FAISS is tested against."""
    matrix = _as_matrix(vectors)
    q = _as_matrix(queries, matrix.shape[1])
    sims = q @ matrix.T
    kk = min(k, len(matrix))
    # stable argsort on -score: ties keep the lower id first, as FAISS does
    ids = np.argsort(-sims, axis=1, kind="stable")[:, :kk]
    return np.take_along_axis(sims, ids, axis=1).astype(np.float32), ids.astype(np.int64)


__all__ = ["DenseIndex", "brute_force", "ANN_THRESHOLD", "HNSW_EF_SEARCH"]
