"""Tests for qa.corpus.parsers.zhushu_paren (001 儀禮注疏 燕禮 後半: 注 in （）, [疏]/注 header lines)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from qa.corpus.catalog import SeedFile, load_catalog
from qa.corpus.load import read_seed
from qa.corpus.parsers import zhushu_paren
from qa.corpus.parsers._zhushu_common import quote_fits, split_lines, split_quote
from qa.corpus.units import ParsedFile, lossless_problems
from qa.text.normalize import normalize

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "data" / "mini" / "001_mini.txt"


@lru_cache(maxsize=1)
def real() -> tuple[SeedFile, str, ParsedFile]:
    seed = next(s for s in load_catalog(ROOT / "seeds") if s.name.startswith("001_"))
    text = read_seed(seed)
    return seed, text, zhushu_paren.parse(seed, text)


def mini_seed(name: str = "001_mini.txt") -> SeedFile:
    return SeedFile(
        name=name, path=MINI, work="儀禮注疏", work_id="zhushu", author="鄭玄注 賈公彥疏", rite="燕禮",
        rite_id="yan", juan="", script="繁", edition="test", parser="zhushu_paren", part="b",
    )


def mini() -> tuple[str, ParsedFile]:
    text = MINI.read_text(encoding="utf-8")
    return text, zhushu_paren.parse(mini_seed(), text)


def unit_with_jing(parsed: ParsedFile, jing: str):
    found = [u for u in parsed.units if u.jing == jing]
    assert len(found) == 1, jing
    return found[0]


# ---- the real corpus -------------------------------------------------------------------


def test_zhu_interrupting_the_jing():
    _, _, parsed = real()
    u = unit_with_jing(parsed, "士旅酌。卒。")
    assert u.zhu == "旅，序也。士以次序自酌相酬，無執爵者。"
    assert u.lines == (149, 149) and u.shu == ()


def test_units_without_shu():
    _, _, parsed = real()
    bare = [u.jing for u in parsed.units if not u.shu]
    assert "唯受于公者拜。" in bare and "士旅酌。卒。" in bare
    assert any(j.startswith("受者如初受酬之禮") for j in bare)
    u = unit_with_jing(parsed, "有執爵者。")
    assert u.zhu == "士有盥升主酌授之者。" and u.shu[0].quote == "“有執爵者”"


def test_shu_parts_on_jing_and_zhu():
    _, _, parsed = real()
    u = parsed.units[0]
    assert u.jing == "賓反入，及卿大夫皆說屨，升就席。公以賓及卿大夫皆坐，乃安。"
    assert [(p.on, p.quote, p.header, p.text) for p in u.shu][0] == ("經", "“賓反”至“乃安”", "[疏]“賓反”至“乃安”。", "")
    assert u.shu[1].on == "注" and u.shu[1].header == "注“凡燕”至“之心”。"
    assert u.shu[1].text.startswith("釋曰：凡在堂立行禮")
    assert u.lines == (1, 7)


def test_file_ends_in_the_middle_of_a_shu():
    seed, _, parsed = real()
    last = parsed.units[-1]
    assert last.jing.startswith("主人洗，升自西階，獻庶子于阼階上")
    assert last.shu[-1].header == "注“庶子”至“薦也”。" and last.shu[-1].text == ""
    assert last.lines == (151, 155)
    assert any(w.line == 155 and "ends in the middle of a 疏" in w.message for w in parsed.warnings)


def test_warnings_name_file_and_line():
    seed, _, parsed = real()
    assert [w.line for w in parsed.warnings] == [153, 155]
    assert str(parsed.warnings[0]).startswith(f"{seed.name}:153: 疏 header 「卒主」至「之禮」")
    assert "line 149" in parsed.warnings[0].message  # the quote begins in 「…卒。」


def test_quotes_fit_except_warned_and_no_brackets_left():
    _, text, parsed = real()
    lines = split_lines(text)
    warned = {w.line for w in parsed.warnings}
    for u in parsed.units:
        assert not set("（）") & set(u.jing + u.zhu)
        assert u.boundary == "marked"
        for p in u.shu:
            line = next(no for no in range(u.lines[0], u.lines[1] + 1) if p.header and lines[no - 1].startswith(p.header))
            fits = quote_fits(u.jing if p.on == "經" else u.zhu, *split_quote(p.quote[1:-1], "”至“"))
            assert all(fits) or line in warned, (u.id, p.quote)


def test_ids_and_counts():
    _, _, parsed = real()
    assert [u.id for u in parsed.units] == [f"zhushu.yan.b{i:03d}" for i in range(1, 23)]
    assert sum(1 for u in parsed.units if not u.shu) == 3
    assert {u.section for u in parsed.units} == {"經"}


def test_real_file_is_lossless():
    _, text, parsed = real()
    assert lossless_problems(parsed, text) == ()
    lines = split_lines(text)
    markup = "".join(lines[s.line - 1][s.start : s.end] for s in parsed.spans if s.is_markup)
    assert set(markup) == {"（", "）"} and markup.count("（") == 22


# ---- the hand-made mini file -----------------------------------------------------------


def test_mini_units():
    text, parsed = mini()
    assert lossless_problems(parsed, text) == ()
    got = [(u.jing, u.zhu, len(u.shu)) for u in parsed.units]
    assert got == [
        ("賓反入，升就席。", "凡燕坐必說屨。", 2),
        ("主人洗。升。", "將獻也。升堂。", 2),  # one 疏 「主人」至「升」 over two 經 lines
        ("士旅酌。卒。", "旅，序也。", 0),
        ("唯受于公者拜。", "公所賜者也。其馀則否。", 0),  # two （） on one line
        ("大夫祭薦。", "", 1),  # 經 without 注; 釋曰 on the header's line
        ("公答拜。", "未閉", 2),
    ]
    assert parsed.units[0].shu[1].text == "釋曰：凡在堂立行禮。釋曰：又一段。"
    merged = parsed.units[1]
    x, y = split_quote(merged.shu[0].quote[1:-1], "”至“")
    assert normalize(merged.jing).startswith(normalize(x)) and normalize(merged.jing).endswith(normalize(y))
    assert parsed.units[4].shu[0].text == "釋曰：燕乃祭薦。"


def test_mini_warnings():
    _, parsed = mini()
    got = [(w.line, w.message) for w in parsed.warnings]
    assert [line for line, _ in got] == [19, 20, 21]
    assert got[0][1].startswith("（ without ）")
    assert got[1][1].startswith("疏 header 「主人」至「答拜」 does not match the start of its 經")
    assert got[2][1].startswith("file ends in the middle of a 疏")


@pytest.mark.parametrize("text", ["", "\n\n", " \n\u3000\n"])
def test_empty_or_blank_file_gives_no_units(text):
    parsed = zhushu_paren.parse(mini_seed("blank.txt"), text)
    assert parsed.units == () and parsed.warnings == ()
    assert lossless_problems(parsed, text) == ()


def test_shiyue_without_header_is_kept():
    text = "釋曰：無頭。\n賓入。（入門。）\n"
    parsed = zhushu_paren.parse(mini_seed("odd.txt"), text)
    assert [u.jing for u in parsed.units] == ["", "賓入。"]
    assert parsed.units[0].shu_text == "釋曰：無頭。"
    assert [w.line for w in parsed.warnings] == [1, 1]
    assert lossless_problems(parsed, text) == ()


def test_crlf_file_parses_like_lf():
    text, parsed = mini()
    crlf = text.replace("\n", "\r\n")
    again = zhushu_paren.parse(mini_seed(), crlf)
    assert again.units == parsed.units and lossless_problems(again, crlf) == ()
