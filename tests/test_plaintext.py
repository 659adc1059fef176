"""qa.present.plaintext: answers and conversations as plain text and Markdown for the copy buttons."""

from __future__ import annotations

from conftest import BU_GAOZHI, GAOZHI

from qa.answering.compose import compose_answer
from qa.present.plaintext import answer_plain, citation_text, conversation_markdown, conversation_text
from qa.retrieval.query import analyze
from qa.retrieval.retriever import Hit
from qa.webapp import Turn


def _answer(q: str = "賓為什麼說旨？"):
    return compose_answer(analyze(q), [Hit(GAOZHI, 0.9, (), False), Hit(BU_GAOZHI, 0.3, (), False)])


def test_citation_is_the_sentence_and_its_citation():
    e = _answer().evidence[0]
    assert citation_text(e) == f"{e.text}——{e.citation()}"
    assert citation_text(e, "《儀禮注疏》卷八") == f"{e.text}——《儀禮注疏》卷八"


def test_answer_plain_numbers_sentences_with_citations():
    a = _answer()
    text = answer_plain(a)
    assert text.splitlines()[0] == f"1. {a.evidence[0].text}"
    assert text.splitlines()[1] == f"   —— {a.evidence[0].citation()}"
    assert "<" not in text
    nothing = compose_answer(analyze("asdf"), [Hit(GAOZHI, 0.01, (), True)])
    assert answer_plain(nothing) == nothing.text


def test_conversation_as_text_and_markdown():
    turns = [Turn("賓為什麼說旨？", _answer()), Turn("<b>?</b>", None, "empty question")]
    text = conversation_text(turns)
    assert text.startswith("問：賓為什麼說旨？\n答：\n1. ") and "⚠ empty question" in text
    md = conversation_markdown(turns)
    assert md.startswith("### 問：賓為什麼說旨？\n\n1. ")
    assert "### 問：\\<b\\>?\\</b\\>" in md  # what a user typed is not live Markdown/HTML
    assert conversation_markdown([]) == ""
