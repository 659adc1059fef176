"""qa.indexing.lexical: tokens, field-aware BM25, hints, save/load, and pinned behaviour on the real corpus."""

from __future__ import annotations

import json

import numpy as np
import pytest

from qa.errors import IndexStoreError
from qa.indexing.lexical import FORMAT_VERSION, LexicalIndex, passage_tokens, query_weights, segment_tokens
from qa.indexing.passages import Passage
from qa.retrieval.query import analyze
from qa.text.normalize import normalize


def P(unit_id: str, layer: str, text: str, part: int = 0) -> Passage:
    return Passage(unit_id, layer, part, text, normalize(text))


#: A hand-made mini corpus: a 注 that glosses 旨, a long 疏 piece that only quotes it, noise.
PASSAGES = (
    P("zhushu.xiangyin.001", "jing", "降席，坐奠爵，拜，告旨，執爵，興。"),
    P("zhushu.xiangyin.001", "zhu", "旨，美也。"),
    P("zhushu.xiangyin.002", "jing", "主人坐取觶于篚，降洗。"),
    P("zhushu.xiangyin.002", "shu",
      "釋曰︰此經論主人酬賓之事，賓降，主人辭降，賓不辭洗，立當西序，東面，前文云旨，美也，此不言者，以其將自飲，故不告也，其禮殺也。"),
    P("zhushu.xiangyin.003", "jing", "說屨，揖讓如初，升，坐。"),
    P("zhushu.xiangyin.003", "zhu", "說屨者，為安燕當坐也。"),
    P("zhushu.yan.001", "jing", "賓反入，及卿大夫皆說屨，升就席。"),
    P("xiyi.yan.001", "jing", "主人坐祭不啐酒"),
    P("xiyi.yan.001", "xiyi", "乡饮乡射之酒有司及时所造故主人虽无告旨之义必啐以尝之"),
)


@pytest.fixture(scope="module")
def index() -> LexicalIndex:
    return LexicalIndex.build(PASSAGES)


def units(index: LexicalIndex, question: str, k: int = 5) -> list[str]:
    return [PASSAGES[i].unit_id for i, _ in index.search(analyze(question), k)]


# ── tokens ─────────────────────────────────────────────────────────────────────


def test_tokens_are_characters_and_bigrams_within_a_segment():
    assert segment_tokens("告旨") == ["告", "旨", "告旨"]
    assert segment_tokens("guest") == ["guest"]
    toks = passage_tokens("降席，坐")
    assert "降席" in toks and "席坐" not in toks  # no bigram across the comma


def test_english_words_never_join_cjk_tokens():
    w = query_weights(analyze("why does the guest say 旨?"))
    assert "旨" in w and "宾" in w
    assert all(t.isascii() or not any(c.isascii() for c in t) for t in w)
    assert not any("guest" in t and t != "guest" for t in w)


def test_expansions_and_context_weigh_less_than_the_question():
    w = query_weights(analyze("那介呢？", history=["賓為什麼告旨？"]))
    assert w["介"] > w["告旨"] > 0
    w = query_weights(analyze("guest 主人"))
    assert w["主人"] > w["宾"] > 0


# ── ranking ────────────────────────────────────────────────────────────────────


def test_a_zhu_gloss_outranks_a_long_shu_that_quotes_it(index):
    ranked = index.search(analyze("旨，美也"), 10)
    layers = [PASSAGES[i].layer for i, _ in ranked]
    assert layers.index("zhu") < layers.index("shu")


def test_scores_are_best_first_and_positive(index):
    ranked = index.search(analyze("告旨"), 10)
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    assert len(index.search(analyze("告旨"), 1)) == 1


def test_simplified_query_finds_traditional_text(index):
    assert units(index, "说屦者为安燕当坐也")[0] == "zhushu.xiangyin.003"


def test_english_question_matches_through_the_glossary(index):
    assert units(index, "Why take off the shoes?")[0] in {"zhushu.xiangyin.003", "zhushu.yan.001"}


def _score(index, question: str, unit_id: str, layer: str) -> float:
    scores = index.scores(analyze(question))
    return float(max(s for p, s in zip(PASSAGES, scores) if p.unit_id == unit_id and p.layer == layer))


def test_named_rite_is_preferred(index):
    assert units(index, "鄉飲酒禮為什麼說屨？")[0] == "zhushu.xiangyin.003"
    yan, xiangyin = ("zhushu.yan.001", "jing"), ("zhushu.xiangyin.003", "jing")
    plain = _score(index, "為什麼說屨？", *yan) / _score(index, "為什麼說屨？", *xiangyin)
    hinted = _score(index, "燕禮為什麼說屨？", *yan) / _score(index, "燕禮為什麼說屨？", *xiangyin)
    assert hinted > plain * 1.4


def test_named_commentator_prefers_his_layer(index):
    xiyi = ("xiyi.yan.001", "xiyi")
    assert _score(index, "方苞怎麼解釋告旨？", *xiyi) > 1.5 * _score(index, "怎麼解釋告旨？", *xiyi)


def test_nothing_to_match_gives_no_hits(index):
    assert index.search(analyze("🙂"), 5) == []
    assert index.search(analyze("asdf qwerty"), 5) == []


# ── save / load ────────────────────────────────────────────────────────────────


def test_save_and_load_round_trip(index, tmp_path):
    index.save(tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["idf.npy", "meta.json", "vocab.json", "weights.data.npy", "weights.indices.npy", "weights.indptr.npy"]
    loaded = LexicalIndex.load(tmp_path, PASSAGES)
    q = analyze("賓為什麼告旨？")
    assert loaded.search(q, 5) == index.search(q, 5)


def test_load_refuses_other_passages(index, tmp_path):
    index.save(tmp_path)
    with pytest.raises(IndexStoreError, match="does not match the passages"):
        LexicalIndex.load(tmp_path, PASSAGES[:-1])


def test_load_refuses_missing_truncated_or_old_files(index, tmp_path):
    index.save(tmp_path)
    (tmp_path / "vocab.json").unlink()
    with pytest.raises(IndexStoreError, match="missing vocab.json"):
        LexicalIndex.load(tmp_path, PASSAGES)
    index.save(tmp_path)
    data = (tmp_path / "weights.data.npy").read_bytes()
    (tmp_path / "weights.data.npy").write_bytes(data[: len(data) // 2])
    with pytest.raises(IndexStoreError, match="unreadable"):
        LexicalIndex.load(tmp_path, PASSAGES)
    index.save(tmp_path)
    meta = json.loads((tmp_path / "meta.json").read_text())
    meta["format_version"] = FORMAT_VERSION - 1
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(IndexStoreError, match="rebuild"):
        LexicalIndex.load(tmp_path, PASSAGES)


def test_saved_arrays_load_without_pickle(index, tmp_path):
    index.save(tmp_path)
    for name in ("idf.npy", "weights.data.npy", "weights.indices.npy", "weights.indptr.npy"):
        assert np.load(tmp_path / name, allow_pickle=False).dtype != object


# ── the real corpus ────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def real():
    from qa.corpus.load import load_corpus
    from qa.indexing.passages import make_passages
    from qa.settings import Settings

    passages = make_passages(load_corpus(Settings().seeds_dir).units)
    return passages, LexicalIndex.build(passages)


def best_unit(real, question: str) -> str:
    passages, index = real
    return passages[index.search(analyze(question), 1)[0][0]].unit_id


@pytest.mark.parametrize("question", ["賓為什麼說旨？", "why does the guest say 旨?", "宾为何告旨", "告旨何義"])
def test_the_gaozhi_question_comes_first_in_all_four_languages(real, question):
    passages, _ = real
    unit = best_unit(real, question)
    jing = next(p.text for p in passages if p.unit_id == unit and p.layer == "jing")
    assert "降席，坐奠爵，拜，告旨" in jing


@pytest.mark.parametrize(
    "question, jing",
    [
        ("推手曰揖，引手曰厭", "賓厭介，入門左"),
        ("Why are shoes taken off before sitting?", "說屨"),
        ("众宾之席为什么不相连？", "眾賓之席，皆不屬焉"),
    ],
)
def test_known_lemmas_on_the_real_corpus(real, question, jing):
    passages, _ = real
    unit = best_unit(real, question)
    texts = [p.text for p in passages if p.unit_id == unit and p.layer == "jing"]
    assert any(jing in t for t in texts)


def test_english_glossary_terms_weigh_as_the_questions_own_words():
    from qa.indexing.lexical import ENGLISH_EXPANSION_WEIGHT, EXPANSION_WEIGHT, WORD_CHAR_WEIGHT, query_weights
    from qa.retrieval.query import analyze

    en = analyze("Why does the guest bow?")
    assert en.lang == "en" and "宾" in en.expansions
    assert query_weights(en)["宾"] == WORD_CHAR_WEIGHT * ENGLISH_EXPANSION_WEIGHT
    zh = analyze("客人為什麼拜？")
    if "宾" in zh.expansions and "宾" not in zh.segments:  # a modern word the glossary maps
        assert query_weights(zh)["宾"] == WORD_CHAR_WEIGHT * EXPANSION_WEIGHT


# ── scale: the numpy build and the sparse query path give the plain definitions' results ──


def _reference_postings(passages) -> dict[tuple[int, str], int]:
    """(passage, token) → tf from passage_tokens, the definition the numpy tokenizer must match."""
    from collections import Counter

    return {(d, t): tf for d, p in enumerate(passages) for t, tf in Counter(passage_tokens(p.text)).items()}


TRICKY = (
    P("t.a.001", "jing", "賓厭介，入門左；介厭眾賓，入。"),
    P("t.a.001", "zhu", "推手曰揖，引手曰厭。今文皆作揖。"),
    P("t.a.002", "shu", "Guest (賓) bows twice: 再拜 2 times, see §3.1 and 𠀋𡈽 (non-BMP)."),
    P("t.a.002", "xiyi", "　全角ＡＢＣ　１２３ ﬁ ligature ㈠ 一\x00二 ... 。。"),
    P("t.a.003", "notes", "，。！"),
    P("t.a.003", "jing", ""),
    P("t.b.001", "jing", "don't re-use e-mail; 旨 美也"),
)


def test_numpy_tokenizer_matches_passage_tokens(real):
    passages, _ = real
    for ps in (TRICKY, passages[:300]):
        index = LexicalIndex.build(ps, chunk=7)  # several chunks, one passage per chunk boundary case
        vocab = sorted(index.vocab, key=index.vocab.__getitem__)
        coo = index.weights.tocoo()
        built = {(int(r), vocab[c]) for r, c in zip(coo.row, coo.col)}
        assert built == set(_reference_postings(ps))
        lengths = [sum(1 for t in passage_tokens(p.text) if len(t) == 1 or t.isascii()) for p in ps]
        for layer, avgdl in index.meta["avgdl"].items():
            mine = [n for p, n in zip(ps, lengths) if p.layer == layer]
            assert avgdl == pytest.approx(sum(mine) / len(mine) or 1.0)


def test_build_is_the_same_whatever_the_chunk_size():
    a, b = LexicalIndex.build(PASSAGES + TRICKY), LexicalIndex.build(PASSAGES + TRICKY, chunk=2)
    assert a.vocab == b.vocab and a.meta == b.meta
    assert (a.weights != b.weights).nnz == 0 and np.array_equal(a.idf, b.idf)


def test_bm25_weights_follow_the_formula(index):
    """One posting checked by hand: idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avgdl of its layer))."""
    from qa.indexing.lexical import K1, B

    d = 1  # the 注 「旨，美也。」: 旨 once, 3 characters
    n, df = len(PASSAGES), sum("旨" in p.norm for p in PASSAGES)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    expected = idf * 1 * (K1 + 1) / (1 + K1 * (1 - B + B * 3 / index.meta["avgdl"]["zhu"]))
    assert index.weights[d, index.vocab["旨"]] == pytest.approx(expected, rel=1e-6)


def _brute_top(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    order = sorted((i for i in range(scores.size) if scores[i] > 0), key=lambda i: (-scores[i], i))
    return [(i, float(scores[i])) for i in order[:k]]


@pytest.mark.parametrize("question", ["賓為什麼告旨？", "燕禮為什麼說屨？", "方苞怎麼解釋告旨？", "why does the guest say 旨?", "之也"])
def test_search_is_the_exact_top_k_of_scores(real, question):
    passages, index = real
    q = analyze(question)
    scores = index.scores(q)
    for k in (1, 10, 200, len(passages) + 5):
        assert index.search(q, k) == _brute_top(scores, k)


def test_top_k_keeps_ties_by_index_and_never_misses():
    from qa.indexing.lexical import top_k

    rng = np.random.default_rng(1)
    for size, k in ((0, 3), (5, 10), (1000, 10), (50_000, 7), (50_000, 500)):
        scores = rng.integers(0, 40, size=size).astype(np.float32)  # many ties
        ids = np.arange(size) * 3 + 1
        got_ids, got = top_k(ids, scores, k)
        order = np.lexsort((ids, -scores))[:k]
        assert np.array_equal(got_ids, ids[order]) and np.array_equal(got, scores[order])


def test_passages_out_of_unit_order_score_the_same(real):
    """The run-wise unit context needs each unit's passages together; any other order falls back, same scores."""
    passages, index = real
    perm = np.random.default_rng(0).permutation(len(passages))
    shuffled = [passages[i] for i in perm]
    other = LexicalIndex.build(shuffled)
    assert index.contiguous and not other.contiguous
    for question in ("賓為什麼告旨？", "鄉飲酒禮為什麼說屨？", "方苞怎麼解釋告旨？"):
        q = analyze(question)
        assert np.allclose(other.scores(q), index.scores(q)[perm], rtol=1e-6)
        top = {(passages[i].unit_id, passages[i].layer, passages[i].part) for i, _ in index.search(q, 10)}
        top_other = {(shuffled[i].unit_id, shuffled[i].layer, shuffled[i].part) for i, _ in other.search(q, 10)}
        assert len(top & top_other) >= 9  # exact ties at the 10th place may swap


def test_top_k_of_positions():
    from qa.indexing.lexical import top_k

    scores = np.random.default_rng(2).random(100_000).astype(np.float32)
    ids, best = top_k(None, scores, 5)
    assert np.array_equal(ids, np.argsort(-scores, kind="stable")[:5]) and np.array_equal(best, scores[ids])
