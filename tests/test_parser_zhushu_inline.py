"""Parser for seed 002 (經 and 注 on one line, then a [疏] line): real-corpus pins and the mini file."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.catalog import SeedFile, load_catalog
from qa.corpus.load import read_seed
from qa.corpus.parsers import zhushu_inline
from qa.corpus.parsers.charmodel import CharModel
from qa.corpus.units import lossless_problems

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "data" / "mini"


def _seed(directory: Path, prefix: str) -> SeedFile:
    return next(s for s in load_catalog(directory) if s.name.startswith(prefix))


@pytest.fixture(scope="module")
def real():
    seed = _seed(ROOT / "seeds", "002_")
    text = read_seed(seed)
    return text, zhushu_inline.parse(seed, text)


def _unit(parsed, first_line: int):
    return next(u for u in parsed.units if u.lines[0] == first_line)


def test_first_unit_split_by_header(real):
    _, parsed = real
    u = parsed.units[0]
    assert u.id == "zhushu.yan.a001"
    assert u.lines == (1, 2)
    assert u.jing == "司宮兼卷重席，設於賓左，東上。"
    assert u.zhu.startswith("言兼卷，則每卿異席也。")
    assert u.zhu.endswith("席自房來。")
    assert u.boundary == "marked"
    # two headers then one 釋曰: the 經 header stands alone, the 釋曰 is on the 注 (as in 001 and 003)
    jing_part, zhu_part = u.shu
    assert (jing_part.on, jing_part.quote, jing_part.header, jing_part.text) == (
        "經", "“司宮”至“東上”", "[疏]“司宮”至“東上”。", ""
    )
    assert (zhu_part.on, zhu_part.quote, zhu_part.header) == ("注", "“言兼”至“房來”", "注“言兼”至“房來”。")
    assert zhu_part.text.startswith("釋曰：此經設三卿之席")


def test_shu_on_labels_mean_the_same_as_in_001_and_003(real):
    _, parsed = real
    units = {u.id: u for u in parsed.units}
    # the 釋曰 of these explains only the 注; it used to be labelled 經
    for uid in ("a002", "a005", "a006", "a009", "a013"):
        u = units[f"zhushu.yan.{uid}"]
        assert [(p.on, bool(p.text)) for p in u.shu] == [("經", False), ("注", True)], uid
        assert u.shu[1].text.startswith("釋曰：雲“") or uid == "a006"
    # the same shape, whose 釋曰 takes the 經 first, is labelled alike, as 003 labels 028
    for uid in ("a001", "a008", "a014"):
        assert [(p.on, bool(p.text)) for p in units[f"zhushu.yan.{uid}"].shu] == [("經", False), ("注", True)]
    # a 疏 with one header keeps one part on the 經; a mid-text 注 header still opens a second part
    assert [p.on for p in units["zhushu.yan.a007"].shu] == ["經"]
    assert [(p.on, bool(p.text)) for p in units["zhushu.yan.a003"].shu] == [("經", True), ("注", True)]


def test_mid_line_zhu_header_splits_shu(real):
    _, parsed = real
    u = _unit(parsed, 5)
    assert u.jing.endswith("卿降複位。") and u.zhu == "不酢，辟君也。卿無俎者，燕主於羞。"
    assert [p.on for p in u.shu] == ["經", "注"]
    assert u.shu[1].quote == "“不酢”至“於羞”"
    assert u.shu[0].text.startswith("釋曰：此雲卿薦脯醢")
    assert u.shu[1].text.startswith("釋曰：案上主人獻公")


def test_zhu_start_disambiguates_repeated_end_quote(real):
    # 「再拜」 occurs three times on line 14; the 注 start 「命長」 picks the right one
    _, parsed = real
    u = _unit(parsed, 14)
    assert u.jing.endswith("阼階下再拜稽首，公答再拜。")
    assert u.zhu.startswith("命長致者") and "古文雲：阼階下北麵再拜。" in u.zhu


def test_header_without_zhu_header_and_punctuation_in_quote(real):
    _, parsed = real
    assert _unit(parsed, 12).zhu == "又，複。"  # mis-conversion 複 (復) kept as is
    u = _unit(parsed, 20)
    assert u.jing == "以旅於西階上，如初。大夫卒受者以虛觶降，奠於篚。" and u.zhu == ""
    # 注“工瞽” quotes 「工，瞽矇」 without its comma
    assert _unit(parsed, 29).zhu.startswith("工，瞽矇歌諷誦詩者也。")


@pytest.mark.parametrize(
    ("line", "jing", "zhu_start"),
    [
        (7, "辯獻卿，主人以虛爵降，奠於篚。", "今文無奠於篚。"),
        (28, "卒，射人乃升大夫，大夫皆升，就席。", ""),
        (31, "小臣納工，工四人，二瑟。小臣左何瑟，麵鼓，執越，內弦，右手相。入，升自西階，北麵東上坐。小臣坐授瑟，乃降。", "工四人者"),
    ],
)
def test_lines_without_header_are_inferred(real, line, jing, zhu_start):
    _, parsed = real
    u = _unit(parsed, line)
    assert u.boundary == "inferred"
    assert u.jing == jing
    assert u.zhu.startswith(zhu_start)
    assert not u.shu


def test_real_file_counts_and_ids(real):
    _, parsed = real
    assert len(parsed.units) == 17
    assert [u.id for u in parsed.units] == [f"zhushu.yan.a{i:03d}" for i in range(1, 18)]
    assert sum(u.boundary == "inferred" for u in parsed.units) == 3
    assert parsed.warnings == ()
    assert all(u.section == "經" and u.work == "儀禮注疏" and u.rite == "燕禮" for u in parsed.units)
    assert any("雲" in p.text for u in parsed.units for p in u.shu)  # text keeps 002's own characters


def test_real_file_is_lossless(real):
    text, parsed = real
    assert lossless_problems(parsed, text) == ()


def test_mismatched_header_warns_and_keeps_text():
    seed = _seed(MINI, "002_")
    text = read_seed(seed)
    parsed = zhushu_inline.parse(seed, text)
    assert lossless_problems(parsed, text) == ()
    [warning] = parsed.warnings
    assert (warning.source, warning.line) == ("002_mini.txt", 6)
    assert str(warning).startswith("002_mini.txt:6: ") and "無此" in str(warning)
    last = parsed.units[-1]
    assert last.boundary == "inferred"
    assert last.jing + last.zhu == "小臣又請媵爵者，二大夫媵爵如初。又，複。"
    assert last.shu[0].text == "釋曰：此疏之首與經不合。"


def test_mini_units():
    seed = _seed(MINI, "002_")
    parsed = zhushu_inline.parse(seed, read_seed(seed))
    a, b, c, _ = parsed.units
    assert (a.jing, a.zhu, a.boundary) == ("司宮兼卷重席，設於賓左，東上。", "言兼卷，則每卿異席也。", "marked")
    assert (b.jing, b.zhu) == ("乃薦脯醢。卿降複位。", "不酢，辟君也。")
    assert [p.on for p in b.shu] == ["經", "注"]
    assert (c.jing, c.zhu, c.boundary) == ("辯獻卿，主人以虛爵降，奠於篚。", "今文無奠於篚。", "inferred")


def test_shu_before_any_jing_is_kept_with_warning():
    seed = _seed(MINI, "002_")
    text = "[疏]“甲”至“乙”。釋曰：無經之疏。\n甲乙。注文也。"
    parsed = zhushu_inline.parse(seed, text)
    assert lossless_problems(parsed, text) == ()
    assert parsed.warnings[0].line == 1
    orphan = parsed.units[0]
    assert orphan.jing == "" and orphan.shu[0].text == "釋曰：無經之疏。"


def test_ji_section_starts_at_ji_line():
    seed = _seed(MINI, "002_")
    text = "賓出。主人送。\n記。燕，朝服。朝服者，諸侯之服也。\n"
    parsed = zhushu_inline.parse(seed, text)
    assert [u.section for u in parsed.units] == ["經", "記"]
    assert lossless_problems(parsed, text) == ()


def test_inferred_split_rules():
    model = CharModel.train(["主人答拜，受爵。", "卿升席坐。"], ["辟君也。", "重席，重蒲筵也。"])
    text = "卿升，主人答拜。古文無升。"
    assert text[: zhushu_inline.inferred_split(text, model)] == "卿升，主人答拜。"  # 古文 opens a 注
    assert zhushu_inline.inferred_split("卿升。", model) == 3  # the first sentence is always 經
