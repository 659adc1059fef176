"""Parser for seed 000 (仪礼析疑: lemma line, note line): real-corpus pins and the mini file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qa.corpus.catalog import SeedFile, load_catalog
from qa.corpus.load import read_seed
from qa.corpus.parsers import xiyi
from qa.corpus.units import lossless_problems

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "data" / "mini"


def _seed(directory: Path, prefix: str) -> SeedFile:
    return next(s for s in load_catalog(directory) if s.name.startswith(prefix))


@pytest.fixture(scope="module")
def real():
    seed = _seed(ROOT / "seeds", "000_")
    text = read_seed(seed)
    return text, xiyi.parse(seed, text)


def _unit(parsed, first_line: int):
    return next(u for u in parsed.units if u.lines[0] == first_line)


def test_title_lines_are_markup_and_general_note_is_front_unit(real):
    _, parsed = real
    front = parsed.units[0]
    assert front.id == "xiyi.yan.000"
    assert front.lines == (5, 5) and front.jing == "" and front.boundary == "inferred"
    assert front.xiyi.startswith("疏所分四类似未安") and front.xiyi.endswith("其诸有大勲劳者与")
    assert front.notes == ("诗吉甫燕喜既多受禄燕劳而受命赐也左传魏绛和戎晋侯与之食礼使佐新军",)
    texts = "".join(u.full_text for u in parsed.units)
    assert "钦定四库全书" not in texts and "翰林院侍讲衔方苞撰" not in texts
    assert {(s.line, s.start) for s in parsed.spans if s.is_markup and s.line in (1, 2, 3, 4, 171)} == {
        (n, 0) for n in (1, 2, 3, 4, 171)
    }


def test_plain_lemma_and_note(real):
    _, parsed = real
    u = parsed.units[1]
    assert u.id == "xiyi.yan.001" and u.lines == (6, 7)
    assert u.jing == "小臣戒与者" and u.boundary == "marked" and u.section == "經"
    assert u.xiyi.startswith("檀弓记朝不坐燕不与") and u.xiyi.endswith("则使胥戒于家可也")
    assert u.notes == ("旅酬胥荐主人则传戒非胥无使",)
    assert u.work == "仪礼析疑" and u.rite == "燕禮" and not u.zhu and not u.shu


def test_lemma_and_note_sharing_a_line(real):
    _, parsed = real
    u = _unit(parsed, 53)
    assert u.lines == (53, 53) and u.boundary == "inferred"
    assert u.jing == "更爵洗升酌膳酒以降酢于阼阶下北面坐奠爵再拜稽首公答再拜主人坐祭遂卒爵再拜稽首公答再拜"
    assert u.xiyi.startswith("自饮而酌膳代君以酢")
    # line 30: the note opens by quoting the 記 (羞膳者与执幂者, line 158's lemma); the cut
    # must not swallow that quotation into the lemma
    u = _unit(parsed, 30)
    assert u.lines == (30, 30) and u.boundary == "inferred"
    assert u.jing == "乃命执幂者执幂者升自西阶立于尊南北面东上"
    assert u.xiyi.startswith("羞膳者与执幂者同请而无命何也") and u.xiyi.endswith("以有常职无烦特命")
    # line 170: 燕 and 曰 inside the 記 lemma read as note words; they must not end it early
    last = parsed.units[-1]
    assert last.lines == (170, 170) and last.boundary == "inferred"
    assert last.jing == "若与四方之宾燕媵爵曰臣受赐矣臣请赞执爵者"
    assert last.xiyi.startswith("但具礼辞余皆与本国之臣为宾者同也") and last.xiyi.endswith("故无庸备举")


def test_quoted_short_lemma_leaves_the_lemma_class_only_for_the_quoting_line():
    text = read_seed(_seed(ROOT / "seeds", "000_"))
    raw = text.split("\n")
    body = [xiyi._read_line(no, raw[no - 1]) for no in range(5, 171) if raw[no - 1].strip()]
    model = xiyi.train_model(body)
    line30 = next(ln for ln in body if ln.no == 30)
    line170 = next(ln for ln in body if ln.no == 170)
    assert xiyi.split_model(line170, body, model) is model  # quotes no short line
    split = xiyi.split_model(line30, body, model)  # quotes line 158 羞膳者与执幂者皆士也
    assert split is not model and split.a.total == model.a.total - len("羞膳者与执幂者皆士也")


def test_note_spilling_onto_next_line(real):
    text, parsed = real
    lines = text.split("\n")
    for lemma_line, jing in ((47, "公拜受爵"), (50, "士荐脯醢膳宰设折俎")):
        u = _unit(parsed, lemma_line)
        assert u.jing == jing and u.lines == (lemma_line, lemma_line + 2) and u.boundary == "inferred"
        assert u.xiyi == lines[lemma_line] + lines[lemma_line + 1]
    assert _unit(parsed, 53).jing.startswith("更爵")  # the unit after a spill opens normally


def test_two_notes_on_one_line_stay_together(real):
    _, parsed = real
    u = _unit(parsed, 10)
    assert u.jing == "乐人县"
    assert u.xiyi.startswith("注宫字疑衍 疏以小臣相工谓诸侯无眂了非也")
    assert _unit(parsed, 154).xiyi.endswith("然也字误为尊遂不可觧乡饮酒礼虽公卿为遵礼无哜啐")


def test_ji_marker_starts_the_ji(real):
    _, parsed = real
    ji = _unit(parsed, 152)
    assert ji.jing == "宾为苟敬席于阼阶之西北面" and ji.notes == ()
    index = parsed.units.index(ji)
    assert {u.section for u in parsed.units[:index]} == {"經"}
    assert {u.section for u in parsed.units[index:]} == {"記"}
    assert all("【" not in u.full_text and "】" not in u.full_text for u in parsed.units)


def test_real_file_counts_ids_and_losslessness(real):
    text, parsed = real
    assert len(parsed.units) == 84
    assert [u.id for u in parsed.units] == [f"xiyi.yan.{i:03d}" for i in range(84)]
    assert [u.lines[0] for u in parsed.units if u.boundary == "inferred"] == [5, 30, 47, 50, 53, 170]
    assert all(u.jing and u.xiyi for u in parsed.units[1:])
    assert sum(len(u.notes) for u in parsed.units) == 4
    assert lossless_problems(parsed, text) == ()


def test_lemmas_are_short_and_notes_hold_the_rest(real):
    _, parsed = real
    assert max(len(u.jing) for u in parsed.units) <= 50
    assert all(re.fullmatch(r"\w+", u.jing) for u in parsed.units[1:])


def test_mini_file():
    seed = _seed(MINI, "000_")
    text = read_seed(seed)
    parsed = xiyi.parse(seed, text)
    assert lossless_problems(parsed, text) == ()
    front, a, b, c = parsed.units
    assert front.jing == "" and front.notes == ("总论在篇首",) and front.id == "xiyi.yan.000"
    assert (a.jing, a.lines, a.boundary) == ("主人酌膳", (6, 7), "marked")
    assert a.xiyi.endswith("故特着之 凡献皆酌散惟此酌膳")
    assert (b.jing, b.notes) == ("宾进受虚爵", ("敖氏说同",))
    assert (c.jing, c.section, c.notes) == ("宾为苟敬席于阼阶之西北面", "記", ())
    assert [u.section for u in parsed.units] == ["經", "經", "經", "記"]


def test_file_without_title_warns_and_keeps_every_line():
    seed = _seed(MINI, "000_")
    text = "主人酌膳\n献宾独酌膳示献者虽膳宰而君实以主人之道礼宾也\n"
    parsed = xiyi.parse(seed, text)
    assert lossless_problems(parsed, text) == ()
    assert parsed.warnings and parsed.warnings[0].line == 1
    assert "".join(u.jing + u.xiyi for u in parsed.units) == text.replace("\n", "")


def test_lemma_without_note_at_end_warns():
    seed = _seed(MINI, "000_")
    text = read_seed(seed) + "\n有内羞"
    parsed = xiyi.parse(seed, text)
    assert lossless_problems(parsed, text) == ()
    assert parsed.units[-1].jing == "有内羞" and parsed.units[-1].xiyi == ""
    assert [str(w) for w in parsed.warnings] == ["000_mini.txt:12: lemma without a note (kept)"]
