"""qa.retrieval.remarks: thanks after a question are no part of what is asked; a guess stays matched but is no topic."""

from __future__ import annotations

import pytest

from qa.retrieval.query import analyze
from qa.retrieval.remarks import chinese_guess, chinese_preface, without_remarks


def test_thanks_after_the_question_are_left_out():
    assert without_remarks("賓為什麼告旨？先謝過了，困擾我很久。") == "賓為什麼告旨？"
    assert without_remarks("主人为什么洗爵？谢谢！") == "主人为什么洗爵？"
    assert without_remarks("Why does the host bow twice? Thanks in advance, this has bugged me for weeks.") == \
        "Why does the host bow twice?"
    # a closing that asks to be taught, as a letter or a forum post ends
    assert without_remarks("卿席何以東上？敬請賜教。") == "卿席何以東上？"
    assert without_remarks("主人为什么要拜洗？请各位不吝指教！") == "主人为什么要拜洗？"
    # what is matched is the question alone
    assert analyze("賓為什麼告旨？先謝過了，困擾我很久。").core == analyze("賓為什麼告旨？").core


def test_a_question_about_thanking_is_no_remark():
    """Only a closing sentence that asks nothing is a remark; the thanks a question asks about stay."""
    text = "In the village rite the host thanks the guest for praising the wine. Why skip the thanks here?"
    assert without_remarks(text) == text
    assert without_remarks("謝謝？") == "謝謝？"  # nothing would be left
    assert "拜谢" in analyze("客人為什麼就不再拜謝了？").core  # 謝了 of 拜謝了 is no thanks


def test_a_guess_after_the_question_is_set_apart():
    assert chinese_guess("主人为什么洗爵？我猜是为了表示尊敬吧？") == ("主人为什么洗爵？", "我猜是为了表示尊敬吧？")
    assert chinese_guess("主人为什么洗爵？") == ("主人为什么洗爵？", "")
    # it stays in what is matched: what people guess is as often the answer
    assert "尊敬" in analyze("主人为什么洗爵？我猜是为了表示尊敬吧？").core


def test_a_question_of_its_own_is_matched_without_its_clauses_about_the_asker():
    """「老師上課講到這個，我沒聽懂，想請教：」 is no term of the question; a clause that brings in the question itself
    (「想問大射禮時…」) or says what it asks about (「老師說主人拜了一個「崇酒」」, 「我在讀鄭注」) stays."""
    bare = analyze("隔天客人去主人家道謝，要穿什麼衣服去？")
    assert analyze("老師上課講到這個，我沒聽懂，想請教：隔天客人去主人家道謝，要穿什麼衣服去？").core == bare.core
    assert chinese_preface("我是歷史系的，想問大射禮時大夫有盛肉塊的盤子，為什麼？")[1] == "想問大射禮時大夫有盛肉塊的盤子，為什麼？"
    assert chinese_preface("老師說主人拜了一個「崇酒」，到底是在謝什麼呀？")[0] == ""
    assert analyze("我在讀鄭注，有個地方不明白，旨是什麼意思？").layers == ("zhu",)
    # talking it over, being new to it: the asker's too
    assert chinese_preface("我跟同學討論時卡住了：主人為什麼要拜洗？")[0] == "我跟同學討論時卡住了："
    assert chinese_preface("新手求助，賓為什麼說旨？")[0] == "新手求助，"
    # another work named without title marks says where the asker looked: part of the question; a collection he reads is not
    assert chinese_preface("我在詩經裡找不到魚麗的歌詞，是版本的問題嗎？")[0] == ""
    assert chinese_preface("我在複習三禮，想問鄉飲酒禮的賓為什麼要拜辱？")[0] == "我在複習三禮，"
    # a follow-up keeps them: 「另外想問，」 says it changes the subject
    history = ["燕禮裡的庶子是什麼官？"]
    assert "另外想问" in analyze("另外想問，鄉飲酒禮的眾賓大概會有多少人？", history=history).norm


#: (question, the clauses about the asker chinese_preface finds before it): twenty-fifth round.
ASKERS = [
    # a 文言 asker names himself and says he doubts or reads; 某 of the text's own 「某子受酬」 asks nothing of him
    ("弟子有惑，主人何以拜洗？", "弟子有惑，"),
    ("某嘗讀禮，主人何以拜洗？", "某嘗讀禮，"),
    ("某子受酬，某者何？", ""),
    # what he prepares is about something (宴飲 and 準備 are that work's words); 「想確認：」 brings in the question; a work
    # about the rite by name says what is asked about
    ("我最近在准备一个关于古代宴饮的讲座，想确认一下：主人为什么要拜洗？", "我最近在准备一个关于古代宴饮的讲座，想确认一下："),
    ("我正在寫碩士論文，有一點想確認：主人為什麼要拜洗？", "我正在寫碩士論文，有一點想確認："),
    ("我在写关于乡饮酒礼的论文，主人为什么要拜洗？", ""),
    # who he is (日本 sets no question in Japan) and who asked him (the programme in title marks is not what is asked);
    # chat leaves the 我 unsaid; the course he takes (三禮, the canon he reads)
    ("各位老师好，我是在北京读书的日本留学生，主人为什么要洗爵？", "各位老师好，我是在北京读书的日本留学生，"),
    ("孩子看了《典籍里的中国》问了我一个问题，我答不上来，主人为什么要洗爵？", "孩子看了《典籍里的中国》问了我一个问题，我答不上来，"),
    ("在写一部春秋背景的网文，写到宴会这章卡住了。主人为什么要洗爵？", "在写一部春秋背景的网文，"),
    ("我是历史系大二学生，这学期选了三礼导读课，主人为什么要洗爵？", "我是历史系大二学生，这学期选了三礼导读课，"),
    # a question set in today's world or in another work after its asker stays so
    ("我是日本人，在日本喝酒时要先给长辈倒酒吗？", "我是日本人，"),
    ("我在读《论语》，学而时习之是什么意思？", ""),
]


@pytest.mark.parametrize("question, preface", ASKERS)
def test_the_askers_own_clauses_are_found_and_what_is_asked_about_stays(question, preface):
    """Who asks, why, where the question came from and what he prepares are the asker's clauses; what names the rite, a
    quotation of its own text or another work asked about is the question's."""
    assert chinese_preface(question) == (preface, question[len(preface):])
