"""qa.dense: FAISS search checked against brute force, exact and approximate."""

from __future__ import annotations

import numpy as np
import pytest

from qa.dense import DenseIndex, brute_force
from qa.encoders.base import l2_normalize
from qa.errors import IndexStoreError

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


def test_hnsw_recall_against_brute_force():
    rng = np.random.default_rng(1)
    vectors = l2_normalize(rng.normal(size=(3000, 32)))
    queries = l2_normalize(rng.normal(size=(50, 32)))
    index = DenseIndex.build(vectors, ann_threshold=1000)
    assert index.kind == "hnsw"
    _, ids = index.search(queries, 10)
    _, bids = brute_force(vectors, queries, 10)
    recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(ids.tolist(), bids.tolist())])
    assert recall >= 0.95


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
    loaded = DenseIndex.load(tmp_path / "dense.faiss", ef_search=64)
    assert loaded.kind == index.kind and len(loaded) == 5
    assert np.array_equal(loaded.search(VECTORS, 2)[1], index.search(VECTORS, 2)[1])


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
