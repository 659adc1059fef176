"""Tests for qa.corpus.outline: the stages 賈疏 states, the stage of every unit, and the sequence helper."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from qa.corpus.load import load_corpus
from qa.corpus.outline import Outline, load_outline, sequence

ROOT = Path(__file__).resolve().parent.parent
XY = "zhushu.xiangyin."


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


@pytest.fixture(scope="module")
def outline(corpus) -> Outline:
    return load_outline(corpus)


def test_stage_count_per_rite(outline):
    assert Counter(s.rite for s in outline.stages) == {"鄉飲酒禮": 19, "燕禮": 8}
    assert outline.rites() == ("燕禮", "鄉飲酒禮")


def test_xiangyin_stages_in_order_with_unit_ranges(outline):
    got = [(s.title, s.first[-3:], s.last[-3:], s.line) for s in outline.stages_of("鄉飲酒禮")]
    assert got == [
        ("鄉大夫與先生謀賓介並戒告", "001", "004", 3),
        ("主人往賓門召之使來", "010", "012", 29),
        ("主人迎賓入升堂並拜至", "013", "017", 37),
        ("主人盥洗獻賓", "018", "039", 52),
        ("賓酢主人", "040", "046", 117),
        ("主人酬賓", "047", "051", 137),
        ("主人獻介", "052", "056", 152),
        ("介酢主人", "057", "061", 167),
        ("獻眾賓", "062", "069", 181),
        ("遍獻眾賓訖將以旅酬", "070", "075", 205),
        ("主人樂賓", "076", "091", 223),
        ("獻笙者", "087", "088", 256),
        ("堂上元缺一字堂下眾聲俱合", "090", "090", 265),
        ("立司正", "092", "098", 271),
        ("堂上堂下遍行旅酬", "099", "110", 292),
        ("賓主燕坐爵樂無數", "111", "123", 325),
        ("無算爵飲酒禮終送賓", "120", "125", 351),
        ("鄉內有諸公大夫來觀禮主人迎之與行禮事", "126", "129", 369),
        ("後日息司正征唯所欲更行飲酒之禮", "132", "141", 387),
    ]


def test_stage_keeps_the_shu_own_words_and_source(outline):
    s = outline.stage(XY + "013")
    assert s.statement == "自此至「答再拜」，論主人迎賓入，升堂並拜至之事"
    assert (s.end_quote, s.source, s.parent) == ("答再拜", "003_c949fed6c9cacba9.txt", None)
    # 「答再拜」 is quoted from memory: the stage closes on 017 「…賓西階上當楣北面答拜。」
    assert outline.stage_of(XY + "017") == s and outline.stage_of(XY + "018").title == "主人盥洗獻賓"


def test_yan_stages_span_both_files(outline):
    got = [(s.title, s.first, s.last) for s in outline.stages_of("燕禮")]
    assert got == [
        ("一人致爵於公", "zhushu.yan.a007", "zhushu.yan.a009"),
        ("為卿舉旅", "zhushu.yan.a010", "zhushu.yan.a011"),
        ("獻大夫", "zhushu.yan.a012", "zhushu.yan.a015"),
        ("作樂", "zhushu.yan.a016", "zhushu.yan.a017"),
        ("獻士", "zhushu.yan.b005", "zhushu.yan.b006"),
        ("燕末行射", "zhushu.yan.b011", "zhushu.yan.b011"),
        ("賓媵爵於公", "zhushu.yan.b012", "zhushu.yan.b013"),
        ("君為士舉旅", "zhushu.yan.b014", "zhushu.yan.b021"),
    ]


def test_nested_stages_keep_the_finest_and_record_the_parent(outline):
    parent = outline.stage(XY + "076")
    sheng, he = outline.stage(XY + "087"), outline.stage(XY + "090")
    assert sheng.parent == he.parent == parent.key
    assert outline.stage_of(XY + "088") == sheng and outline.stage_of(XY + "090") == he
    assert outline.stage_of(XY + "089") == parent and outline.stage_of(XY + "091") == parent
    assert outline.units_of(parent) == tuple(f"{XY}{i:03d}" for i in (*range(76, 87), 89, 91))


def test_recovered_unit_takes_the_stage_around_it(outline):
    assert outline.stage_of(XY + "029a").title == "主人盥洗獻賓"
    assert len(outline.units_of(outline.stage(XY + "018"))) == 23


def test_xiyi_units_take_the_stage_of_their_aligned_zhushu_unit(corpus, outline):
    staged = {u: outline.stage_of(u).title for u, _ in outline.assignment if u.startswith("xiyi.")}
    assert staged == {
        "xiyi.yan.040": "一人致爵於公", "xiyi.yan.041": "一人致爵於公", "xiyi.yan.042": "為卿舉旅",
        "xiyi.yan.043": "獻大夫", "xiyi.yan.044": "獻大夫", "xiyi.yan.045": "作樂", "xiyi.yan.046": "作樂",
        "xiyi.yan.061": "君為士舉旅", "xiyi.yan.062": "君為士舉旅", "xiyi.yan.063": "君為士舉旅",
        "xiyi.yan.064": "君為士舉旅",
    }
    for u in staged:
        assert outline.stage_of(u) == outline.stage_of(corpus.by_id()[u].related[0])


def test_every_unit_is_staged_or_says_why(corpus, outline):
    staged, unstaged = dict(outline.assignment), dict(outline.unstaged)
    assert set(staged) | set(unstaged) == {u.id for u in corpus.units} and not set(staged) & set(unstaged)
    assert (len(staged), len(unstaged)) == (170, 127)
    assert unstaged["xiyi.yan.000"] == "a general note with no 經 lemma"
    assert unstaged["xiyi.yan.001"] == "aligned with no 注疏 unit"
    assert unstaged["xiyi.yan.037"] == "aligned with zhushu.yan.a001, which has no stage"
    assert unstaged["zhushu.yan.a001"].startswith("before the first stage the 疏 states (一人致爵於公")
    assert unstaged[XY + "005"].startswith("after the stage 鄉大夫與先生謀賓介並戒告 ended at zhushu.xiangyin.004")
    assert unstaged[XY + "150"].startswith("in the 記, after the stage")
    by_why = Counter(w.split(",")[0].split(" (")[0] for w in unstaged.values())
    assert by_why["aligned with no 注疏 unit"] == 62  # 83 lemmas, 21 aligned (qa units --stats)


def test_problems_name_the_cut_seed_and_the_overlap(outline):
    assert outline.problems == (
        "002_3cbadc02700f2718.txt: zhushu.yan.a016: stage end 「降複位」 is in no later 經 of this seed; "
        "the stage runs to its last unit",
        "003_c949fed6c9cacba9.txt: stage 無算爵飲酒禮終送賓 (zhushu.xiangyin.120–zhushu.xiangyin.125) overlaps "
        "賓主燕坐爵樂無數 (zhushu.xiangyin.111–zhushu.xiangyin.123) without lying inside it; "
        "the units from zhushu.xiangyin.120 on take 無算爵飲酒禮終送賓",
    )
    assert outline.stage_of(XY + "119").title == "賓主燕坐爵樂無數"
    assert outline.stage_of(XY + "120").title == "無算爵飲酒禮終送賓"


def test_sequence_after_and_before(corpus, outline):
    (he,) = outline.find("合樂", corpus)  # titled in the 疏's words 堂上…堂下眾聲俱合; its 經 reads 乃合樂
    assert he.unit == XY + "090"
    assert sequence(outline, he).title == "立司正"
    assert sequence(outline, he, -1).title == "獻笙者"
    music = outline.find("主人樂賓")[0]
    assert sequence(outline, music).title == "立司正"  # after a stage holding others: past all of them
    assert sequence(outline, outline.find("獻笙者")[0]).title == he.title
    assert sequence(outline, outline.find("立司正")[0], -1).title == "主人樂賓"
    first = outline.stages_of("鄉飲酒禮")[0]
    assert sequence(outline, first, -1) is None and sequence(outline, first, 2).title == "主人迎賓入升堂並拜至"
    assert sequence(outline, outline.stages_of("鄉飲酒禮")[-1]) is None
    assert sequence(outline, outline.find("作樂")[0]).title == "獻士"  # from 002 (part a) into 001 (part b)


def test_find_by_title_and_none(outline):
    assert [s.unit for s in outline.find("獻介")] == [XY + "052"]
    assert outline.find("") == () and outline.find("射箭比賽") == ()


def test_mini_corpus_outline_is_well_formed():
    mini = load_corpus(ROOT / "tests" / "data" / "mini")
    o = load_outline(mini)
    assert set(dict(o.assignment)) | set(dict(o.unstaged)) == {u.id for u in mini.units}
