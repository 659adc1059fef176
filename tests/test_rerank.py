"""qa.retrieval.rerank: the second stage re-orders fused units by what their own text holds, on hand-made units.

These are the hand-set bonuses (the learned model reads their order as one of its inputs and is tested in
test_learned_rerank.py), so the module runs with ``LEARNED`` off."""

from __future__ import annotations

import pytest

from qa.corpus.units import LemmaUnit
from qa.retrieval.query import analyze
from qa.retrieval.rerank import DEPTH, gloss_score, has_layer, rerank, share
from qa.retrieval.terms import query_terms


@pytest.fixture(autouse=True)
def _hand_bonuses(monkeypatch):
    import qa.retrieval.rerank as rerank_module

    monkeypatch.setattr(rerank_module, "LEARNED", False)


def unit(uid: str, jing: str, zhu: str = "") -> LemmaUnit:
    return LemmaUnit(id=uid, work="儀禮注疏", rite="鄉飲酒禮", source="t.txt", lines=(1, 1), section="經", jing=jing, zhu=zhu)


BIN_GAOZHI = unit("zhushu.xiangyin.1", "降席，坐奠爵，拜，告旨，執爵，興。", "旨，美也。")
JIE_GAOZHI = unit("zhushu.xiangyin.2", "介升席自北方，祭如賓禮，不嚌肺，不啐酒，不告旨。")
JIE_ONLY = unit("zhushu.xiangyin.3", "主人以介揖讓升，拜如賓禮。")
YAN_UNIT = unit("zhushu.yan.1", "賓升自西階，告旨。")


def test_share_weighs_rare_terms_more():
    assert share({"宾", "旨"}, "宾升") == 0.5
    assert share({"宾", "旨"}, "宾升", {"宾": 1.0, "旨": 3.0}) == 0.25
    assert share(set(), "anything") == 0.0


def test_plain_question_keeps_fused_order_and_scores_without_bonuses():
    q = analyze("告旨")
    fused = [(BIN_GAOZHI, 0.08), (JIE_GAOZHI, 0.05)]
    out = rerank(q, fused)
    assert [u.id for u, _ in out] == [BIN_GAOZHI.id, JIE_GAOZHI.id]


def test_follow_up_puts_the_new_subject_first():
    q = analyze("那介呢？", history=["賓為什麼說旨？"])
    assert q.context  # the previous question's terms are carried
    fused = [(BIN_GAOZHI, 0.09), (JIE_ONLY, 0.08), (JIE_GAOZHI, 0.05)]
    idf = {"宾": 0.5, "旨": 3.0, "介": 1.5}  # 賓 is on every page, 旨 rare (as in the real index)
    order = [u.id for u, _ in rerank(q, fused, idf)]
    # the old subject alone falls below both units about 介; the one in the old situation leads
    assert order == [JIE_GAOZHI.id, JIE_ONLY.id, BIN_GAOZHI.id]


def test_a_follow_up_finds_its_subject_in_the_jing_before_the_unit():
    """The 經 goes on with the subject it named before (司正 … ; 坐取觶 … 退立于觶南): a follow-up carrying 司正 weighs the
    unit with the 經 before it, not only units that name 司正 again."""
    names = unit("zhushu.xiangyin.4", "司正實觶，降自西階，階間北面坐奠觶，退共，少立。", "共，拱手也。")
    goes_on = unit("zhushu.xiangyin.5", "坐取觶，不祭，遂飲，卒觶興，北面坐奠觶于其所，退立于觶南。", "立於其南以察眾。")
    again = unit("zhushu.xiangyin.6", "乃息司正。", "息，勞也。司正，庭長也。")
    q = analyze("喝完以後他站在哪裡？", history=["司正是做什麼的？"])
    fused = [(again, 0.09), (names, 0.085), (goes_on, 0.08)]
    idf = {"司正": 4.0, "站": 2.0, "立": 1.5, "饮": 1.5, "喝": 1.5}
    assert rerank(q, fused, idf)[0][0].id != goes_on.id  # read alone, it names no 司正
    before = {goes_on.id: names.jing, again.id: "主人釋服"}
    assert rerank(q, fused, idf, before=before)[0][0].id == goes_on.id


def test_a_named_commentator_prefers_units_holding_that_layer():
    xiyi = LemmaUnit(id="xiyi.yan.1", work="儀禮析疑", rite="燕禮", source="x.txt", lines=(1, 1), section="經",
                     jing="宾升自西阶告旨", xiyi="告旨者所以答主人之意也")
    assert has_layer(xiyi, "xiyi") and not has_layer(BIN_GAOZHI, "xiyi") and has_layer(BIN_GAOZHI, "zhu")
    q = analyze("告旨，方苞怎麼看？")
    assert q.layers == ("xiyi",)
    assert rerank(q, [(BIN_GAOZHI, 0.08), (xiyi, 0.075)])[0][0].id == xiyi.id
    # naming two and asking neither (鄭玄和方苞都說了什麼) prefers neither: the unit may hold either
    two = analyze("鄭玄和方苞都說了告旨的什麼？")
    assert len(set(two.layers)) == 2
    assert rerank(two, [(BIN_GAOZHI, 0.08), (xiyi, 0.075)])[0][0].id == BIN_GAOZHI.id


def test_a_unit_of_the_one_named_layer_leads_whatever_ordered_the_head():
    from qa.retrieval.rerank import NAMED_LAYER_WITHIN, _named_layer_first

    xiyi = LemmaUnit(id="xiyi.yan.1", work="儀禮析疑", rite="燕禮", source="x.txt", lines=(1, 1), section="經",
                     jing="宾升自西阶告旨", xiyi="告旨者所以答主人之意也")
    q = analyze("告旨，方苞怎麼看？")
    head = [(BIN_GAOZHI, 1.0), (JIE_ONLY, 0.9), (xiyi, 0.8)]
    assert NAMED_LAYER_WITHIN >= 3
    assert [u.id for u, _ in _named_layer_first(q, head)] == [xiyi.id, BIN_GAOZHI.id, JIE_ONLY.id]
    assert [s for _, s in _named_layer_first(q, head)] == [1.0, 0.9, 0.8]  # the scores keep their order
    assert _named_layer_first(analyze("告旨是什麼意思？"), head) == head  # no commentator named
    # 鄭注 or 賈疏 named: every 注疏 unit holds a 注, and a 疏 asked of a quoted 注 may be answered by that 注
    assert _named_layer_first(analyze("告旨，鄭注怎麼說？"), head) == head
    assert _named_layer_first(analyze("告旨，賈疏怎麼說？"), head) == head
    far = [(BIN_GAOZHI, 1.0), (JIE_ONLY, 0.9), (JIE_GAOZHI, 0.85), (xiyi, 0.8)]
    assert _named_layer_first(q, far) == far  # too far down to lead


def test_named_rite_is_preferred():
    q = analyze("燕禮告旨")
    assert q.rites == ("yan",)
    out = rerank(q, [(BIN_GAOZHI, 0.08), (YAN_UNIT, 0.075)])
    assert out[0][0].id == YAN_UNIT.id


def test_a_close_unit_of_the_one_named_rite_leads_whatever_ordered_the_head():
    from qa.retrieval.rerank import NAMED_RITE_CLOSE, _named_rite_first

    q = analyze("燕禮為什麼脫鞋？")
    close = [(BIN_GAOZHI, 1.0), (JIE_ONLY, 0.99), (YAN_UNIT, NAMED_RITE_CLOSE)]
    assert [u.id for u, _ in _named_rite_first(q, close)] == [YAN_UNIT.id, BIN_GAOZHI.id, JIE_ONLY.id]
    assert [s for _, s in _named_rite_first(q, close)] == [1.0, 0.99, NAMED_RITE_CLOSE]  # the scores keep their order
    far = [(BIN_GAOZHI, 1.0), (YAN_UNIT, NAMED_RITE_CLOSE - 0.01)]
    assert _named_rite_first(q, far) == far  # clearly better: another rite's unit keeps the lead
    assert _named_rite_first(analyze("為什麼脫鞋？"), close) == close  # no rite named
    assert _named_rite_first(analyze("燕禮和鄉飲酒禮為什麼脫鞋？"), close) == close  # two named


def test_only_the_head_is_reordered_and_the_tail_keeps_its_scores():
    q = analyze("那介呢？", history=["賓為什麼說旨？"])
    filler = [(unit(f"zhushu.xiangyin.f{i}", "主人答拜。"), 1.0 - i / 100) for i in range(DEPTH)]
    tail = [(JIE_GAOZHI, 0.001)]
    out = rerank(q, filler + tail)
    assert out[-1] == tail[0] and len(out) == DEPTH + 1
    assert rerank(q, []) == []


LYUCHOU_JING = unit("zhushu.xiangyin.4", "賓以旅酬於西階上。")
LYU_GLOSS = unit("zhushu.xiangyin.5", "司正升相旅。", "旅，序也。於是介酬眾賓。")
YUE_ZHENG_PART = unit("zhushu.xiangyin.6", "樂正告于賓。", "正，長也。")
YUE_ZHENG_WHOLE = unit("zhushu.yan.2", "樂正先升。", "樂正，於天子樂師也。")


def test_definition_question_prefers_the_unit_glossing_the_asked_term():
    for question in ("What is 旅酬?", "何謂旅酬", "旅酬是什麼意思"):
        out = rerank(analyze(question), [(LYUCHOU_JING, 0.08), (LYU_GLOSS, 0.079)])
        assert out[0][0].id == LYU_GLOSS.id, question
    # not a definition question: no gloss bonus, the fused order stays
    out = rerank(analyze("賓以旅酬於西階上"), [(LYUCHOU_JING, 0.08), (LYU_GLOSS, 0.079)])
    assert out[0][0].id == LYUCHOU_JING.id


def test_a_gloss_of_the_whole_term_beats_one_of_its_characters():
    t = query_terms(analyze("樂正是什麼官"))
    assert gloss_score(YUE_ZHENG_WHOLE, t) == 1.0 and gloss_score(YUE_ZHENG_PART, t) == 0.5
    out = rerank(analyze("樂正是什麼官"), [(YUE_ZHENG_PART, 0.08), (YUE_ZHENG_WHOLE, 0.075)])
    assert out[0][0].id == YUE_ZHENG_WHOLE.id


def test_a_unit_whose_jing_holds_the_quoted_phrase_comes_first():
    # 「疑立」 quoted: the unit whose 經 says it is the one asked about, not one whose 經 only says 立
    yili = unit("zhushu.xiangyin.4", "卒盥，揖讓升。賓西階上疑立。", "疑，正立自定之貌。")
    li = unit("zhushu.xiangyin.5", "介西階上立。")
    q = analyze("「疑立」是站著猶豫不決嗎？")
    assert [u.id for u, _ in rerank(q, [(li, 0.09), (yili, 0.08)])] == [yili.id, li.id]
    # without the quotation marks the same words carry no such weight from the quote
    plain = analyze("站在西階上猶豫不決嗎？")
    assert [u.id for u, _ in rerank(plain, [(li, 0.09), (yili, 0.08)])][0] == li.id


def test_of_two_commentators_named_the_one_asked_decides_the_layer():
    xiyi = LemmaUnit(id="xiyi.yan.2", work="儀禮析疑", rite="燕禮", source="x.txt", lines=(1, 1), section="經",
                     jing="宾升自西阶告旨", xiyi="告旨者所以答主人之意也")
    asked = analyze("鄭注說旨是美，方苞怎麼看告旨？")
    assert set(asked.layers) == {"zhu", "xiyi"}
    assert rerank(asked, [(BIN_GAOZHI, 0.08), (xiyi, 0.07)])[0][0].id == xiyi.id
    english = analyze("Zheng's note says zhi means fine: what does Fang Bao think of the guest's gaozhi?")
    assert set(english.layers) == {"zhu", "xiyi"}
    assert rerank(english, [(BIN_GAOZHI, 0.08), (xiyi, 0.07)])[0][0].id == xiyi.id
    # neither asked: no layer is preferred, the fused order stands
    both = analyze("鄭玄和方苞都說了告旨的什麼？")
    assert rerank(both, [(BIN_GAOZHI, 0.08), (xiyi, 0.07)])[0][0].id == BIN_GAOZHI.id


def test_a_unit_that_only_says_the_act_is_not_done_answers_only_why_not():
    from qa.retrieval.features import only_negated

    assert only_negated("不告旨", {"告旨"}) and not only_negated("降席坐奠爵拜告旨执爵兴", {"告旨"})
    assert not only_negated("告旨不告旨", {"告旨"}) and not only_negated("主人揖降", {"告旨"})
    host = unit("zhushu.xiangyin.6", "不告旨。", "酒，己物也。")
    # the guest praises the wine: the unit where it is done, not the one where the host does not
    asked = analyze("Why does the guest praise the wine?")
    assert rerank(asked, [(host, 0.09), (BIN_GAOZHI, 0.085)])[0][0].id == BIN_GAOZHI.id
    # why the host does not: the omission is the answer
    why_not = analyze("主人為什麼不告旨？")
    assert rerank(why_not, [(host, 0.09), (BIN_GAOZHI, 0.085)])[0][0].id == host.id
