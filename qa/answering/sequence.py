"""Sequence questions answered from 賈疏's outline: 「合樂之後呢？」, 「下一節是什麼？」, "what happens after the 旅酬?".

:func:`parse_sequence` recognises the kind (after / before, with a named step, or next / previous
of the step the conversation is at) by general patterns of zh, lzh and en questions; a question
that is not one gives None and takes the normal path. :func:`find_stage` finds the named step
in the outline (a stage title, else a stage whose 經 holds the words, else a title holding them
in order); :func:`answer_sequence` answers with the stage after or before it: its title in
賈疏's words, its units as hits, and as evidence the 疏's statement of the stage (「自此至…，論…
之事」) and the 經 of its first unit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..corpus.context import CorpusContext
from ..corpus.outline import Stage, sequence
from ..retrieval.query import Query, analyze
from ..retrieval.retriever import Hit
from ..text.lexicon import rites_table
from ..text.normalize import normalize, normalize_with_map
from .compose import Answer, Evidence, LineLocator, query_terms

# what a Chinese question ends with after 「X之後」: nothing, 呢, or a question word with its verb (「下一步要做什麼」,
# 「次將何為」); not who is next (「次獻何人」: the next one offered is often in the same stage of the outline)
_ZH_WHAT = (
    r"(?:(?:下一步|下一節|下一节|接下來|接下来|接著|接着|然後|然后|又|再|則|则|當|当|所)?"
    r"(?:要|將|将|應該|应该|應|应|該|该|會|会)?"
    r"(?:是|為|为|做|行|有|進行|进行|舉行|举行|獻|献|輪到|轮到)?"
    r"(?:什麼|什么|甚麼|甚么|如何|怎樣|怎样|怎麼樣|怎么样|何事|何禮|何礼|何節|何节|何為|何为|何如|何|哪一節|哪一节|哪一步|哪個|哪个)"
    r"(?:事|禮|礼|儀節|仪节|步驟|步骤|環節|环节|節|节|儀|仪)?)?(?:呢|乎|也|耶)?"
)
_ZH_AFTER = re.compile(
    rf"^(?P<x>.+?)(?:(?:之|以|而)?(?:後|后)|之次|(?:既|已)?(?:畢|毕|訖|讫|完了?|結束|结束)(?:之後|之后|以後|以后|後|后)?)[，,]?(?:其次|次)?{_ZH_WHAT}$"
)
_ZH_BEFORE = re.compile(rf"^(?P<x>.+?)(?:之|以)?(?:前|先)[，,]?{_ZH_WHAT}$")
_ZH_NEXT = re.compile(
    rf"^(?:那|那麼|那么|然則|然则)?(?:下一節|下一节|下一步|下一個環節|下一个环节|下一項|下一项|再下來|再下来|接下來|接下来|然後|然后|之後|之后|以後|以后|其次|次)[，,]?{_ZH_WHAT}$"
)
_ZH_PREVIOUS = re.compile(
    rf"^(?:那|那麼|那么)?(?:上一節|上一节|前一節|前一节|上一步|前一步|上一個環節|上一个环节|此前|之前|以前|再之前|在此之前)[，,]?{_ZH_WHAT}$"
)
_EN_AFTER = (
    re.compile(r"^(?:and\s+|so\s+)?what\s+(?:happens|comes|follows|is done|takes place|do they do|does one do)\s+(?:right\s+|just\s+|immediately\s+)?after\s+(?P<x>.+)$"),
    re.compile(r"^(?:and\s+)?what\s+follows\s+(?P<x>.+)$"),
    re.compile(r"^after\s+(?P<x>.+?),?\s+what\s+(?:happens|comes|follows|next|then).*$"),
)
_EN_BEFORE = (
    re.compile(r"^(?:and\s+)?what\s+(?:happens|comes|is done|takes place|do they do)\s+(?:right\s+|just\s+|immediately\s+)?before\s+(?P<x>.+)$"),
    re.compile(r"^(?:and\s+)?what\s+precedes\s+(?P<x>.+)$"),
)
_EN_NEXT = re.compile(
    r"^(?:and\s+|so\s+)?(?:then\s+)?(?:what(?:'s|\s+is|\s+happens|\s+comes)?\s+next|what\s+(?:happens|comes)\s+(?:then|after\s+that|afterwards)"
    r"|(?:what\s+is\s+|what's\s+)?the\s+next\s+(?:step|stage|section|part)|and\s+then|next\s+(?:step|stage|section)"
    r"|(?:and\s+|so\s+)?(?:right\s+|just\s+)?after\s+that|(?:and\s+|so\s+)?then\s+what|(?:and\s+)?what\s+then|and\s+next)$"
)
_EN_PREVIOUS = re.compile(
    r"^(?:and\s+)?(?:what\s+(?:came|comes|happened|happens)\s+before(?:\s+that)?|(?:what\s+(?:is|was)\s+|what's\s+)?the\s+(?:previous|preceding)\s+(?:step|stage|section|part))$"
)
#: A why word in the words before 之後 / 之前: the question asks a reason, not a step.
_ASKS_WHY = re.compile(r"為何|为何|為什麼|为什么|何以|何故|怎麼|怎么")
_TRIM = "？?。.！!；;：:，, \u3000"
#: Quotation and title marks around a step's words (「合樂」之後呢).
QUOTE_MARKS = "「」『』“”\"'《》〈〉"
_EN_ARTICLES = re.compile(r"^(?:the|a|an)\s+", re.I)
_CJK = re.compile(r"[\u3400-\u9fff\U00020000-\U0002fa1f]+")


@dataclass(frozen=True, slots=True)
class SequenceAsk:
    """A sequence question: ``step`` 1 (after / next) or -1 (before / previous) of ``target``,
    the words naming a step, or "" for the step the conversation is at (「下一節是什麼？」)."""

    step: int
    target: str


def parse_sequence(question: str) -> SequenceAsk | None:
    """The sequence question ``question`` asks, or None when it is not one."""
    text = question.strip().strip(_TRIM)
    if not text:
        return None
    low = re.sub(r"\s+", " ", text.lower()).strip(_TRIM)
    if _ZH_NEXT.match(text) or _EN_NEXT.match(low):
        return SequenceAsk(1, "")
    if _ZH_PREVIOUS.match(text) or _EN_PREVIOUS.match(low):
        return SequenceAsk(-1, "")
    for step, zh, en in ((1, _ZH_AFTER, _EN_AFTER), (-1, _ZH_BEFORE, _EN_BEFORE)):
        m = zh.match(text)
        if m and not _ASKS_WHY.search(m.group("x")):  # 「主人為何在賓前？」 asks why, of a place
            target = step_words(m.group("x"))
            return SequenceAsk(step, target) if target else None
        for pattern in en:
            m = pattern.match(low)
            if m:
                # the English match ran on lower case: take the target from the question as typed
                start = m.start("x")
                target = step_words(text[start : start + len(m.group("x"))], english=True)
                return SequenceAsk(step, target) if target else None
    # two questions in one (「主人酬賓既畢，次將何為？賓何以降？」): the first asks the sequence
    first = re.split(r"(?<=[？?])", text, maxsplit=1)[0]
    return parse_sequence(first) if first != text and first.strip(_TRIM) else None


@lru_cache(maxsize=1)
def english_rite_names() -> re.Pattern[str]:
    """English rite names as one pattern (the table's words are stems: district drink → "district drinking")."""
    names = sorted(rites_table().english, key=lambda w: (-len(w), w))
    alts = [r"\s+".join(rf"{re.escape(w)}\w*" for w in words) for words in names]
    return re.compile(rf"\b(?:the\s+)?(?:{'|'.join(alts)})(?:\s+(?:rite|ritual|ceremony))?\b", re.I)


def without_rites(words: str) -> str:
    """``words`` without the rite names in them (and a 的/之 after one): the rite is the query's ``rites``."""
    norm, where = normalize_with_map(words)
    drop: set[int] = set()
    for name, _ in sorted(rites_table().chinese, key=lambda t: -len(t[0])):
        at = norm.find(name)
        while at >= 0:
            end = at + len(name)
            if end < len(norm) and norm[end] in "的之":
                end += 1
            drop |= {where[i] for i in range(at, end)}
            at = norm.find(name, end)
    kept = "".join(ch for i, ch in enumerate(words) if i not in drop)
    kept = english_rite_names().sub("", kept)
    kept = re.sub(r"(?:\s+(?:in|of|at|during)(?:\s+the)?)+\s*$", "", kept.strip(), flags=re.I)
    return kept.strip()


def step_words(words: str, english: bool = False) -> str:
    """The words naming a step, as a question writes them: its rite names, articles, openings (那, 請問) and endings
    (了, 之禮, 一節) left out (the sequence and make-up questions' ``target``)."""
    words = without_rites(words.strip().strip(_TRIM)) or words
    if english:
        words = _EN_ARTICLES.sub("", words)
        words = re.sub(r"\s+(?:is\s+(?:over|done|finished)|ends?)$", "", words, flags=re.I)
    else:
        words = re.sub(r"^(?:那|那麼|那么|請問|请问|在|行|舉行|举行|做)", "", words)
        words = re.sub(r"(?:了|之禮|之礼|的儀節|的仪节|這一節|这一节|一節|一节)$", "", words)
    return words.strip(QUOTE_MARKS).strip(_TRIM).strip(QUOTE_MARKS)


def _subsequence(words: str, title: str) -> bool:
    it = iter(title)
    return all(ch in it for ch in words)


def find_stage(ctx: CorpusContext, words: str, rites: tuple[str, ...] = ()) -> Stage | None:
    """The stage ``words`` name, in one of ``rites`` (rite names) if given.

    CJK words are looked up as written; English ones by the glossary's corpus terms ("general
    pledging" → 旅酬). Where several stages match, the one whose units' text (經注疏) mentions
    the words most (the 旅酬 itself, not the stage 「將以旅酬」 leading up to it), then the first."""
    cjk = "".join(_CJK.findall(words))
    tries = [cjk] if cjk else [t for t in analyze(words).expansions if t]
    for term in tries:
        found = _stages(ctx, term, rites)
        if found:
            return found
    return None


def _stages(ctx: CorpusContext, term: str, rites: tuple[str, ...]) -> Stage | None:
    outline = ctx.outline
    in_rite = (lambda s: s.rite in rites) if rites else (lambda s: True)
    found = [s for s in outline.find(term, ctx.corpus) if in_rite(s)]
    if not found:
        w = normalize(term)
        found = [s for s in outline.stages if in_rite(s) and len(w) >= 2 and _subsequence(w, normalize(s.title))]
    if not found:
        return None
    w = normalize(term)

    def mentions(s: Stage) -> int:
        return sum(normalize(ctx.unit(u).full_text).count(w) for u in ctx.stage_units(s))

    return max(found, key=lambda s: (mentions(s), -found.index(s)))


def _lead(lang: str, step: int, at: Stage, to: Stage | None, words: str = "") -> str:
    """The answer's first line; ``words`` are the question's name for ``at`` when its title differs."""
    named = words and normalize(words) not in normalize(at.title)
    if lang == "en":
        if to is None:
            where = "last" if step > 0 else "first"
            return f"「{at.title}」 is the {where} stage of {at.rite} in Jia Gongyan's outline as far as the corpus holds it."
        rel = "After" if step > 0 else "Before"
        which = "next" if step > 0 else "previous"
        also = f" ({words})" if named else ""
        return f"{rel} 「{at.title}」{also} the {which} stage of {at.rite} in Jia Gongyan's outline is 「{to.title}」."
    if to is None:
        where = "最後" if step > 0 else "最前"
        return f"「{at.title}」是語料所見賈疏{at.rite}分節的{where}一節。"
    rel, which = ("之後", "下一節") if step > 0 else ("之前", "上一節")
    also = f"（即「{words}」）" if named else ""
    return f"{at.rite}「{at.title}」{also}{rel}，賈疏所分{which}為「{to.title}」。"


def stage_evidence(ctx: CorpusContext, stage: Stage, text: str | None = None) -> Evidence:
    """A sentence of 賈疏 on ``stage`` as evidence: his statement of it (default) or ``text``, another sentence of the
    same 疏, cited at the statement's unit and line."""
    stated = ctx.unit(stage.unit)
    return Evidence(stage.statement if text is None else text, stated.id, stated.work, stated.rite, "shu", stated.source,
                    (stage.line, stage.line), 1.0)


def answer_sequence(
    ask: SequenceAsk,
    query: Query,
    ctx: CorpusContext,
    *,
    k: int,
    current: Callable[[], Stage | None],
    locate: LineLocator | None = None,
) -> Answer | None:
    """The answer to a sequence question, or None when its step cannot be found (normal path then).

    ``current`` gives the stage the conversation is at (for 「下一節」: the previous answer's)."""
    rites = ctx.rite_names(query.rites)
    at = find_stage(ctx, ask.target, rites) if ask.target else current()
    if at is None:
        return None
    lang = "en" if query.lang == "en" else "zh-Hant"
    to = sequence(ctx.outline, at, ask.step)
    lead = _lead(lang, ask.step, at, to, ask.target)
    terms = query_terms(query)
    if to is None:
        return Answer(query.text, lead, False, (), (), query.lang, terms, stage=at.key)
    units = ctx.stage_units(to)
    hits = tuple(Hit(ctx.unit(u), 1.0 - i / (len(units) + 1), (), False) for i, u in enumerate(units[:k]))
    first = ctx.unit(to.first)
    evidence = [stage_evidence(ctx, to)]
    if first.jing:
        lines = (locate(first, "jing", first.jing) if locate else None) or first.lines
        evidence.append(Evidence(first.jing, first.id, first.work, first.rite, "jing", first.source, lines, 1.0))
    text = "\n".join([lead, *(e.cited() for e in evidence)])
    return Answer(query.text, text, True, tuple(evidence), hits, query.lang, terms, grounded=(normalize(to.title),), stage=to.key)


__all__ = ["QUOTE_MARKS", "SequenceAsk", "answer_sequence", "english_rite_names", "find_stage", "parse_sequence", "stage_evidence", "step_words",
           "without_rites"]
