"""Remarks after a question: thanks (「…？謝謝！」, 「先謝過了，困擾我很久。」, "Thanks in advance!"). They tell nothing of
what is asked: :func:`without_remarks` leaves them out of what the question is matched on
(:func:`qa.retrieval.query.analyze`) and of what the topic classifier reads.

Only sentences after the first are remarks, only from the end, and never one that asks ("Why skip the thanks?"). The
asker's own guess after the question (「我猜是為了表示尊敬吧？」, "I'm guessing it's to honor each person's merit?") stays:
measured on the lay probe, what people guess is as often what the answer says (three English answers fell from first
place without it). Pure functions of the text.
"""

from __future__ import annotations

import re

from ..text.normalize import normalize

#: Thanks and politeness (normalized, simplified): a sentence holding one of these, and asking nothing, is a remark
#: (not 謝了 or 謝過, which 拜謝了, 拜謝過 hold).
_THANKS_ZH = ("谢谢", "多谢", "感谢", "先谢", "麻烦", "拜托", "在线等", "求解答", "求大神", "困扰我", "幸甚")
_THANKS_EN = re.compile(r"\b(?:thanks|thank you|cheers|much appreciated|any help appreciated|appreciate (?:it|any))\b")
_SENTENCE = re.compile(r"[^。！!？?.]+(?:[。！!？?.]+|$)")


def _remark(sentence: str) -> bool:
    """A sentence of thanks that asks nothing."""
    text = sentence.strip()
    if text.endswith(("?", "？")):
        return False
    return any(w in normalize(text) for w in _THANKS_ZH) or bool(_THANKS_EN.search(text.lower()))


def without_remarks(text: str) -> str:
    """``text`` less the remarks that end it (see the module docstring); ``text`` itself when it ends with none, or
    when nothing would be left."""
    sentences = [s for s in _SENTENCE.findall(text) if s.strip()]
    keep = len(sentences)
    while keep > 1 and _remark(sentences[keep - 1]):
        keep -= 1
    if keep == len(sentences):
        return text
    return "".join(sentences[:keep]).rstrip()


#: A Chinese sentence after the question that opens with one of these (normalized) is the asker's guess (「我猜是為了
#: 表示尊敬吧？」, 「感覺只是傳統吧」).
_GUESS_ZH = ("我猜", "我觉得", "我想应该", "我估计", "估计是", "感觉", "大概是", "应该是", "也许是", "可能是")


def chinese_guess(text: str) -> tuple[str, str]:
    """(the question, the guess that ends it) of a Chinese question; (text, "") when it ends with none. The guess
    stays in what is matched (what people guess is as often the answer), but it is no measure of whether the question
    is about the rite: 「感覺只是傳統吧」 speaks of today's words, the question before it of the rite."""
    sentences = [s for s in _SENTENCE.findall(text) if s.strip()]
    keep = len(sentences)
    while keep > 1 and normalize(sentences[keep - 1]).startswith(_GUESS_ZH):
        keep -= 1
    return "".join(sentences[:keep]), "".join(sentences[keep:])


__all__ = ["chinese_guess", "without_remarks"]
