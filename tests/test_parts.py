"""qa.answering.parts: questions on how a stage of the rite is made up, answered from 賈疏's outline."""

from __future__ import annotations

import pytest

from qa.answering.parts import parse_parts


@pytest.mark.parametrize("question, target", [
    ("鄉飲酒禮上奏樂分成哪幾段，先後次序怎樣？", "上奏樂"),
    ("燕禮作樂凡幾節？", "作樂"),
    ("賈疏分作樂為幾節？", "作樂"),  # the commentator named first is no part of the step
    ("请简述乡饮酒礼“主人献宾”一节的主要程序。", "主人献宾"),
    ("What are the stages of the music at the village drinking feast?", "music at feast"),
    ("What is the running order of the music at the village drinking ceremony?", "music"),
    ("How many parts does the music have?", "music"),
    ("乡饮酒礼的主要仪节有哪些？", ""),  # the rite asked whole
    ("What are the stages of the village drinking ceremony?", ""),
])
def test_a_question_on_a_step_s_make_up_names_the_step(question, target):
    ask = parse_parts(question)
    assert ask is not None and ask.target == target


@pytest.mark.parametrize("question", [
    "樂正為什麼先升？", "主人獻賓之後是什麼？", "What happens after the music?", "名詞解釋：這一環節叫什麼？", "",
    "客人推辭的時候，為什麼要往前走幾步？",  # a few steps walked, asked why
    "副賓回敬主人的流程跟主賓回敬一樣嗎？",  # a comparison of two procedures
    "眾賓之間互相勸酒，這些步驟跟賓敬主人時一樣嗎？",
])
def test_other_questions_are_not_about_a_step_s_make_up(question):
    assert parse_parts(question) is None


def test_the_music_s_parts_are_the_sub_commentary_s_account_of_the_stage(real_retriever):
    """鄉飲酒禮's music is the stage 主人樂賓: 賈疏's sentence after his statement of it counts and lists the parts."""
    a = real_retriever.ask("鄉飲酒禮奏樂分幾段？先後順序怎麼排？")
    assert a.found and a.hits[0].unit.id == "zhushu.xiangyin.076"
    assert a.evidence[0].layer == "shu" and "有歌，有笙，有間，有合" in a.evidence[0].text
    assert a.evidence[1].text.startswith("自此下至「樂正告于賓乃降」")  # the statement of the stage follows
    assert "主人樂賓" in a.text and a.stage == "zhushu.xiangyin.076"


def test_a_procedure_is_the_statement_of_its_stage(real_retriever):
    a = real_retriever.ask("请简述乡饮酒礼“主人献宾”一节的主要程序。")
    assert a.hits[0].unit.id == "zhushu.xiangyin.018"
    assert a.evidence[0].text == "自此至「主人阼階上答拜」，論主人盥洗獻賓之節也"


def test_a_question_naming_no_rite_gets_the_step_of_each(real_retriever):
    """作樂 is the 燕禮's title; the 鄉飲酒禮 says 主人樂賓 for the same step: both are answered, the titled one first."""
    a = real_retriever.ask("賈疏分作樂為幾節？")
    ids = [h.unit.id for h in a.hits]
    assert ids[0] == "zhushu.yan.a016" and "zhushu.xiangyin.076" in ids
    assert "升歌一，笙二，閒三，合樂四" in a.evidence[0].text
    assert any("有歌，有笙" in e.text for e in a.evidence[1:])


@pytest.mark.parametrize("question", ["KTV唱歌一般分几段？", "中式婚礼分几个环节？", "How many stages does a Japanese tea ceremony have?"])
def test_a_step_of_something_else_is_not_answered_from_the_outline(real_retriever, question):
    assert not real_retriever.ask(question).found


def test_a_rite_the_corpus_lacks_keeps_its_scope_notice(real_retriever):
    a = real_retriever.ask("士昏禮的「六禮」是哪六個步驟？")
    assert a.notice and a.stage is None


def test_an_english_question_answered_from_the_structure_gets_its_reading_aids(real_retriever):
    """English glosses of the key terms and the first sentence in plain English, as the normal path gives them."""
    music = real_retriever.ask("What is the running order of the music at the village drinking ceremony?")
    assert ("樂", "music") in music.glosses
    assert music.plain and "plain English" in music.plain[0]
    after = real_retriever.ask("what happens after the 旅酬?")  # a sequence answer alike
    assert after.stage is not None and after.glosses and after.plain
    assert not real_retriever.ask("鄉飲酒禮奏樂分幾段？").glosses  # a Chinese question has none


@pytest.mark.parametrize("question, rite, count", [
    ("乡饮酒礼的主要仪节有哪些？", "鄉飲酒禮", 17),
    ("燕礼的流程是什么？", "燕禮", 8),  # as far as the corpus holds the 燕禮
    ("What are the stages of the village drinking ceremony?", "鄉飲酒禮", 17),
])
def test_a_rite_asked_whole_gets_its_outline(real_retriever, question, rite, count):
    """賈疏's outermost stages of the rite, in order: their titles in the lead, their statements cited."""
    a = real_retriever.ask(question)
    assert a.found and str(count) in a.text.split("\n")[0] and rite in a.text.split("\n")[0]
    assert all(e.layer == "shu" and e.text.startswith("自此") for e in a.evidence)
    first = real_retriever.outline.stages_of(rite)[0]
    assert a.hits[0].unit.id == first.unit and a.evidence[0].text == first.statement


def test_a_question_word_is_no_step(real_retriever):
    """「主要」 is the question's own word: no stage title holds its parts for it (主 of 主人獻賓 is no match)."""
    assert real_retriever.ask("主要的流程是什么？").stage is None
