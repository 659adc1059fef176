"""qa.present.guide: stage paths, the outline to browse, a unit's reading view, 校讀 marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.context import CorpusContext
from qa.corpus.corrections import Correction
from qa.corpus.load import load_corpus
from qa.present.guide import outline_entries, reading_view, stage_label
from qa.present.render import jiaodu_text_html

ROOT = Path(__file__).resolve().parent.parent
XY = "zhushu.xiangyin."


@pytest.fixture(scope="module")
def ctx() -> CorpusContext:
    return CorpusContext.build(load_corpus(ROOT / "seeds"))


def test_stage_label(ctx):
    assert stage_label(ctx, XY + "088") == "鄉飲酒禮 › 主人樂賓 › 獻笙者"
    assert stage_label(ctx, XY + "038") == "鄉飲酒禮 › 主人盥洗獻賓"
    assert stage_label(ctx, "xiyi.yan.045") == "燕禮 › 作樂"  # a 析疑 lemma takes its aligned unit's stage
    assert stage_label(ctx, XY + "005") == "鄉飲酒禮"  # unstaged: the rite alone


def test_outline_entries_nest_and_list_units_in_reading_order(ctx):
    xy = outline_entries(ctx, "鄉飲酒禮")
    assert len(xy) == 19 and len(outline_entries(ctx)) == 27
    music, sheng, he, sizheng = xy[10:14]
    assert [(e.title, e.depth) for e in (music, sheng, he, sizheng)] == [
        ("主人樂賓", 0), ("獻笙者", 1), ("堂上元缺一字堂下眾聲俱合", 1), ("立司正", 0)
    ]
    assert music.units == tuple(f"{XY}{i:03d}" for i in range(76, 92)) and he.units == (XY + "090",)
    assert sizheng.statement == "自此至「退立于觶南」，論立司正之事"
    yan = outline_entries(ctx, "燕禮")
    assert [e.title for e in yan][3:5] == ["作樂", "獻士"] and yan[3].units == ("zhushu.yan.a016", "zhushu.yan.a017")


def test_reading_view(ctx):
    v = reading_view(ctx, "xiyi.yan.019")
    assert (v.previous.id, v.next.id, v.label) == ("xiyi.yan.018", "xiyi.yan.020", "燕禮")
    assert v.citation == "《仪礼析疑》卷六〈燕禮〉「主人坐祭不啐酒」（欽定四庫全書本，000:41）"
    assert [p.unit for p in v.parallels] == [XY + "060", XY + "056", XY + "038"]
    assert [c.corrected for c in v.corrections] == ["旨", "旨", "旨"]
    with pytest.raises(KeyError):
        reading_view(ctx, "nope")


def test_jiaodu_marks_the_correction_and_keeps_the_source_on_hover(ctx):
    v = reading_view(ctx, "zhushu.yan.a003")
    fixes = [c for c in v.corrections if c.field == "jing"]
    marked = jiaodu_text_html(v.unit.jing, fixes, None)
    assert '西階上北<span class="qa-jiaodu" title="原作「麵」：麵 (noodles)' in marked
    assert marked.count('class="qa-jiaodu"') == 2 and "北麵" not in marked
    assert jiaodu_text_html(v.unit.jing, (), None) == v.unit.jing  # nothing to correct: the text, escaped


def test_jiaodu_escapes_and_skips_a_correction_that_does_not_fit():
    fix = Correction("jing", 1, "<", ">", "a 'note' & more")
    assert jiaodu_text_html("a<b", [fix], None) == (
        'a<span class="qa-jiaodu" title="原作「&lt;」：a &#x27;note&#x27; &amp; more">&gt;</span>b'
    )
    assert jiaodu_text_html("abc", [fix], None) == "abc"
