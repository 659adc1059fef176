"""qa.sentences: query terms and the general signals that pick answering sentences."""

from __future__ import annotations

from qa.query import analyze
from qa.sentences import _is_gloss_of, query_terms, split_sentences


def test_gloss_patterns_of_an_asked_term():
    t = query_terms(analyze("陔何義？"))
    assert _is_gloss_of("陔，陔夏也。", t)
    assert _is_gloss_of("陔之言戒也，終日燕飲。", t)
    assert not _is_gloss_of("降席，席西也。", t)  # a gloss, but not of what was asked
    t = query_terms(analyze("揖是什麼？"))
    assert _is_gloss_of("推手曰揖，引手曰厭。", t)


def test_quoted_terms_and_corpus_words_in_english_lead():
    t = query_terms(analyze("放酒壺的「斯禁」是什麼器物？"))
    assert t.weights["禁"] > t.weights["壶"]
    e = query_terms(analyze("What does 媵觚 mean?"))
    assert e.meaning and e.weights["觚"] > 1.0


def test_why_and_meaning_are_recognised():
    assert query_terms(analyze("賓為什麼說旨？")).why
    assert query_terms(analyze("旨是什麼意思？")).meaning


def test_unpunctuated_text_is_one_sentence():
    text = "乡饮乡射之酒有司及时所造故主人虽无告旨之义"
    assert split_sentences(text) == [(0, len(text))]
