"""qa.answering.compose: sentence selection, citations, "nothing answers this", batch-row shape."""

from __future__ import annotations

import pytest
from conftest import BU_GAOZHI, GAOZHI

from qa.answering.compose import Answer, SourceLines, answer_first, compose_answer, error_row, query_terms, split_sentences
from qa.corpus.units import LemmaUnit, ShuPart
from qa.retrieval.query import analyze
from qa.retrieval.retriever import Hit, PassageMatch

SRC = "003_c949fed6c9cacba9.txt"

# Hand-made units with the seed's own text (鄉飲酒禮, lines 106–128 of 003).
CUI = LemmaUnit(
    id="zhushu.xiangyin.t01",
    work="儀禮注疏",
    rite="鄉飲酒禮",
    source=SRC,
    lines=(106, 108),
    section="經",
    jing="興，席末坐啐酒。",
    zhu="啐亦嘗也。",
    shu=(ShuPart("經", "「興席末坐啐酒」", "釋曰︰言「席末」，謂於席之尾，故云末。云「啐亦嘗」者，亦前肺云嚌，是至齒為嘗。", header="疏「興席末坐啐酒」。○注「啐亦嘗也」。○"),),
)
LINES = {
    SRC: tuple([""] * 105)
    + (
        "興，席末坐啐酒。",
        "啐亦嘗也。",
        "疏「興席末坐啐酒」。○注「啐亦嘗也」。○釋曰︰言「席末」，謂於席之尾，故云末。云「啐亦嘗」者，亦前肺云嚌，是至齒為嘗。",
        "降席，坐奠爵，拜，告旨，執爵，興。主人阼階上答拜。",
        "降席，席西也。旨，美也。",
        "疏「降席」至「答拜」。○注「降席」至「美也」。○釋曰︰賓拜告旨，主人拜崇酒，其節同，義即異矣。賓言旨，甘主人之位，啐則拜之。主人云崇者，崇，充也，謝賓以酒惡相充實，飲訖，乃崇酒。先後亦同也。",
    )
    + tuple([""] * 15)
    + ("不告旨。", "酒，己物也。")
}


def hit(unit: LemmaUnit, score: float, *, low: bool = False, passages: tuple[PassageMatch, ...] = ()) -> Hit:
    return Hit(unit=unit, score=score, passages=passages, low_confidence=low)


def test_why_question_gets_the_gloss_and_the_shu_explanation():
    q = analyze("賓為什麼說旨？")
    a = compose_answer(q, [hit(GAOZHI, 0.9), hit(CUI, 0.5), hit(BU_GAOZHI, 0.4)])
    assert a.found
    texts = [e.text for e in a.evidence]
    assert texts[0] == "旨，美也。"
    assert any("賓言旨，甘主人之位" in t for t in texts)
    assert "旨，美也。" in a.text and "賓言旨，甘主人之位" in a.text
    first = a.evidence[0]
    assert (first.layer, first.unit_id, first.work, first.rite, first.source) == ("zhu", GAOZHI.id, "儀禮注疏", "鄉飲酒禮", SRC)
    assert first.lines == GAOZHI.lines  # no source lines given: the unit's span


def test_answer_first_moves_one_hit_and_keeps_the_scores_in_place():
    hits = (hit(GAOZHI, 0.9), hit(CUI, 0.8), hit(BU_GAOZHI, 0.4))
    moved = answer_first(hits, BU_GAOZHI.id)
    assert [h.unit.id for h in moved] == [BU_GAOZHI.id, GAOZHI.id, CUI.id]
    assert [h.score for h in moved] == [0.9, 0.8, 0.4]
    assert answer_first(hits, GAOZHI.id) == hits and answer_first(hits, "absent") == hits


def test_a_follow_up_leads_with_the_passage_its_answer_quotes(real_retriever):
    """A follow-up is ranked without the learned re-ranker; the sentence choice reads what it asks, and the passage
    it quotes first is the first hit."""
    for question, history in (("那拿什么擦？", ["挩手是什么意思？"]), ("那介呢？", ["賓為什麼告旨？"]),
                              ("And the jie?", ["Where does the guest sit?"])):
        a = real_retriever.ask(question, history=history)
        assert a.found and a.hits[0].unit.id == a.evidence[0].unit_id, question


def test_a_meaning_question_prefers_the_gloss_of_the_asked_term():
    a = compose_answer(analyze("啐是什麼意思？"), [hit(CUI, 0.9), hit(GAOZHI, 0.3)])
    assert a.evidence[0].text == "啐亦嘗也。"
    a = compose_answer(analyze("旨是什麼意思？"), [hit(GAOZHI, 0.9), hit(CUI, 0.3)])
    assert a.evidence[0].text == "旨，美也。"


def test_evidence_lines_are_the_sentences_own_lines():
    a = compose_answer(analyze("賓為什麼說旨？"), [hit(GAOZHI, 0.9)], locate=SourceLines(LINES))
    by_layer = {e.layer: e for e in a.evidence}
    assert by_layer["zhu"].lines == (110, 110)
    assert by_layer["shu"].lines == (111, 111)
    assert "003_c949fed6c9cacba9.txt:110" in a.text


def test_locating_a_zhu_sentence_skips_the_jing_and_a_shu_quoting_it():
    locate = SourceLines(LINES)
    assert locate(CUI, "zhu", "啐亦嘗也。") == (107, 107)
    assert locate(CUI, "shu", "云「啐亦嘗」者，亦前肺云嚌，是至齒為嘗。") == (108, 108)
    assert locate(BU_GAOZHI, "jing", "不告旨。") == (127, 127)
    assert locate(BU_GAOZHI, "zhu", "not in the file") is None


def test_adjacent_sentences_of_one_layer_are_merged():
    a = compose_answer(analyze("賓為什麼說旨？"), [hit(GAOZHI, 0.9)])
    shu = [e for e in a.evidence if e.layer == "shu"]
    assert len(shu) == 1 and shu[0].text.startswith("賓拜告旨") and "賓言旨" in shu[0].text


def test_low_confidence_says_so_plainly_and_keeps_the_nearest_units():
    hits = [hit(CUI, 0.1, low=True), hit(GAOZHI, 0.05, low=True)]
    a = compose_answer(analyze("asdf qwerty"), hits)
    assert not a.found and a.evidence == ()
    assert "No passage in the corpus answers this" in a.text
    assert [h.unit.id for h in a.hits] == [CUI.id, GAOZHI.id]
    zh = compose_answer(analyze("今天天氣如何？"), hits)
    assert "語料中沒有能回答這個問題的段落" in zh.text
    hans = compose_answer(analyze("今天天气怎么样？"), [])
    assert "语料中没有" in hans.text and hans.hits == ()


def test_matched_passages_guide_a_question_without_shared_characters():
    # an English question whose words the glossary does not know: only the retriever's
    # matched passage says which sentence answered
    match = PassageMatch(layer="zhu", part=0, text="酒，己物也。", score=0.8, via="dense")
    a = compose_answer(analyze("whose property is it?"), [hit(BU_GAOZHI, 0.7, passages=(match,))])
    assert a.found and a.evidence[0].text == "酒，己物也。"


def test_follow_up_context_counts():
    q = analyze("那介呢？", history=["賓為什麼說旨？"])
    terms = query_terms(q)
    assert "介" in terms.chars and "旨" in terms.context


def test_split_sentences_keeps_closing_quotes_and_drops_shi_yue():
    text = "釋曰︰言「席末」，謂於席之尾，故云末。云「啐亦嘗」者，亦前肺云嚌。○又曰「成禮也。」"
    parts = [text[s:e] for s, e in split_sentences(text)]
    assert parts == ["言「席末」，謂於席之尾，故云末。", "云「啐亦嘗」者，亦前肺云嚌。", "又曰「成禮也。」"]


def test_to_dict_is_the_batch_row():
    a = compose_answer(analyze("賓為什麼說旨？"), [hit(GAOZHI, 0.9), hit(BU_GAOZHI, 0.4)])
    row = a.to_dict(id="q1")
    assert set(row) == set(error_row("q1", "x", "bad")) >= {"id", "question", "answer", "citations", "error", "hits"}
    assert row["id"] == "q1" and row["question"] == "賓為什麼說旨？" and row["error"] is None
    assert row["answer"] == a.text
    h = row["hits"][0]
    assert {"id", "source", "lines", "rite", "work", "jing", "zhu", "shu", "xiyi", "score"} <= set(h)
    assert h["shu"].startswith("釋曰︰賓拜告旨") and h["lines"] == [109, 111]
    c = row["citations"][0]
    assert c["unit_id"] == GAOZHI.id and c["layer"] == "zhu" and "zhushu.xiangyin.t02" in c["citation"]


def test_answer_is_frozen():
    a = compose_answer(analyze("賓為什麼說旨？"), [hit(GAOZHI, 0.9)])
    assert isinstance(a, Answer)
    with pytest.raises(AttributeError):
        a.text = "x"  # type: ignore[misc]


def test_original_characters_are_kept_in_evidence():
    # a simplified question still quotes the traditional source as written
    a = compose_answer(analyze("宾为何告旨"), [hit(GAOZHI, 0.9)])
    assert all(e.text in (GAOZHI.zhu + GAOZHI.shu_text + GAOZHI.jing) for e in a.evidence)
    assert "賓" in a.text


def test_a_definition_answers_with_the_gloss_not_a_sentence_naming_the_term():
    jing_only = LemmaUnit(id="xiyi.yan.t01", work="仪礼析疑", rite="燕禮", source="x.txt", lines=(1, 2), section="經",
                          jing="賓以旅酬於西階上", xiyi="公卿先受酬而後獻何也")
    gloss = LemmaUnit(id="zhushu.xiangyin.t04", work="儀禮注疏", rite="鄉飲酒禮", source=SRC, lines=(3, 4), section="經",
                      jing="司正升相旅", zhu="旅，序也。於是介酬眾賓，眾賓又以次序相酬。")
    a = compose_answer(analyze("What is 旅酬?"), [hit(jing_only, 0.9), hit(gloss, 0.88)])
    assert a.evidence[0].text.startswith("旅，序也。")
    part = LemmaUnit(id="zhushu.xiangyin.t05", work="儀禮注疏", rite="鄉飲酒禮", source=SRC, lines=(5, 6), section="經",
                     jing="樂正告于賓", zhu="正，長也。")
    whole = LemmaUnit(id="zhushu.yan.t06", work="儀禮注疏", rite="燕禮", source=SRC, lines=(7, 8), section="經",
                      jing="樂正先升", zhu="樂正，於天子樂師也。凡樂，掌其序事。")
    a = compose_answer(analyze("樂正是什麼官"), [hit(part, 0.9), hit(whole, 0.85)])
    assert a.evidence[0].text.startswith("樂正，於天子樂師也。")


# ── notices and English glosses ──────────────────────────────────────────────


def _hit(u: LemmaUnit, score: float = 1.0, low: bool = False) -> Hit:
    return Hit(unit=u, score=score, passages=(), low_confidence=low)


def test_a_rite_outside_the_corpus_gets_a_scope_notice_not_an_answer():
    a = compose_answer(analyze("士冠禮三加，各用何冠？"), [_hit(GAOZHI)])
    assert not a.found and a.notice
    assert "士冠禮" in a.notice and "鄉飲酒禮" in a.notice and "燕禮" in a.notice and "方苞" in a.notice
    assert a.text.startswith(a.notice)
    assert a.to_dict()["notice"] == a.notice and a.to_dict()["found"] is False


def test_scope_notice_speaks_the_questions_language():
    en = compose_answer(analyze("What caps are used in the capping ceremony?"), [_hit(GAOZHI)])
    assert "does not contain" in en.notice and "士冠禮" in en.notice
    hans = compose_answer(analyze("士昏礼为什么要用雁？"), [_hit(GAOZHI)])
    assert hans.notice.startswith("本语料没有士昏禮")


def test_a_question_about_a_corpus_rite_that_compares_another_is_answered():
    a = compose_answer(analyze("鄉飲酒禮告旨，鄉射禮也告旨嗎？"), [_hit(GAOZHI)])
    # answered, under a note that the corpus holds the other rite only where its commentaries cite or compare it
    assert a.found and a.evidence and "鄉射禮本篇" in a.notice and a.text.startswith(a.notice)


def test_english_question_gets_glosses_of_key_terms():
    a = compose_answer(analyze("Why does the guest say the wine is delicious?"), [_hit(GAOZHI)])
    assert a.found
    glossed = dict(a.glosses)
    assert glossed.get("賓") == "guest"  # the glossary's English, the source's characters
    assert all(isinstance(t, str) and isinstance(e, str) and e for t, e in a.glosses)
    assert a.to_dict()["glosses"] == [list(g) for g in a.glosses]
    assert compose_answer(analyze("賓為什麼說旨？"), [_hit(GAOZHI)]).glosses == ()  # Chinese: none


def test_rows_keep_one_shape():
    a = compose_answer(analyze("賓為什麼說旨？"), [_hit(GAOZHI)])
    assert set(a.to_dict()) == set(error_row("q", "x", "bad"))

