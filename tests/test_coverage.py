"""Tests for qa.corpus.coverage: rites, parts of each rite per work (from the alignment), layers per file."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.coverage import load_coverage
from qa.corpus.load import load_corpus

ROOT = Path(__file__).resolve().parent.parent
F000, F001, F002, F003 = "000_cb0ccdf07e5071ea.txt", "001_5405e21dc12de2db.txt", "002_3cbadc02700f2718.txt", "003_c949fed6c9cacba9.txt"


@pytest.fixture(scope="module")
def coverage():
    return load_coverage(load_corpus(ROOT / "seeds"))


def test_rites_and_parts_in_order(coverage):
    assert coverage.rites() == ("燕禮", "鄉飲酒禮")
    got = [(s.works, [(p.source, p.lines, p.first, p.last) for p in s.pieces]) for s in coverage.segments_of("燕禮")]
    assert got == [
        (("仪礼析疑",), [(F000, (5, 77), "xiyi.yan.000", "xiyi.yan.036")]),
        (("儀禮注疏", "仪礼析疑"), [(F002, (1, 31), "zhushu.yan.a001", "zhushu.yan.a017"), (F000, (78, 97), "xiyi.yan.037", "xiyi.yan.046")]),
        (("仪礼析疑",), [(F000, (98, 113), "xiyi.yan.047", "xiyi.yan.054")]),
        (("儀禮注疏", "仪礼析疑"), [(F001, (1, 155), "zhushu.yan.b001", "zhushu.yan.b022"), (F000, (114, 135), "xiyi.yan.055", "xiyi.yan.065")]),
        (("仪礼析疑",), [(F000, (136, 170), "xiyi.yan.066", "xiyi.yan.083")]),
    ]
    (whole,) = coverage.segments_of("鄉飲酒禮")
    assert whole.works == ("儀禮注疏",) and [(p.source, p.lines, p.first, p.last) for p in whole.pieces] == [
        (F003, (1, 506), "zhushu.xiangyin.001", "zhushu.xiangyin.173")
    ]


def test_layers_per_file(coverage):
    got = {f.source: (f.work, f.units, f.layers, f.sections) for f in coverage.files}
    assert got == {
        F000: ("仪礼析疑", 84, (("jing", 83), ("xiyi", 84)), (("經", 74), ("記", 10))),
        F001: ("儀禮注疏", 22, (("jing", 22), ("zhu", 22), ("shu", 18)), (("經", 22),)),
        F002: ("儀禮注疏", 17, (("jing", 17), ("zhu", 15), ("shu", 14)), (("經", 17),)),
        F003: ("儀禮注疏", 174, (("jing", 174), ("zhu", 172), ("shu", 162)), (("經", 142), ("記", 32))),
    }


def test_statement_in_zh_hant(coverage):
    lines = coverage.statement().splitlines()
    assert lines[0] == "本語料收2篇：燕禮、鄉飲酒禮；所據《仪礼析疑》、《儀禮注疏》。"
    assert lines[1].startswith(f"燕禮：自「小臣戒与者」起一段僅有方苞《仪礼析疑》（{F000}:5–77）；自「司宮兼卷重席」起一段有鄭注賈疏")
    assert lines[2] == f"鄉飲酒禮：自「鄉飲酒之禮」起有鄭注賈疏（{F003}:1–506）。"
    assert lines[4] == f"{F001}：《儀禮注疏》燕禮（卷十五（燕禮，後半）），22單元（經22），各層：經22、注22、疏18。"


def test_statement_in_english(coverage):
    text = coverage.statement("en")
    assert text.startswith("The corpus holds 2 rites: 燕禮, 鄉飲酒禮.\n燕禮: from 「小臣戒与者」 only Fang Bao's 仪礼析疑")
    assert f"from 「賓反入」 Zheng Xuan's notes and Jia Gongyan's sub-commentary, with Fang Bao ({F001}:1–155, {F000}:114–135)" in text
    with pytest.raises(ValueError):
        coverage.statement("fr")


def test_mini_corpus_coverage():
    cov = load_coverage(load_corpus(ROOT / "tests" / "data" / "mini"))
    assert set(cov.rites()) == {"燕禮", "鄉飲酒禮"}
    assert sum(f.units for f in cov.files) == len(load_corpus(ROOT / "tests" / "data" / "mini").units)
