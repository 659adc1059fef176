"""The 經-vs-commentary character model the parsers use, and its shipped 經 reference."""

from __future__ import annotations

from pathlib import Path

from qa.corpus.parsers.charmodel import CharModel
from qa.corpus.parsers.jingref import build_reference, jing_reference

ROOT = Path(__file__).resolve().parent.parent

JING = ["主人答拜，受爵。", "賓升，拜受觚。", "卿升席坐，左執爵。"]
NOTES = ["辟君也。", "重席，重蒲筵也。", "言兼卷，則每卿異席也。"]


def test_separates_the_two_classes():
    model = CharModel.train(JING, NOTES)
    assert model.trained
    assert model.score("主人拜受爵") > 0 > model.score("異席也")


def test_scores_follow_original_positions():
    model = CharModel.train(JING, NOTES)
    scores = model.char_scores("受，爵。")
    assert len(scores) == 4 and scores[1] == 0.0 and scores[3] == 0.0  # punctuation scores 0
    assert model.score("受爵") == sum(scores)


def test_script_does_not_matter():
    model = CharModel.train(JING, NOTES)
    assert model.score("宾升拜受觚") == model.score("賓升拜受觚")


def test_leave_one_out_removes_a_texts_own_support():
    model = CharModel.train(["甲乙丙"], ["丁戊己", "乙丙丁"])
    # 乙丙丁 trained the note class; scored without itself, it reads as the 經-like 甲乙丙
    assert model.score("乙丙丁") < sum(model.char_scores("乙丙丁", held_out="b"))


def test_untrained_model():
    assert not CharModel.train([], NOTES).trained


def test_shipped_reference_is_current():
    """If this fails, a 注疏 seed or parser changed: run `python -m qa.corpus.parsers.jingref`."""
    shipped = (ROOT / "qa" / "data" / "jing_reference.txt").read_text(encoding="utf-8")
    assert build_reference(ROOT / "seeds") == shipped
    assert len(jing_reference()) > 150 and all(jing_reference())


def test_cut_scores_prefer_a_seam_where_jing_ends_and_commentary_opens():
    # 經 texts end in 爵 or 觚; every note opens with 言 or 辟
    model = CharModel.train(["主人受爵", "賓拜受觚", "公答拜受爵"], ["言受爵者賓也", "辟君也", "言公拜也"])
    text = "賓受爵言受爵者賓也"
    cuts = model.cut_scores(text)
    assert len(cuts) == len(text) + 1 and cuts[0] == 0.0 and cuts[-1] == 0.0
    assert max(range(1, len(text)), key=cuts.__getitem__) == text.index("言")


def test_cut_scores_skip_punctuation_and_hold_out():
    model = CharModel.train(JING, NOTES)
    cuts = model.cut_scores("受爵，辟君也")
    assert cuts[2] == cuts[3]  # before or after the comma: the same seam 爵|辟
    held = CharModel.train(JING, [*NOTES, "受爵辟君也"])
    assert held.cut_scores("受爵辟君也", held_out="b") == model.cut_scores("受爵辟君也")
