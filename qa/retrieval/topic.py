"""Is a question in a modern language about this corpus at all? A text classifier trained on written questions.

Why: the confidence rule (:mod:`qa.retrieval.confidence`) reads *how much* of a question is the corpus's
vocabulary and whether it names a ritual term. An everyday question in the rite's own words — 「野餐的时候主人应该
先给客人倒酒吗？」, "Should the host pour wine for the guests first at a picnic?" — is nearly all ritual vocabulary
(主人, 客人, 倒酒; host, guest, pour, wine) and names host and guest; a colloquial question about the rite in words
the corpus never uses — 「那个管纪律的人是从哪儿临时找来的？」 — holds little of it. What tells them apart is what the
whole question is about: a picnic, a karaoke night, a wedding, or the rite's people and acts in lay words. Word
lists of today's world (``modern.tsv``) catch the settings they list and no other.

The classifier is a logistic regression (scikit-learn) over tf-idf features of the question as typed: its
normalized characters and character bigrams, its English words in the shadow's stemmed form and their pairs. It
is trained on

* positives: the lay questions each unit and each sentence answers (``unit_questions.tsv``,
  ``sentence_questions.tsv``: about 5,200 English and modern-Chinese questions written from the corpus's own texts;
  not the rows marked ``no`` in their train column, documents of the retrieval channels only)
  and ``voices.tsv`` (about 900 more, three per unit, in six voices of real readers: Taiwanese and Cantonese chat,
  first-person and broken English, search-box Chinese, mainland chat);
* negatives: ``everyday.tsv`` (about 3,000 questions on today's manners in the banquet's words, on the feasts of other
  ages and peoples and on every other subject, some in the same six voices, written by ten helper sessions from
  briefs of kinds) and ``offtopic.tsv``.

None of them comes from an evaluation set. It is trained on first use, once per data directory (about a second with
scikit-learn's import; deterministic), and never stored in an index: it reads nothing an index holds.

It gives no verdict (None) where it has not learnt to read: a classical question (nothing of its training is
文言; those questions name their terms), a follow-up (its topic is the turn before), or a corpus the written
questions do not cover (:attr:`qa.retrieval.asked.AskedIndex.usable`). How the confidence rule weighs its
probability: ``TOPIC_VETO``, ``TOPIC_VOUCH`` and ``TOPIC_FLOOR`` in :mod:`qa.retrieval.confidence`.

An English question that opens with why it is asked ("I'm designing a feast scene for a game. Once everyone's
seated, what dishes come out?") is also read without it (:func:`qa.retrieval.confidence.asked_part`), and the
higher verdict stands when what is left has ASKED_MIN_WORDS words or more: the asker's game, novel or homework
speaks of today, the question of the rite. A short rest ("Why?", "Any history there?") is read only whole. So is a
Chinese question behind its clauses about the asker (「老師上課講到這個，我沒聽懂，想請教：…」:
:func:`qa.retrieval.remarks.chinese_preface`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..corpus.renderings import sentence_questions_in, unit_questions_in
from ..text.normalize import normalize
from ..text.tables import data_dir, per_directory, read_table
from ..text.tokens import WORD, char_ngrams, cjk_runs
from .preface import asked_part
from .remarks import around_question, without_remarks
from .shadow import english_key

if TYPE_CHECKING:  # pragma: no cover
    from .query import Query

log = logging.getLogger(__name__)

#: The table of negatives (besides offtopic.tsv).
TABLE = "everyday.tsv"
#: The table of positives in readers' voices (besides the unit and sentence questions).
VOICES = "voices.tsv"
#: Inverse regularization of the logistic regression: see TOPIC_VETO in qa.retrieval.confidence for what it was
#: measured with (C 1, 2, 4, 8; 4 flags the most off-topic questions for the fewest false "no passage").
C = 4.0
#: Fewer positives or negatives than this and there is no classifier (a fixture's data directory).
MIN_EXAMPLES = 50


def features(text: str) -> list[str]:
    """The classifier's terms of ``text``: normalized characters and character bigrams of its CJK runs, and its
    English words (stemmed, ``w:``) and word pairs (``b:``)."""
    out = [term for run in cjk_runs(normalize(text)) for term in char_ngrams(run)]
    words = [english_key(w) for w in WORD.findall(text.lower())]
    out.extend("w:" + w for w in words)
    out.extend(f"b:{a}_{b}" for a, b in zip(words, words[1:]))
    return out


@dataclass(frozen=True)
class TopicModel:
    """A trained classifier: ``probability(texts)`` → P(each question is about this corpus).

    Fitted by scikit-learn; read here from its fitted parameters, term by term (the same figures as
    ``predict_proba`` of the fitted pipeline, without its per-call validation: a twentieth of the time)."""

    weights: Mapping[str, tuple[float, float]]  # term → (idf, coefficient)
    intercept: float
    positives: int
    negatives: int

    def probability(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self._probability(t) for t in texts], dtype=np.float64)

    def _probability(self, text: str) -> float:
        # tf-idf as the vectorizer fitted it: sublinear tf (1 + log count) × idf, L2-normalized over known terms
        counts: dict[str, int] = {}
        for term in features(text):
            if term in self.weights:
                counts[term] = counts.get(term, 0) + 1
        values = [((1.0 + math.log(n)) * self.weights[t][0], self.weights[t][1]) for t, n in counts.items()]
        norm = math.sqrt(sum(v * v for v, _ in values))
        score = self.intercept + (sum(v * c for v, c in values) / norm if norm > 0 else 0.0)
        return 1.0 / (1.0 + math.exp(-score))

    @classmethod
    def train(cls, positives: Sequence[str], negatives: Sequence[str]) -> "TopicModel":
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression

        vectorizer = TfidfVectorizer(analyzer=features, sublinear_tf=True)
        x = vectorizer.fit_transform([*positives, *negatives])
        y = np.array([1] * len(positives) + [0] * len(negatives))
        model = LogisticRegression(C=C, class_weight="balanced", max_iter=2000).fit(x, y)
        idf, coef = vectorizer.idf_, model.coef_[0]
        weights = {term: (float(idf[i]), float(coef[i])) for term, i in vectorizer.vocabulary_.items()}
        return cls(weights, float(model.intercept_[0]), len(positives), len(negatives))


def training_questions(directory: Path) -> tuple[list[str], list[str]]:
    """(positives, negatives) of the classifier in the tables of ``directory``."""
    positives = [q for t in unit_questions_in(directory).values() for q in t.trained()]
    positives += [q for t in sentence_questions_in(directory).values() for q in t.trained()]
    positives += [row.fields[2] for row in read_table(VOICES, directory)]
    negatives = [row.fields[0] for name in (TABLE, "offtopic.tsv") for row in read_table(name, directory)]
    return positives, negatives


@per_directory
def _topic_model(directory: Path) -> TopicModel | None:
    positives, negatives = training_questions(directory)
    if min(len(positives), len(negatives)) < MIN_EXAMPLES:
        log.info("topic classifier: %d positives, %d negatives: too few to train, no verdict", len(positives), len(negatives))
        return None
    model = TopicModel.train(positives, negatives)
    log.debug("topic classifier trained on %d positives, %d negatives", len(positives), len(negatives))
    return model


def topic_model() -> TopicModel | None:
    """The classifier of the current data directory (trained on first use), or None when its tables are too small."""
    return _topic_model(data_dir())


def reads(query: "Query") -> bool:
    """Whether the classifier gives ``query`` a verdict: a question of its own (no follow-up). A classical one's
    verdict is weighed apart (``Signals.classical``): its only 文言 is off-topic (no classical question
    about the corpus), so only a very low one counts."""
    return not query.context


#: Words an English question must keep without its preface for the classifier to read it alone too (see the module
#: docstring). Nineteenth round: lay probe English refusals 5 → 3; at 5, 6 or 8 no development question or off-topic
#: verdict moved, at 3 one off-topic question got through ("I'm a bartender … Any history there?").
ASKED_MIN_WORDS = 5


def topic_probabilities(queries: Sequence["Query"]) -> list[float | None]:
    """P(about this corpus) of each query the classifier reads (:func:`reads`), None for the others."""
    out: list[float | None] = [None] * len(queries)
    model = topic_model()
    if model is None:
        return out
    read = [i for i, q in enumerate(queries) if reads(q)]
    texts = {i: without_remarks(queries[i].text) for i in read}  # 「…？謝謝！」: the thanks is no part of it
    for i, p in zip(read, model.probability([texts[i] for i in read])):
        out[i] = float(p)
        if queries[i].lang in ("en", "mixed"):
            asked = asked_part(texts[i])
            if asked != texts[i] and len(WORD.findall(asked.lower())) >= ASKED_MIN_WORDS:
                out[i] = max(float(p), float(model.probability([asked])[0]))
        elif (asked := around_question(queries[i].text)[1]) != texts[i]:  # (it leaves the thanks out itself)
            # the asker's studies speak of the rite world, his guess after the question of today's: read without
            out[i] = float(model.probability([asked])[0])
    return out


__all__ = ["TopicModel", "topic_model", "topic_probabilities", "features", "training_questions", "reads", "TABLE", "VOICES", "ASKED_MIN_WORDS"]
