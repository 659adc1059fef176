"""qa.present.render: highlights in original characters, 繁/简 display, escaping, layered cards."""

from __future__ import annotations

import re
from dataclasses import replace

from conftest import BU_GAOZHI, GAOZHI, XIYI

from qa.answering.compose import compose_answer, query_terms
from qa.present.render import (
    Display,
    answer_html,
    answer_terminal,
    cards_html,
    convert_script,
    highlight_spans,
    shown_evidence,
    text_html,
    user_html,
)
from qa.retrieval.query import analyze
from qa.retrieval.retriever import Hit

GAOZHI_LINKED = replace(GAOZHI, related=(XIYI.id,))


def terms(q: str):
    return query_terms(analyze(q))


def test_highlights_map_back_to_original_characters():
    text = "釋曰︰賓言旨，甘主人之位。"
    spans = highlight_spans(text, terms("宾为何言旨"))  # simplified question, traditional text
    assert [text[s:e] for s, e in spans] == ["賓言旨"]


def test_highlight_skips_punctuation_between_matches():
    text = "降席，坐奠爵，拜，告旨，執爵"
    spans = highlight_spans(text, terms("降席坐 告旨"))
    assert [text[s:e] for s, e in spans] == ["降席", "坐", "告旨"]


def test_html_is_escaped_and_marks_matches():
    html = text_html("<b>旨</b>，美也。", terms("旨"))
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert "<mark>旨</mark>" in html


def test_user_text_is_inert():
    html = user_html("<img src=x onerror=alert(1)>\n**bold**")
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert html.startswith('<div class="qa-user">') and "<br>" in html


def test_script_toggle_converts_display_only():
    assert convert_script("賓言旨", "hans") == "宾言旨"
    assert convert_script("宾言旨", "hant") == "賓言旨"
    assert convert_script("賓言旨", "original") == "賓言旨"
    html = text_html("賓言旨", terms("賓"), "hans")
    assert html == "<mark>宾</mark>言旨"


def test_card_layers_are_distinct_and_shu_collapsible():
    h = Hit(unit=GAOZHI, score=0.9, passages=(), low_confidence=False)
    html = cards_html([h], terms("賓為什麼說旨？"))
    assert 'class="qa-layer qa-jing"' in html and 'class="qa-layer qa-zhu"' in html
    assert re.search(r'<details class="qa-layer qa-shu"[^>]*><summary>', html)
    assert GAOZHI.id in html and "003_c949fed6c9cacba9.txt:109–111" in html
    # the 經 comes first, then 注, then 疏
    assert html.index("qa-jing") < html.index("qa-zhu") < html.index("qa-shu")


def test_xiyi_is_shown_beside_its_aligned_unit():
    hz = Hit(unit=GAOZHI_LINKED, score=0.9, passages=(), low_confidence=False)
    hx = Hit(unit=XIYI, score=0.5, passages=(), low_confidence=False)
    html = cards_html([hx, hz], terms("告旨"), units_by_id={XIYI.id: XIYI, GAOZHI.id: GAOZHI_LINKED})
    assert html.count('class="qa-card"') == 1  # the 析疑 unit rides beside, not as its own card
    side = html[html.index('<aside class="qa-side">') :]
    assert XIYI.id in side and "qa-xiyi" in side
    # alone, a 析疑 hit shows its aligned 注疏 unit beside it
    html = cards_html([hx], terms("告旨"), units_by_id={GAOZHI.id: GAOZHI_LINKED})
    assert GAOZHI.id in html[html.index("qa-side") :]


def test_answer_html_opens_the_shu_that_answered_and_cites():
    a = compose_answer(analyze("賓為什麼說旨？"), [Hit(GAOZHI, 0.9, (), False), Hit(BU_GAOZHI, 0.3, (), False)])
    html = answer_html(a, terms("賓為什麼說旨？"))
    assert html.startswith('<div class="qa-reply"><div class="qa-answer"><ol>')
    assert "<details class=\"qa-layer qa-shu\" open>" in html
    assert "zhushu.xiangyin.t02" in html and "儀禮注疏·鄉飲酒禮·注" in html


def test_not_found_html_labels_the_nearest_units():
    a = compose_answer(analyze("asdf"), [Hit(GAOZHI, 0.01, (), True)])
    html = answer_html(a, terms("asdf"))
    assert "qa-notfound" in html and "nearest passages, not an answer" in html and GAOZHI.id in html


def test_terminal_labels_layers_and_colors_only_when_asked():
    a = compose_answer(analyze("賓為什麼說旨？"), [Hit(GAOZHI, 0.9, (), False)])
    plain = answer_terminal(a, terms("賓為什麼說旨？"), color=False)
    assert "\x1b[" not in plain
    for label in ("答", "經", "注", "疏"):
        assert label in plain
    assert "—— 儀禮注疏·鄉飲酒禮·注·zhushu.xiangyin.t02" in plain
    colored = answer_terminal(a, terms("賓為什麼說旨？"), color=True)
    assert "\x1b[1;33m旨\x1b[0m" in colored


# ---------------------------------------------------------------- the web page's needs (issue 10)


def _hit(unit, score=0.5):
    return Hit(unit=unit, score=score, passages=(), low_confidence=False)


def _unmarked(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_hant_display_converts_only_simplified_sources():
    """A scholar's text is never changed by a display option: 繁 leaves a traditional source as
    it is (s2t would turn its 云 into 雲), and converts a simplified one."""
    d = Display(script="hant", simplified=frozenset({XIYI.source}))
    zhu = "云「啐亦嘗」者，主人立于阼階，辟君也。"
    assert convert_script(zhu, "hant") != zhu  # OpenCC s2t alone: 雲「啐亦嘗」, 於阼階, 闢君
    html = cards_html([_hit(replace(GAOZHI, zhu=zhu))], None, d)
    assert GAOZHI.shu[0].text in _unmarked(html)
    assert zhu in _unmarked(html)
    side = cards_html([_hit(XIYI)], None, d)
    assert convert_script(XIYI.xiyi, "hant") in _unmarked(side)  # 方苞's simplified text is converted
    hans = cards_html([_hit(GAOZHI)], None, Display(script="hans"))
    assert "主人云崇者" in _unmarked(hans) and "执爵" in _unmarked(hans)  # 简 converts all


def test_common_single_characters_are_not_highlighted_alone():
    t = terms("主人為什麼拜崇酒？")
    common = frozenset("主人拜酒")
    spans = highlight_spans("主人拜崇酒。人有禮。", t, common)
    text = "主人拜崇酒。人有禮。"
    marked = [text[s:e] for s, e in spans]
    assert "人有禮" not in "".join(marked[1:])  # no lone 人 after the sentence
    assert marked[0].startswith("主人")  # the two-character term is highlighted
    assert all(text[s:e] != "人" for s, e in spans)
    # a question that is one character shows that character, common or not
    assert highlight_spans("賓言旨", terms("賓"), frozenset("宾")) == [(0, 1)]


def test_cards_show_no_score_number_consecutively_and_skip_empty_shu():
    from qa.corpus.units import ShuPart

    headless = replace(BU_GAOZHI, shu=(ShuPart("經", "「不告」至「旨」", "", header="疏「不告」至「旨」。"),))
    hz, hx, hb = _hit(GAOZHI_LINKED, 0.079), _hit(XIYI), _hit(headless)
    html = cards_html([hz, hx, hb], terms("告旨"), units_by_id={XIYI.id: XIYI, GAOZHI.id: GAOZHI_LINKED})
    assert "score" not in html and "0.079" not in html
    assert re.findall(r'class="qa-rank">\[(\d+)\]', html) == ["1", "2"]  # the 析疑 rides beside card 1
    card2 = html[html.index('class="qa-rank">[2]') :]
    assert "qa-shu" not in card2  # a header-only 疏 part is neither shown nor counted


def test_cited_sentences_carry_plain_text_copy_buttons_and_unit_links():
    a = compose_answer(analyze("賓為什麼說旨？"), [_hit(GAOZHI, 0.9)])
    html = answer_html(a, terms("賓為什麼說旨？"), turn=3)
    assert html.startswith('<div class="qa-reply qa-turn-3">')
    sources = re.findall(r'<span class="qa-copy-src">(.*?)</span>', html)
    assert sources and all("<" not in s for s in sources)
    assert any(s.startswith("旨，美也。——儀禮注疏·鄉飲酒禮·注·zhushu.xiangyin.t02") for s in sources)
    assert f'href="?unit={GAOZHI.id}"' in html
    assert "qa-k-t3_zhushu_xiangyin_t02" in html  # keys let the page keep what a reader opened


def test_copy_text_is_escaped_markup_never_live():
    evil = replace(GAOZHI, zhu="旨，美也。<b>x</b>")
    a = compose_answer(analyze("旨"), [_hit(evil, 0.9)])
    html = answer_html(a, terms("旨"))
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_rite_and_layer_filters_and_hooks():
    a = compose_answer(analyze("賓為什麼說旨？"), [_hit(GAOZHI, 0.9), _hit(BU_GAOZHI, 0.3)])
    only_shu = Display(layers=frozenset({"shu"}))
    assert {e.layer for e in shown_evidence(a, only_shu)} <= {"shu"}
    html = answer_html(a, a.terms, only_shu)
    assert "qa-zhu" not in html and "qa-jing" in html  # 經 stays as the anchor
    none = answer_html(a, a.terms, Display(rites=frozenset({"燕禮"})))
    assert "qa-card" not in none and "no cited sentence" in none
    hooked = Display(
        stage_of=lambda u: "正獻" if u.id == GAOZHI.id else None,
        cite=lambda e: f"《儀禮注疏》卷八，{e.unit_id}",
        corrections=lambda u: ("「旨」當作「指」（測試）",) if u.id == GAOZHI.id else (),
    )
    html = answer_html(a, a.terms, hooked)
    assert '<span class="qa-stage">正獻</span>' in html
    assert "《儀禮注疏》卷八，zhushu.xiangyin.t02" in html
    assert "qa-corr" in html and "當作" in html
