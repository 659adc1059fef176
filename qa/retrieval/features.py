"""Generic features of a (question, candidate unit) pair, for the learned re-ranker (:mod:`qa.retrieval.rerank`).

Each fused candidate gets the same :data:`FEATURES`, computed from what the retrievers said
about it (its fused score, its rank and score on each side, its rank in each lay channel) and from what its own text holds
of the question (idf-weighted shares of the question's terms by layer and in its best single
sentence, a gloss of the asked term, the rite and commentator the question names, a reason
clause for a why question, place and number words for where / how many). The detectors are the
project's own (:mod:`qa.retrieval.terms`); nothing here names a unit, a passage or a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np

from ..corpus.units import rite_id
from ..text.normalize import normalize
from ..text.tokens import cjk_runs, word_terms
from .terms import QueryTerms, explains, gloss_strength, jing_is_term, says_kind

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query

#: Weight of a term the lexical index does not know (it occurs nowhere: rare by definition).
DEFAULT_IDF = 5.0
#: Layer weight of a gloss of the asked term (a 注 gloss is the answer; a 疏 often only repeats it).
GLOSS_LAYERS: Mapping[str, float] = {"zhu": 1.0, "xiyi": 0.8, "shu": 0.5}
#: Gloss strength of the commentary on a 經 that is little more than the asked term (:func:`qa.retrieval.terms.jing_is_term`).
TERM_JING_GLOSS = 0.8
_SENTENCE_END = re.compile(r"(?<=[。；？！?!;])")

#: The features, in the order of a feature row (and of the weights in ``qa/data/rerank.tsv``).
FEATURES: tuple[str, ...] = (
    "fused",          # fused RRF score / the best fused score
    "lexical_rr",     # 1 / rank on the lexical side (0: not in its list)
    "dense_rr",       # 1 / rank on the dense side (0: not in its list)
    "lexical_score",  # BM25 score / the best BM25 score of the question (0: absent)
    "dense_score",    # dense score / the best dense score of the question (0: absent)
    "rite_match",     # of the first rite the question names 1, of another it names 0.5
    "rite_other",     # the question names rites, the unit is of none of them
    "terms_jing",     # idf-weighted share of the question's terms (own + glossary) in the 經
    "terms_note",     # … in the 注 and 析疑
    "terms_shu",      # … in the 疏
    "terms_sentence", # … in the unit's best single sentence (any layer)
    "own_unit",       # share of the question's own words (not expansions) in the whole unit
    "expansion_unit", # share of glossary expansions in the whole unit (0 without any)
    "bridged_unit",   # share of the bridge's guesses (CC-CEDICT, the corpus's glosses) in the whole unit
    "gloss_meaning",  # what-is question: the unit's strongest gloss of the asked term, by layer
    "gloss_why",      # why question: the same (a gloss half answers a why)
    "follow_own",     # follow-up: share of the question's own terms in the unit
    "follow_context", # follow-up: share of the carried-over context in the unit
    "layer_named",    # the question names a commentator and the unit has that layer
    "why_reason",     # why question and the unit's 注 / 析疑 holds a reason clause
    "kind_place",     # where / how-many question and the unit's 經 or 注 says a place / number
    "negated_jing",   # the question asks about an act (not why it is not done) the unit's 經 only says is not done
    "shadow_rr",      # 1 / rank in the English shadow's list (0: not in it, or the channel unused)
    "rendering_rr",   # … in the plain renderings' list
    "asked_rr",       # … in the list of the questions each unit answers
    "shadow_rr_en",   # the same three again for an English question (0 otherwise): how much the lay channels
    "rendering_rr_en",  # count depends on the question's language
    "asked_rr_en",
)
N_FEATURES = len(FEATURES)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the two retrievers and the lay channels said about one unit (rank 1-based; 0 when the unit is not in
    that list)."""

    lexical_rank: int = 0
    lexical_score: float = 0.0
    dense_rank: int = 0
    dense_score: float = 0.0
    shadow_rank: int = 0  # the English shadow (qa.retrieval.shadow)
    rendering_rank: int = 0  # the plain renderings (qa.retrieval.renderings)
    asked_rank: int = 0  # the questions each unit answers (qa.retrieval.asked)


@dataclass(frozen=True, slots=True)
class _UnitText:
    """A unit's normalized texts, cut once (cached by unit)."""

    jing: str
    note: str  # 注 + 析疑
    shu: str
    full: str
    sentences: tuple[str, ...]  # normalized sentences of every layer
    gloss_sentences: tuple[tuple[float, str], ...]  # (layer weight, original sentence) of the commentary
    reason: bool  # a 注 / 析疑 sentence gives a reason
    place: str  # normalized 經 + 注 (where place and number words are looked for)
    layers: frozenset[str]  # the unit's non-empty layers
    note_weight: float  # the gloss weight of the unit's most direct commentary layer (注, else 析疑, else 疏; 0: none)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


@lru_cache(maxsize=4096)
def unit_text(unit: "LemmaUnit") -> _UnitText:
    """A unit's normalized texts and sentences, cut once per unit (the re-rankers read them for every question)."""
    jing, zhu, xiyi, shu = normalize(unit.jing), normalize(unit.zhu), normalize(unit.xiyi), normalize(unit.shu_text)
    raw = [("jing", unit.jing), ("zhu", unit.zhu), ("xiyi", unit.xiyi), *(("shu", p.text) for p in unit.shu)]
    sentences = tuple(n for _, text in raw for n in (normalize(s) for s in _sentences(text)) if n)
    gloss = tuple((GLOSS_LAYERS[layer], s) for layer, text in raw if layer in GLOSS_LAYERS for s in _sentences(text))
    reason = any(explains(normalize(s), layer) for layer, text in raw if layer in ("zhu", "xiyi") for s in _sentences(text))
    note_weight = next((GLOSS_LAYERS[layer] for layer, text in raw[1:] if text.strip()), 0.0)
    return _UnitText(jing, zhu + xiyi, shu, normalize(unit.full_text), sentences, gloss, reason, jing + zhu,
                     frozenset(unit.layer_texts), note_weight)


def _weights(terms: set[str], idf: Mapping[str, float] | None) -> dict[str, float]:
    return {t: (idf.get(t, DEFAULT_IDF) if idf is not None else 1.0) for t in terms}


def _sharer(weights: Mapping[str, float]) -> Callable[[str], float]:
    """The weighted share of ``weights``' terms a text holds, as a function of the text (the total is summed once:
    one question's terms are looked up in every sentence of thirty units)."""
    items = tuple(weights.items())
    total = sum(w for _, w in items)
    if total <= 0:
        return lambda text: 0.0
    return lambda text: sum(w for t, w in items if t in text) / total


def gloss_of(text: _UnitText, terms: QueryTerms) -> float:
    """The strongest gloss of an asked term in the unit's commentary, times its layer's weight (0.0: none)."""
    best = TERM_JING_GLOSS * text.note_weight if text.note_weight and jing_is_term(text.jing, terms) else 0.0
    for weight, sentence in text.gloss_sentences:
        if weight > best:
            best = max(best, weight * gloss_strength(sentence, terms))
    return best


#: Negations of an act in the 經 (normalized).
_NEGATED = ("不", "弗", "无", "毋", "未")


def only_negated(jing: str, acts: set[str]) -> bool:
    """Whether a (normalized) 經 writes one of ``acts`` and every time negated (「不告旨」), never done."""
    found = False
    for act in acts:
        at = jing.find(act)
        while at != -1:
            if at == 0 or jing[at - 1] not in _NEGATED:
                return False
            found = True
            at = jing.find(act, at + 1)
    return found


def asked_acts(query: "Query") -> set[str]:
    """The acts a question asks about: its own runs and glossary terms of two or more characters."""
    return {t for t in (*(r for seg in query.segments for r in cjk_runs(seg)), *query.expansions) if len(t) >= 2}


def features(query: "Query", terms: QueryTerms, fused: Sequence[tuple["LemmaUnit", float]],
             idf: Mapping[str, float] | None = None,
             evidence: Mapping[str, Evidence] | None = None) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate of ``fused`` ((unit, fused score), best first); shape (n, F)."""
    n = len(fused)
    x = np.zeros((n, N_FEATURES), dtype=np.float64)
    if not n:
        return x
    own_terms = word_terms(query.segments)
    bridged_set = set(query.bridged)
    expansion_terms = word_terms(e for e in query.expansions if e not in bridged_set) - own_terms
    bridged_terms = word_terms(bridged_set) - own_terms - expansion_terms
    asked = _weights(own_terms | expansion_terms, idf)
    own = _weights(own_terms, idf)
    expansion = _weights(expansion_terms, idf)
    bridged = _weights(bridged_terms, idf)
    follow = bool(query.context)
    context = _weights(word_terms(query.context) - own_terms, idf) if follow else {}
    follow_own = _weights(word_terms((*query.segments, *query.expansions)), idf) if follow else {}
    rites = tuple(query.rites)
    layers = frozenset(query.layers)
    ev = evidence or {}
    top = max(s for _, s in fused) or 1.0
    lex_top = max((e.lexical_score for e in ev.values() if e.lexical_rank), default=0.0) or 1.0
    den_top = max((e.dense_score for e in ev.values() if e.dense_rank), default=0.0) or 1.0
    place = terms.where or terms.count
    english = query.lang == "en"
    acts = asked_acts(query) if not terms.negated else set()
    share_asked, share_own, share_expansion, share_bridged = map(_sharer, (asked, own, expansion, bridged))
    share_follow_own, share_context = _sharer(follow_own), _sharer(context)
    for i, (unit, score) in enumerate(fused):
        text = unit_text(unit)
        e = ev.get(unit.id)
        row = x[i]
        row[0] = score / top
        if e is not None:
            row[1] = 1.0 / e.lexical_rank if e.lexical_rank else 0.0
            row[2] = 1.0 / e.dense_rank if e.dense_rank else 0.0
            row[3] = e.lexical_score / lex_top if e.lexical_rank else 0.0
            row[4] = e.dense_score / den_top if e.dense_rank else 0.0
        if rites:
            rite = rite_id(unit.id)
            row[5] = 1.0 if rite == rites[0] else 0.5 if rite in rites[1:] else 0.0
            row[6] = 0.0 if rite in rites else 1.0
        if asked:
            row[7] = share_asked(text.jing)
            row[8] = share_asked(text.note)
            row[9] = share_asked(text.shu)
            row[10] = max(map(share_asked, text.sentences), default=0.0)
        row[11] = share_own(text.full)
        row[12] = share_expansion(text.full)
        row[13] = share_bridged(text.full)
        if terms.meaning or terms.why:
            g = gloss_of(text, terms)
            row[14] = g if terms.meaning else 0.0
            row[15] = g if terms.why and not terms.meaning else 0.0
        if follow:
            row[16] = share_follow_own(text.full)
            row[17] = share_context(text.full)
        if layers:
            row[18] = 1.0 if layers <= text.layers else 0.0
        row[19] = 1.0 if terms.why and text.reason else 0.0
        row[20] = 1.0 if place and says_kind(text.place, terms) else 0.0
        row[21] = 1.0 if acts and only_negated(text.jing, acts) else 0.0
        if e is not None:
            row[22:25] = [1.0 / r if r else 0.0 for r in (e.shadow_rank, e.rendering_rank, e.asked_rank)]
            row[25:28] = row[22:25] if english else 0.0
    return x


__all__ = ["Evidence", "FEATURES", "N_FEATURES", "asked_acts", "features", "gloss_of", "only_negated", "unit_text"]
