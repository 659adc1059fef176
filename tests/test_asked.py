"""The questions each unit answers as a retrieval channel (qa.retrieval.asked, qa.corpus.renderings.unit_questions)."""

from __future__ import annotations

import logging
import random

import pytest
from conftest import assert_rows_name_every_unit, evaluation_question_keys, question_key

from qa.corpus.renderings import UnitQuestions, opening, unit_questions, unit_questions_in
from qa.corpus.units import LemmaUnit
from qa.errors import DataTableError
from qa.retrieval import fusion
from qa.retrieval.asked import AskedIndex
from qa.retrieval.query import analyze


def unit(uid: str, jing: str, zhu: str = "") -> LemmaUnit:
    return LemmaUnit(id=uid, work="儀禮注疏", rite="鄉飲酒禮", source="t.txt", lines=(1, 1), section="經",
                     jing=jing, zhu=zhu, shu=())


UNITS = [unit("t.x.1", "尊兩壺于房戶間，有玄酒，在西。"), unit("t.x.2", "樂正先升，北面立于其西。"),
         unit("t.x.3", "主人坐取爵于篚，降洗。")]


def table(*rows: tuple[str, tuple[str, ...], tuple[str, ...]]) -> dict[str, UnitQuestions]:
    by_id = {u.id: u for u in UNITS}
    return {uid: UnitQuestions(uid, opening(by_id[uid]), en, zh) for uid, en, zh in rows}


TABLE = table(
    ("t.x.1", ("Why is a jar of plain water set beside the wine?", "Where do the wine jars stand?"),
     ("为什么酒壶旁边放一壶清水？", "酒壶摆在哪儿？")),
    ("t.x.2", ("Who leads the musicians up into the hall?",), ("乐队是谁领上去的？",)),
    ("t.x.3", ("Where does the host wash the cup?", "What does the host take out of the basket?"),
     ("主人去哪儿洗杯子？",)),
)


def test_a_unit_scores_as_its_best_matching_question():
    idx = AskedIndex.build(UNITS, TABLE)
    assert idx.covered == 3 and len(idx.owner) == 9
    first = lambda text: idx.rank(analyze(text), 3)[0][0]  # noqa: E731
    assert first("Why put plain water next to the wine jars?") == 0
    assert first("Who takes the musicians up?") == 1
    assert first("Where is the cup washed?") == 2
    assert first("乐队谁带上去？") == 1
    assert first("杯子在哪洗？") == 2
    ranked = idx.rank(analyze("Where is the cup washed?"), 3)
    assert len({u for u, _ in ranked}) == len(ranked)  # a unit counts once, at its best question
    assert idx.rank(analyze("How do I install Python?"), 3) == []  # nothing shared, nothing ranked


def test_questions_that_name_another_unit_are_skipped(caplog):
    wrong = {"t.x.1": UnitQuestions("t.x.1", opening(UNITS[1]), ("Who leads the musicians up?",), ())}
    with caplog.at_level(logging.WARNING, logger="qa.retrieval.asked"):
        idx = AskedIndex.build(UNITS, wrong)
    assert idx.covered == 0 and "t.x.1" in caplog.text
    assert idx.rank(analyze("Who leads the musicians up?"), 3) == []


def test_a_corpus_the_table_hardly_covers_gets_no_channel():
    # only t.x.2 has questions: ranking it alone would favour it over units nobody wrote questions for
    idx = AskedIndex.build(UNITS, {"t.x.2": TABLE["t.x.2"]})
    assert idx.covered == 1 and not idx.usable
    assert idx.rank(analyze("Who leads the musicians up into the hall?"), 3) == []
    assert AskedIndex.build(UNITS, TABLE).usable


def test_the_table_is_read_by_unit_and_language(tmp_path):
    (tmp_path / "unit_questions.tsv").write_text(
        "# comment\nt.x.1\t尊两壶于房户间有\ten\tWhy the water?\nt.x.1\t尊两壶于房户间有\tzh\t为什么放清水？\n"
        "t.x.1\t尊两壶于房户间有\ten\tWhere are the jars?\n", encoding="utf-8")
    rows = unit_questions_in(tmp_path)
    assert rows["t.x.1"].en == ("Why the water?", "Where are the jars?") and rows["t.x.1"].zh == ("为什么放清水？",)
    assert rows["t.x.1"].trained() == ("Why the water?", "Where are the jars?", "为什么放清水？")


def test_a_row_marked_no_is_a_document_of_the_channel_only(tmp_path):
    """``no`` in the train column: the channel reads the question, the encoder and the topic classifier do not."""
    (tmp_path / "unit_questions.tsv").write_text(
        "t.x.1\t尊两壶于房户间有\ten\tWhy the water?\nt.x.1\t尊两壶于房户间有\ten\tWhat is in the second jar?\tno\n",
        encoding="utf-8")
    q = unit_questions_in(tmp_path)["t.x.1"]
    assert q.en == ("Why the water?", "What is in the second jar?")
    assert q.untrained == frozenset({"What is in the second jar?"}) and q.trained() == ("Why the water?",)


def test_a_sentence_question_marked_no_is_read_by_the_scorer_only(tmp_path):
    """The sentence questions' train column: ``no`` keeps a question out of the topic classifier's positives."""
    from qa.corpus.renderings import sentence_questions_in

    (tmp_path / "sentence_questions.tsv").write_text(
        "t.x.1\t玄酒在西\ten\tWhy the water?\nt.x.1\t玄酒在西\tzh\t那壶清水干嘛用？\tno\n", encoding="utf-8")
    q = sentence_questions_in(tmp_path)[("t.x.1", "玄酒在西")]
    assert q.en == ("Why the water?",) and q.zh == ("那壶清水干嘛用？",)
    assert q.trained() == ("Why the water?",)
    (tmp_path / "sentence_questions.tsv").write_text("t.x.1\t玄酒在西\ten\tA?\tyes\n", encoding="utf-8")
    sentence_questions_in.cache_clear()
    with pytest.raises(DataTableError, match="neither empty nor no"):
        sentence_questions_in(tmp_path)


@pytest.mark.parametrize("line, message", [("t.x.1\t尊两壶于房户间有\tfr\tPourquoi ?", "neither en nor zh"),
                                           ("t.x.1\t尊两壶于房户间有\ten\tA?\nt.x.1\t乐正先升北面立于\ten\tB?", "two openings"),
                                           ("t.x.1\t尊两壶于房户间有\ten\tA?\tyes", "neither empty nor no")])
def test_a_bad_row_is_named(tmp_path, line, message):
    (tmp_path / "unit_questions.tsv").write_text(line + "\n", encoding="utf-8")
    with pytest.raises(DataTableError, match=message):
        unit_questions_in(tmp_path)


def test_the_channel_weighs_by_language():
    assert fusion.asked_weight(analyze("Who leads the musicians up?")) == fusion.ASKED_WEIGHTS["en"] > 0
    assert fusion.asked_weight(analyze("乐队是谁领上去的？")) == fusion.ASKED_WEIGHTS["zh-Hans"] > 0
    assert "asked" in fusion.weights_for(analyze("乐队是谁领上去的？"))


# ---------------------------------------------------------------- the real corpus


def test_every_unit_has_questions_in_both_languages_and_every_row_names_a_unit(real_retriever):
    rows = unit_questions()
    units = {u.id: u for u in real_retriever.units}
    assert_rows_name_every_unit(rows, units)
    assert all(len(q.en) >= 2 and len(q.zh) >= 2 for q in rows.values())
    assert real_retriever.asked.covered == len(units)


def test_a_written_question_asked_again_finds_its_unit(real_retriever):
    # max over a unit's own questions: asking one of them verbatim puts its unit first, unless another unit
    # has a question as close (a few are generic: "What happens next?")
    rows = sorted(unit_questions().items())
    sample = random.Random(5).sample([(uid, text) for uid, q in rows for text in (*q.en, *q.zh)], 120)
    first = [real_retriever.asked.rank(analyze(text), 1) for _, text in sample]
    found = sum(1 for (uid, _), top in zip(sample, first) if top and real_retriever.units[top[0][0]].id == uid)
    assert found >= 0.9 * len(sample), found


def test_a_lay_question_reaches_its_unit_through_the_channel(real_retriever):
    # 乐人县 (Fang Bao on the musicians hanging the bells and chimes): no corpus word in the question
    q = real_retriever.understand(analyze("Who puts up the bells and the stone chimes before the feast?"))
    assert "xiyi.yan.003" in [u for u, _ in real_retriever.asked_ranking(q)[:3]]


def test_no_written_question_repeats_an_evaluation_question():
    # the written questions are document expansion, not answers to the sets the system is measured on: a
    # written question that repeats an evaluation question word for word would hand that question its unit
    from qa.corpus.renderings import sentence_questions

    asked = evaluation_question_keys()
    assert len(asked) > 1000  # every set was read
    written = [t for q in unit_questions().values() for t in (*q.en, *q.zh)]
    written += [t for q in sentence_questions().values() for t in (*q.en, *q.zh)]
    repeats = [t for t in written if question_key(t) in asked]
    assert not repeats, repeats[:5]
