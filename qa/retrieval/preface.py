"""What a question says about its asker, apart from what it asks: the prefaces and asides the confidence rule and
the topic classifier read past.

In English (:func:`preface_words`, :func:`asked_part`): clauses in the first person or of asking ("I'm writing a
novel", "Quick question from a book club member:"), a first sentence about the asker, a remark after the question. (The
Chinese clauses about the asker: :func:`qa.retrieval.remarks.chinese_preface`.) Pure functions of the text and the
glossary.
"""

from __future__ import annotations

import re

from ..text.lexicon import commentators_table, rites_table
from ..text.tokens import WORD
from .query import english_names, glossary_words

#: The asker's own words: a clause of an English question with one of these and no word of the glossary tells why
#: it is asked ("I'm writing a novel", "my son asked me this after a museum visit", "I'd guess not"), not what
#: about: its words are no content of the ritual share, neither ritual nor off-topic. So does a whole first sentence
#: with one of them before the question, whatever glossary word it holds ("I'm making a card game about toasting
#: etiquette. Who started …?": toasting still counts as ritual): eighteenth round, lay probe English refusals 7 → 5,
#: development answerable and off-topic questions unchanged (novel, game and class prefaces among them).
_FIRST_PERSON = frozenset("i im ive id ill my me mine we our us".split())
_CLAUSE_END = re.compile(r"[.!?;:,()\u2014\u2013]+|\s-\s")


#: Names of the rite's own world: a preface naming them ("a feast scene loosely based on ancient China") sets the
#: question nowhere else.
_RITE_WORLD = frozenset("china chinese zhou confucius confucian yili".split())


def _names_a_setting(clause: str) -> bool:
    """A name inside the clause (Tudor England, Thanksgiving; not its first word, not I, not China) is where the
    question is set: the clause is its topic."""
    return any(w[:1].isupper() and w.lower() not in _FIRST_PERSON and w.lower() not in _RITE_WORLD
               for w in re.findall(r"[A-Za-z]+", clause)[1:])


#: A last question that only guesses at the answer of the one before ("… shoes? Could it be a religious thing?", "Is it
#: maybe about rank?", "Or was it just custom?"): the asker's guess, an aside as a remark is (the Chinese guesses:
#: :func:`qa.retrieval.remarks.chinese_guess`).
_GUESS_EN = re.compile(r"\s*(?:could it (?:be|have been)|(?:or )?(?:is|was) it (?:maybe|perhaps|because|just|simply|only)"
                       r"|or (?:is|was) it|maybe|perhaps|probably|i (?:guess|suppose|wonder if)|i'?d guess|i'?m guessing"
                       r"|my guess)\b", re.IGNORECASE)


def _aside(text: str) -> tuple[str, str]:
    """(the question, a remark or a guess after it): "… no bells? Seems oddly modest." → ("… no bells?", " Seems oddly
    modest."), "… first? Could it be about rank?" → ("… first?", " Could it be about rank?"); (text, "") when
    nothing follows the last question mark and the question before it guesses nothing."""
    asked, mark, after = text.rpartition("?")
    if mark and asked.strip() and after.strip():
        return asked + mark, after
    if mark:
        head, before, last = asked.rpartition("?")
        if before and head.strip() and _GUESS_EN.match(last):
            return head + before, last + mark + after
    return text, ""


def _about_the_asker(clause: str) -> bool:
    """A clause in the first person that names no other world ("I'm making a card game", not "I'm hosting a
    Thanksgiving dinner")."""
    words = WORD.findall(clause.lower().replace("'", "").replace("\u2019", ""))
    asker = _FIRST_PERSON.intersection(words) or (_ASKING_EN.intersection(words) and not glossary_words(words))
    return bool(asker) and not _names_a_setting(clause)


#: A greeting that opens a message ("Hi there!", "Hello everyone."): about no one.
_GREETING = re.compile(r"\s*(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening)|dear all)\b[^.!?]{0,20}[.!]\s*$",
                       re.IGNORECASE)
#: An opening sentence ending with a full stop or an exclamation mark, and the spaces after it.
_OPENING_SENTENCE = re.compile(r"(.+?[.!]\s+)(?=\S)", re.DOTALL)


def _opening_preface(text: str) -> tuple[str, str]:
    """(the first sentences about the asker before the question, the rest): "I'm making a card game about toasting
    etiquette. Who started …?" → ("I'm making a card game about toasting etiquette.", "Who started …?"); a greeting
    and a second such sentence go with it ("Hi there! I'm new to the Yili. I'm writing a novel. Who …?");
    ("", text) when the question has none."""
    end = 0
    while m := _OPENING_SENTENCE.match(text, end):
        first, rest = m.group(1), text[m.end():]
        if "?" not in rest or "?" in first or not (_about_the_asker(first) or _GREETING.match(first)):
            break
        end = m.end()
    return text[:end], text[end:]


def bare_preface(text: str) -> tuple[str, str]:
    """(the first sentences of an English question about its asker that hold no word of the glossary, the rest):
    "Hello, I'm a retired teacher who reads Chinese classics in translation. Why …?" → its first sentence (the rite's
    words that say who the asker is, teacher → 先生, read past); ("", text) when the first sentence names anything of
    the rite ("I'm reading about the village wine-drinking ceremony, and the guest …"): the question may go on from
    it."""
    first, rest = _opening_preface(text)
    if not first:
        return "", text
    words = WORD.findall(first.lower())
    if english_names(rites_table(), words) or english_names(commentators_table(), words):
        return "", text  # "I'm writing a paper on the village drinking ceremony." says what is asked about
    # what the asker is writing is about something ("a term paper on Zhou ritual"), and "I didn't quite follow" is no
    # 從 of the rite
    said = _NOT_FOLLOWING.sub(" ", _WORK_ON.sub(" ", _ASKER_IS.sub(_without_roles, first)))
    if glossary_words(WORD.findall(said.lower())):
        return "", text
    return first, rest


#: What the asker is writing or preparing, and what it is about: "a term paper on Zhou ritual", "a talk about ancient
#: feasts" (up to five words after on / about).
_WORK_ON = re.compile(r"\b(?:paper|essay|thesis|dissertation|talk|lecture|class|course|presentation|article|book|novel|"
                      r"project|report|seminar|lesson)\s+(?:on|about)\s+(?:[\w'-]+\s*){1,5}", re.IGNORECASE)
#: Not understanding: "I didn't quite follow", "I can't follow".
_NOT_FOLLOWING = re.compile(r"\b(?:didn'?t|don'?t|couldn'?t|can'?t|did not|do not|could not|cannot)\s+"
                            r"(?:quite\s+|really\s+|fully\s+)?follow\b", re.IGNORECASE)


#: Who an English question's asker is: "I'm a retired teacher", "I am an amateur musician" (up to four words, to the
#: clause's end or the words that go on about him: who, reading, and …).
_ASKER_IS = re.compile(r"\b(?:i'?m|i\u2019m|i am)\s+(?:an?|the)\s+(?:(?!who\b|that\b|and\b|but\b|reading\b|writing\b|"
                       r"studying\b|trying\b|with\b|in\b|from\b|of\b)[a-z-]+\s*){1,4}", re.IGNORECASE)


def _without_roles(m: re.Match[str]) -> str:
    """What says who the asker is (:data:`_ASKER_IS`), less the words the glossary maps to the rite's people."""
    words = m.group(0).split()
    roles = glossary_words([w.lower() for w in words])
    return " ".join(w for w in words if w.lower() not in roles) + " "


def without_asker(text: str) -> str:
    """An English question as it is matched: without its first sentences about the asker that name nothing of the rite
    (:func:`bare_preface`), and without the rite's words that say who the asker is ("I'm a retired teacher": no 先生
    of the rite; the rest of it may set the question elsewhere: "I'm a wedding planner …")."""
    return _ASKER_IS.sub(_without_roles, bare_preface(text)[1]).strip() or text


def asked_part(text: str) -> str:
    """An English question without what it says about the asker: the remark after it, a first sentence about the
    asker, and an opening clause about the asker before a colon ("Asking for a game I'm designing: was there a set
    number of rounds …?" → "was there a set number of rounds …?"). ``text`` itself when it has none of them."""
    text = _opening_preface(_aside(text)[0])[1]
    head, colon, rest = text.partition(":")
    if colon and rest.strip() and "?" not in head and _about_the_asker(head):
        return rest.strip()
    return text


#: Words that ask, or tell why one asks ("Quick question from a book club member:", "Asking for a friend:"): a
#: clause of them with no word of the glossary is about the asker, as a first-person one is.
_ASKING_EN = frozenset("question questions query asking wondering curious".split())

def preface_words(text: str) -> frozenset[str]:
    """The words of ``text``'s English clauses about the asker (see ``_FIRST_PERSON``), lower-cased, apostrophes
    dropped (I'm → im), as the question's segments spell them."""
    out: set[str] = set()
    text = text.replace("'", "").replace("\u2019", "")
    # a remark after the question ("… no bells? Seems oddly modest.", "A friend swears it was dog."): an aside
    text, after = _aside(text)
    out.update(w for w in WORD.findall(after.lower()) if not glossary_words([w]))
    # a sentence about the asker before the question ("I'm making a card game about toasting etiquette. Who …?"):
    # its glossary words still count (_content_terms keeps them), the rest is why it is asked
    first, text = _opening_preface(text)
    out.update(WORD.findall(first.lower()))
    for clause in _CLAUSE_END.split(text):
        words = WORD.findall(clause.lower())
        # a name inside it (Tudor England, Thanksgiving) is where the question is set: the clause is its topic
        named = _names_a_setting(clause)
        if words and (_FIRST_PERSON | _ASKING_EN).intersection(words) and not named and not glossary_words(words):
            out.update(words)
    return frozenset(out)


__all__ = ["asked_part", "bare_preface", "preface_words", "without_asker"]
