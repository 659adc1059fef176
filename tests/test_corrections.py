"""Tests for qa.corpus.corrections: the 校讀 table, found on the real corpus, never changing a unit."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from qa.corpus.corrections import Correction, corrected, load_rules, parse_table, text_corrections, unit_corrections
from qa.corpus.load import load_corpus
from qa.errors import CorpusError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


def test_known_mis_conversions_of_002_are_all_found(corpus):
    found = Counter((c.source, c.corrected) for u in corpus.units if u.source.startswith("002_") for c in unit_corrections(u))
    assert found == {("雲", "云"): 66, ("麵", "面"): 12, ("複", "復"): 6, ("製", "制"): 5, ("幾", "几"): 1, ("禦", "御"): 1}
    # that is every 雲 麵 複 製 幾 禦 in the file: none is left uncorrected, none corrected twice
    text = next(f for f in corpus.files if f.name.startswith("002_")).path.read_text(encoding="utf-8")
    assert {ch: text.count(ch) for ch in "雲麵複製幾禦"} == {"雲": 66, "麵": 12, "複": 6, "製": 5, "幾": 1, "禦": 1}


def test_a_unit_corrected_reading(corpus):
    u = corpus.by_id()["zhushu.yan.a003"]
    cs = unit_corrections(u)
    jing = [c for c in cs if c.field == "jing"]
    assert [(c.offset, c.source, c.corrected) for c in jing] == [
        (u.jing.index("北麵") + 1, "麵", "面"),
        (u.jing.index("複位"), "複", "復"),
    ]
    assert corrected(u.jing, jing) == u.jing.replace("北麵", "北面").replace("複位", "復位")
    assert [c.field for c in cs if c.source == "複"] == ["jing", "shu.0.header"]  # 疏 header “乃薦”至“複位” too
    assert "雲" in u.shu_text and "雲" not in corrected(u.shu[0].text, [c for c in cs if c.field == "shu.0.text"])


def test_placeholder_of_000_restored_from_the_jing(corpus):
    u = corpus.by_id()["xiyi.yan.019"]
    assert u.jing == "主人坐祭不啐酒"
    cs = unit_corrections(u)
    assert [(c.field, c.source, c.corrected) for c in cs] == [("xiyi", "防", "旨")] * 3
    fixed = corrected(u.xiyi, cs)
    assert "告旨之义" in fixed and "无不旨之疑" in fixed and fixed.endswith("不可以不啐而告旨也")
    assert "告防之义" in u.xiyi  # the unit keeps its own characters
    # 防 elsewhere in 000 is not established by the corpus and stays uncorrected
    others = [x for x in corpus.units if x.source.startswith("000_") and "防" in x.full_text and x.id != u.id]
    assert others and all(not unit_corrections(x) for x in others)


def test_nothing_in_001_or_003_is_touched(corpus):
    for u in corpus.units:
        if u.source.startswith(("001_", "003_")):
            assert unit_corrections(u) == (), u.id


def test_units_are_never_changed(corpus):
    before = [dataclasses.asdict(u) for u in corpus.units]
    for u in corpus.units:
        unit_corrections(u)
    assert [dataclasses.asdict(u) for u in corpus.units] == before


def test_every_row_of_the_table_is_used(corpus):
    used = set()
    for rule in load_rules():
        texts = [u.full_text + "".join(p.header for p in u.shu) for u in corpus.units if u.source == rule.source]
        if any(rule.wrong in t for t in texts):
            used.add(rule.row)
    assert used == {r.row for r in load_rules()}
    assert {r.source for r in load_rules()} == {"000_cb0ccdf07e5071ea.txt", "002_3cbadc02700f2718.txt"}


def test_table_rows_are_checked():
    assert parse_table("# comment\n\nf.txt\t北麵\t北面\twhy\n")[0].right == "北面"
    with pytest.raises(CorpusError, match=r"corrections.tsv:2: .*4 tab-separated"):
        parse_table("# c\nf.txt\t北麵\t北面\n")
    with pytest.raises(CorpusError, match="as long as"):
        parse_table("f.txt\t北麵\t北面面\twhy\n")


def test_overlapping_rules_give_one_correction_per_place():
    rules = parse_table("f\t複\t復\tone\nf\t複位\t復位\ttwo\n")
    assert text_corrections("jing", "降複位，複。", rules) == (
        Correction("jing", 1, "複", "復", "one"),
        Correction("jing", 4, "複", "復", "one"),
    )
    with pytest.raises(ValueError):
        corrected("降復位", [Correction("jing", 1, "複", "復", "x")])
