"""What a reader says around his question: thanks after it (「…？謝謝！」, 「先謝過了，困擾我很久。」, "Thanks in advance!"), his
guess after it (「我猜是為了表示尊敬吧？」), and, in Chinese, clauses about himself before it (「老師上課講到這個，我沒聽懂，
想請教：…」: :func:`chinese_preface`). Thanks and the Chinese clauses about the asker tell nothing of what is asked: they
are left out of what the question is matched on (:func:`qa.retrieval.query.analyze`; the clauses only in a question of
its own, not a follow-up, whose 「另外想問」 says it changes the subject) and of what the topic classifier and the
ritual share read. (English prefaces: :mod:`qa.retrieval.preface`.)

Only sentences after the first are remarks, only from the end, and never one that asks ("Why skip the thanks?"). The
asker's own guess after the question (「我猜是為了表示尊敬吧？」, "I'm guessing it's to honor each person's merit?") stays:
measured on the lay probe, what people guess is as often what the answer says (three English answers fell from first
place without it). Pure functions of the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.lexicon import beyond_table, commentators_table, glossary, modern_table, rites_table
from ..text.normalize import normalize

#: Thanks and politeness (normalized, simplified): a sentence holding one of these, and asking nothing, is a remark
#: (not 謝了 or 謝過, which 拜謝了, 拜謝過 hold). The closings of asking to be taught: twenty-second round, from a table of
#: closings written for development (not the robustness benchmark's).
_THANKS_ZH = ("谢谢", "多谢", "感谢", "先谢", "麻烦", "拜托", "在线等", "求解答", "求大神", "困扰我", "幸甚",
              # and asking to be taught, as a letter or a forum post closes (敬請賜教, 請不吝指教, 望指正)
              "赐教", "指教", "指点", "指正", "不吝")
_THANKS_EN = re.compile(r"\b(?:thanks|thank you|cheers|much appreciated|any help appreciated|appreciate (?:it|any))\b")
_SENTENCE = re.compile(r"[^。！!？?.]+(?:[。！!？?.]+|$)")


def sentences(text: str) -> list[str]:
    """``text``'s sentences, each with its end marks (「…。」, "… first time. ", "…?"); blank ones left out."""
    return [s for s in _SENTENCE.findall(text) if s.strip()]


def _remark(sentence: str) -> bool:
    """A sentence of thanks that asks nothing."""
    text = sentence.strip()
    if text.endswith(("?", "？")):
        return False
    return any(w in normalize(text) for w in _THANKS_ZH) or bool(_THANKS_EN.search(text.lower()))


def _trailing(text: str, ends: Callable[[str], bool]) -> tuple[str, str]:
    """(``text``'s sentences up to the run of ``ends`` sentences that closes it, that run): never the first sentence."""
    parts = sentences(text)
    keep = len(parts)
    while keep > 1 and ends(parts[keep - 1]):
        keep -= 1
    return "".join(parts[:keep]), "".join(parts[keep:])


def without_remarks(text: str) -> str:
    """``text`` less the remarks that end it (see the module docstring); ``text`` itself when it ends with none, or
    when nothing would be left."""
    asked, remarks = _trailing(text, _remark)
    return asked.rstrip() if remarks else text


#: A Chinese sentence after the question that opens with one of these (normalized) is the asker's guess (「我猜是為了
#: 表示尊敬吧？」, 「感覺只是傳統吧」).
_GUESS_ZH = ("我猜", "我觉得", "我想应该", "我估计", "估计是", "感觉", "大概是", "应该是", "也许是", "可能是",
             # a guess put as a question (「是不是因為比較尊敬？」, 「難道是為了好看？」, 「還是說只是傳統？」; 文言 「豈以尊卑故歟？」,
             # 「抑古之常法也？」): twenty-third round, from the development table of closings
             "是不是", "难道", "还是说", "会不会", "莫非", "岂", "抑")


def chinese_guess(text: str) -> tuple[str, str]:
    """(the question, the guess that ends it) of a Chinese question; (text, "") when it ends with none. The guess
    stays in what is matched (what people guess is as often the answer), but it is no measure of whether the question
    is about the rite: 「感覺只是傳統吧」 speaks of today's words, the question before it of the rite."""
    return _trailing(text, lambda sentence: normalize(sentence).startswith(_GUESS_ZH))


#: A Chinese question's opening clauses about the asker: why and how it is asked, not what about (「老師上課講到這個，我沒聽懂，
#: 想請教：…」, 「我在寫一篇報告，請教一個問題：…」, 「最近在讀《儀禮》，有個地方不明白，…」). Such a clause says one of these
#: words of studying and asking (normalized); one that names a modern setting (公司: ``modern.tsv``), another work in
#: title marks, a word the glossary maps (樂隊), a rite or a commentator of the corpus is the question's topic.
#: Twenty-first round, from a probe of development questions behind prefaces (``benchmarks/robustness.py``).
_ASKING_ZH = ("请教", "请问", "想问", "问一下", "问个", "问题", "疑问", "不明白", "不懂", "没懂", "听懂", "看懂",
              "不太清楚", "上课", "课上", "课堂", "论文", "复习", "在读", "读到",
              # and of greeting and politeness (不好意思打擾，…; 各位好，…)
              "不好意思", "打扰", "抱歉", "冒昧", "你好", "您好", "大家好", "各位", "困惑", "疑惑", "不解",
              # of talking it over, and of being new to it (跟朋友討論時卡住了, 可能問得比較傻, 新手求助): twenty-second
              # round, from a table of openings written for development (not the robustness benchmark's)
              "讨论", "争论", "卡住", "问得", "新手", "小白", "入门", "初学", "求助",
              # the friends it was talked over with, and the 文言 of not understanding (嘗與友人論此, 愚不敏, 有一事未達):
              # twenty-third round, from the same development table
              "友人", "朋友", "同学", "未达", "不敏",
              # and of making sure (有一點想確認：): twenty-fifth round, from the robustness benchmark's openings written apart
              "想确认", "确认一下", "答不上", "答不出",
              # and of the course he takes (這學期選了三禮導讀課): from the openings written for tuning this round
              "学期", "选了", "选修")
#: ... or it tells who the asker is or what he is doing (我是中文系的學生, 我在準備期末考, 本人初學).
_ASKER_ZH = ("我是", "我在", "我正在", "我最近", "本人",
             # and what he is doing, the 我 left unsaid as chat leaves it (在寫一部小說，; 在準備考研，)
             "在写", "在做", "在准备", "在备")
#: ... of which these say who he is.
_WHO_ZH = ("我是", "本人")
#: Someone asked the asker, and he could not answer (「孩子看了《典籍裡的中國》問了我一個問題，我答不上來，」): what that
#: clause names (a programme, a book in title marks) is where the question came from, not what it asks about.
_OCCASION_ZH = re.compile(r"问了?我|问倒|答不上|答不出|考倒")
#: A 文言 asker names himself (弟子, 某, 愚 …) and says he doubts, reads or asks (「弟子有惑，」, 「某嘗讀禮，」, 「愚讀至此，」):
#: twenty-fifth round, from the robustness benchmark's openings written apart (now among those tuned on).
_ASKER_LZH = ("弟子", "某", "愚", "仆", "小子", "后学", "晚学", "晚生", "余", "予", "吾")
_STUDYING_LZH = ("惑", "疑", "读", "学", "问", "闻", "解", "未达")
#: What the asker is preparing is about something (「我在準備一個關於古代宴飲的講座」): the words the glossary maps inside
#: it (宴飲, and 準備 itself) are that work's subject, not the question's (the rite or a commentator named in it still is).
_WORK_ABOUT = re.compile(r"(?:准备|筹备|写|做|编)?(?:一个|一篇|一份|一堂|一节|一部|个|篇|份)?关于.{1,12}的"
                         r"(?:讲座|演讲|论文|报告|作业|文章|课|课程|节目|书|小说|剧本)")
#: Words that bring in the question: a clause holding one is a preface only when nothing but these follow it (「想請教：」,
#: 「請教一個問題：」), not when the question does (「想問大射禮時大夫有盛肉塊的盤子」).
_INTRODUCING = re.compile(r"(?:请教|请问|想问|问一下|问个|想知道|问问|想确认|确认一下)(?P<after>.*)$")
_AFTER_INTRODUCING = re.compile(r"^(?:一下|下|一个问题|个问题|问题|大家|各位|您|你们|你)*$")
_CLAUSE_ZH = re.compile(r"[^，,：:。；;！!？?]+(?P<end>[，,：:。；;！!？?]|$)")
#: What is left after a Chinese preface must hold this many CJK characters to be read alone.
PREFACE_REST_MIN_CJK = 4


def _glossed(norm: str) -> bool:
    """A normalized clause holds a word the glossary maps to the rite's terms (樂隊 of 「老師講樂隊的樂師…」): its topic."""
    gl = glossary()
    return any(norm[i:j] in gl.chinese for i in range(len(norm)) for j in range(i + 2, min(len(norm), i + gl.max_zh) + 1))


def _names_the_corpus(norm: str) -> bool:
    """A normalized clause names a rite or a commentator of the corpus, or its 注 / 疏 (「我在讀鄭注，…」): it says what
    is asked about."""
    names = [name for table in (rites_table(), commentators_table()) for name, _ in table.chinese]
    return "注" in norm or "疏" in norm or any(name in norm for name in names)


#: A numbered collection of the canon (三禮, 四書, 五經, 十三經), normalized.
_COLLECTION = re.compile(r"^[三四五六七九十]+[礼书经]$")


def _names_a_work(norm: str) -> bool:
    """A normalized clause names another work without title marks (「我在詩經裡找不到南陔的歌詞」): where the asker looked
    is part of what he asks. The canon's numbered collections (三禮, 十三經) are what a student reads, not a topic."""
    return any(name in norm for name, kind in beyond_table().chinese if kind == "work" and not _COLLECTION.match(name))


def chinese_preface(text: str) -> tuple[str, str]:
    """(the opening clauses about the asker, the rest) of a Chinese question: see ``_ASKING_ZH``; ("", text) when it
    has none, or when too little is left to read alone. The last clause, and one holding a question mark, is the
    question."""
    modern = [name for name, _ in modern_table().chinese]
    end = 0
    for m in _CLAUSE_ZH.finditer(text):
        clause = m.group(0)
        norm = normalize(clause)
        if m.group("end") in ("", "？", "?") or m.end() >= len(text.rstrip()):
            break  # the question itself
        about = (norm.startswith(_ASKER_ZH) or any(w in norm for w in _ASKING_ZH)
                 or (norm.startswith(_ASKER_LZH) and any(w in norm for w in _STUDYING_LZH)))
        brings = _INTRODUCING.search(norm)
        if brings and not _AFTER_INTRODUCING.match(brings.group("after")):
            break  # 「想問大射禮時…」: the question itself
        # where the question came from names no work and no setting of it (_OCCASION_ZH), nor does who the asker is
        # (「我是在北京讀書的日本留學生」): what follows may still
        occasion = bool(_OCCASION_ZH.search(norm))
        titled = not occasion and any("仪礼" not in normalize(t) for t in re.findall(r"《([^》]*)》", clause))
        setting = not occasion and any(w in norm for w in modern) and not norm.startswith(_WHO_ZH)
        if (titled or setting or not about or _glossed(_WORK_ABOUT.sub("", norm)) or _names_the_corpus(norm)
                or _names_a_work(norm) or re.search(r"[「『“\"]", clause)):
            break  # 「老師說主人拜了一個「崇酒」」: what it quotes is asked about
        end = m.end()
    rest = text[end:]
    if not end or sum(1 for ch in rest if "\u3400" <= ch <= "\u9fff") < PREFACE_REST_MIN_CJK:
        return "", text
    return text[:end], rest


def around_question(text: str) -> tuple[str, str, str]:
    """(the clauses about the asker before it, the question, the guess after it) of a Chinese question, the thanks
    that end it left out: what the ritual share and the topic classifier read of it is the question alone."""
    asked, guess = chinese_guess(without_remarks(text))
    before, asked = chinese_preface(asked)
    return before, asked, guess


__all__ = ["around_question", "chinese_guess", "chinese_preface", "sentences", "without_remarks"]
