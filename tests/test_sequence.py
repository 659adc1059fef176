"""qa.answering.sequence: sequence questions recognised in zh, lzh and en, and answered from 賈疏's outline."""

from __future__ import annotations

import pytest

from qa.answering.sequence import SequenceAsk, find_stage, parse_sequence

XY = "zhushu.xiangyin."


@pytest.mark.parametrize(
    "question, step, target",
    [
        ("合樂之後呢？", 1, "合樂"),
        ("合樂以後做什麼", 1, "合樂"),
        ("合乐之后是什么？", 1, "合乐"),
        ("獻介之後", 1, "獻介"),
        ("告旨之後如何", 1, "告旨"),
        ("旅酬既畢，次何事？", 1, "旅酬"),  # lzh
        ("旅酬畢，何為？", 1, "旅酬"),
        ("旅酬之前是什麼", -1, "旅酬"),
        ("「旅酬」之前呢", -1, "旅酬"),
        ("what happens after the 旅酬?", 1, "旅酬"),
        ("What comes after the general pledging?", 1, "general pledging"),
        ("What follows 合樂?", 1, "合樂"),
        ("What comes before the 旅酬?", -1, "旅酬"),
        ("What precedes the 旅酬", -1, "旅酬"),
        ("下一節是什麼？", 1, ""),
        ("那下一節呢？", 1, ""),
        ("接下來呢", 1, ""),
        ("之後呢", 1, ""),
        ("上一節呢", -1, ""),
        ("What happens next?", 1, ""),
        ("the next step?", 1, ""),
        ("What came before that?", -1, ""),
        ("And after that?", 1, ""),
        ("獻賓之後，下一步是什麼？", 1, "獻賓"),
        ("合樂以後，接下來要做什麼", 1, "合樂"),
        ("主人酬賓既畢，次將何為？賓何以降？", 1, "主人酬賓"),  # two questions: the first asks the step
        ("then what?", 1, ""),
        ("What then?", 1, ""),
        ("燕禮作樂之後呢？", 1, "作樂"),  # the rite named is the query's rites, not part of the step
        ("鄉飲酒禮的旅酬之後呢", 1, "旅酬"),
        ("What happens after the 獻大夫 in the 燕禮?", 1, "獻大夫"),
        ("what comes after the 旅酬 of the district drinking ceremony?", 1, "旅酬"),
    ],
)
def test_sequence_questions(question, step, target):
    assert parse_sequence(question) == SequenceAsk(step, target)


@pytest.mark.parametrize(
    "question",
    ["賓為什麼說旨？", "主人獻賓後為何洗爵", "燕禮誰為主人？", "Why does the guest say 旨?", "", "？", "What is 旨?",
     "What does the guest do after that toast?", "主人為何在賓前？", "燕禮獻士畢，次獻何人？", "賓為什麼說旨？主人怎麼回答？"],
)
def test_other_questions_are_not_sequence_questions(question):
    assert parse_sequence(question) is None


def test_find_stage_prefers_the_stage_that_is_about_the_words(real_retriever):
    ctx = real_retriever.context
    assert find_stage(ctx, "旅酬").title == "堂上堂下遍行旅酬"  # not 「遍獻眾賓訖將以旅酬」
    assert find_stage(ctx, "合樂").title == "堂上元缺一字堂下眾聲俱合"  # by its 經 乃合樂
    assert find_stage(ctx, "主人獻賓").title == "主人盥洗獻賓"  # a title holding the words in order
    assert find_stage(ctx, "general pledging").title == "堂上堂下遍行旅酬"  # the glossary's 旅酬
    assert find_stage(ctx, "射箭比賽") is None
    assert find_stage(ctx, "旅", rites=("燕禮",)).title == "君為士舉旅"  # of 為卿舉旅 and 君為士舉旅, the one saying 旅 most


def test_after_he_yue_comes_li_si_zheng(real_retriever):
    a = real_retriever.ask("合樂之後呢？")
    assert a.found and a.stage == XY + "092"
    assert [h.unit.id for h in a.hits] == [f"{XY}{i:03d}" for i in range(92, 97)]  # k = 5, in 經 order
    assert a.text.splitlines()[0] == "鄉飲酒禮「堂上元缺一字堂下眾聲俱合」（即「合樂」）之後，賈疏所分下一節為「立司正」。"
    statement, jing = a.evidence
    assert (statement.text, statement.layer, statement.lines) == ("自此至「退立于觶南」，論立司正之事", "shu", (271, 271))
    assert (jing.text, jing.layer, jing.unit_id) == ("主人降席自南方，", "jing", XY + "092")
    assert statement.scholarly.startswith("《儀禮注疏》卷八–十〈鄉飲酒禮〉賈公彥疏")


def test_after_and_before_the_lu_chou_in_english_and_chinese(real_retriever):
    after = real_retriever.ask("what happens after the 旅酬?")
    assert after.hits[0].unit.id == XY + "111" and after.stage == XY + "111"
    assert after.text.splitlines()[0] == (
        "After 「堂上堂下遍行旅酬」 the next stage of 鄉飲酒禮 in Jia Gongyan's outline is 「賓主燕坐爵樂無數」."
    )
    assert after.evidence[0].text == "自此至「無算樂」，論賓主燕坐爵樂無數之事"
    before = real_retriever.ask("旅酬之前是什麼")
    assert before.hits[0].unit.id == XY + "092" and before.text.splitlines()[0].endswith("上一節為「立司正」。")


def test_next_section_follows_the_conversation(real_retriever):
    first = real_retriever.ask("合樂之後呢？")
    by_answer = real_retriever.ask("下一節是什麼？", history=[first])
    by_text = real_retriever.ask("下一節是什麼？", history=["合樂之後呢？"])
    assert by_answer.text == by_text.text and by_answer.stage == XY + "099"
    assert by_answer.text.splitlines()[0] == "鄉飲酒禮「立司正」之後，賈疏所分下一節為「堂上堂下遍行旅酬」。"
    # after an ordinary answer: the stage of its first answering unit (告旨 is in 主人盥洗獻賓)
    after_gaozhi = real_retriever.ask("下一節是什麼？", history=["賓為什麼說旨？"])
    assert after_gaozhi.stage == XY + "040" and after_gaozhi.hits[0].unit.id == XY + "040"
    # before 立司正: the stage holding 獻笙者 and 合樂 (qa.corpus.outline.sequence)
    assert real_retriever.ask("上一節呢", history=[first]).stage == XY + "076"


def test_yan_li_runs_from_the_middle_file_into_the_last(real_retriever):
    after = real_retriever.ask("燕禮作樂之後呢？")
    assert after.stage == "zhushu.yan.b005" and after.text.splitlines()[0] == "燕禮「作樂」之後，賈疏所分下一節為「獻士」。"
    before = real_retriever.ask("獻士之前是什麼")
    assert [h.unit.id for h in before.hits] == ["zhushu.yan.a016", "zhushu.yan.a017"]
    assert real_retriever.ask("What happens after the 獻大夫 in the 燕禮?").stage == "zhushu.yan.a016"


def test_without_a_step_or_a_later_stage(real_retriever):
    assert real_retriever.ask("下一節是什麼？").stage is None  # no conversation: the normal path answers
    last = real_retriever.ask("後日息司正之後呢")
    assert not last.found and last.hits == () and last.stage == XY + "132"
    assert last.text == "「後日息司正征唯所欲更行飲酒之禮」是語料所見賈疏鄉飲酒禮分節的最後一節。"
    assert last.coverage.startswith("本語料收2篇")
