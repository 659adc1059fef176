"""Plain renderings of the units: the project's own English and modern-Chinese retelling of each
經 passage (or 析疑 lemma) and one line on what its commentary says, as a retrieval channel.

Why: a lay question shares almost no words with the corpus. 「为什么酒壶旁边要放一壶清水？」 and
"Why is there a jar of plain water next to the wine?" name neither 玄酒 nor 尊; the English shadow
(:mod:`qa.retrieval.shadow`) translates the corpus word by word through CC-CEDICT, which knows 玄
as "black, mysterious" and not as the plain water of a rite. A retelling in everyday words — the
classic *document expansion* of cross-language retrieval — says "a jar of plain water, the 'dark
wine' (xuanjiu)" once per passage, so the question meets the passage in its own register.

The table ``renderings.tsv`` of the data directory holds one row per unit: its id, the opening of
its text (checked against the corpus by the tests, so a parser change that moves a unit cannot
pair it with another's rendering), the English and modern-Chinese retellings and the two
one-line notes. They were written for this project from the unit's 經 and 注 (and 方苞's note)
alone — never from any question — and are **not sources**: nothing cited comes from them (an
English answer shows one only as a labelled reading aid, :func:`qa.answering.compose.plain_english`).

The 注 (and the 疏) is rendered sentence by sentence too (:func:`qa.corpus.renderings.sentence_renderings`): the sentence scorer (:mod:`qa.answering.sentences`) lets a
lay question's words meet the one sentence of the note that answers it.

The channel is BM25 (:class:`qa.retrieval.bags.BagIndex`) over two bags per unit: the English
words of the retellings (an English question's stemmed content words meet them) and the
characters and character bigrams of the modern-Chinese ones (a modern Chinese question's meet
them). Its unit ranking joins the hybrid's fusion with its own weight per language
(:mod:`qa.retrieval.fusion`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..corpus.renderings import (
    Rendering,
    SentenceQuestions,
    opening,
    rendering_of,
    renderings,
    sentence_questions_in,
    sentence_renderings_in,
)
from ..text.normalize import normalize
from ..text.tables import data_dir, per_directory
from ..text.tokens import WORD, bigrams, cjk_runs
from .bags import BagIndex
from .shadow import FUNCTION_CHARS, english_key, stopwords

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query

log = logging.getLogger(__name__)

#: Weight of a word of the retelling of the text itself, and of the one-line note on its commentary.
TEXT_WEIGHT = 1.0
NOTE_WEIGHT = 1.0
#: What a match with a sentence question marked ``no`` in the train column counts, against 1 for the others: the
#: five voices written in the sixteenth round (8,564 questions) widen what a sentence is matched on, but a sentence
#: with more questions meets more questions by chance. Measured on 1,530 development questions, evidence first
#: 1,091 → 1,096 (weight 1.0; shared dev set 0.822 → 0.778), 1,098 (0.6), 1,099 (0.7; shared dev unchanged), 1,097 (0.5).
UNTRAINED_WEIGHT = 0.7
#: Modern function characters (normalized): grammar, no topic; never a unigram of the Chinese bag.
MODERN_FUNCTION = frozenset("的了着过吗呢吧把被是个们这那也就都还要会有在和与或及")


@dataclass(frozen=True, slots=True)
class SentenceWords:
    """What a note sentence's plain rendering says, as a question's words meet it."""

    english: frozenset[str]  # content words of the English rendering (english_key form)
    chinese: frozenset[str]  # characters and bigrams of the modern-Chinese rendering (normalized)
    weight: float = 1.0  # how much a match with it counts (a sentence question in the scorer-only voices: less)


@per_directory
def _sentence_words_in(directory: Path) -> Mapping[tuple[str, str], SentenceWords]:
    stop = stopwords()
    return {key: SentenceWords(frozenset(english_bag([(r.en, 1.0)], stop)), frozenset(chinese_bag([(r.zh, 1.0)])))
            for key, r in sentence_renderings_in(directory).items()}


@per_directory
def _sentence_question_words_in(directory: Path) -> Mapping[tuple[str, str], tuple[SentenceWords, ...]]:
    stop = stopwords()

    def weight(question: str, q: SentenceQuestions) -> float:
        return UNTRAINED_WEIGHT if question in q.untrained else 1.0

    return {key: tuple(SentenceWords(frozenset(english_bag([(t, 1.0)], stop)), frozenset(), weight(t, q)) for t in q.en)
            + tuple(SentenceWords(frozenset(), frozenset(chinese_bag([(t, 1.0)])), weight(t, q)) for t in q.zh)
            for key, q in sentence_questions_in(directory).items()}


def sentence_question_words() -> Mapping[tuple[str, str], tuple[SentenceWords, ...]]:
    """The words of each question a 注 or 析疑 sentence answers (qa.corpus.renderings.sentence_questions), one
    entry per written question, by (unit id, the sentence normalized); read once per data directory."""
    return _sentence_question_words_in(data_dir())


def sentence_words() -> Mapping[tuple[str, str], SentenceWords]:
    """The words of each 注 sentence's rendering (qa.corpus.renderings.sentence_renderings), by (unit id,
    the sentence normalized); read once per data directory."""
    return _sentence_words_in(data_dir())


def english_bag(texts: Sequence[tuple[str, float]], stop: frozenset[str]) -> dict[str, float]:
    """The weighted English content words (stemmed, stopwords dropped) of (text, weight) pairs."""
    bag: dict[str, float] = {}
    for text, weight in texts:
        for w in WORD.findall(text.lower()):
            k = english_key(w)
            if w in stop or k in stop or len(k) < 2 or not k.isascii():
                continue
            bag[k] = bag.get(k, 0.0) + weight
    return bag


def chinese_bag(texts: Sequence[tuple[str, float]]) -> dict[str, float]:
    """The weighted characters (function characters dropped) and bigrams of (text, weight) pairs, normalized."""
    bag: dict[str, float] = {}
    for text, weight in texts:
        for run in cjk_runs(normalize(text)):
            for ch in run:
                if ch not in FUNCTION_CHARS and ch not in MODERN_FUNCTION:
                    bag[ch] = bag.get(ch, 0.0) + weight
            for bg in bigrams(run):
                bag[bg] = bag.get(bg, 0.0) + weight
    return bag


def question_bags(query: "Query", stop: frozenset[str]) -> tuple[dict[str, float], dict[str, float]]:
    """``query``'s English content words and its Chinese characters and bigrams, each once (weight 1), as the
    bags of :func:`english_bag` and :func:`chinese_bag` hold them."""
    english = english_bag([(s, 1.0) for s in query.segments if s.isascii()], stop)
    chinese = chinese_bag([(s, 1.0) for s in query.segments if not s.isascii()])
    return {w: 1.0 for w in english}, {w: 1.0 for w in chinese}


@dataclass(frozen=True)
class RenderingIndex:
    """BM25 over the units' renderings: an English and a modern-Chinese bag per unit."""

    english: BagIndex
    chinese: BagIndex
    stop: frozenset[str]
    covered: int  # units with a rendering

    @classmethod
    def build(cls, units: Sequence["LemmaUnit"], table: Mapping[str, Rendering] | None = None) -> "RenderingIndex":
        table = renderings() if table is None else table
        stop = stopwords()
        en, zh = [], []
        covered = 0
        for u in units:
            r = rendering_of(u, table)
            if r is None and u.id in table:
                log.warning("rendering of %s skipped: it opens %r, the unit %r", u.id, table[u.id].opening, opening(u))
            covered += r is not None
            en.append(english_bag([(r.en, TEXT_WEIGHT), (r.note_en, NOTE_WEIGHT)], stop) if r else {})
            zh.append(chinese_bag([(r.zh, TEXT_WEIGHT), (r.note_zh, NOTE_WEIGHT)]) if r else {})
        log.debug("renderings: %d of %d units", covered, len(units))
        return cls(BagIndex.build(en), BagIndex.build(zh), stop, covered)

    def words(self, query: "Query") -> tuple[dict[str, float], dict[str, float]]:
        """The question's English words and its Chinese characters and bigrams, as the bags hold them."""
        return question_bags(query, self.stop)

    def rank(self, query: "Query", depth: int) -> list[tuple[int, float]]:
        """The ``depth`` best units (index, score) for ``query``: its English words against the English
        bags plus its Chinese against the Chinese bags; [] when nothing matches."""
        english, chinese = self.words(query)
        scores = self.english.scores(english) + self.chinese.scores(chinese)
        return BagIndex.top(scores, depth)


__all__ = ["Rendering", "RenderingIndex", "renderings", "SentenceWords", "sentence_words", "sentence_question_words", "opening",
           "english_bag", "chinese_bag", "question_bags", "TEXT_WEIGHT", "NOTE_WEIGHT"]
