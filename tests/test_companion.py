"""qa.answering.companion: what every answer carries (scholarly citations, parallels, coverage) and its plain/Markdown forms."""

from __future__ import annotations

from qa import Answer

GAOZHI_ZHU = "《儀禮注疏》卷八–十〈鄉飲酒禮〉「告旨」鄭玄注「旨，美也」（十三經注疏本，003:110）"
GAOZHI_SHU = (
    "《儀禮注疏》卷八–十〈鄉飲酒禮〉賈公彥疏（「降席」至「美也」）「賓拜告旨，主人拜崇酒，其節同，義即異矣。"
    "賓言旨，甘主人之位，啐則拜之」（十三經注疏本，003:111）"
)


def test_every_sentence_carries_its_scholarly_citation(real_retriever):
    a = real_retriever.ask("賓為什麼說旨？")
    assert [e.scholarly for e in a.evidence] == [GAOZHI_ZHU, GAOZHI_SHU]
    row = a.to_dict()["citations"][0]
    assert row["cite"] == GAOZHI_ZHU
    assert set(row) == {"text", "unit_id", "work", "rite", "layer", "source", "lines", "citation", "cite"}
    assert row["citation"] == "儀禮注疏·鄉飲酒禮·注·zhushu.xiangyin.038（003_c949fed6c9cacba9.txt:110）"


def test_an_answer_names_the_parallels_of_its_first_unit(real_retriever):
    a = real_retriever.ask("賓為什麼說旨？")
    assert a.parallels == ("zhushu.yan.a003", "xiyi.yan.024", "xiyi.yan.019")


def test_plain_and_markdown(real_retriever):
    a = real_retriever.ask("賓為什麼說旨？")
    assert a.to_plain() == (
        f"旨，美也。（{GAOZHI_ZHU}）\n"
        f"賓拜告旨，主人拜崇酒，其節同，義即異矣。賓言旨，甘主人之位，啐則拜之。（{GAOZHI_SHU}）"
    )
    assert a.to_markdown() == (
        "### 賓為什麼說旨？\n\n"
        f"> 旨，美也。\n> —— {GAOZHI_ZHU}\n\n"
        f"> 賓拜告旨，主人拜崇酒，其節同，義即異矣。賓言旨，甘主人之位，啐則拜之。\n> —— {GAOZHI_SHU}\n"
    )
    seq = real_retriever.ask("合樂之後呢？")
    lead = "鄉飲酒禮「堂上元缺一字堂下眾聲俱合」（即「合樂」）之後，賈疏所分下一節為「立司正」。"
    assert seq.to_plain().splitlines()[0] == lead and seq.to_markdown().splitlines()[2] == lead
    assert seq.to_plain().splitlines()[1].startswith("自此至「退立于觶南」，論立司正之事（《儀禮注疏》")


def test_an_answer_outside_the_corpus_links_to_the_coverage(real_retriever):
    zh = real_retriever.ask("今天天氣如何")
    assert not zh.found and zh.coverage == real_retriever.coverage_statement().splitlines()[0]
    assert zh.to_plain().splitlines()[-1] == zh.coverage == "本語料收2篇：燕禮、鄉飲酒禮；所據《仪礼析疑》、《儀禮注疏》。"
    assert zh.to_markdown().rstrip().endswith(f"*{zh.coverage}*")
    en = real_retriever.ask("What is the weather today?")
    assert not en.found and en.coverage == "The corpus holds 2 rites: 燕禮, 鄉飲酒禮."
    assert real_retriever.ask("賓為什麼說旨？").coverage == ""


def test_batch_answers_like_ask(real_retriever):
    questions = ["合樂之後呢？", "賓為什麼說旨？", "兩禮的獻賓有何不同？"]
    batch = real_retriever.batch_ask(questions)
    assert all(isinstance(a, Answer) for a in batch)
    assert [a.to_dict() for a in batch] == [real_retriever.ask(q).to_dict() for q in questions]
    assert batch[0].stage == real_retriever.ask("合樂之後呢？").stage


def test_the_lead_is_what_a_renderer_listing_evidence_would_miss(real_retriever):
    assert real_retriever.ask("賓為什麼說旨？").lead == ""
    assert real_retriever.ask("兩禮的獻賓有何不同？").lead == "「獻賓」，兩禮對照：先鄉飲酒禮，後燕禮。"
    assert real_retriever.ask("今天天氣如何").lead == ""  # its text is the notice itself


def test_a_row_in_another_script_keeps_the_lead(real_retriever):
    from qa.present.rows import row_in_script

    row = row_in_script(real_retriever.ask("合樂之後呢？").to_dict(), "hans")
    lead, statement, _ = row["answer"].split("\n")
    assert lead == "乡饮酒礼「堂上元缺一字堂下众声俱合」（即「合乐」）之后，贾疏所分下一节为「立司正」。"
    assert statement.endswith("〔儀禮注疏·鄉飲酒禮·疏·zhushu.xiangyin.092（003_c949fed6c9cacba9.txt:271）〕")
