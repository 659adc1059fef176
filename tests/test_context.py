"""qa.corpus.context: the corpus around an index's units (and the Retriever's access to it)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from qa.corpus.context import CorpusContext, corpus_view, reading_order
from qa.corpus.load import load_corpus

ROOT = Path(__file__).resolve().parent.parent
XY = "zhushu.xiangyin."


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


@pytest.fixture(scope="module")
def ctx(corpus) -> CorpusContext:
    return CorpusContext.build(corpus_view(corpus.units, ROOT / "seeds"))


def test_the_view_of_the_units_gives_what_the_full_corpus_gives(corpus, ctx):
    assert ctx.corpus.units == corpus.units and ctx.corpus.files == corpus.files
    assert ctx.outline == CorpusContext.build(corpus).outline
    assert ctx.coverage.statement() == CorpusContext.build(corpus).coverage.statement()
    assert ctx.cite(XY + "038", "zhu", "旨，美也。").text == (
        "《儀禮注疏》卷八–十〈鄉飲酒禮〉「告旨」鄭玄注「旨，美也」（十三經注疏本，003:110）"
    )


def test_reading_order_runs_across_files_of_a_rite(corpus):
    order = reading_order(corpus.units)
    yan = order["儀禮注疏·燕禮"]
    assert yan[0] == "zhushu.yan.a001" and yan[-1] == "zhushu.yan.b022"
    assert yan.index("zhushu.yan.b001") == yan.index("zhushu.yan.a017") + 1
    assert set(order) == {"仪礼析疑·燕禮", "儀禮注疏·燕禮", "儀禮注疏·鄉飲酒禮"}


def test_neighbours(ctx):
    before, after = ctx.neighbours("zhushu.yan.a017")
    assert (before.id, after.id) == ("zhushu.yan.a016", "zhushu.yan.b001")
    assert [u.id for u in ctx.neighbours(XY + "029a")] == [XY + "029", XY + "030"]
    assert ctx.neighbours(XY + "001")[0] is None and ctx.neighbours("xiyi.yan.083")[1] is None
    with pytest.raises(KeyError):
        ctx.neighbours("zhushu.xiangyin.999")


def test_stage_of_and_its_path(ctx):
    assert ctx.stage_of(XY + "038").title == "主人盥洗獻賓"
    assert [s.title for s in ctx.stage_path(XY + "088")] == ["主人樂賓", "獻笙者"]
    assert ctx.stage_of(XY + "005") is None and ctx.stage_path(XY + "005") == ()


def test_corrections_and_parallels(ctx):
    assert [(c.source, c.corrected) for c in ctx.corrections("xiyi.yan.019")] == [("防", "旨")] * 3
    assert ctx.parallels(XY + "038")[0].unit == "zhushu.yan.a003"
    assert ctx.parallels(XY + "038") is ctx.parallels(XY + "038")  # memoized


def test_unreadable_seeds_leave_spans_out_not_the_context(corpus, tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        view = corpus_view(corpus.units, tmp_path)  # no catalog here
    assert view.files == () and view.parsed == () and "cannot read the catalog" in caplog.text
    ctx = CorpusContext.build(view)
    assert ctx.outline.stages == () and ctx.unit(XY + "038").jing.startswith("降席")
    assert ctx.cite(XY + "038") is None


def test_seeds_without_spans_cite_units_by_their_first_line(corpus, tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "catalog.toml").write_text((ROOT / "seeds" / "catalog.toml").read_text(encoding="utf-8"), encoding="utf-8")
    view = corpus_view(corpus.units, seeds)  # a catalog, but no seed file to take spans from
    assert view.files and view.parsed == ()
    ctx = CorpusContext.build(view)
    assert ctx.cite(XY + "038", "zhu", "旨，美也。").line == corpus.by_id()[XY + "038"].lines[0]
    assert [s.title for s in ctx.outline.stages_of("鄉飲酒禮")][:2] == ["鄉大夫與先生謀賓介並戒告", "主人往賓門召之使來"]


def test_retriever_exposes_the_context(real_retriever):
    r = real_retriever
    assert r.unit(XY + "038").jing.startswith("降席") and r.stage_of(XY + "038").title == "主人盥洗獻賓"
    assert [u.id for u in r.neighbours(XY + "038")] == [XY + "037", XY + "039"]
    assert len(r.outline.stages_of("鄉飲酒禮")) == 19 and r.coverage.rites() == ("燕禮", "鄉飲酒禮")
    assert r.coverage_statement().startswith("本語料收2篇：燕禮、鄉飲酒禮")
    assert r.coverage_statement("en").startswith("The corpus holds 2 rites: 燕禮, 鄉飲酒禮.")
    with pytest.raises(ValueError):
        r.coverage_statement("fr")
    with pytest.raises(KeyError):
        r.unit("nope")


def test_stage_units_run_in_reading_order_across_files(ctx):
    music = ctx.outline.stage(XY + "076")
    assert ctx.stage_units(music) == tuple(f"{XY}{i:03d}" for i in range(76, 92))
    assert ctx.stage_units(ctx.outline.stage("zhushu.yan.a016")) == ("zhushu.yan.a016", "zhushu.yan.a017")
