"""The learned choice of the answer's first sentence.

:func:`qa.answering.sentences.select_sentences` scores every candidate (a sentence, or a run of short ones, of the top
units) by hand-set weights (:meth:`qa.answering.sentences.Parts.hand`). This module picks the one shown first by a
linear model over the same evidence the hand score reads (each :class:`~qa.answering.sentences.Parts` field, the
candidate's layer and the kind of question, each layer crossed with each kind: a 注 sentence for a why question
weighs otherwise than one for a where question) and the hand score itself, its share of the best and its rank.

The weights (``qa/data/sentence_rerank.tsv``, one per :data:`FEATURES` name) are fitted by
``scripts/train_sentences.py`` on the development questions: pairs of a candidate that holds the gold evidence and
one that does not, of the same question, pairwise logistic loss; folds are the question sets (leave one set out), and
the figures of that cross-validation head the table. The model's best candidate leads and the others follow in the
hand order: it learnt which sentence answers, not what should follow; and it overrules the hand's first only by a
margin (OVERRULE_MARGIN). (Ordering them all by it was measured too:
evidence first the same, 1,285 of 1,745 development questions, evidence anywhere in the answer 1,471 against 1,449,
in sample, but it cut the 疏's reason of 「賓為什麼說旨？」 to its first clause, 「賓言旨，甘主人之位」 lost.) As with the unit re-ranker, the n-th candidate takes the n-th best hand score, so
the cut-offs that read scores (how many sentences are shown, the ratio to the best) keep their meaning. Nothing here
knows any particular question.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..text.tables import data_dir, per_directory, read_weights

if TYPE_CHECKING:  # pragma: no cover
    from ..retrieval.terms import QueryTerms
    from .sentences import Parts

log = logging.getLogger(__name__)

SENTENCE_TABLE = "sentence_rerank.tsv"
#: Order the answer sentences by the learned model (else by the hand score alone).
LEARNED_SENTENCES = True

#: The numeric fields of :class:`~qa.answering.sentences.Parts` the model reads as they are (booleans as 0 / 1).
PART_FIELDS: tuple[str, ...] = (
    "coverage", "english", "plain", "asked", "inherit", "gloss", "tail", "passage", "explain", "omission", "kind",
    "jing_says", "quoted", "off_context", "section", "echo", "other_rite", "other_layer", "earlier_layer",
    "layer_prior", "rank_prior", "unit_weight",
)
LAYERS: tuple[str, ...] = ("jing", "zhu", "shu", "xiyi")
#: The kinds of question each layer is crossed with.
QUESTION_KINDS: tuple[str, ...] = ("why", "meaning", "where", "count", "english", "classical", "named_layer")
#: The model overrules the hand's first candidate only when its own best scores more than this above it: near a tie
#: the hand's choice stands. Nested leave-one-set-out (18 sets, ``scripts/train_sentences.py``): first candidate holds
#: the evidence 0.698 overruling always and at 0.25, 0.692 at 0.5, 0.681 at 1.0 (hand 0.676); 0.25 keeps
#: 「燕禮中代替國君獻酒的主人由誰擔任？」 on Fang Bao's 獻主, which the model passed over by 0.1 for a sentence another
#: lay question was written to.
OVERRULE_MARGIN = 0.25
#: Candidate length is read in units of this many characters, up to LENGTH_CAP.
LENGTH_UNIT = 60.0
LENGTH_CAP = 120
FEATURES: tuple[str, ...] = (
    *PART_FIELDS, "length", "sentences",
    *(f"layer_{layer}" for layer in LAYERS),
    *(f"{layer}_{kind}" for layer in LAYERS for kind in QUESTION_KINDS),
    "hand", "hand_share", "hand_rr",
)


def question_kinds(terms: "QueryTerms", lang: str) -> np.ndarray:
    """0 / 1 for each of :data:`QUESTION_KINDS`."""
    return np.array([terms.why, terms.meaning, terms.where, terms.count, lang == "en", lang == "lzh",
                     bool(terms.layers)], dtype=np.float64)


def candidate_features(terms: "QueryTerms", lang: str, layers: Sequence[str], parts: Sequence["Parts"],
                       hands: Sequence[float]) -> np.ndarray:
    """The model's input, one row of :data:`FEATURES` per candidate (``layers[i]``, ``parts[i]``, hand score
    ``hands[i]``)."""
    n = len(parts)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    kinds = question_kinds(terms, lang)
    hand = np.asarray(hands, dtype=np.float64)
    order = np.argsort(-hand, kind="stable")
    rank = np.empty(n)
    rank[order] = np.arange(1, n + 1)
    best = float(hand.max())
    fields = np.array([[getattr(p, f) for f in PART_FIELDS] for p in parts], dtype=np.float64)
    size = np.array([[min(p.length, LENGTH_CAP) / LENGTH_UNIT, p.sentences] for p in parts], dtype=np.float64)
    one_hot = np.array([[layer == name for name in LAYERS] for layer in layers], dtype=np.float64)
    crossed = (one_hot[:, :, None] * kinds[None, None, :]).reshape(n, -1)
    share = hand / best if best > 0 else np.zeros(n)
    return np.hstack([fields, size, one_hot, crossed, np.column_stack([hand, share, 1.0 / rank])])


@dataclass(frozen=True, slots=True)
class SentenceModel:
    """A linear model: one weight per feature of :data:`FEATURES`, in that order."""

    weights: np.ndarray
    path: str

    def score(self, x: np.ndarray) -> np.ndarray:
        return x @ self.weights

    def order(self, x: np.ndarray) -> list[int]:
        """Candidate indices, best first (ties: the hand order, which ``x``'s rows follow)."""
        z = self.score(x)
        return sorted(range(len(z)), key=lambda i: (-round(float(z[i]), 9), i))

    def first(self, x: np.ndarray) -> int:
        """The candidate shown first: the model's best where it beats the hand's first (row 0) by more than
        OVERRULE_MARGIN, else the hand's."""
        z = self.score(x)
        best = int(np.argmax(np.round(z, 9)))  # the first of equals: the hand order, as in order()
        return best if z[best] - z[0] > OVERRULE_MARGIN else 0


@per_directory
def _model_in(directory: Path) -> SentenceModel:
    weights = read_weights(SENTENCE_TABLE, FEATURES, "sentence-model", directory)
    return SentenceModel(np.array(weights, dtype=np.float64), str(directory / SENTENCE_TABLE))


def sentence_model() -> SentenceModel:
    """The learned sentence model of the data directory (``qa/data/sentence_rerank.tsv``), read once per directory."""
    return _model_in(data_dir())


__all__ = ["FEATURES", "LEARNED_SENTENCES", "SentenceModel", "candidate_features", "question_kinds", "sentence_model"]
