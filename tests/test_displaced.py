"""Tests for qa.corpus.parsers.displaced: 經/注 displaced into a 疏 line get a unit of their own (003:84)."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.load import load_corpus, read_seed
from qa.corpus.parsers import PARSERS
from qa.corpus.parsers.charmodel import CharModel
from qa.corpus.parsers.displaced import find_displaced, sentence_ends
from qa.corpus.units import lossless_problems

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


def test_step_at_003_84_is_recovered_as_its_own_unit(corpus):
    units = corpus.by_id()
    rec = units["zhushu.xiangyin.029a"]
    assert (rec.jing, rec.zhu, rec.shu) == ("賓西階上拜，主人少退。", "少退，少辟。", ())
    assert rec.lines == (84, 84) and rec.boundary == "recovered" and rec.section == "經"
    ids = [u.id for u in corpus.units]
    assert ids[ids.index("zhushu.xiangyin.029") + 1 : ids.index("zhushu.xiangyin.029") + 3] == [
        "zhushu.xiangyin.029a",
        "zhushu.xiangyin.030",
    ]
    # the 疏 keeps its own text, up to its own closing, and nothing else
    before = units["zhushu.xiangyin.029"]
    assert before.shu[-1].text.endswith("將就席受，故西北面向其席故也。")
    assert "少退" not in before.shu_text
    assert units["zhushu.xiangyin.030"].jing == "賓進受爵，以復位。主人阼階上拜送爵，賓少退。"


def test_recovery_is_the_only_one_and_is_warned_with_file_and_line(corpus):
    assert [u.id for u in corpus.units if u.boundary == "recovered"] == ["zhushu.xiangyin.029a"]
    warned = [str(w) for w in corpus.warnings if "displaced" in w.message]
    assert warned == [
        "003_c949fed6c9cacba9.txt:84: 疏 text ends with 經 「賓西階上拜，主人少退。」 and its 注 「少退，少辟。」 "
        "displaced into it; given a unit of their own (recovered), the 疏 keeps the rest"
    ]


def test_file_with_recovered_unit_is_still_lossless(corpus):
    seed = next(f for f in corpus.files if f.name.startswith("003_"))
    text = read_seed(seed)
    parsed = PARSERS[seed.parser](seed, text)
    assert lossless_problems(parsed, text) == ()
    spans = sorted((s for s in parsed.spans if s.line == 84), key=lambda s: s.start)
    line = text.splitlines()[83]
    assert [(s.unit, s.field, line[s.start : s.end]) for s in spans][-2:] == [
        ("zhushu.xiangyin.029a", "jing", "賓西階上拜，主人少退。"),
        ("zhushu.xiangyin.029a", "zhu", "少退，少辟。"),
    ]


@pytest.fixture(scope="module")
def model():
    jing = ["主人坐取爵，實之賓之席前，西北面獻賓。", "賓升席，自西方。", "主人阼階上拜送爵，賓少退。", "賓西階上北面拜。"]
    zhu = ["獻，進也，進酒於賓。", "升由下也，升必中席。", "復位，復西階上位。", "今文無也字。"]
    return CharModel.train(jing, zhu)


SHU = "釋曰︰云「西北面」者，賓在西階，北面，故西北面向其席故也。"


def test_rule_finds_a_gloss_after_a_jing_sentence(model):
    text = SHU + "賓西階上拜，主人少退。少退，少辟。"
    found = find_displaced(text, model)
    assert found is not None
    assert text[found.jing_start : found.zhu_start] == "賓西階上拜，主人少退。"
    assert text[found.zhu_start :] == "少退，少辟。"


@pytest.mark.parametrize(
    "tail",
    [
        "賓西階上拜，主人少退。辟，少辟。",  # the gloss's term is not in the sentence before it
        "云「賓西階上拜，主人少退」者。少退，少辟。",  # a 疏 quoting the 經
        "賓西階上拜，主人少退。少退者，謂少逡遁而退，以辟賓拜也。",  # a 疏 explanation (少退者，…), not a short gloss
    ],
)
def test_rule_rejects_what_is_not_displaced(model, tail):
    assert find_displaced(SHU + tail, model) is None


def test_rule_rejects_a_restatement_of_its_own_jing(model):
    text = SHU + "賓西階上拜，主人少退。少退，少辟。"
    assert find_displaced(text, model, own_jing="賓西階上拜，主人少退。") is None


def test_rule_needs_the_shu_own_text_and_a_trained_model(model):
    assert find_displaced("賓西階上拜，主人少退。少退，少辟。", model) is None
    assert find_displaced(SHU + "賓西階上拜，主人少退。少退，少辟。", CharModel.train([], [])) is None


def test_sentences_are_cut_outside_quotes():
    assert sentence_ends("甲。云「乙。丙」者。丁") == [2, 10, 11]


# ---- the rule inside each 注疏 parser, on small hand-made files -----------------------------

LINES_003 = """主人坐取爵，實之賓之席前，西北面獻賓。
獻，進也，進酒於賓。
疏「主人」至「獻賓」。○注「獻進」至「於賓」。○釋曰︰云「西北面」者，將就席受，故西北面向其席故也。賓西階上拜，主人少退。少退，少辟。
賓進受爵，以復位。主人阼階上拜送爵，賓少退。
復位，復西階上位。
疏「賓進」至「少退」。○釋曰︰云「賓進」者，故賓進，將於席前受之故也。
薦脯醢。
薦，進也。進之者，主人有司。
賓升席，自西方。
升由下也，升必中席。
"""

PAREN_001 = """主人坐取爵，實之賓之席前，西北面獻賓。（獻，進也，進酒於賓。）
[疏]“主人”至“獻賓”。
注“獻進”至“於賓”。
釋曰：云“西北面”者，將就席受，故西北面向其席故也。賓西階上拜，主人少退。少退，少辟。
賓進受爵，以復位。主人阼階上拜送爵，賓少退。（復位，復西階上位。）
[疏]“賓進”至“少退”。釋曰：云“賓進”者，故賓進，將於席前受之故也。
薦脯醢。（薦，進也。進之者，主人有司。）
賓升席，自西方。（升由下也，升必中席。）
"""

INLINE_002 = """主人坐取爵，實之賓之席前，西北面獻賓。獻，進也，進酒於賓。
[疏]“主人”至“獻賓”。注“獻進”至“於賓”。釋曰：雲“西北麵”者，將就席受，故西北麵向其席故也。賓西階上拜，主人少退。少退，少辟。
賓進受爵，以復位。主人阼階上拜送爵，賓少退。復位，復西階上位。
[疏]“賓進”至“少退”。釋曰：雲“賓進”者，故賓進，將於席前受之故也。
薦脯醢。薦，進也。進之者，主人有司。
[疏]“薦脯醢”。注“薦進”至“有司”。釋曰：知非主人自薦者。
賓升席，自西方。升由下也，升必中席。
[疏]“賓升”至“西方”。注“升由”至“中席”。釋曰：升由下者。
"""


@pytest.mark.parametrize(
    ("parser", "text", "line"),
    [("zhushu_lines", LINES_003, 3), ("zhushu_paren", PAREN_001, 4), ("zhushu_inline", INLINE_002, 2)],
)
def test_each_zhushu_parser_recovers_a_displaced_step(corpus, parser, text, line):
    seed = next(f for f in corpus.files if f.parser == parser)
    parsed = PARSERS[parser](seed, text)
    assert lossless_problems(parsed, text) == ()
    ids = [u.id.rsplit(".", 1)[-1] for u in parsed.units]
    assert ids[:3] == [f"{seed.part}001", f"{seed.part}001a", f"{seed.part}002"]
    rec = parsed.units[1]
    assert (rec.jing, rec.zhu, rec.boundary, rec.lines) == ("賓西階上拜，主人少退。", "少退，少辟。", "recovered", (line, line))
    assert parsed.units[0].shu[-1].text.endswith("向其席故也。")
    assert [w.line for w in parsed.warnings if "displaced" in w.message] == [line]
