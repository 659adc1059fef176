"""qa.retrieval.retriever: hybrid and single retrievers return units, say what matched, and flag noise."""

from __future__ import annotations

import pytest

from qa import Retriever
from qa.corpus.units import LemmaUnit
from qa.errors import QueryError
from qa.retrieval.query import analyze
from qa.retrieval.retriever import DenseRetriever, Hit, LexicalRetriever, PassageMatch

GAOZHI = "降席，坐奠爵，拜，告旨"  # the 鄉飲酒禮 經 the example question is about
NOISE = ["asdf", "😀😀🎉", "鑫龘靐齉", "qwerty uiop zxcv"]


def test_hits_are_units_with_matched_passages(mini_retriever):
    hits = mini_retriever.search("賓拜告旨", k=3)
    assert 1 <= len(hits) <= 3
    assert all(isinstance(h, Hit) and isinstance(h.unit, LemmaUnit) for h in hits)
    assert GAOZHI in hits[0].unit.jing
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    top = hits[0]
    assert top.passages and all(isinstance(p, PassageMatch) for p in top.passages)
    assert {p.via for p in top.passages} == {"lexical", "dense"}
    assert all(p.text in top.unit.full_text for p in top.passages)
    assert not top.low_confidence
    assert len({h.unit.id for h in hits}) == len(hits)  # a unit appears once


def test_search_is_batch_search_of_one(mini_retriever):
    for r in (mini_retriever, mini_retriever.lexical, mini_retriever.dense):
        assert r.search("主人阼階上答拜", 4) == r.batch_search(["主人阼階上答拜"], 4)[0]
    batch = mini_retriever.batch_search(["告旨", analyze("啐酒")], k=2)
    assert len(batch) == 2 and all(len(hits) == 2 for hits in batch)


def test_default_k_comes_from_settings(mini_retriever):
    assert len(mini_retriever.search("主人")) == mini_retriever.settings.k


def test_ablations_are_retrievers_of_their_own(mini_retriever):
    assert isinstance(mini_retriever.lexical, LexicalRetriever)
    assert isinstance(mini_retriever.dense, DenseRetriever)
    lex = mini_retriever.lexical.search("告旨", 3)
    dense = mini_retriever.dense.search("告旨", 3)
    assert all(p.via == "lexical" for h in lex for p in h.passages)
    assert all(p.via == "dense" for h in dense for p in h.passages)
    assert GAOZHI in lex[0].unit.jing


@pytest.mark.parametrize("bad", ["", "   \n\t"])
def test_empty_query_is_a_clear_error(mini_retriever, bad):
    with pytest.raises(QueryError):
        mini_retriever.search(bad)


@pytest.mark.parametrize("noise", NOISE)
def test_noise_is_low_confidence_not_confident_nonsense(mini_retriever, static_mini_retriever, noise):
    for r in (mini_retriever, static_mini_retriever):
        hits = r.search(noise, 3)
        assert hits and all(h.low_confidence for h in hits)


def test_very_long_query_is_cut_not_refused(mini_retriever):
    hits = mini_retriever.search("告旨" * 50_000, 2)
    # (which of the two 告旨 units leads, 「告旨」 or 「不告旨」, is the re-ranker's call on a repeated word)
    assert hits and not hits[0].low_confidence and any(GAOZHI in h.unit.jing for h in hits)


def test_load_arguments_override_settings(mini_settings, tmp_path):
    r = Retriever.load(index_dir=tmp_path / "other", model="hashing", settings=mini_settings)
    assert r.settings.index_dir == tmp_path / "other"
    assert r.manifest["encoder"] == "hashing"
    assert (tmp_path / "other" / "manifest.json").exists()


def test_static_encoder_retriever_on_excerpt(static_mini_retriever):
    assert static_mini_retriever.manifest["encoder"].startswith("static-corpus")
    hits = static_mini_retriever.dense.search("宾为何告旨", 3)
    assert any(GAOZHI in h.unit.jing for h in hits)


# ── the real corpus with the default encoder ────────────────────────────────────────


@pytest.mark.parametrize("question", ["賓為什麼說旨？", "why does the guest say 旨?", "宾为何告旨", "告旨何義"])
def test_gaozhi_question_in_four_languages(real_retriever, question):
    hits = real_retriever.search(question, 5)
    assert GAOZHI in hits[0].unit.jing, [h.unit.jing[:12] for h in hits]
    assert hits[0].unit.source.startswith("003") and not hits[0].low_confidence


def test_simplified_query_finds_traditional_text(real_retriever):
    hits = real_retriever.search("主人坐取爵，兴，适洗，南面坐", 3)
    assert hits[0].unit.jing.startswith("主人坐取爵，興，適洗")  # 繁體 source, 简体 query
    assert hits[0].unit.source.startswith("003")


def test_dense_alone_finds_the_unit_of_a_paraphrase(real_retriever):
    hits = real_retriever.dense.search("宾为何告旨", 5)
    assert any(GAOZHI in h.unit.jing for h in hits[:2])


@pytest.mark.parametrize("question", ["主人為什麼要洗爵？", "What is the dried meat offered to the guest?", "脫鞋是什么意思"])
def test_real_questions_are_not_low_confidence(real_retriever, question):
    assert not real_retriever.search(question, 3)[0].low_confidence


@pytest.mark.parametrize("noise", NOISE + ["今天天氣很好"])
def test_real_corpus_noise_is_low_confidence(real_retriever, noise):
    assert all(h.low_confidence for h in real_retriever.search(noise, 3))


@pytest.mark.parametrize("history", [["賓為什麼說旨？"], ["賓為什麼說旨？ 告旨"], ["why does the guest say 旨?"]])
def test_follow_up_new_subject_leads(real_retriever, history):
    """「那介呢？」 after the 告旨 question: the unit where the 介 does not 告旨 comes first, not the 賓's."""
    hits = real_retriever.search(analyze("那介呢？", history=history), 5)
    assert "不告旨" in hits[0].unit.jing and "介" in hits[0].unit.jing, [h.unit.jing[:16] for h in hits]


@pytest.mark.parametrize("question, glosses", [("What is 旅酬?", ("旅，序也", "凡旅酬者")),
                                              ("樂正是什麼官", ("樂正，於天子樂師也",))])
def test_definition_question_finds_the_gloss(real_retriever, question, glosses):
    # 旅酬 is glossed twice in the 注: 「旅，序也」 (of the 司正's call) and 「凡旅酬者，少長以齒…」 (where it begins)
    hits = real_retriever.search(question, 3)
    assert any(g in h.unit.zhu for h in hits for g in glosses), [h.unit.id for h in hits]
