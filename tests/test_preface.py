"""qa.retrieval.preface: what an English question says of its asker is no term of what it asks."""

from __future__ import annotations

from qa.retrieval.preface import bare_preface, without_asker


def test_a_first_sentence_about_the_asker_naming_nothing_of_the_rite_is_read_past():
    """Who asks and why ("a retired teacher", "a term paper on Zhou ritual", "I didn't quite follow") names nothing the
    question asks about: the rite's words in it say who the asker is (teacher → 先生) or what his work is about."""
    question = "Why does the guest say the wine is good?"
    for opening in ("Hello, I'm a retired teacher who reads Chinese classics in translation. ",
                    "I'm a history student writing a term paper on Zhou ritual, and I have a question. ",
                    "My professor mentioned this in class and I didn't quite follow. "):
        assert bare_preface(opening + question) == (opening, question), opening
        assert without_asker(opening + question) == question, opening


def test_a_first_sentence_naming_the_rite_stays():
    """A first sentence that names the rite, or its acts, may be what the question goes on from."""
    for text in ("I'm writing a paper on the village drinking ceremony. Why does the guest say the wine is good?",
                 "I read that the guest only sips the wine at the end of his mat. Why there?"):
        assert bare_preface(text)[0] == "", text
    # who the asker is, in the rite's words, is still none of them; the rest of it may set the question elsewhere
    assert without_asker("I am an amateur musician. How many musicians played?") == "How many musicians played?"
    assert "wedding planner" in without_asker("I'm a wedding planner and a couple wants a unity candle. Where does that come from?")
