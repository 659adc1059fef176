"""qa.corpus.renderings / qa.retrieval.renderings: the units' plain English / modern-Chinese retellings, a retrieval channel."""

from __future__ import annotations

import logging

import pytest
from conftest import assert_rows_name_every_unit

from qa.corpus.units import LemmaUnit
from qa.retrieval import fusion
from qa.retrieval.bags import BagIndex
from qa.retrieval.confidence import ritual_share
from qa.retrieval.query import analyze
from qa.retrieval.renderings import (
    Rendering,
    RenderingIndex,
    chinese_bag,
    english_bag,
    opening,
    renderings,
)
from qa.retrieval.shadow import english_key, stopwords


def unit(uid: str, jing: str, zhu: str = "") -> LemmaUnit:
    return LemmaUnit(id=uid, work="儀禮注疏", rite="鄉飲酒禮", source="t.txt", lines=(1, 1), section="經",
                     jing=jing, zhu=zhu, shu=())


UNITS = [unit("t.x.1", "尊兩壺于房戶間，有玄酒，在西。"), unit("t.x.2", "樂正先升，北面立于其西。"),
         unit("t.x.3", "主人坐取爵于篚，降洗。")]


def table(*rows: tuple[str, str, str]) -> dict[str, Rendering]:
    by_id = {u.id: u for u in UNITS}
    return {uid: Rendering(uid, opening(by_id[uid]), en, zh) for uid, en, zh in rows}


TABLE = table(("t.x.1", "Two wine jars; a jar of plain water, the dark wine, on the west.", "两只酒壶，一壶清水放在西边。"),
              ("t.x.2", "The music master goes up first and stands facing north.", "乐队的领头先上堂，面朝北站着。"),
              ("t.x.3", "The host takes the cup from the basket and goes down to wash it.", "主人从筐里拿杯子，下堂去洗。"))


def test_bags_hold_content_words_and_grams():
    en = english_bag([("The host washes the cups twice.", 1.0), ("washing", 0.5)], stopwords())
    assert en[english_key("wash")] == 1.5 and english_key("host") in en and "the" not in en
    zh = chinese_bag([("主人洗杯子了。", 1.0)])
    assert {"洗", "杯子", "主人"} <= set(zh) and "了" not in zh  # a modern function character is no unigram


def test_a_lay_question_meets_the_unit_retold_in_its_words():
    idx = RenderingIndex.build(UNITS, TABLE)
    assert idx.covered == 3
    first = lambda text: idx.rank(analyze(text), 3)[0][0]  # noqa: E731
    assert first("Why is there a jar of plain water next to the wine?") == 0
    assert first("为什么酒壶旁边要放一壶清水？") == 0
    assert first("Who leads the band up?") == 1 or first("Who is the music master?") == 1
    assert first("去哪儿洗杯子？") == 2
    assert idx.rank(analyze("How do I install Python?"), 3) == []  # nothing shared, nothing ranked


def test_a_row_that_names_another_unit_is_skipped(caplog):
    wrong = {"t.x.1": Rendering("t.x.1", "樂正先升北面立于", "The music master goes up.")}
    with caplog.at_level(logging.WARNING, logger="qa.retrieval.renderings"):
        idx = RenderingIndex.build(UNITS, wrong)
    assert idx.covered == 0 and "t.x.1" in caplog.text
    assert idx.rank(analyze("Who is the music master?"), 3) == []


def test_bag_index_ranks_by_bm25():
    idx = BagIndex.build([{"a": 1.0}, {"a": 3.0, "b": 1.0}, {"b": 1.0}])
    assert [u for u, _ in idx.rank({"a": 1.0}, 5)] == [1, 0]
    assert idx.rank({"zzz": 1.0}, 5) == [] and idx.rank({}, 5) == []
    assert BagIndex.top(idx.scores({"a": 1.0, "b": 1.0}), 1)[0][0] == 1


def test_empty_bags_are_no_documents_when_skipped():
    """Two languages in one list of documents: each bag is empty in the other language's index. Skipped, the empty
    ones change neither the collection size nor the mean length BM25 reads, so one language's scores do not move when
    the other's documents are added."""
    bags = [{"a": 1.0}, {"a": 3.0, "b": 1.0}, {"b": 1.0}]
    alone = BagIndex.build(bags, skip_empty=True).scores({"a": 1.0, "b": 1.0})
    padded = BagIndex.build([*bags, {}, {}, {}, {}], skip_empty=True).scores({"a": 1.0, "b": 1.0})
    assert padded[:3].tolist() == alone.tolist() and not padded[3:].any()
    counted = BagIndex.build([*bags, {}, {}, {}, {}]).scores({"a": 1.0, "b": 1.0})
    assert counted[:3].tolist() != alone.tolist()  # counted as documents, the empty bags move the scores


def test_languages_that_use_the_channel():
    assert fusion.rendering_weight(analyze("Why is there plain water by the wine?")) > 0
    assert fusion.rendering_weight(analyze("为什么要放一壶清水？")) > 0
    classical = analyze("玄酒在西者何？")
    assert classical.lang == "lzh" and fusion.rendering_weight(classical) == 0.0
    assert "rendering" not in fusion.weights_for(classical)


def test_a_traditional_chinese_question_in_modern_words_weighs_the_channel_up():
    # a traditional-Chinese question uses the channel only when it writes little of the corpus's words
    modern = analyze("樂師喝酒是坐著喝還是站著喝？")
    assert modern.lang == "zh-Hant" and fusion.rendering_weight(modern) == 0.0
    assert fusion.rendering_weight(modern, share=0.3) == fusion.MODERN_RENDERING_WEIGHT
    assert fusion.rendering_weight(modern, share=0.9) == 0.0
    assert fusion.weights_for(modern, 0.3)["rendering"] == fusion.MODERN_RENDERING_WEIGHT
    simplified = analyze("为什么要放一壶清水？")
    assert fusion.rendering_weight(simplified, share=0.9) == fusion.RENDERING_WEIGHTS["zh-Hans"]
    assert fusion.rendering_weight(simplified, share=0.3) == fusion.RENDERING_WEIGHTS["zh-Hans"]  # its own weight always
    english = analyze("Why is there plain water by the wine?")
    assert fusion.rendering_weight(english, share=0.1) == fusion.RENDERING_WEIGHTS["en"]


# ---------------------------------------------------------------- the real corpus


def test_every_unit_of_the_corpus_is_rendered_and_every_row_names_a_unit(real_retriever):
    rows = renderings()
    units = {u.id: u for u in real_retriever.units}
    assert_rows_name_every_unit(rows, units)
    assert all(r.en and r.zh for uid, r in rows.items() if units[uid].jing)
    assert real_retriever.renderings.covered == len(units)


def test_lay_questions_reach_the_unit_through_the_channel(real_retriever):
    for text in ("Why is there a jar of plain water next to the wine?", "为什么酒壶旁边要放一壶清水？"):
        q = real_retriever.understand(analyze(text))
        assert real_retriever.rendering_ranking(q)[0][0] == "zhushu.xiangyin.007", text  # 尊兩壺…玄酒在西
        assert real_retriever.search(q, 1)[0].unit.id == "zhushu.xiangyin.007", text


def test_a_traditional_chinese_question_in_modern_words_reaches_the_unit_through_the_channel(real_retriever):
    # 「為什麼酒壺旁邊要放一壺清水？」 writes none of 玄酒, 尊, 壺 as the corpus does: its ritual share is low,
    # the renderings channel joins the fusion, and the 玄酒 unit is found
    q = real_retriever.understand(analyze("為什麼酒壺旁邊要放一壺清水？"))
    share = ritual_share(q, real_retriever.data.lexical.term_idf())
    assert q.lang == "zh-Hant" and share < fusion.MODERN_SHARE
    assert real_retriever.rendering_ranking(q) == []  # by language alone the channel is off
    assert real_retriever.rendering_ranking(q, share)[0][0] == "zhushu.xiangyin.007"
    assert "zhushu.xiangyin.007" in [h.unit.id for h in real_retriever.search(q, 3)]


def test_renderings_are_never_shown(real_retriever):
    rows = renderings()
    answer = real_retriever.ask("Why is there a jar of plain water next to the wine?")
    shown = answer.text
    assert answer.found and "玄酒" in shown
    assert not any(r.en and r.en[:40] in shown or r.zh and r.zh[:20] in shown for r in rows.values())


@pytest.mark.parametrize("field", ["en", "zh"])
def test_renderings_are_plain_text(field):
    for r in renderings().values():
        text = getattr(r, field)
        assert "\t" not in text and "\n" not in text and len(text) < 900, r.unit_id


def test_every_sentence_of_the_zhu_and_shu_is_rendered_once(real_retriever):
    from qa.answering.sentences import split_sentences
    from qa.corpus.renderings import sentence_renderings
    from qa.retrieval.renderings import sentence_words
    from qa.text.normalize import normalize

    table = sentence_renderings()
    texts = [(u.id, t) for u in real_retriever.units for t in (u.zhu, *(p.text for p in u.shu)) if t]
    wanted = {(uid, normalize(t[a:b])) for uid, t in texts for a, b in split_sentences(t)}
    wanted.discard(next((k for k in wanted if not k[1]), ("", "")))
    assert set(table) == wanted, (sorted(wanted - set(table))[:3], sorted(set(table) - wanted)[:3])
    assert all(w.english and w.chinese for w in sentence_words().values())


def test_a_lay_question_meets_the_note_sentence_that_answers_it(real_retriever):
    """The sentence scorer reads a 注 sentence's plain rendering: 「屨賤，不在堂也」 is about shoes
    being lowly, which the question says in its own words and the 注 in none of them."""
    from qa.answering.sentences import _candidates, scoring

    for text in ("Why do they take their shoes off before sitting?", "为什么坐下之前要把鞋脱掉？"):
        q = real_retriever.understand(analyze(text))
        hits = real_retriever.search(q, 5)
        cands = [c for c in _candidates(hits) if c.unit.id == "zhushu.yan.b001" and c.layer == "zhu"]
        assert cands, [h.unit.id for h in hits]
        ctx = scoring(q, hits, cands)
        shoes = next(c for c in cands if c.sentences[0].startswith("凡燕坐必說屨"))
        assert ctx.parts(shoes).plain > 0, text


def test_an_english_answer_shows_its_first_sentence_in_plain_english(real_retriever):
    from qa.corpus.renderings import sentence_renderings
    from qa.present.render import answer_html, answer_terminal
    from qa.text.normalize import normalize

    a = real_retriever.ask("Why do they take their shoes off before sitting?")
    first = a.evidence[0]
    # either rite's 注 answers it: 「說屨者，為安燕當坐也」 (鄉飲酒禮) or 「凡燕坐必說屨，屨賤，不在堂也」 (燕禮)
    reasons = {"zhushu.xiangyin.120": "說屨者，為安燕當坐也。", "zhushu.yan.b001": "凡燕坐必說屨，屨賤，不在堂也。"}
    # (the reason may come with the 注's next sentence, 「必說於下者，屨賤，不空居堂」, read as one answer)
    assert a.found and first.layer == "zhu" and first.unit_id in reasons and first.text.startswith(reasons[first.unit_id])
    label, text = a.plain
    assert label.startswith("Zheng Xuan's note")
    assert sentence_renderings()[(first.unit_id, normalize(reasons[first.unit_id]))].en in text
    assert a.to_dict()["plain"] == [label, text]
    page = answer_html(a, a.terms)
    assert "not a source" in page and text.split()[0] in page and 'class="qa-aid" lang="en"' in page
    assert "not a source" in answer_terminal(a, a.terms, color=False)
    assert first.text in a.text and text not in a.text  # the cited text is the source's, the aid is apart


def test_a_chinese_answer_has_no_plain_english(real_retriever):
    a = real_retriever.ask("賓為什麼說旨？")
    assert a.found and a.plain == () and a.to_dict()["plain"] == []


def test_plain_english_by_layer(real_retriever):
    """A 疏 sentence is retold by its own rendering, a 經 sentence by its passage's, a 析疑 note by the line
    on Fang Bao's point; a sentence the table does not hold gets nothing rather than a wrong retelling."""
    from qa.answering.compose import PLAIN_LABELS, Evidence, plain_english
    from qa.answering.sentences import split_sentences

    by_id = {u.id: u for u in real_retriever.units}

    def evidence(uid: str, layer: str, text: str) -> Evidence:
        u = by_id[uid]
        return Evidence(text, u.id, u.work, u.rite, layer, u.source, u.lines, 1.0)

    u = by_id["zhushu.xiangyin.120"]
    shu = u.shu[0].text
    a, b = split_sentences(shu)[0]
    label, text = plain_english(u, evidence(u.id, "shu", shu[a:b]))
    assert label == PLAIN_LABELS["shu"] and text
    assert plain_english(u, evidence(u.id, "jing", u.jing))[0] == PLAIN_LABELS["jing"]
    assert plain_english(u, evidence(u.id, "zhu", "並非注文。")) == ()  # no rendering: nothing shown
    x = next(v for v in real_retriever.units if v.xiyi and v.jing)
    assert plain_english(x, evidence(x.id, "xiyi", x.xiyi[:20]))[0] == PLAIN_LABELS["xiyi"]


def test_the_encoder_trains_on_no_row_that_names_another_unit(monkeypatch):
    from qa.corpus import renderings as corpus_renderings
    from qa.indexing.encoders.static import rendering_pairs
    from qa.indexing.passages import make_passages

    passages = make_passages(UNITS)
    groups = {u.id: i for i, u in enumerate(UNITS)}
    wrong = dict(TABLE)
    wrong["t.x.1"] = Rendering("t.x.1", opening(UNITS[1]), "The music master goes up.", "乐队的领头先上堂。")
    monkeypatch.setattr(corpus_renderings, "renderings", lambda: wrong)
    anchors, positives, _ = rendering_pairs(passages, groups)
    assert anchors and all("玄酒" not in p for p in positives)  # t.x.1's row quotes t.x.2: not trained on
    monkeypatch.setattr(corpus_renderings, "renderings", lambda: TABLE)
    assert any("玄酒" in p for p in rendering_pairs(passages, groups)[1])
