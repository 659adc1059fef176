"""qa.retrieval.topic: the classifier that tells a question about this corpus from an everyday one in its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import evaluation_question_keys, question_key

from qa.retrieval.confidence import TOPIC_FLOOR, TOPIC_SURE, TOPIC_VETO, TOPIC_VOUCH, Calibration, Signals
from qa.retrieval.query import analyze
from qa.retrieval.topic import (
    ASKED_MIN_WORDS,
    TABLE,
    VOICES,
    features,
    reads,
    topic_model,
    topic_probabilities,
    training_questions,
)
from qa.text.tables import data_dir, read_table, use_data_dir


def test_features_read_both_scripts_and_stemmed_english():
    assert features("賓為什麼拜兩次") == features("宾为什么拜两次")
    assert "w:guest" in features("Why do the guests bow?") and "b:the_guest" in features("Why do the guests bow?")
    assert features("？") == []


def test_the_table_is_whole_and_read():
    rows = read_table(TABLE)
    assert len(rows) >= 2900
    assert {r.fields[1] for r in rows} <= {"en", "zh-Hans", "zh-Hant", "lzh", "mixed"}
    assert {r.fields[2] for r in rows} == {"manners", "general", "manners+general", "classical+mixed+chatter",
                                           "customs+roles+terms", "voices-manners", "voices-general"}
    voices = read_table(VOICES)
    assert {r.fields[1] for r in voices} == {f"V{i}" for i in range(1, 7)}
    positives, negatives = training_questions(data_dir())
    assert len(positives) > 6000 and len(negatives) == len(rows) + len(read_table("offtopic.tsv"))


def test_voices_name_units_of_the_parse(real_retriever):
    ids = {u.id for u in real_retriever.units}
    voices = read_table(VOICES)
    assert {r.fields[0] for r in voices} == ids  # three questions for every unit, none for a unit that is gone


def test_the_lay_probe_names_units_of_the_parse_and_repeats_no_evaluation_question(real_retriever):
    # tests/data/lay_probe.tsv (scripts/lay_probe.py): four lay questions for every unit, none an evaluation question
    rows = [line.split("\t") for line in (Path(__file__).parent / "data" / "lay_probe.tsv").read_text(encoding="utf-8")
            .splitlines() if line.strip() and not line.startswith("#")]
    assert {r[0] for r in rows} == {u.id for u in real_retriever.units} and len(rows) == 4 * len(real_retriever.units)
    assert {r[1] for r in rows} == {"en", "zh-Hans", "zh-Hant", "lzh"}
    asked = evaluation_question_keys()
    assert not [r[2] for r in rows if question_key(r[2]) in asked]


def test_no_written_question_of_the_classifier_repeats_an_evaluation_question():
    # the negatives and the voices are kinds of question, not the sets the system is measured on
    asked = evaluation_question_keys()
    assert len(asked) > 1000
    written = [r.fields[0] for r in read_table(TABLE)] + [r.fields[2] for r in read_table(VOICES)]
    repeats = [t for t in written if question_key(t) in asked]
    assert not repeats, repeats[:5]


def test_reads_questions_of_their_own_only():
    assert reads(analyze("为啥客人要拜两次？")) and reads(analyze("Why does the guest bow twice?"))
    assert reads(analyze("賓再拜者何？"))  # classical too: the confidence rule weighs that verdict apart
    assert not reads(analyze("那介呢？", history=["賓為什麼說旨？"]))  # a follow-up's topic is the turn before


def test_probabilities_on_questions_of_both_kinds():
    model = topic_model()
    assert model is not None
    about, everyday = model.probability([
        "为啥那个端酒的人喝之前要先把杯子洗一遍？",
        "公司年会上新人要先给哪位领导敬酒？",
    ])
    assert about > TOPIC_VOUCH > TOPIC_VETO > everyday


def test_a_question_after_the_askers_preface_is_also_read_alone():
    """The asker's game or novel speaks of today; the question after it, of the rite: the higher verdict stands. A
    short rest ("Any history there?") is read only whole."""
    model = topic_model()
    assert model is not None
    text = "I'm building a board game. Once the guests sit down, which dishes are brought out to them first?"
    rest = "Once the guests sit down, which dishes are brought out to them first?"
    whole, alone = (float(p) for p in model.probability([text, rest]))
    [read] = topic_probabilities([analyze(text)])
    assert read == pytest.approx(max(whole, alone))
    short = "I'm a bartender and a customer asked why we give a free drink on their birthday. Any history there?"
    assert len("Any history there?".split()) < ASKED_MIN_WORDS
    assert topic_probabilities([analyze(short)])[0] == pytest.approx(float(model.probability([short])[0]))
    # Chinese is read without its clauses about the asker (qa.retrieval.remarks.chinese_preface), or whole
    zh = "我在做桌游。客人坐下以后先上什么菜？"
    assert topic_probabilities([analyze(zh)])[0] == pytest.approx(float(model.probability(["客人坐下以后先上什么菜？"])[0]))
    zh = "客人坐下以后先上什么菜？谢谢！"  # and without the thanks after it
    assert topic_probabilities([analyze(zh)])[0] == pytest.approx(float(model.probability(["客人坐下以后先上什么菜？"])[0]))
    zh = "客人坐下以后，主人先上什么菜？"
    assert topic_probabilities([analyze(zh)])[0] == pytest.approx(float(model.probability([zh])[0]))


def test_no_classifier_without_its_tables(tmp_path):
    # a data directory whose tables hold a handful of rows (a fixture's): too few to learn from
    (tmp_path / "offtopic.tsv").write_text("How do I reset my password?\ten\n", encoding="utf-8")
    for name in (TABLE, VOICES, "unit_questions.tsv", "sentence_questions.tsv"):
        (tmp_path / name).write_text("", encoding="utf-8")
    use_data_dir(tmp_path)
    try:
        assert topic_model() is None
    finally:
        use_data_dir(None)


def test_rule_reads_the_verdict():
    c = Calibration(dense_min=0.8)
    # below the veto a question naming only everyday words of the rite (主人, host) is about something else ...
    assert c.low_confidence(Signals(ritual=0.9, dense=0.9, named=True, topic=TOPIC_VETO - 0.01))
    # ... but not one that names the corpus itself (旅酬, 樂正, a rite by its name)
    assert not c.low_confidence(Signals(ritual=0.9, dense=0.9, named=True, topic=0.0, itself=True))
    # at the vouch a question with little of the corpus's vocabulary is answered, never one with none
    assert not c.low_confidence(Signals(ritual=0.25, dense=0.1, topic=TOPIC_VOUCH))
    assert not c.low_confidence(Signals(ritual=TOPIC_FLOOR, dense=0.1, topic=TOPIC_VOUCH))  # English, one glossary word
    assert c.low_confidence(Signals(ritual=0.1, dense=0.1, topic=TOPIC_SURE - 0.01))
    # a sure verdict needs only a trace of the vocabulary (TOPIC_SURE_FLOOR), still never none
    assert not c.low_confidence(Signals(ritual=0.1, dense=0.1, topic=0.99))
    assert c.low_confidence(Signals(ritual=0.0, dense=0.1, topic=0.99))
    assert c.low_confidence(Signals(ritual=0.25, dense=0.1, topic=TOPIC_VOUCH - 0.01))
    # no verdict: the rule as it was
    assert not c.low_confidence(Signals(ritual=0.9, dense=0.1, named=True, topic=None))
    # a modern setting made by work words alone (boss, 老闆) yields to a classifier sure of the question; no other does
    assert not c.low_confidence(Signals(ritual=0.5, dense=0.5, named=True, modern=True, figurative=True, topic=TOPIC_SURE))
    assert c.low_confidence(Signals(ritual=0.5, dense=0.5, named=True, modern=True, figurative=True, topic=TOPIC_SURE - 0.01))
    assert c.low_confidence(Signals(ritual=0.5, dense=0.5, named=True, modern=True, topic=1.0))  # nowadays, 如今
    assert c.low_confidence(Signals(ritual=0.5, dense=0.5, named=True, modern=True, figurative=True, topic=None))
    # a question naming the rite only in everyday words needs the vouch; below it, the share or the dense side
    assert c.low_confidence(Signals(ritual=0.3, dense=0.1, named=True, topic=TOPIC_VOUCH - 0.01))
    assert not c.low_confidence(Signals(ritual=0.5, dense=0.1, named=True, topic=TOPIC_VOUCH - 0.01))
    assert not c.low_confidence(Signals(ritual=0.3, dense=0.1, named=True, topic=TOPIC_VOUCH))
    assert not c.low_confidence(Signals(ritual=0.3, dense=0.1, named=True, topic=TOPIC_VOUCH - 0.01, itself=True))


@pytest.mark.parametrize("question", [
    "那个专门负责倒酒的人是什么身份？",
    "Who helps the blind musicians walk up to the hall?",
    "为啥喝完以后要把杯子放回那个竹筐里？",
])
def test_lay_questions_about_the_rite_are_answered(real_retriever, question):
    assert real_retriever.ask(question).found


@pytest.mark.parametrize("question", [
    "露营的时候主人要不要先给客人倒啤酒？",
    "At a retirement party, should guests bow to their host?",
    "生日派對上客人到了，主人要先敬酒還是先切蛋糕？",
])
def test_everyday_questions_in_the_rites_words_are_flagged(real_retriever, question):
    q = real_retriever.understand(analyze(question))
    assert real_retriever.bridge.names_ritual_term(q)  # host and guest: the rule alone would take it as the rite's
    assert not real_retriever.ask(question).found


def test_probability_is_the_fitted_pipelines():
    # the model reads scikit-learn's fitted parameters term by term: the same figures as predict_proba
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from qa.retrieval import topic

    positives, negatives = training_questions(data_dir())
    vectorizer = TfidfVectorizer(analyzer=features, sublinear_tf=True)
    x = vectorizer.fit_transform([*positives, *negatives])
    fitted = LogisticRegression(C=topic.C, class_weight="balanced", max_iter=2000).fit(x, [1] * len(positives) + [0] * len(negatives))
    texts = ["Why does the guest bow twice?", "主人為什麼要洗杯子", "婚宴上谁先敬酒", "？", "qqq zzz", "为啥为啥为啥客人客人"]
    expected = fitted.predict_proba(vectorizer.transform(texts))[:, 1]
    assert topic_model().probability(texts) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("question", ["篚是干嘛用的？", "「酬」是什么意思？", "觯是干嘛的"])
def test_a_one_character_term_of_its_own_is_never_overruled(real_retriever, question):
    # a quoted term or a character modern Chinese hardly uses names the corpus as surely as 旅酬 does
    assert real_retriever.bridge.names_own_term(real_retriever.understand(analyze(question)))
    assert real_retriever.ask(question).found
