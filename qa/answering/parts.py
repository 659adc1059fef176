"""Questions on how a stage of the rite is made up, answered from 賈疏's outline: 「鄉飲酒禮奏樂分幾段？」,
「請簡述『主人獻賓』一節的主要程序」, "What are the stages of the music at the village drinking ceremony?".

:func:`parse_parts` recognises the kind by general patterns of zh, lzh and en questions (how many parts or stages
a step has, its procedure, its running order) and gives the words naming the step; a question that is not one gives
None and takes the normal path. :func:`answer_parts` finds the stage those words name (a stage title holding them or
one of their corpus terms, else a stage whose 經 holds them: :func:`qa.answering.sequence.find_stage`) and answers with
賈疏's own account of it: the sentence after his statement of the stage when it counts or lists the stage's parts
(「大判總為作樂，其中別有四節之殊︰有歌，有笙，有間，有合」), and the statement itself (「自此至…，論…之事」); its units are
the hits. A rite asked whole (「鄉飲酒禮的主要儀節有哪些？」, "What are the stages of the village drinking ceremony?")
gets its outline: the titles of 賈疏's outermost stages of it, as far as the corpus holds it, and their statements
cited. A question the confidence rule would not answer (「KTV唱歌分幾段？」) is left to the normal path, which
says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..corpus.context import CorpusContext
from ..corpus.outline import Stage
from ..retrieval.features import unit_text
from ..retrieval.query import Query, analyze
from ..retrieval.retriever import Hit
from ..text.normalize import normalize
from .compose import Answer, query_terms
from .sequence import QUOTE_MARKS, find_stage, stage_evidence, step_words, without_rites

# 「X分幾節」, 「X一共分成哪幾個環節」, 「X凡幾節」: the step X and how many parts it has
_ZH_COUNT = re.compile(
    r"^(?P<x>.+?)(?:一共|總共|总共|共|凡|大概|大致)?(?:可以|可)?(?:分為|分为|分成|分作|分|為|为)?"
    r"(?:幾|几|哪幾|哪几|哪些)(?:個|个)?(?:節|节|段|部分|環節|环节|階段|阶段|步驟|步骤)(?:呢|啊|呀)?(?:[，,].*)?$"
)
# 「簡述X的主要程序」, 「X的流程是什麼」, 「X一節的儀節如何」: its procedure
_ZH_PROCEDURE = re.compile(
    r"^(?:請|请)?(?:簡述|简述|試述|试述|概述|說明|说明|介紹|介绍)?(?P<x>.+?)(?:一節|一节|這一節|这一节)?(?:的|之)?"
    r"(?:主要|大致|整個|整个)?(?:程序|流程|儀節|仪节|步驟|步骤|過程|过程)"
    r"(?:是什麼|是什么|是怎樣的|是怎样的|如何|怎樣|怎样|怎麼樣|怎么样|為何|为何|有哪些|包括哪些|呢)?(?:[，,].*)?$"
)
#: A why question asks a reason, not a step's make-up (「為什麼要往前走幾步」).
_WHY = re.compile(r"為什麼|为什么|為何|为何|何以|怎麼|怎么|為啥|为啥|幹嘛|干嘛")
_EN = (
    re.compile(r"^(?:so\s+)?what\s+(?:are|were)\s+the\s+(?:\w+\s+)?(?:stages|parts|steps|phases|sections|movements)\s+(?:of|in)\s+(?P<x>.+?)(?:,.*)?$"),
    re.compile(r"^(?:what\s+is\s+|what's\s+)?the\s+(?:running\s+order|order|sequence|structure|procedure)\s+of\s+(?P<x>.+?)(?:,.*)?$"),
    re.compile(r"^how\s+many\s+(?:stages|parts|steps|phases|sections|movements)\s+(?:does|did|do|are there in|were there in|in)\s+(?P<x>.+?)"
               r"(?:\s+(?:have|has|had|consist of|fall into))?(?:,.*)?$"),
    re.compile(r"^how\s+(?:is|was)\s+(?P<x>.+?)\s+(?:structured|organi[sz]ed|divided|laid out)(?:,.*)?$"),
)
_TRIM = "？?。.！!；;：:，, \u3000"
#: Characters that say nothing of a step (的 of 「中的奏乐」).
_PHRASING = frozenset("的了吗呢么们这那哪是有在要就都也还又很把被给让去来说做个什么怎样为中上下时")
#: A commentator the question names before the step (「賈疏分作樂為幾節」): the answer is his anyway.
_BY = re.compile(r"^(?:賈疏|贾疏|賈公彥|贾公彦|賈氏|贾氏|疏)(?:論|论|分|把|將|将|所分)?")
#: The sentence after the statement tells the parts when it counts them (四節) or lists them (有歌，有笙).
_PARTS = re.compile(r"[一二三四五六七八九十][節节]|(?:有[^，。；︰:]{1,4}[，,]){2,}")


@dataclass(frozen=True, slots=True)
class PartsAsk:
    """A question on how the step ``target`` (its words as asked) is made up; "" for the rite as a whole."""

    target: str


def parse_parts(question: str) -> PartsAsk | None:
    """The step whose make-up ``question`` asks about, or None when it is not such a question."""
    text = question.strip().strip(_TRIM)
    # the first clause asks (「鄉飲酒禮奏樂分幾段？先後次序怎樣？」): a second only repeats it
    first = re.split(r"[？?。！!；;]", text)[0].strip(_TRIM) if text else ""
    for pattern in (_ZH_COUNT, _ZH_PROCEDURE):
        m = pattern.match(first)
        if m and not _WHY.search(m.group("x")):
            return _ask(_BY.sub("", m.group("x")))
    low = re.sub(r"\s+", " ", first.lower())
    for pattern in _EN:
        m = pattern.match(low)
        if m:
            start = m.start("x")
            return _ask(first[start : start + len(m.group("x"))], english=True)
    return None


def _ask(words: str, english: bool = False) -> PartsAsk:
    """The step ``words`` name; "" when they name only a rite (「鄉飲酒禮的主要儀節有哪些」: the rite asked whole)."""
    if not without_rites(words).strip(_TRIM + QUOTE_MARKS):
        return PartsAsk("")
    return PartsAsk(re.sub(r"\s+", " ", step_words(words, english=english)))


def _stage(ctx: CorpusContext, target: str, rites: tuple[str, ...]) -> Stage | None:
    """The stage ``target`` names: as written, else by a corpus term it expands to (音樂 → 樂), else by the
    longest part of it a stage title holds (作樂 → 樂 of 主人樂賓, in a rite that says 作樂 nowhere)."""
    found = find_stage(ctx, target, rites)
    if found is not None:
        return found
    cjk = "".join(re.findall(r"[\u3400-\u9fff]+", normalize(target)))
    # the parts of a phrase the corpus writes (作樂), not of a word of the question's own (主要)
    said = bool(cjk) and any(cjk in unit_text(u).full for u in ctx.corpus.units)  # normalized once per unit
    parts = sorted({cjk[i:j] for i in range(len(cjk)) for j in range(i + 1, len(cjk) + 1)} - {cjk}, key=len, reverse=True) if said else []
    for term in [t for t in analyze(target).expansions if t] + [p for p in parts if p not in _PHRASING]:
        if any(not rites or s.rite in rites for s in ctx.outline.find(term)):
            return find_stage(ctx, term, rites)
    return None


def _parts_sentence(ctx: CorpusContext, stage: Stage) -> str | None:
    """賈疏's sentence right after his statement of ``stage``, when it counts or lists the stage's parts."""
    unit = ctx.unit(stage.unit)
    for part in unit.shu:
        at = part.text.find(stage.statement)
        if at < 0:
            continue
        rest = part.text[at + len(stage.statement) :].lstrip("。．.")
        sentence = re.split(r"(?<=[。．])", rest, maxsplit=1)[0]
        return sentence if sentence and _PARTS.search(sentence) else None
    return None


def _lead(lang: str, stage: Stage, others: Sequence[Stage] = ()) -> str:
    also = "".join(f"{o.rite}「{o.title}」" for o in others)
    if lang == "en":
        more = f" (and {also})" if others else ""
        return f"In Jia Gongyan's outline of {stage.rite}, 「{stage.title}」{more} is one stage; his sub-commentary sets it out:"
    more = f"（及{also}）" if others else ""
    return f"{stage.rite}「{stage.title}」{more}一節，賈疏所述如下："


def answer_parts(
    ask: PartsAsk,
    query: Query,
    ctx: CorpusContext,
    *,
    k: int,
    search: Callable[[Query, int], Sequence[Hit]],
) -> Answer | None:
    """The answer to a question on a step's make-up, or None (normal path) when no stage is named or the
    question is not confidently about the corpus."""
    if query.other_rites:
        return None  # a rite the corpus lacks (士昏禮的六禮): the normal path says what the corpus covers
    rites = ctx.rite_names(query.rites)
    if not ask.target:
        return _answer_rite(rites[0], query, ctx, k=k) if len(rites) == 1 else None
    stage = _stage(ctx, ask.target, rites)
    if stage is None:
        return None
    hits = search(query, 1)
    if not hits or hits[0].low_confidence:
        return None  # not about the corpus (「KTV唱歌分幾段？」): the normal path says so
    # a question naming no rite may mean either: the same step of each other rite follows (作樂 and 主人樂賓)
    others = [] if rites else [o for r in dict.fromkeys(s.rite for s in ctx.outline.stages) if r != stage.rite
                               for o in (_stage(ctx, ask.target, (r,)),) if o is not None]
    units = list(ctx.stage_units(stage))[: max(k - len(others), 1)] + [o.unit for o in others]
    found = tuple(Hit(ctx.unit(u), 1.0 - i / (len(units) + 1), (), False) for i, u in enumerate(units[:k]))

    evidence = []
    for at in (stage, *others):
        parts = _parts_sentence(ctx, at)
        evidence += ([stage_evidence(ctx, at, parts)] if parts else []) + ([stage_evidence(ctx, at)] if at is stage or not parts else [])
    lead = _lead("en" if query.lang == "en" else "zh-Hant", stage, others)
    text = "\n".join([lead, *(e.cited() for e in evidence)])
    return Answer(query.text, text, True, tuple(evidence), found, query.lang, query_terms(query),
                  grounded=(normalize(stage.title),), stage=stage.key)


def _answer_rite(rite: str, query: Query, ctx: CorpusContext, *, k: int) -> Answer | None:
    """The rite's own outline: 賈疏's stages of it (the outermost ones) as far as the corpus holds them, in order;
    each stage's statement is cited, its unit a hit."""
    stages = [s for s in ctx.outline.stages_of(rite) if s.parent is None]
    if not stages:
        return None
    titles = "、".join(f"「{s.title}」" for s in stages)
    if query.lang == "en":
        lead = f"Jia Gongyan's sub-commentary divides {rite}, as far as the corpus holds it, into {len(stages)} stages: {titles}."
    else:
        lead = f"{rite}，語料所見賈疏分為{len(stages)}節：{titles}。"
    evidence = [stage_evidence(ctx, at) for at in stages[:k]]
    found = tuple(Hit(ctx.unit(at.unit), 1.0 - i / (len(stages) + 1), (), False) for i, at in enumerate(stages[:k]))
    text = "\n".join([lead, *(e.cited() for e in evidence)])
    return Answer(query.text, text, True, tuple(evidence), found, query.lang, query_terms(query))


__all__ = ["PartsAsk", "answer_parts", "parse_parts"]
