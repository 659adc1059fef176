"""qa.answering.compare: compare questions recognised, and answered with one cited sentence from each rite."""

from __future__ import annotations

import pytest

from qa.answering.compare import parse_compare


@pytest.mark.parametrize(
    "question, step",
    [
        ("兩禮的獻賓有何不同？", "獻賓"),
        ("两礼的献宾有什么区别", "献宾"),
        ("鄉飲酒禮和燕禮的獻賓有什麼不同", "獻賓"),
        ("燕禮與鄉飲酒禮之旅酬有何異同？", "旅酬"),
        ("獻賓在兩禮中有何異同", "獻賓"),
        ("比較兩禮的旅酬", "旅酬"),
        ("How does the 獻賓 differ between the two rites?", "獻賓"),
        ("How does the toast differ between 鄉飲酒禮 and 燕禮?", "toast"),
        ("Compare the 旅酬 in the two rites", "旅酬"),
        ("How does the toast differ between the district drinking ceremony and the banquet?", "toast"),
    ],
)
def test_compare_questions(question, step):
    assert parse_compare(question) == step


@pytest.mark.parametrize("question", ["賓為什麼說旨？", "鄉飲酒禮和燕禮", "兩禮有何不同？", "What is 旨?", "燕禮誰為主人？"])
def test_other_questions_are_not_compare_questions(question):
    assert parse_compare(question) is None


def test_both_sides_of_the_xian_bin(real_retriever):
    a = real_retriever.ask("兩禮的獻賓有何不同？")
    assert a.found and a.parallels == ("zhushu.xiangyin.029", "xiyi.yan.021")
    assert [h.unit.id for h in a.hits[:2]] == list(a.parallels)
    assert [(e.rite, e.layer, e.text) for e in a.evidence] == [
        ("鄉飲酒禮", "zhu", "獻，進也，進酒於賓。"),
        ("燕禮", "xiyi", "主人献宾宾酢主人并言酌膳嫌不敢酌膳也"),
    ]
    assert a.text.splitlines()[0] == "「獻賓」，兩禮對照：先鄉飲酒禮，後燕禮。"
    en = real_retriever.ask("How does the 獻賓 differ between the two rites?")
    assert en.parallels == a.parallels and en.text.splitlines()[0] == "「獻賓」 in the two rites: 鄉飲酒禮, then 燕禮."


def test_named_rites_lead_in_the_order_named(real_retriever):
    a = real_retriever.ask("燕禮與鄉飲酒禮之旅酬有何異同？")
    assert [e.rite for e in a.evidence] == ["燕禮", "鄉飲酒禮"]
    assert a.parallels == ("xiyi.yan.033", "zhushu.xiangyin.099")
