"""Choosing the sentences that answer: query terms, sentence windows, and their scores.

Sentence selection uses general signals only: overlap of the question's terms with a
sentence's normalized text (weighted by how rare each term is among the candidates), a
gloss of an asked term (「X，Y也」, 「X之言Y也」, 「Y曰X」), a 注 > 析疑 > 疏 > 經 layer
prior, the 經 a commentary sentence comments on, the unit's rank, the passages the
retriever says matched, and a preference for sentences of readable length. Nothing here
knows any particular question. Candidates keep the source's own characters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .normalize import normalize
from .units import LemmaUnit

if TYPE_CHECKING:  # pragma: no cover
    from .query import Query
    from .retriever import Hit

#: Prior weight of each layer as the place an answer is found (注 glosses are the most direct).
LAYER_PRIOR: dict[str, float] = {"zhu": 1.0, "xiyi": 0.9, "shu": 0.8, "jing": 0.55}
#: Weight of the answer candidates by the rank of their unit among the hits.
RANK_PRIOR: tuple[float, ...] = (1.0, 0.7, 0.5)
#: Hits scoring at least this share of the first one count as tied with it.
TIE = 0.97
#: A sentence must score at least this share of the best one to be shown beside it.
RELATIVE_CUTOFF = 0.5
#: Sentences longer than this (normalized characters) are gently penalized.
READABLE_CHARS = 40
#: A query bigram counts this much more than a query character.
BIGRAM_WEIGHT = 1.5
#: Bonus for a gloss 「X，Y也」 whose X the question asks about (more when it asks a meaning).
GLOSS_BONUS = 0.35
MEANING_GLOSS_BONUS = 0.6
#: Weight of a follow-up's carried-over terms, of glossary expansions, and of focus terms
#: (quoted, or corpus characters in an English question), relative to the question's own words.
CONTEXT_WEIGHT = 0.5
EXPANSION_WEIGHT = 0.6
FOCUS_WEIGHT = 2.0
#: Share of its 經's coverage a 注 / 析疑 sentence inherits.
JING_INHERIT = 0.3
#: An answer item may join up to WINDOW adjacent sentences of one layer when together
#: they stay within WINDOW_CHARS; each extra sentence must earn its place (WINDOW_DECAY).
WINDOW = 3
WINDOW_CHARS = 60
WINDOW_DECAY = 0.9
#: Two answer items of one layer this close (normalized characters between) are shown as one run.
GAP_CHARS = 20
#: Weight of a sentence that is mostly a quotation of another text.
QUOTE_PENALTY = 0.6
#: Bonus for a sentence inside a passage the retriever matched.
PASSAGE_BONUS = 0.2

_ENDS = "。；？！?!;"
_CLOSERS = "」』）)”’"
#: Text that opens a 疏 sentence but is no part of its content.
_LEAD = re.compile(r"(?:[○\s]|釋曰[︰：:]?|释曰[︰：:]?)+")
#: Function characters that carry no topic on their own (normalized forms).
_STOP_CHARS = frozenset("之乎者也而以其于为不所曰云亦则故此是的了吗呢吧么什怎样何谓义那")
_SECTION_NOTE = re.compile(r"自此(?:已下|以下|以上|已上)?至")
_QUOTED = re.compile(r"[「『“\"《]([^」』”\"》]+)[」』”\"》]")
_WHY = ("为什么", "为何", "何以", "何故", "why", "所以", "怎么")
_MEANING = ("什么意思", "何谓", "何义", "是什么", "mean", "what is", "谓何", "何也", "意思")
# ---------------------------------------------------------------- query terms


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """The normalized pieces of a question that sentences are matched on, with weights."""

    chars: frozenset[str]  # content characters of the core and expansions
    bigrams: frozenset[str]  # adjacent pairs within the core and within each expansion
    phrases: tuple[str, ...]  # the core's CJK runs and each expansion, for gloss heads
    why: bool  # the question asks why
    meaning: bool  # the question asks what something means
    #: a follow-up's terms carried over from the previous question: they count, but less
    context: frozenset[str] = frozenset()
    #: term → weight: the question's own words 1, glossary expansions less, quoted terms
    #: and corpus characters typed into an English question more, carried-over context less
    weights: Mapping[str, float] = field(default_factory=dict)


def _cjk_runs(norm: str) -> list[str]:
    return re.findall(r"[\u3400-\u9fff\U00020000-\U0002ffff]+", norm)


def _grams(runs: Sequence[str]) -> tuple[set[str], set[str]]:
    chars = {c for p in runs for c in p if c not in _STOP_CHARS}
    bigrams = {p[i : i + 2] for p in runs for i in range(len(p) - 1)}
    return chars, bigrams


def query_terms(query: "Query") -> QueryTerms:
    """Terms of ``query`` for sentence matching and highlighting (CJK only: the corpus is CJK)."""
    own = _cjk_runs(query.core)
    expanded = [r for e in query.expansions for r in _cjk_runs(e)]
    if not own and not expanded:  # scaffolding removal can leave nothing (e.g. 「何謂也」)
        own = _cjk_runs(query.norm)
    quoted = [r for q in _QUOTED.findall(query.text) for r in _cjk_runs(normalize(q))]
    # corpus words typed into an English question, or quoted, are what the question is about
    focus = own if query.lang in ("en", "mixed") else [r for r in own if any(r in q or q in r for q in quoted)]
    carried = [r for t in getattr(query, "context", ()) for r in _cjk_runs(t)]
    weights: dict[str, float] = {}
    for runs, w in ((carried, CONTEXT_WEIGHT), (expanded, EXPANSION_WEIGHT), (own, 1.0), (focus, FOCUS_WEIGHT)):
        chars, bigrams = _grams(runs)
        weights.update({c: w for c in chars})
        weights.update({b: w * BIGRAM_WEIGHT for b in bigrams})
    chars, bigrams = _grams(own + expanded)
    context = frozenset(_grams(carried)[0]) - chars
    asked = query.norm.lower()
    return QueryTerms(
        chars=frozenset(chars),
        bigrams=frozenset(bigrams),
        phrases=tuple(dict.fromkeys(own + expanded)),
        why=any(w in asked for w in _WHY),
        meaning=any(w in asked for w in _MEANING),
        context=context,
        weights=weights,
    )


# ---------------------------------------------------------------- sentences


@dataclass(frozen=True, slots=True)
class Candidate:
    """One sentence, or a run of up to WINDOW short adjacent sentences, of one layer."""

    rank: int  # the unit's rank among the hits
    unit: LemmaUnit
    layer: str
    part: int  # which 疏 part (0 elsewhere)
    start: int  # span in the layer text
    end: int
    text: str
    norm: str
    sentences: tuple[str, ...] = ()  # the sentences it is made of


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` (cut after 。；？！ and any closing quote),
    without a leading ○ / 釋曰 and surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        if text[i] in _ENDS:
            j = i + 1
            while j < n and text[j] in _CLOSERS:
                j += 1
            spans.append((start, j))
            start = i = j
            continue
        i += 1
    if start < n:
        spans.append((start, n))
    out = []
    for s, e in spans:
        m = _LEAD.match(text, s, e)
        s = m.end() if m else s
        while e > s and text[e - 1].isspace():
            e -= 1
        if normalize(text[s:e]):
            out.append((s, e))
    return out


def _layer_texts(unit: LemmaUnit) -> list[tuple[str, int, str]]:
    texts = [("zhu", 0, unit.zhu), ("xiyi", 0, unit.xiyi), ("jing", 0, unit.jing)]
    texts += [("shu", i, p.text) for i, p in enumerate(unit.shu)]
    return [t for t in texts if t[2]]


def _candidates(hits: Sequence["Hit"]) -> list[Candidate]:
    out = []
    top = hits[0].score if hits else 0.0
    for rank, hit in enumerate(hits[: len(RANK_PRIOR)]):
        if top > 0 and hit.score >= TIE * top:
            rank = 0  # as good as the first: ranked together
        for layer, part, text in _layer_texts(hit.unit):
            spans = split_sentences(text)
            for i in range(len(spans)):
                for j in range(i, min(i + WINDOW, len(spans))):
                    s, e = spans[i][0], spans[j][1]
                    norm = normalize(text[s:e])
                    if j > i and len(norm) > WINDOW_CHARS:
                        break
                    sentences = tuple(text[a:b] for a, b in spans[i : j + 1])
                    out.append(Candidate(rank, hit.unit, layer, part, s, e, text[s:e], norm, sentences))
    return out


def _quoted_share(text: str) -> float:
    """How much of a sentence is a quotation 「…」 of another text."""
    inside = sum(len(m) for m in re.findall(r"「([^」]*)」", text))
    return inside / max(1, len(text))


def _asked(term: str, terms: QueryTerms) -> bool:
    return bool(term) and len(term) <= 4 and any(term in p for p in terms.phrases)


def _is_gloss_of(text: str, terms: QueryTerms) -> bool:
    """A gloss of something the question names: 「X，Y也」, 「X者，Y也」, 「X，猶Y」,
    「X謂Y」, 「X之言Y也」, or 「Y曰X」."""
    norm = normalize(text)
    m = re.match(r"(.{1,4}?)之言", norm)
    if m and _asked(m.group(1), terms):
        return True
    for clause in re.split(r"[，,。；]", text):
        m = re.search(r"[曰謂为為]([^曰謂为為]{1,3})$", clause)  # 推手曰揖
        if m and len(normalize(clause)) <= 8 and _asked(normalize(m.group(1)), terms):
            return True
    head = re.split(r"[，,：:]", text, maxsplit=1)[0]
    head_norm = normalize(re.sub(r"者$", "", head))
    if head == text or not _asked(head_norm, terms):
        return False
    rest = normalize(text[len(head) :])
    return rest.endswith("也") or rest.startswith(("犹", "谓", "言")) or "谓" in rest[:3]


@lru_cache(maxsize=4096)
def _norm(text: str) -> str:
    return normalize(text)


def _coverage(norm: str, weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in norm) / total if total else 0.0


def _score(c: Candidate, terms: QueryTerms, weights: Mapping[str, float], matched: Sequence[str]) -> float:
    coverage = _coverage(c.norm, weights)
    if c.layer in ("zhu", "xiyi"):
        # a 注 (or 析疑 note) comments on its 經: when the question is about that 經, its
        # commentary answers it even in other words
        coverage += JING_INHERIT * _coverage(_norm(c.unit.jing), weights)
    bonus = 0.0
    if coverage and any(_is_gloss_of(t, terms) for t in c.sentences):
        bonus += MEANING_GLOSS_BONUS if terms.meaning else GLOSS_BONUS
    if any(c.norm in m or (len(c.norm) >= 4 and m and c.norm[:4] in m) for m in matched):
        bonus += PASSAGE_BONUS
    length = len(c.norm)
    readable = 1.0 if length <= READABLE_CHARS else (READABLE_CHARS / length) ** 0.35
    if length <= 2:  # 「是也」 and the like answer nothing alone
        readable *= 0.3
    readable *= WINDOW_DECAY ** (len(c.sentences) - 1)
    if _quoted_share(c.text) > 0.5:  # mostly a quotation of another book: context, not an answer
        readable *= QUOTE_PENALTY
    if terms.context and not any(ch in _norm(c.unit.full_text) for ch in terms.chars):
        readable *= QUOTE_PENALTY  # a follow-up's new subject (「那介呢？」) must be in the unit
    if _SECTION_NOTE.match(c.text):  # 疏's 「自此至「…」，論…之事」 names a section, answers nothing
        readable *= QUOTE_PENALTY
    return (coverage + bonus) * readable * LAYER_PRIOR.get(c.layer, 0.5) * RANK_PRIOR[c.rank]


def _term_weights(cands: Sequence[Candidate], terms: QueryTerms) -> dict[str, float]:
    """Each query term's weight times its rarity among the candidate sentences (absent terms weigh nothing)."""
    n = len(cands)
    out: dict[str, float] = {}
    for t, w in terms.weights.items():
        df = sum(1 for c in cands if t in c.norm)
        if df:
            out[t] = w * math.log(1.0 + n / df)
    return out


def select_sentences(query: "Query", hits: Sequence["Hit"], max_sentences: int = 3) -> list[tuple[Candidate, float]]:
    """The best answering sentences of the top hits, best first, merged where adjacent."""
    cands = _candidates(hits)
    if not cands:
        return []
    terms = query_terms(query)
    weights = _term_weights(cands, terms)
    matched: dict[str, list[str]] = {}
    for hit in hits[: len(RANK_PRIOR)]:
        matched[hit.unit.id] = [normalize(p.text) for p in hit.passages]
    scored = sorted(
        ((c, _score(c, terms, weights, matched.get(c.unit.id, ()))) for c in cands),
        key=lambda cs: -cs[1],
    )
    best = scored[0][1]
    if best <= 0:
        return []
    chosen: list[tuple[Candidate, float]] = []
    for c, s in scored:
        if s < RELATIVE_CUTOFF * best or len(chosen) >= max_sentences:
            break
        if any(_overlaps(c, o) or c.norm in o.norm or o.norm in c.norm for o, _ in chosen):
            continue  # the same sentence again, or a 疏 quoting the 注, adds nothing
        chosen.append((c, s))
    return _merge_adjacent(chosen)


def _overlaps(a: Candidate, b: Candidate) -> bool:
    return (a.unit.id, a.layer, a.part) == (b.unit.id, b.layer, b.part) and a.start < b.end and b.start < a.end


def _merge_adjacent(chosen: list[tuple[Candidate, float]]) -> list[tuple[Candidate, float]]:
    """Join sentences that follow each other in one layer, so a two-sentence answer reads whole."""
    out = list(chosen)
    merged = True
    while merged:
        merged = False
        for i, (a, sa) in enumerate(out):
            for j, (b, sb) in enumerate(out):
                if i == j or (a.unit.id, a.layer, a.part) != (b.unit.id, b.layer, b.part):
                    continue
                full = _layer_text(a.unit, a.layer, a.part)
                gap = full[a.end : b.start] if a.end <= b.start else None
                # adjacent, or one short sentence apart: show the run whole rather than in pieces
                if gap is not None and len(split_sentences(gap)) <= 1 and len(normalize(gap)) <= GAP_CHARS:
                    text = full[a.start : b.end]
                    joined = Candidate(a.rank, a.unit, a.layer, a.part, a.start, b.end, text, normalize(text), a.sentences + b.sentences)
                    keep = min(i, j)
                    out[keep] = (joined, max(sa, sb))
                    del out[max(i, j)]
                    merged = True
                    break
            if merged:
                break
    # a run may now hold an item chosen on its own: keep the run only
    return [(c, sc) for i, (c, sc) in enumerate(out) if not any(j != i and _overlaps(c, o) and (o.end - o.start) > (c.end - c.start) for j, (o, _) in enumerate(out))]


def _layer_text(unit: LemmaUnit, layer: str, part: int) -> str:
    return unit.shu[part].text if layer == "shu" else getattr(unit, layer)


__all__ = ["Candidate", "QueryTerms", "query_terms", "select_sentences", "split_sentences"]
