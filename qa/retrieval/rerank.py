"""Second stage: re-order the fused top units by what each unit's own text says about the query's terms.

Fusion only sees ranks. This stage looks at the candidates themselves, with a few named
constants (no learned weights):

* **follow-ups** (「那介呢？」 after 「賓為什麼說旨？」): the question's *own* terms (介) are the
  subject and the carried ``context`` (賓, 旨, 告旨) only narrows it down, so a unit's share of
  its own terms counts more than its share of the context — a unit about the old subject
  alone (賓…告旨) falls below one about the new subject in the old situation (介…不告旨);
* **named rites** (鄉飲酒禮, 燕禮, "the banquet"): a unit of the named rite is preferred over
  the dense side's units of another rite (the lexical side already prefers them);
* **definitions** (what is / 何謂 / 什麼意思 / 是什麼): a unit whose 注 (or 析疑, less its 疏)
  glosses the asked term — 「旅，序也」, 「X者，…也」, 「X，謂…」 — is what the question asks for;
  a gloss of the whole asked word (樂正) counts fully, of one of its characters (正) by its share
  (see :func:`qa.retrieval.terms.gloss_strength`);
* **terms in the 經**: a unit whose 經 holds the query's rarer words is what the question is
  about; a unit that only quotes them in a long 疏 is not (a small bonus, see ``JING_BONUS``);
* **quoted phrases**: a unit whose 經 holds what the question quotes (「“疑立”是…」) is the passage the
  reader points at (``QUOTE_BONUS``);
* **omissions**: a question about an act is not about a unit whose 經 only says it is not done
  (「不告旨」 for "why does the guest praise the wine?"; ``NEGATED_JING``), unless it asks why not.

The result keeps the fused order (and scores) for everything below ``DEPTH``.

**Learned re-ranker.** With ``LEARNED`` on and weights in ``qa/data/rerank.tsv``, the head is
ordered instead by a linear model over the generic features of :mod:`qa.retrieval.features`
(the fused score, each retriever's rank and score, each lay channel's rank, shares of the question's terms by layer and
in the best sentence, gloss, rite, commentator, reason and place cues), trained pairwise on the
real development questions by ``scripts/train_rerank.py``. Its scores are spread back over the
head's range of fused scores, so the tail stays below the head.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence, TypeVar

import numpy as np

from ..corpus.units import rite_id
from ..text.tables import data_dir, per_directory, read_weights
from ..text.tokens import word_terms
from .features import FEATURES, Evidence, asked_acts, features, gloss_of, only_negated, unit_text
from .terms import asked_commentator, query_terms, quoted_runs

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query
    from .terms import QueryTerms

log = logging.getLogger(__name__)
_T = TypeVar("_T")

#: How many fused units are re-ordered (deeper ones keep their order, after these).
DEPTH = 30
#: Follow-ups: weight of the share of the question's own terms, and of the carried context, in the unit.
FOLLOW_OWN = 1.0
FOLLOW_CONTEXT = 0.6
#: A unit of the first rite the question names gains this (another named rite: half of it).
RITE_BONUS = 0.15
#: A question naming one rite is answered from it first when its best unit, among the first NAMED_RITE_WITHIN, scores at
#: least this share of a leading unit of another rite. Eighteenth round, development questions naming one rite (425):
#: 421 have their gold in it; a unit of another rite led 6, of which 2 were right (rd5-077: the 鄉飲酒禮's 疏 explains the
#: 燕禮, at 0.90 of it); at 0.95 two misses are mended (at 0.96 and 0.97 of the leader) and nothing is lost, at 0.9
#: both right ones are lost too.
NAMED_RITE_CLOSE = 0.95
NAMED_RITE_WITHIN = 3
#: A question naming 方苞 alone is answered from a 析疑 lemma first when the leading unit holds none and one is among
#: the first NAMED_LAYER_WITHIN (the learned order can put a 注疏 unit before the lemma 「方苞怎麼說…」 asks about).
#: Twenty-second round, development questions naming only 方苞 (109): the leader held no 析疑 in 5, the gold was the
#: lemma second in 4 of them, nothing else moved. Not for 鄭玄 or 賈疏: every 注疏 unit holds a 注, and of those naming
#: the 疏 as many lost first place as gained it (a 疏 asked of a quoted 注 that has none is answered by that 注).
NAMED_LAYER = "xiyi"
NAMED_LAYER_WITHIN = 3
#: ... times this in a follow-up, whose carried context (the turn before, often about the other rite) weighs against it.
FOLLOW_RITE = 3.0
#: Weight of a term the lexical index does not know (it occurs nowhere: rare by definition).
DEFAULT_IDF = 5.0
#: Definition questions: a unit glossing the asked term gains this much × the gloss strength × its layer's weight.
#: 0.45 (was 0.3): on the new real_dev set definition hit@1 0.727 → 0.773, shared dev unchanged.
GLOSS_BONUS = 0.45
#: Share of the query's terms found in the unit's 經 (not only its commentary) adds this much.
JING_BONUS = 0.2
#: A question naming one commentator (賈疏怎麼說, 方苞如何看, "Zheng Xuan's note") asks about a unit
#: holding that layer: such a unit gains this (a 析疑 question is about a 析疑 lemma, a 疏 question a 注疏 unit).
#: Measured: real_dev hit@1 0.642 → 0.648, the same for 0.15–0.4; shared dev unchanged. Of two commentators
#: named, the layer of the one the question asks about (``ASKED_LAYER``; qa.retrieval.terms.asked_commentator).
LAYER_BONUS = 0.25
#: A unit whose 經 holds a phrase of two or more characters the question quotes (「“疑立”是猶豫地站著嗎？」)
#: gains this × the share of the quoted phrases it holds: the reader points at the text. Measured on the
#: development sets: hit@1 real_dev 0.705 → 0.710, real_dev2 0.722 → 0.733, real_dev5 0.67 → 0.68, the others
#: unchanged, no question lost; 0.1–0.3 measure the same.
QUOTE_BONUS = 0.2  # (looking for the phrase in the 注 as well measured the same)
#: A question that asks about an act, not its omission ("why does the guest praise the wine?"), is not about
#: a unit whose 經 only says the act is *not* done (「不告旨」 of the host and the 介): such a unit loses this,
#: the mirror of JING_BONUS. Measured on the development sets: hit@1 real_dev2 0.744 → 0.756, real_dev4
#: 0.590 → 0.600, real_dev6 0.776 → 0.793, evidence first +2, nothing lost; 0.05–0.3 measure the same.
NEGATED_JING = 0.2
#: Of two commentators named, the unit holding the layer of the one asked gains LAYER_BONUS (before this round:
#: neither). Measured: only shared dev dev-032 moved (rank 7 → 3; English hit@5 6 → 7 of 7), nothing lost.
ASKED_LAYER = True
#: The learned re-ranker's weights (a data table; see scripts/train_rerank.py).
RERANK_TABLE = "rerank.tsv"
#: Whether the learned re-ranker orders the head (else the hand-set bonuses above).
LEARNED = True


def share(terms: set[str], text: str, idf: Mapping[str, float] | None = None) -> float:
    """The share of ``terms`` that occur in ``text``, each weighted by its ``idf`` (default 1); 0.0 without terms.

    Weighted, so a rare word (旨) counts for more than one on every page (賓).
    """
    if not terms:
        return 0.0
    w = {t: (idf.get(t, DEFAULT_IDF) if idf is not None else 1.0) for t in terms}
    total = sum(w.values())
    return sum(v for t, v in w.items() if t in text) / total if total > 0 else 0.0


def gloss_score(unit: "LemmaUnit", terms: "QueryTerms") -> float:
    """The strongest gloss of an asked term in ``unit``'s commentary, by layer weight (0.0: none): the learned
    model's gloss feature (:func:`qa.retrieval.features.gloss_of`), read by the hand rules too."""
    return gloss_of(unit_text(unit), terms)


def has_layer(unit: "LemmaUnit", layer: str) -> bool:
    """Whether ``unit`` has text in ``layer`` (jing / zhu / shu / xiyi)."""
    return bool(unit.shu if layer == "shu" else getattr(unit, layer, ""))


#: Generic features the learned model leaves out. The shares of the question's terms by layer and in the best
#: sentence, the BM25 score and the expansion / bridge shares overlap the fused score, own_unit and hand_rr; fitted
#: with them they took negative weights (a unit whose 經 holds the asked words counted *against* it) for no gain
#: (leave-one-set-out hit@1 0.778 with them, 0.780 without). A follow-up keeps the hand order, so its two
#: features are never trained.
#: The English shadow's rank adds nothing beside the other lay channels (leave-one-set-out hit@1 0.806 without it,
#: 0.806–0.807 with it) and, where the asked questions are missing (a corpus of other seeds), it led a Chinese question
#: to the short unit its BM25 favours (「不告旨」 for 「賓為什麼說旨？」 on the test excerpt): left out too.
LEFT_OUT: frozenset[str] = frozenset({"lexical_score", "terms_jing", "terms_note", "terms_sentence",
                                      "expansion_unit", "bridged_unit", "follow_own", "follow_context",
                                      "shadow_rr", "shadow_rr_en"})
_MODEL_COLUMNS = [i for i, name in enumerate(FEATURES) if name not in LEFT_OUT]
#: What the learned model reads: the generic features it keeps, then the hand re-ranker's verdict (see
#: :func:`model_features`).
MODEL_FEATURES: tuple[str, ...] = (*(FEATURES[i] for i in _MODEL_COLUMNS), "hand_rr")


@dataclass(frozen=True, slots=True)
class Model:
    """A linear re-ranker: one weight per feature of :data:`MODEL_FEATURES`, in that order."""

    weights: np.ndarray
    path: str

    def score(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.weights, dtype=np.float64)


@per_directory
def _model_in(directory: Path) -> Model:
    weights = read_weights(RERANK_TABLE, MODEL_FEATURES, "re-ranker", directory)
    return Model(np.array(weights, dtype=np.float64), str(directory / RERANK_TABLE))


def learned_model() -> Model:
    """The learned re-ranker's weights (``qa/data/rerank.tsv`` of the data directory), read once per directory."""
    return _model_in(data_dir())


def model_features(query: "Query", head: Sequence[tuple["LemmaUnit", float]], idf: Mapping[str, float] | None,
                   evidence: Mapping[str, Evidence] | None,
                   hand: Sequence[tuple["LemmaUnit", float]]) -> np.ndarray:
    """The learned model's input for ``head``: the generic :data:`FEATURES` but ``LEFT_OUT``, then ``hand_rr``, 1 / the rank the
    hand-set re-ranker (``hand``: the head in its order) gives each unit — the model weighs the hand rules'
    verdict beside the evidence they read, and corrects it where the development questions disagree."""
    x = features(query, query_terms(query), head, idf, evidence)[:, _MODEL_COLUMNS]
    position = {unit.id: i for i, (unit, _) in enumerate(hand, 1)}
    hand_rr = np.array([[1.0 / position[unit.id]] for unit, _ in head], dtype=np.float64)
    return np.hstack([x, hand_rr])


def _learned(query: "Query", head: list[tuple["LemmaUnit", float]], idf: Mapping[str, float] | None,
             evidence: Mapping[str, Evidence] | None, model: Model,
             hand: Sequence[tuple["LemmaUnit", float]]) -> list[tuple["LemmaUnit", float]]:
    top = max(s for _, s in head) or 1.0
    x = model_features(query, head, idf, evidence, hand)
    z = model.score(x)
    # Back on the fused scale, by rank: the model's n-th unit takes the n-th best fused score of the head, so
    # the tail stays below the head, score ratios mean what fused ones do, and the last bits of a dense score
    # (which differ between machines) cannot move a score unless they change the order.
    order = sorted(range(len(head)), key=lambda i: (-round(float(z[i]), 9), i))
    scores = sorted((float(v) for v in x[:, 0]), reverse=True)
    return [(head[i][0], scores[n] * top) for n, i in enumerate(order)]


def rerank(query: "Query", fused: Sequence[tuple["LemmaUnit", float]],
           idf: Mapping[str, float] | None = None, *,
           evidence: Mapping[str, Evidence] | None = None,
           learned: bool | None = None,
           before: Mapping[str, str] | None = None) -> list[tuple["LemmaUnit", float]]:
    """Re-order the first ``DEPTH`` of ``fused`` ((unit, fused score), best first); scores become the new ones.

    ``idf`` (token → inverse document frequency, e.g. :meth:`qa.indexing.lexical.LexicalIndex.term_idf`)
    weighs the terms; without it every term counts the same. ``evidence`` (unit id → each
    retriever's rank and score) feeds the learned model; ``learned`` (default ``LEARNED``)
    chooses it over the hand-set bonuses. ``before`` (unit id → the normalized 經 of the unit before it in reading
    order) lets a follow-up's carried context count in a unit that goes on with the subject the 經 before it named.
    """
    head, tail = list(fused[:DEPTH]), list(fused[DEPTH:])
    if not head:
        return []
    hand = _hand(query, head, idf, before)
    # a follow-up keeps the hand order: its rule (the new subject in the old situation, 「那介呢？」 after
    # 「賓為什麼說旨？」) is the behaviour asked for, and too few development questions carry context to learn it
    if (LEARNED if learned is None else learned) and not query.context:
        return _named_layer_first(query, _named_rite_first(query, _learned(query, head, idf, evidence, learned_model(), hand))) + tail
    return _named_layer_first(query, _named_rite_first(query, hand)) + tail


def _named_layer_first(query: "Query", ranked: list[tuple["LemmaUnit", float]]) -> list[tuple["LemmaUnit", float]]:
    """``ranked`` with the first 析疑 lemma moved first when the question names 方苞 alone, the leader is no lemma and
    one is among the first ``NAMED_LAYER_WITHIN``; the scores keep their order."""
    layer = NAMED_LAYER
    if set(query.layers) != {layer} or query.explains_quote or not ranked or has_layer(ranked[0][0], layer):
        return ranked
    for i, (unit, _) in enumerate(ranked[1:NAMED_LAYER_WITHIN], 1):
        if has_layer(unit, layer):
            return moved_first(ranked, i)
    return ranked


def _named_rite_first(query: "Query", ranked: list[tuple["LemmaUnit", float]]) -> list[tuple["LemmaUnit", float]]:
    """``ranked`` with the best unit of the one rite the question names first, when a unit of another rite leads and
    that unit, among the first ``NAMED_RITE_WITHIN``, scores at least ``NAMED_RITE_CLOSE`` of the leader's score
    (「燕禮裡坐下喝酒之前為啥要脫鞋？」: the 燕禮's 說屨, not the 鄉飲酒禮's); the scores keep their order."""
    if len(query.rites) != 1 or not ranked or rite_id(ranked[0][0].id) == query.rites[0]:
        return ranked
    top = ranked[0][1]
    for i, (unit, score) in enumerate(ranked[1:NAMED_RITE_WITHIN], 1):
        if rite_id(unit.id) == query.rites[0]:
            if top > 0 and score >= NAMED_RITE_CLOSE * top:
                return moved_first(ranked, i)
            break
    return ranked


def moved_first(ranked: Sequence[tuple[_T, float]], i: int) -> list[tuple[_T, float]]:
    """``ranked`` ((item, score), best first) with its ``i``-th item first and the others in their order; the scores
    keep their places, so what reads them (the ratio to the first, the cut-offs) keeps its meaning."""
    items = [ranked[i][0], *(u for j, (u, _) in enumerate(ranked) if j != i)]
    return [(u, s) for u, (_, s) in zip(items, ranked)]


def _hand(query: "Query", head: list[tuple["LemmaUnit", float]], idf: Mapping[str, float] | None,
          before: Mapping[str, str] | None = None) -> list[tuple["LemmaUnit", float]]:
    """The head re-ordered by the hand-set bonuses (the module docstring's list), scores on the fused scale."""
    top = max(s for _, s in head) or 1.0
    own = word_terms((*query.segments, *query.expansions))
    context = word_terms(query.context) - own if query.context else set()
    rites = tuple(query.rites)

    named = set(query.layers)
    layer = next(iter(named)) if len(named) == 1 else ""
    if len(named) > 1 and ASKED_LAYER:
        # two named (鄭注說…，方苞怎麼看？): the one the question asks about, when it says which
        layer = asked_commentator(query.layers, query.norm, query.text)
    terms = query_terms(query) if GLOSS_BONUS or NEGATED_JING else None
    meaning = GLOSS_BONUS and terms is not None and terms.meaning
    quoted = [r for r in quoted_runs(query.text) if len(r) >= 2]
    # the acts the question asks about: its own runs and glossary terms of two or more characters
    acts = asked_acts(query)
    positive = NEGATED_JING and acts and terms is not None and not terms.negated
    rescored: list[tuple[LemmaUnit, float, int]] = []
    for rank, (unit, score) in enumerate(head):
        s = score / top
        if context:
            text = unit_text(unit).full
            # the carried subject may be named only in the 經 before: 「坐取觶…退立于觶南」 goes on with the 司正
            told = f"{text}|{before[unit.id]}" if before and unit.id in before else text
            s += FOLLOW_OWN * share(own, text, idf) + FOLLOW_CONTEXT * share(context, told, idf)
        if rites:
            rite = rite_id(unit.id)
            bonus = RITE_BONUS * (FOLLOW_RITE if context else 1.0)
            s += bonus if rite == rites[0] else bonus / 2 if rite in rites[1:] else 0.0
        if meaning and terms is not None:
            s += GLOSS_BONUS * gloss_score(unit, terms)
        jing = unit_text(unit).jing
        if JING_BONUS and own:
            s += JING_BONUS * share(own, jing, idf)
        if layer and has_layer(unit, layer):
            s += LAYER_BONUS
        if positive and only_negated(jing, acts):
            s -= NEGATED_JING
        if quoted and QUOTE_BONUS:
            s += QUOTE_BONUS * sum(r in jing for r in quoted) / len(quoted)
        rescored.append((unit, s, rank))
    rescored.sort(key=lambda t: (-t[1], t[2]))
    # Back on the fused scale: with no bonus the scores are the fused ones, and their ratios keep meaning
    # what they meant. The tail follows the head whatever its scores: every bonus adds, but NEGATED_JING
    # takes away, so a head unit that only omits the act asked about may score below a tail unit.
    return [(u, s * top) for u, s, _ in rescored]


__all__ = ["rerank", "learned_model", "model_features", "MODEL_FEATURES", "Model", "LEARNED", "RERANK_TABLE", "share", "DEPTH", "FOLLOW_OWN", "FOLLOW_CONTEXT", "RITE_BONUS", "LAYER_BONUS", "JING_BONUS", "has_layer", "GLOSS_BONUS", "gloss_score"]
