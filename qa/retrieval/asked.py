"""The questions each unit answers, as a retrieval channel: document expansion by questions (doc2query).

Why: a lay question describes what it asks about in its own words (「敲钟的人」, "the man in charge of
keeping order", "the dried meat strips"); the renderings (:mod:`qa.retrieval.renderings`) retell each
passage once, in one choice of words, and a bag of all of a unit's words ranks by what the unit *says*,
not by what a reader *asks* of it. The table ``unit_questions.tsv`` (:func:`qa.corpus.renderings.unit_questions`)
holds, for every unit, a few questions a lay reader would ask that the unit answers — English and modern
Chinese, varied in angle (what, why, who, where, how many, what a word means) and wording — written for
the project from each unit's own text, never from a question set. They are no source: nothing shown or
cited comes from them.

The channel is BM25 (:class:`qa.retrieval.bags.BagIndex`) over each written question on its own (its English
words, or its characters and bigrams), and a unit scores as its best-matching question: the asked question
meets the one written question that asks the same thing, not a unit that holds its words scattered over
several. Its unit ranking joins the hybrid's fusion with its own weight per language
(:func:`qa.retrieval.fusion.asked_weight`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..corpus.renderings import UnitQuestions, opening, questions_of, unit_questions
from .bags import BagIndex
from .renderings import chinese_bag, english_bag, question_bags
from .shadow import stopwords

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query

log = logging.getLogger(__name__)

#: How many best-scoring written questions are read to rank the units (a unit counts once, at its best).
QUESTION_DEPTH = 200
#: How many units the channel hands to the fusion: a unit whose best question only shares a word or two with
#: the asked one (rank 24 of 「賓為什麼說旨？」: the 介's 「不告旨」) is no vote, and it reordered the runners-up
#: behind a clear first. Measured on the eight development sets (747 questions) against the fusion's 50:
#: hit@1 577 both, evidence first 500 → 507, hit@5 705 → 706; 10 and 20 measured no better.
CHANNEL_DEPTH = 5
#: The channel ranks only when at least this share of the corpus's units have questions: over a corpus the
#: table was not written for (another edition, an excerpt) the few units it happens to cover would be
#: favoured over the rest for having been asked about at all.
MIN_COVERAGE = 0.9


@dataclass(frozen=True)
class AskedIndex:
    """BM25 over the written questions, each on its own; ``owner`` maps a question to its unit's index."""

    english: BagIndex
    chinese: BagIndex
    owner: np.ndarray
    stop: frozenset[str]
    covered: int  # units with questions
    units: int  # units in the corpus

    @property
    def usable(self) -> bool:
        """Whether enough of the corpus has questions for the channel to rank fairly (MIN_COVERAGE)."""
        return self.units > 0 and self.covered >= MIN_COVERAGE * self.units

    @classmethod
    def build(cls, units: Sequence["LemmaUnit"], table: Mapping[str, UnitQuestions] | None = None) -> "AskedIndex":
        table = unit_questions() if table is None else table
        stop = stopwords()
        en: list[dict[str, float]] = []
        zh: list[dict[str, float]] = []
        owner: list[int] = []
        covered = 0
        for i, u in enumerate(units):
            q = questions_of(u, table)
            if q is None:
                if u.id in table:
                    log.warning("questions of %s skipped: they open %r, the unit %r", u.id, table[u.id].opening, opening(u))
                continue
            covered += 1
            for text in q.en:
                en.append(english_bag([(text, 1.0)], stop))
                zh.append({})
                owner.append(i)
            for text in q.zh:
                en.append({})
                zh.append(chinese_bag([(text, 1.0)]))
                owner.append(i)
        log.debug("asked questions: %d of %d units, %d questions", covered, len(units), len(owner))
        if units and covered < MIN_COVERAGE * len(units):
            log.info("the questions table covers %d of %d units: the asked-questions channel is off", covered, len(units))
        return cls(BagIndex.build(en, skip_empty=True), BagIndex.build(zh, skip_empty=True), np.asarray(owner, dtype=np.int64),
                   stop, covered, len(units))

    def rank(self, query: "Query", depth: int) -> list[tuple[int, float]]:
        """The ``depth`` best units (index, score of its best written question) for ``query``; [] when nothing matches."""
        if not len(self.owner) or not self.usable:
            return []
        english, chinese = question_bags(query, self.stop)
        scores = self.english.scores(english) + self.chinese.scores(chinese)
        best: dict[int, float] = {}
        for j, score in BagIndex.top(scores, QUESTION_DEPTH):
            u = int(self.owner[j])
            if u not in best:  # questions come best first: a unit's first is its best
                best[u] = score
                if len(best) == depth:
                    break
        return list(best.items())


__all__ = ["AskedIndex", "QUESTION_DEPTH", "CHANNEL_DEPTH", "MIN_COVERAGE"]
