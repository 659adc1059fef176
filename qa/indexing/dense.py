"""FAISS inner-product search over L2-normalized float32 vectors: exact when small, IVF-Flat when large.

Usable on its own on any float32 matrix (benchmarks do)::

    index = DenseIndex.build(vectors)            # IndexFlatIP below ann_threshold rows
    scores, ids = index.search(queries, k=10)    # best first; id -1 / score -inf pad short rows
"""

from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np

from ..errors import IndexStoreError
from ..settings import DEFAULTS

log = logging.getLogger(__name__)

#: Above this many vectors the index is approximate (IVF-Flat); below it, exact (Settings.ann_threshold).
ANN_THRESHOLD = DEFAULTS.ann_threshold
#: IVF lists = IVF_NLIST_FACTOR · √n. Build cost grows with nlist (k-means and assignment are
#: n·nlist·d), query cost with nprobe·n/nlist; at 2·√n 3.35M vectors build in ~2 min on 2 cores.
IVF_NLIST_FACTOR = 2.0
#: k-means wants ≥ 39 training points per list (FAISS warns below that); more buys little.
IVF_MIN_POINTS_PER_LIST = 39
IVF_TRAIN_POINTS_PER_LIST = 64
#: Lists searched per query (Settings.ivf_nprobe): chosen so recall@10 against exact search
#: stays ≥ 0.95 (benchmarks/README.md, 10k–1M units).
IVF_NPROBE = DEFAULTS.ivf_nprobe
#: Batches smaller than this search on one OpenMP thread: FAISS's thread fan-out for a few
#: queries costs more than it saves on a busy machine (1.3 ms vs 24 ms measured, 34k vectors).
SINGLE_THREAD_BELOW = 16
#: Exact search of at least this many queries at once computes the scores as one matrix product
#: (BLAS sgemm) instead of query by query. FAISS 1.15's default (128000) keeps every batch on the
#: per-query path; measured with ``python -m benchmarks.faiss_blas`` (benchmarks/README.md).
#: Equal to SINGLE_THREAD_BELOW: a smaller batch runs on one thread, where the per-query path is right.
BLAS_THRESHOLD = 16


def _faiss():
    import faiss  # lazy: importing qa stays cheap

    if faiss.cvar.distance_compute_blas_threshold != BLAS_THRESHOLD:
        faiss.cvar.distance_compute_blas_threshold = BLAS_THRESHOLD  # process-wide, set once
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


def ivf_nlist(n: int) -> int:
    """Number of IVF lists for ``n`` vectors: ≈ IVF_NLIST_FACTOR·√n, but never so many that
    k-means gets fewer than IVF_MIN_POINTS_PER_LIST points per list."""
    return max(1, min(int(IVF_NLIST_FACTOR * math.sqrt(n)), n // IVF_MIN_POINTS_PER_LIST))


class DenseIndex:
    """A FAISS index of row vectors; ids are row numbers of the matrix it was built from."""

    def __init__(self, index, *, nprobe: int = IVF_NPROBE) -> None:
        self.index = index
        if self.kind == "ivf":
            self.index.nprobe = nprobe

    @classmethod
    def build(cls, vectors: np.ndarray, *, ann_threshold: int = ANN_THRESHOLD, nprobe: int = IVF_NPROBE,
              seed: int = 0) -> "DenseIndex":
        """Exact ``IndexFlatIP`` when ``len(vectors) < ann_threshold``, else ``IndexIVFFlat`` (inner product).

        The IVF's k-means is trained on a random sample of IVF_TRAIN_POINTS_PER_LIST·nlist rows
        (``seed`` fixes it), so a build is reproducible.
        """
        faiss = _faiss()
        matrix = _as_matrix(vectors)
        n, dim = matrix.shape
        if n < ann_threshold or n == 0:
            index = faiss.IndexFlatIP(dim)
        else:
            nlist = ivf_nlist(n)
            index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, nlist, faiss.METRIC_INNER_PRODUCT)
            index.cp.seed = seed
            sample = np.random.default_rng(seed).choice(n, size=min(n, IVF_TRAIN_POINTS_PER_LIST * nlist), replace=False)
            index.train(matrix[np.sort(sample)])
        index.add(matrix)
        log.debug("dense index: %s, %d × %d", type(index).__name__, n, dim)
        return cls(index, nprobe=nprobe)

    @property
    def kind(self) -> str:
        """``flat`` (exact) or ``ivf`` (approximate, above ``Settings.ann_threshold`` passages)."""
        return "ivf" if isinstance(self.index, _faiss().IndexIVF) else "flat"

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
        scores, ids = self._faiss_search(queries, kk)
        valid = ids >= 0
        out_scores[:, :kk] = np.where(valid, scores, -np.inf)
        out_ids[:, :kk] = ids
        return out_scores, out_ids

    def _faiss_search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        if len(queries) >= SINGLE_THREAD_BELOW:
            return self.index.search(queries, k)
        faiss = _faiss()
        # The OpenMP thread count is per calling thread, so concurrent searches from a server's
        # worker threads do not change each other's setting.
        previous = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self.index.search(queries, k)
        finally:
            faiss.omp_set_num_threads(previous)

    def save(self, path: Path) -> None:
        _faiss().write_index(self.index, str(path))

    @classmethod
    def load(cls, path: Path, *, nprobe: int = IVF_NPROBE) -> "DenseIndex":
        """Read a saved index; a missing, truncated or garbled file is an IndexStoreError."""
        path = Path(path)
        if not path.is_file():
            raise IndexStoreError(f"{path}: dense index file missing")
        try:
            index = _faiss().read_index(str(path))
        except Exception as exc:  # noqa: BLE001 - faiss raises RuntimeError with a C++ trace
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise IndexStoreError(f"{path}: dense index unreadable (truncated or corrupt): {first[:160]}") from None
        return cls(index, nprobe=nprobe)

    def vectors(self) -> np.ndarray:
        """Every stored vector, in id order (IVF keeps them exactly, in its lists)."""
        if self.kind == "ivf":
            self.index.make_direct_map()
        return self.index.reconstruct_n(0, len(self))


def brute_force(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact inner-product top-k in numpy: the oracle FAISS is tested against."""
    matrix = _as_matrix(vectors)
    q = _as_matrix(queries, matrix.shape[1])
    sims = q @ matrix.T
    kk = min(k, len(matrix))
    # stable argsort on -score: ties keep the lower id first, as FAISS does
    ids = np.argsort(-sims, axis=1, kind="stable")[:, :kk]
    return np.take_along_axis(sims, ids, axis=1).astype(np.float32), ids.astype(np.int64)


__all__ = ["DenseIndex", "brute_force", "ivf_nlist", "ANN_THRESHOLD", "IVF_NPROBE", "BLAS_THRESHOLD"]
