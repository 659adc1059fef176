"""The English shadow of the corpus: retrieval by dictionary translation of the documents.

Classic cross-language retrieval by document translation. When an index opens, every lemma
unit's own Chinese text is translated word by word into a weighted bag of English words — its
*shadow* — through

1. the curated glossary read backwards (賓 → guest, principal guest …; 說屨 → take off shoes), and
2. CC-CEDICT (:mod:`qa.text.cedict`): every character of the unit's text (function characters
   such as 之, 而, 也 skipped) and every headword of two to four characters in it (no segmentation
   is trusted on classical text; a greedy longest match measured worse) gives the content words of its senses, stemmed, an earlier sense weighing more and a
   word of many senses less (its weights share one unit of mass).

A word of the 經 weighs more than one of the 注, which weighs more than one of the 疏 (the
question is usually about the 經's act; the 注 explains it; the long 疏 quotes everything). The
shadow is scored with BM25, length-normalized on the weighted length, against

* an English question's content words (scaffolding removed, stemmed: what ``Query.segments`` keeps);
* a Chinese question translated the same way (pivot translation: 杯子 → cup ← 爵). Translating
  only its *modern* words (CC-CEDICT headwords the corpus never writes: 客人, 倒水) measured worse:
  a modern question also writes characters the corpus uses in another sense or rarely.

Its unit ranking is a third ranking of the hybrid's fusion (:mod:`qa.retrieval.fusion`), weighed
per language. A question's cost is a dictionary lookup per word and a few array additions.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..text.cedict import Cedict, cedict, sense_words
from ..text.lexicon import DETERMINERS, glossary, scaffolding, stem
from ..text.normalize import normalize
from ..text.tokens import WORD, cjk_runs
from .bags import BagIndex

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query

log = logging.getLogger(__name__)

#: Weight of a word by the layer it is read in: the 經 is what a question asks about, the 注 explains
#: it, the 疏 quotes and discusses everything at length (and 方苞's note sits between).
LAYER_WEIGHTS: Mapping[str, float] = {"jing": 1.0, "zhu": 0.6, "xiyi": 0.5, "shu": 0.25}
#: Longest headword looked up in a unit's text (CC-CEDICT's kept headwords are at most this long).
MAX_WORD = 4
#: A multi-word glossary key ("principal guest") gives each of its words this share of a one-word key's weight.
PHRASE_SHARE = 0.5
#: Classical function characters (normalized): grammar, not a topic; never translated.
FUNCTION_CHARS = frozenset("之乎者也而以其于於为所曰云亦则故此是焉矣哉与乃且若彼皆又即既然谓犹言及")
#: English words that carry no topic in a dictionary sense ("sb", "sth" …), on top of the scaffolding's.
_EXTRA_STOP = frozenset({"sb", "sth", "oneself", "etc", "also", "used", "ones", "sb's", "sth's"})


@dataclass(frozen=True)
class EnglishShadow:
    """The units' English shadows, indexed for BM25 (:class:`qa.retrieval.bags.BagIndex`). Build with :meth:`build`."""

    bags: BagIndex
    translator: "_Translator"
    stopwords: frozenset[str]

    @classmethod
    def build(cls, units: Sequence["LemmaUnit"], dictionary: Cedict | None = None) -> "EnglishShadow":
        stop = stopwords()
        # the default translator's word cache then also serves english_of (answer sentences)
        if dictionary is None or dictionary is cedict():
            translator = _default_translator()
        else:
            translator = _Translator(dictionary, _reverse_glossary(stop), stop)
        bags = BagIndex.build([translator.shadow(u) for u in units])
        log.debug("English shadow: %d units, %d English words", bags.n_units, len(bags.postings))
        return cls(bags, translator, stop)

    @property
    def n_units(self) -> int:
        return self.bags.n_units

    # ── the question's side ────────────────────────────────────────────────────

    def english_words(self, query: "Query") -> dict[str, float]:
        """An English question's content words, stemmed (its ``segments`` are already free of scaffolding)."""
        out: dict[str, float] = {}
        for seg in query.segments:
            for w in WORD.findall(seg.lower()) if seg.isascii() else ():
                s = english_key(w)
                if w not in self.stopwords and s not in self.stopwords and len(s) > 1:
                    out[s] = 1.0
        return out

    def chinese_words(self, query: "Query") -> dict[str, float]:
        """A Chinese question translated as the units are (its characters and headwords through the
        glossary and CC-CEDICT): pivot translation, so 杯子 (cup) meets the 爵 of the 經 through "cup"."""
        out: dict[str, float] = {}
        for seg in query.segments:
            for run in cjk_runs(seg):
                for word in self.translator.words(run):
                    for w, weight in self.translator.english(word).items():
                        out[w] = max(out.get(w, 0.0), weight)
        return out

    def words(self, query: "Query") -> dict[str, float]:
        """The question's English words: its own English words and the translation of its Chinese ones."""
        out = self.chinese_words(query)
        out.update(self.english_words(query))
        return out

    # ── scoring ────────────────────────────────────────────────────────────────

    def scores(self, words: Mapping[str, float]) -> np.ndarray:
        """Each unit's BM25 score for the weighted English ``words``."""
        return self.bags.scores(words)

    def rank(self, words: Mapping[str, float], depth: int) -> list[tuple[int, float]]:
        """The ``depth`` best units (index, score) with a positive score, best first."""
        return self.bags.rank(words, depth)

    def words_of(self, unit_index: int) -> dict[str, float]:
        """The shadow of one unit as its BM25 contributions (for tests and inspection)."""
        return self.bags.words_of(unit_index)


# ── translation ────────────────────────────────────────────────────────────────


def question_words(query: "Query") -> frozenset[str]:
    """An English question's content words in the shadow's form (stemmed, stopwords dropped)."""
    stop = stopwords()
    out = set()
    for seg in query.segments:
        for w in WORD.findall(seg.lower()) if seg.isascii() else ():
            s = english_key(w)
            if w not in stop and s not in stop and len(s) > 1:
                out.add(s)
    return frozenset(out)


@lru_cache(maxsize=1)
def _default_translator() -> "_Translator":
    stop = stopwords()
    return _Translator(cedict(), _reverse_glossary(stop), stop)


@lru_cache(maxsize=8192)
def english_of(text: str) -> frozenset[str]:
    """The English words a (normalized) Chinese text translates to, as the shadow reads it: for matching
    an English question's words against one sentence (qa.answering.sentences)."""
    t = _default_translator()
    return frozenset(w for run in cjk_runs(text) for word in t.words(run) for w in t.english(word))



def english_key(word: str) -> str:
    """The shadow's form of an English word: stemmed, and a final e dropped, so the light stemmer's
    "named" → nam, "tasting" → tast, "pledged" → pledg meet name, taste and pledge."""
    s = stem(word)
    return s[:-1] if len(s) > 3 and s.endswith("e") else s


def stopwords() -> frozenset[str]:
    """English words that name no topic: the scaffolding's one-word phrases, determiners and dictionary fillers."""
    single = {p[0] for p in scaffolding().en if len(p) == 1}
    return frozenset(single | set(DETERMINERS) | _EXTRA_STOP)


def translate(dictionary: Cedict, word: str, stop: frozenset[str]) -> dict[str, float]:
    """The English content words of a headword's senses (stemmed), weighted 1/(1 + sense rank) and
    scaled so the weights of the word's senses sum to one: later senses and many-sense words weigh less."""
    senses = dictionary.senses(word)
    if not senses:
        return {}
    mass = sum(1.0 / (1 + r) for r in range(len(senses)))
    out: dict[str, float] = {}
    for r, sense in enumerate(senses):
        weight = 1.0 / (1 + r) / mass
        for w in sense_words(sense):
            s = english_key(w)
            if w in stop or s in stop or len(s) < 2:
                continue
            out[s] = max(out.get(s, 0.0), weight)
    return out


def _reverse_glossary(stop: frozenset[str]) -> dict[str, dict[str, float]]:
    """Corpus term → the English words the glossary maps to it (one-word keys fully, phrases by share)."""
    out: dict[str, dict[str, float]] = {}
    for phrase, terms in glossary().english.items():
        words = [english_key(w) for w in phrase if w not in stop]
        if not words:
            continue
        weight = 1.0 if len(words) == 1 else PHRASE_SHARE
        for t in terms:
            bag = out.setdefault(t, {})
            for w in words:
                bag[w] = max(bag.get(w, 0.0), weight)
    return out


@dataclass(frozen=True)
class _Translator:
    dictionary: Cedict
    glossed: Mapping[str, Mapping[str, float]]  # corpus term → English words (reverse glossary)
    stop: frozenset[str]
    _cache: dict[str, dict[str, float]] = field(default_factory=dict, compare=False, repr=False)  # word → english()

    def words(self, run: str) -> list[str]:
        """The words of a CJK run: every character but the function ones, and every glossary term or
        CC-CEDICT headword of two to four characters in it (classical text has no word boundaries to
        trust: 主人 and 人之 are both there, and only a headword translates)."""
        out: list[str] = []
        for i in range(len(run)):
            if run[i] not in FUNCTION_CHARS:
                out.append(run[i])
            for n in range(2, min(MAX_WORD, len(run) - i) + 1):
                w = run[i : i + n]
                if w in self.glossed or w in self.dictionary:
                    out.append(w)
        return out

    def english(self, word: str) -> dict[str, float]:
        """The English words of one word (CC-CEDICT senses and the reverse glossary), read once."""
        found = self._cache.get(word)
        if found is None:
            found = dict(translate(self.dictionary, word, self.stop))
            for w, weight in self.glossed.get(word, {}).items():
                found[w] = max(found.get(w, 0.0), weight)
            self._cache[word] = found
        return found

    def shadow(self, unit: "LemmaUnit") -> dict[str, float]:
        bag: dict[str, float] = {}
        for layer, text in unit.layer_texts.items():
            lw = LAYER_WEIGHTS.get(layer, 0.0)
            if not lw:
                continue
            for run in cjk_runs(normalize(text)):
                for word in self.words(run):
                    for w, weight in self.english(word).items():
                        bag[w] = bag.get(w, 0.0) + lw * weight
        return bag


__all__ = ["EnglishShadow", "LAYER_WEIGHTS", "FUNCTION_CHARS", "english_of", "question_words", "stopwords", "translate"]
