"""Compare questions across rites: 「兩禮的獻賓有何不同？」, 「鄉飲酒禮和燕禮的X有什麼不同」, "How does X differ between the two rites?".

:func:`parse_compare` finds the step asked about (general patterns on the question's matching
form, with any rite names taken out); :func:`answer_compare` searches for it, takes each rite's
best unit (the other rite's side preferring a parallel of the first side, :mod:`qa.corpus.parallels`)
and cites one sentence from each, so both sides stand next to each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..corpus.context import CorpusContext
from ..retrieval.query import Query, analyze
from ..retrieval.retriever import Hit
from ..text.lexicon import rites_table
from ..text.normalize import normalize, normalize_with_map
from .compose import Answer, Evidence, LineLocator, query_terms, select_sentences
from .sequence import english_rite_names

#: how many hits the search reads to find each rite's best unit
DEPTH = 30
_R = "\ue000"  # stands for each character of a rite name in the question's matching form
_N = f"{_R}+"  # a rite name
_BOTH = rf"(?:两礼|二礼|两者|二者|两篇|{_N}(?:和|与|跟|及|同|或){_N})"
_DIFFER = r"(?:有何|有什么|有甚么|有哪些|何|的|之)?(?:不同|异同|区别|差别|差异|分别|相异|之异|有异)(?:何在|在哪里|在哪|是什么|为何)?(?:呢|乎|也)?"
_NO_STEP = re.compile(r"(?:有|何|有何|有什么|的|之|在|中)+")  # 「兩禮有何不同」 names no step
_ZH = (
    re.compile(rf"^(?:请问)?{_BOTH}(?:的|之|中|里|间|之间)?(?P<x>.+?){_DIFFER}$"),
    re.compile(rf"^(?P<x>.+?)(?:在|于)?{_BOTH}(?:的|之|中|里|间|之间)?{_DIFFER}$"),
    re.compile(rf"^(?:比较|对比|比对)(?:一下)?{_BOTH}(?:的|之|中)?(?P<x>.+)$"),
)
_RITES_EN = rf"(?:the\s+)?(?:two|both)\s+rites|(?:the\s+)?{_N}\s+and\s+(?:the\s+)?{_N}"
_EN = (
    re.compile(rf"^how\s+(?:does|do|is|are)\s+(?:the\s+)?(?P<x>.+?)\s+differ\s+(?:between|in)\s+(?:{_RITES_EN})$"),
    re.compile(rf"^what\s+(?:is|are)\s+the\s+differences?\s+(?:between|in)\s+(?:the\s+)?(?P<x>.+?)\s+(?:between|in|of)\s+(?:{_RITES_EN})$"),
    re.compile(rf"^compare\s+(?:the\s+)?(?P<x>.+?)\s+(?:between|in|of)\s+(?:{_RITES_EN})$"),
)


def _mask_rites(norm: str) -> str:
    """``norm`` with every rite name masked character for character (positions are kept)."""
    table = rites_table()
    for name, _ in sorted(table.chinese, key=lambda t: -len(t[0])):
        norm = norm.replace(name, _R * len(name))
    return english_rite_names().sub(lambda m: _R * len(m.group()), norm)


def parse_compare(question: str) -> str | None:
    """The step a compare question asks about (the question's own characters), or None when it is not one."""
    norm, where = normalize_with_map(question)
    masked = _mask_rites(norm)
    for pattern in _ZH:
        m = pattern.match(masked)
        if m and m.group("x").strip() and _R not in m.group("x") and not _NO_STEP.fullmatch(m.group("x")):
            start, end = m.start("x"), m.end("x") - 1
            return question[where[start] : where[end] + 1].strip() or None
    # English: on the question as typed (matching form drops the spaces around CJK), lower case,
    # with the rite names the matching form found masked in place
    low = list(question.lower())
    for i, ch in enumerate(masked):
        if ch == _R:
            low[where[i]] = _R
    text = _mask_rites("".join(low)).strip().rstrip("?？.。!！ ")
    for pattern in _EN:
        m = pattern.match(re.sub(r"\s", " ", text))
        if m and m.group("x").strip() and _R not in m.group("x"):
            return question[m.start("x") : m.end("x")].strip() or None
    return None


def answer_compare(
    step: str,
    query: Query,
    ctx: CorpusContext,
    *,
    k: int,
    search: Callable[[Query, int], Sequence[Hit]],
    locate: LineLocator | None = None,
) -> Answer | None:
    """Both rites' sides of ``step``: one cited sentence from each rite's best unit; None when
    the search finds no confident side in two rites (the normal path answers then)."""
    sub = analyze(step)
    hits = list(search(sub, DEPTH))
    if not hits or hits[0].low_confidence:
        return None
    wanted = ctx.rite_names(query.rites)
    rites = list(dict.fromkeys([*wanted, *(h.unit.rite for h in hits)]))
    # each rite's side is where its 經 does the step asked about (主人…獻賓), before a unit whose note only
    # names it (「將獻賓也」 of the washing before): a stable sort, so the search's order decides the rest
    said = normalize(step)
    by_rite = {r: sorted((h for h in hits if h.unit.rite == r),
                         key=lambda h: not (said and said in normalize(h.unit.jing))) for r in rites}
    if len([r for r in rites if by_rite[r]]) < 2:
        return None
    first_rite = hits[0].unit.rite if not wanted else wanted[0]
    second_rite = next(r for r in rites if r != first_rite and by_rite[r])
    sides: list[Hit] = []
    first = by_rite[first_rite][0]
    sides.append(first)
    twins = [p.unit for p in ctx.parallels(first.unit.id)]
    second = next((h for t in twins for h in by_rite[second_rite] if h.unit.id == t), by_rite[second_rite][0])
    sides.append(second)
    evidence = []
    for side in sides:
        # each side's sentence in the hand order: the learned model was fitted on whole answers, not on a side
        chosen = select_sentences(sub, [side], 1, learned=False)
        if not chosen:
            return None
        c, score = chosen[0]
        lines = (locate(c.unit, c.layer, c.text) if locate else None) or c.unit.lines
        u = c.unit
        evidence.append(Evidence(c.text, u.id, u.work, u.rite, c.layer, u.source, lines, round(score, 4)))
    if query.lang == "en":
        lead = f"「{step}」 in the two rites: {first_rite}, then {second_rite}."
    else:
        lead = f"「{step}」，兩禮對照：先{first_rite}，後{second_rite}。"
    text = "\n".join([lead, *(e.cited() for e in evidence)])
    rest = [h for h in hits if h.unit.id not in {first.unit.id, second.unit.id}]
    shown = tuple([first, second, *rest][:k])
    return Answer(
        query.text, text, True, tuple(evidence), shown, query.lang, query_terms(query),
        parallels=(first.unit.id, second.unit.id),
    )


__all__ = ["answer_compare", "parse_compare"]
