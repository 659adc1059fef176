"""qa.corpus.parallels: the corresponding step of the other rite, on hand-made units and pinned on the real corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.load import Corpus, load_corpus
from qa.corpus.outline import Outline, load_outline
from qa.corpus.parallels import MIN_SCORE, ParallelTable, clauses, find_parallels
from qa.corpus.units import LemmaUnit

ROOT = Path(__file__).resolve().parent.parent


def _unit(uid: str, rite: str, jing: str, **more) -> LemmaUnit:
    return LemmaUnit(id=uid, work="儀禮注疏", rite=rite, source=f"{uid}.txt", lines=(1, 1), section="經", jing=jing, **more)


#: unrelated 經, so that a clause's rarity means something in a tiny corpus
_FILLER = tuple(_unit(f"f.z.{i:03d}", "丙禮", f"{ch}人入門。") for i, ch in enumerate("甲乙丙丁戊己庚辛壬癸"))


def _tiny(*units: LemmaUnit) -> tuple[Corpus, Outline]:
    return Corpus(units + _FILLER, (), (), (), ""), Outline((), (), ())


def test_clauses_are_cut_at_the_jing_punctuation_in_matching_form():
    assert clauses("降席，坐奠爵，拜，告旨，執爵，興。主人阼階上答拜。") == ("降席", "坐奠爵", "告旨", "执爵", "主人阼阶上答拜")


def test_a_shared_rare_formula_beats_common_ones_and_the_same_rite_is_never_a_parallel():
    corpus, outline = _tiny(
        _unit("a.x.001", "甲禮", "降席，坐奠爵，拜，告旨，執爵，興。"),
        _unit("a.x.002", "甲禮", "降席，坐奠爵，拜，告旨。"),  # same rite: never listed
        _unit("b.y.001", "乙禮", "賓降席，坐奠爵，拜，告旨。"),  # 告旨 is rare
        _unit("b.y.002", "乙禮", "坐奠爵，興。"),
        _unit("b.y.003", "乙禮", "坐奠爵，興。"),
        _unit("b.y.004", "乙禮", "坐奠爵。"),
        _unit("b.y.005", "乙禮", "公升即位。"),  # shares nothing
    )
    got = find_parallels(corpus, outline, "a.x.001")
    assert [p.unit for p in got] == ["b.y.001"]
    assert got[0].shared == ("坐奠爵", "告旨", "降席") and got[0].score >= MIN_SCORE and got[0].rite == "乙禮"


def test_aligned_units_are_one_step_listed_once():
    corpus, outline = _tiny(
        _unit("a.x.001", "甲禮", "主人拜送爵。賓少退。"),
        _unit("b.y.001", "乙禮", "主人拜送爵。", related=("c.y.001",)),
        LemmaUnit(id="c.y.001", work="仪礼析疑", rite="乙禮", source="c.txt", lines=(1, 1), section="經",
                  jing="主人拜送爵", related=("b.y.001",)),
    )
    assert [p.unit for p in find_parallels(corpus, outline, "a.x.001")] == ["b.y.001"]


def test_unknown_unit():
    corpus, outline = _tiny(_unit("a.x.001", "甲禮", "降席。"))
    with pytest.raises(KeyError):
        find_parallels(corpus, outline, "a.x.999")


@pytest.fixture(scope="module")
def real():
    corpus = load_corpus(ROOT / "seeds")
    return corpus, load_outline(corpus)


def test_gaozhi_finds_the_yan_formula_and_fang_bao_on_gaozhi(real):
    """告旨 (鄉飲酒禮 主人獻賓, 038): the corpus's 燕禮 has no 獻賓 經 with 注疏 (only 析疑 lemmas), so the
    counterparts are the 卿's same drinking formula (a003) and 方苞's note on 告旨 (告防 read 告旨)."""
    corpus, outline = real
    got = find_parallels(corpus, outline, "zhushu.xiangyin.038")
    assert [(p.unit, p.shared) for p in got] == [
        ("zhushu.yan.a003", ("坐奠爵", "执爵兴", "执爵", "降席")),
        ("xiyi.yan.024", ("坐奠爵",)),
        ("xiyi.yan.019", ("告旨",)),
    ]
    assert {p.rite for p in got} == {"燕禮"}
    # and back: 方苞's lemma 主人坐祭不啐酒 finds the 鄉飲酒禮 units it speaks of
    back = [p.unit for p in find_parallels(corpus, outline, "xiyi.yan.019")]
    assert back == ["zhushu.xiangyin.060", "zhushu.xiangyin.056", "zhushu.xiangyin.038"]


def test_real_parallels_of_stages(real):
    corpus, outline = real
    sheng = find_parallels(corpus, outline, "zhushu.xiangyin.087")  # 獻笙者
    assert [(p.unit, p.stage) for p in sheng][1] == ("zhushu.yan.b006", "獻士")
    music = find_parallels(corpus, outline, "zhushu.yan.a016")  # 燕禮 作樂: 樂正先升
    assert "zhushu.xiangyin.078" in [p.unit for p in music]
    assert find_parallels(corpus, outline, "zhushu.xiangyin.099") == ()  # 旅酬 begins: no 燕禮 counterpart here


def test_one_table_asked_about_every_unit_answers_as_a_fresh_one(real):
    """The companion keeps one ParallelTable (its clause frequencies fill as it is asked): whatever was asked
    before, each unit's parallels are those a table prepared for that unit alone finds."""
    corpus, outline = real
    table = ParallelTable(corpus, outline)
    asked = [u.id for u in reversed(corpus.units)]
    kept = {uid: table.find(uid) for uid in asked}
    for uid in asked[::7]:
        assert kept[uid] == find_parallels(corpus, outline, uid)
    assert sum(1 for got in kept.values() if got) > len(asked) // 2  # most steps have a counterpart
