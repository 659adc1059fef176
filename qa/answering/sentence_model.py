"""The learned order of answer sentences: which candidate sentence is shown first.

:func:`qa.answering.sentences.select_sentences` scores every candidate (a sentence, or a run of short ones, of the top
units) by hand-set weights (:meth:`qa.answering.sentences.Parts.hand`). This module re-orders the candidates by a
linear model over the same evidence the hand score reads (each :class:`~qa.answering.sentences.Parts` field, the
candidate's layer and the kind of question, each layer crossed with each kind: a 注 sentence for a why question
weighs otherwise than one for a where question) and the hand score itself, its share of the best and its rank.

The weights (``qa/data/sentence_rerank.tsv``, one per :data:`FEATURES` name) are fitted by
``scripts/train_sentences.py`` on the development questions: pairs of a candidate that holds the gold evidence and
one that does not, of the same question, pairwise logistic loss; folds are the question sets (leave one set out), and
the figures of that cross-validation head the table. As with the unit re-ranker, the model only decides the order:
the n-th candidate takes the n-th best hand score, so the cut-offs that read scores (how many sentences are shown, the
ratio to the best) keep their meaning. Nothing here knows any particular question.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import DataTableError
from ..text.tables import data_dir, per_directory, read_table

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
    rows = []
    for i, (layer, p) in enumerate(zip(layers, parts)):
        one_hot = np.array([layer == name for name in LAYERS], dtype=np.float64)
        rows.append(np.concatenate([
            [float(getattr(p, f)) for f in PART_FIELDS],
            [min(p.length, LENGTH_CAP) / LENGTH_UNIT, float(p.sentences)],
            one_hot,
            np.outer(one_hot, kinds).ravel(),
            [hand[i], hand[i] / best if best > 0 else 0.0, 1.0 / rank[i]],
        ]))
    return np.vstack(rows)


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


@per_directory
def _model_in(directory: Path) -> SentenceModel:
    rows = read_table(SENTENCE_TABLE, directory)
    weights: dict[str, float] = {}
    for row in rows:
        name = row.fields[0]
        if name not in FEATURES:
            raise row.error(f"unknown sentence-model feature {name!r} (known: {', '.join(FEATURES)})")
        try:
            weights[name] = float(row.fields[1])
        except ValueError:
            raise row.error(f"weight of {name} is not a number: {row.fields[1]!r}") from None
    missing = [f for f in FEATURES if f not in weights]
    if missing:
        raise DataTableError(f"sentence-model weights missing for {', '.join(missing)}",
                             path=str(directory / SENTENCE_TABLE))
    return SentenceModel(np.array([weights[f] for f in FEATURES], dtype=np.float64), str(directory / SENTENCE_TABLE))


def sentence_model() -> SentenceModel:
    """The learned sentence model of the data directory (``qa/data/sentence_rerank.tsv``), read once per directory."""
    return _model_in(data_dir())


__all__ = ["FEATURES", "LEARNED_SENTENCES", "SentenceModel", "candidate_features", "question_kinds", "sentence_model"]
