"""qa.indexing.dense: FAISS search checked against brute force, exact and approximate."""

from __future__ import annotations

import numpy as np
import pytest

from qa.errors import IndexStoreError
from qa.indexing.dense import BLAS_THRESHOLD, IVF_NPROBE, DenseIndex, _faiss, brute_force, ivf_nlist
from qa.indexing.encoders.base import l2_normalize

# Hand-written unit vectors: the answers are obvious by eye.
VECTORS = np.array(
    [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.6, 0.8, 0.0],
        [0.0, 0.6, 0.8],
    ],
    dtype=np.float32,
)


def test_exact_search_on_hand_written_vectors():
    index = DenseIndex.build(VECTORS)
    assert index.kind == "flat" and len(index) == 5 and index.dim == 3
    scores, ids = index.search(np.array([[1.0, 0.0, 0.0], [0.0, 0.8, 0.6]], dtype=np.float32), 3)
    assert ids[0].tolist()[:2] == [0, 3]  # itself, then 0.6; then one of the three at 0.0
    assert scores[0].tolist() == pytest.approx([1.0, 0.6, 0.0])
    assert ids[1].tolist()[:2] == [4, 1]  # 0.96, then 0.8
    assert scores[1][:2].tolist() == pytest.approx([0.96, 0.8])


def test_exact_matches_brute_force():
    rng = np.random.default_rng(0)
    vectors = l2_normalize(rng.normal(size=(300, 16)))
    queries = l2_normalize(rng.normal(size=(20, 16)))
    scores, ids = DenseIndex.build(vectors).search(queries, 10)
    bscores, bids = brute_force(vectors, queries, 10)
    assert np.array_equal(ids, bids)
    assert np.allclose(scores, bscores, atol=1e-5)


def _recall(ids: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(a) & set(b)) / len(b) for a, b in zip(ids.tolist(), exact.tolist())]))


@pytest.mark.parametrize("n", [3000, 5000])
def test_ivf_recall_against_brute_force(n):
    rng = np.random.default_rng(n)
    # clustered, like real embeddings (uniform random vectors in 32 dims have no structure to index)
    centers = rng.normal(size=(60, 32))
    vectors = l2_normalize(centers[rng.integers(0, 60, n)] + 0.6 * rng.normal(size=(n, 32)))
    queries = l2_normalize(centers[rng.integers(0, 60, 64)] + 0.6 * rng.normal(size=(64, 32)))
    index = DenseIndex.build(vectors, ann_threshold=1000)
    assert index.kind == "ivf" and len(index) == n
    assert index.index.nlist == ivf_nlist(n) > 1 and index.index.nprobe == IVF_NPROBE
    _, bids = brute_force(vectors, queries, 10)
    _, batched = index.search(queries, 10)  # one call, all threads
    assert _recall(batched, bids) >= 0.95
    single = np.vstack([index.search(q, 10)[1] for q in queries])  # one at a time, one thread
    assert np.array_equal(single, batched)
    # fewer lists probed: approximate for real, so the test above is not vacuous
    assert _recall(DenseIndex(index.index, nprobe=1).search(queries, 10)[1], bids) < 0.95


def test_ivf_nlist_grows_with_root_n_and_keeps_enough_training_points():
    assert ivf_nlist(1) == 1 and ivf_nlist(100) == 2
    assert ivf_nlist(1_000_000) == 2000
    assert all(n // ivf_nlist(n) >= 39 for n in (1000, 5000, 50_000) if ivf_nlist(n) > 1)


def test_small_batches_search_on_one_thread_and_restore_the_setting():
    faiss = pytest.importorskip("faiss")
    seen = []

    class Probe:  # a FAISS index stand-in that records the thread count it is searched with
        d, ntotal = 3, 5

        def search(self, q, k):
            seen.append(faiss.omp_get_max_threads())
            return np.zeros((len(q), k), np.float32), np.zeros((len(q), k), np.int64)

    before = faiss.omp_get_max_threads()
    index = DenseIndex(Probe())
    index.search(VECTORS[:1], 2)
    index.search(np.repeat(VECTORS, 4, axis=0), 2)  # 20 queries: FAISS's own threading
    assert seen == [1, before]
    assert faiss.omp_get_max_threads() == before


@pytest.mark.parametrize("ann_threshold", [10**9, 1])  # flat, IVF
def test_batched_search_takes_the_matrix_product_path_and_gives_the_per_query_ids(ann_threshold):
    faiss = _faiss()
    assert faiss.cvar.distance_compute_blas_threshold == BLAS_THRESHOLD <= 20
    rng = np.random.default_rng(3)
    index = DenseIndex.build(l2_normalize(rng.normal(size=(4000, 32))), ann_threshold=ann_threshold, nprobe=8)
    queries = l2_normalize(rng.normal(size=(48, 32)))  # ≥ BLAS_THRESHOLD: one sgemm for the batch
    scores, ids = index.search(queries, 20)
    one = [index.search(q[None, :], 20) for q in queries]  # one at a time: the per-query path
    assert ids.tolist() == [i[0].tolist() for _, i in one]
    assert np.allclose(scores, np.vstack([s for s, _ in one]), atol=1e-5)
    if ann_threshold > 1:
        assert ids.tolist() == brute_force(index.vectors(), queries, 20)[1].tolist()


def test_short_index_pads_results():
    scores, ids = DenseIndex.build(VECTORS[:2]).search(VECTORS[:1], 4)
    assert ids[0].tolist() == [0, 1, -1, -1]
    assert np.isneginf(scores[0, 2:]).all()


def test_dimension_mismatch_is_refused():
    with pytest.raises(ValueError, match="dimensions"):
        DenseIndex.build(VECTORS).search(np.zeros((1, 4), dtype=np.float32), 1)


@pytest.mark.parametrize("threshold", [10**6, 1])
def test_save_load_roundtrip(tmp_path, threshold):
    index = DenseIndex.build(VECTORS, ann_threshold=threshold)
    index.save(tmp_path / "dense.faiss")
    loaded = DenseIndex.load(tmp_path / "dense.faiss", nprobe=4)
    assert loaded.kind == index.kind == ("flat" if threshold > 5 else "ivf") and len(loaded) == 5
    assert np.array_equal(loaded.search(VECTORS, 2)[1], index.search(VECTORS, 2)[1])
    assert np.allclose(loaded.vectors(), VECTORS)  # what index_store reuses across builds


def test_truncated_or_garbled_file_is_a_clear_error(tmp_path):
    path = tmp_path / "dense.faiss"
    DenseIndex.build(VECTORS).save(path)
    path.write_bytes(path.read_bytes()[:20])
    with pytest.raises(IndexStoreError, match="truncated or corrupt"):
        DenseIndex.load(path)
    path.write_bytes(b"not a faiss index at all")
    with pytest.raises(IndexStoreError, match="dense.faiss"):
        DenseIndex.load(path)
    with pytest.raises(IndexStoreError, match="missing"):
        DenseIndex.load(tmp_path / "nothing.faiss")
