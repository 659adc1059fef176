"""The reader's companion around the ask pipeline: questions answered from the corpus's structure, and what every answer carries.

:func:`structural_answer` answers a sequence question (:mod:`.sequence`, 「合樂之後呢？」) or a
compare question (:mod:`.compare`, 「兩禮的獻賓有何不同？」), or gives None for the normal
path. :func:`enrich` adds to any answer the scholarly citation of each sentence, the parallels of
its first unit in the other rite, and, when the corpus does not answer, what it covers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..corpus.context import CorpusContext
from ..corpus.outline import Stage
from ..retrieval.query import Query
from ..retrieval.retriever import Hit
from .compare import answer_compare, parse_compare
from .compose import Answer, LineLocator, english_glosses, plain_english
from .parts import answer_parts, parse_parts
from .sequence import answer_sequence, parse_sequence

#: parallels an answer carries for its first unit
PARALLELS = 3


def current_stage(ctx: CorpusContext, previous: Answer | None) -> Stage | None:
    """The stage a conversation is at: the one a sequence answer was about, else the stage of the
    previous answer's first answering unit (its first hit when it cited nothing)."""
    if previous is None:
        return None
    if previous.stage:
        return ctx.outline.stage(previous.stage)
    first = previous.evidence[0].unit_id if previous.evidence else (previous.hits[0].unit.id if previous.hits else None)
    return ctx.stage_of(first) if first else None


def structural_answer(
    query: Query,
    ctx: CorpusContext,
    *,
    k: int,
    search: Callable[[Query, int], Sequence[Hit]],
    previous: Callable[[], Answer | None] = lambda: None,
    locate: LineLocator | None = None,
) -> Answer | None:
    """The answer from the outline or the parallels, or None: the normal path answers."""
    answer = None
    ask = parse_sequence(query.text)
    if ask is not None:
        answer = answer_sequence(ask, query, ctx, k=k, current=lambda: current_stage(ctx, previous()), locate=locate)
    parts = parse_parts(query.text) if answer is None else None
    if parts is not None:
        answer = answer_parts(parts, query, ctx, k=k, search=search)
    step = parse_compare(query.text) if answer is None else None
    if step is not None:
        answer = answer_compare(step, query, ctx, k=k, search=search, locate=locate)
    return _with_english_aids(answer, query, ctx) if answer is not None else None


def _with_english_aids(answer: Answer, query: Query, ctx: CorpusContext) -> Answer:
    """An English question's answer from the structure reads like any other: English glosses of its key terms and
    its first cited sentence retold in plain English (:func:`qa.answering.compose.english_glosses`, ``plain_english``)."""
    if query.lang not in ("en", "mixed") or not answer.evidence or answer.glosses or answer.plain:
        return answer
    first = answer.evidence[0]
    return replace(answer, glosses=english_glosses(query, answer.evidence), plain=plain_english(ctx.unit(first.unit_id), first))


def enrich(answer: Answer, ctx: CorpusContext, coverage: Callable[[str], str]) -> Answer:
    """``answer`` with scholarly citations, parallels and (when not found) the coverage line.

    ``coverage(lang)`` gives the coverage statement's first line in zh-Hant or en."""
    evidence = []
    for e in answer.evidence:
        c = ctx.cite(e.unit_id, e.layer, e.text)
        evidence.append(replace(e, scholarly=c.text) if c is not None else e)
    changes: dict = {"evidence": tuple(evidence)}
    if answer.found and not answer.parallels and answer.evidence:
        changes["parallels"] = tuple(p.unit for p in ctx.parallels(answer.evidence[0].unit_id)[:PARALLELS])
    if not answer.found and not answer.coverage:
        changes["coverage"] = coverage("en" if answer.lang == "en" else "zh-Hant")
    return replace(answer, **changes)


__all__ = ["PARALLELS", "current_stage", "enrich", "structural_answer"]
