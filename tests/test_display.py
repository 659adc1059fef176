"""qa.present.display: which sources 繁 may convert, common characters, filters."""

from __future__ import annotations

from conftest import BU_GAOZHI, GAOZHI, XIYI

from qa.present.display import Display, as_display, common_chars, simplified_sources
from qa.settings import PROJECT_ROOT


def test_catalog_marks_the_simplified_sources():
    assert simplified_sources(PROJECT_ROOT / "seeds") == {"000_cb0ccdf07e5071ea.txt"}  # 方苞《仪礼析疑》


def test_hant_converts_only_simplified_sources_hans_all():
    d = Display(script="hant", simplified=frozenset({"000.txt"}))
    assert d.script_for("000.txt") == "hant" and d.script_for("003.txt") == "original"
    assert Display(script="hans").script_for("003.txt") == "hans"
    assert as_display("hans") == Display(script="hans")


def test_common_chars_are_those_in_many_units():
    common = common_chars([GAOZHI, BU_GAOZHI, XIYI], share=0.5)
    assert "旨" in common and "崇" not in common  # 旨 in all three, 崇 only in one


def test_filters_keep_the_jing_as_anchor():
    d = Display(rites=frozenset({"燕禮"}), layers=frozenset({"shu"}))
    assert d.shows_rite("燕禮") and not d.shows_rite("鄉飲酒禮")
    assert d.shows_layer("jing") and d.shows_layer("shu") and not d.shows_layer("zhu")
    assert Display().shows_layer("xiyi") and Display().shows_rite("鄉飲酒禮")
