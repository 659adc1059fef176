"""qa.answering.render: highlights in original characters, 繁/简 display, escaping, layered cards."""

from __future__ import annotations

import re
from dataclasses import replace

from qa.answering.compose import compose_answer, query_terms
from qa.retrieval.query import analyze
from qa.answering.render import (
    answer_html,
    answer_terminal,
    cards_html,
    convert_script,
    highlight_spans,
    text_html,
    user_html,
)
from qa.retrieval.retriever import Hit
from qa.corpus.units import LemmaUnit

from test_answer import BU_GAOZHI, GAOZHI

XIYI = LemmaUnit(
    id="xiyi.xiangyin.t01",
    work="仪礼析疑",
    rite="鄉飲酒禮",
    source="000_test.txt",
    lines=(5, 5),
    section="經",
    jing="降席坐奠爵拜告旨",
    xiyi="告旨者美主人之酒",
    related=(GAOZHI.id,),
)
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
