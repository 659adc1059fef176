"""The reader's guide, for any door: a unit's stage path, the outline to browse, a unit with its
neighbours, parallels and 校讀 corrections (shown by :func:`qa.present.render.jiaodu_text_html`).

Pure functions over a :class:`qa.corpus.context.CorpusContext` (``Retriever.context``). The 校讀
never changes the text: :func:`jiaodu_html` shows the correction, marked, with the source's own
character (and why) on hover; everything is HTML-escaped.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..corpus.context import CorpusContext
from ..corpus.corrections import Correction
from ..corpus.outline import Stage
from ..corpus.parallels import Parallel
from ..corpus.units import LemmaUnit

#: between the parts of a stage path: 鄉飲酒禮 › 主人樂賓 › 獻笙者
SEPARATOR = " › "


def stage_label(ctx: CorpusContext, unit_id: str) -> str:
    """The unit's rite and stages, outermost first (鄉飲酒禮 › 主人樂賓 › 獻笙者); the rite alone when unstaged."""
    unit = ctx.unit(unit_id)
    return SEPARATOR.join([unit.rite, *(s.title for s in ctx.stage_path(unit_id))])


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One stage, as an outline panel lists it."""

    rite: str
    key: str  # the stage's key (the id of the unit holding its statement)
    title: str  # 賈疏's words
    depth: int  # 0 for a stage no other holds, 1 inside one (獻笙者 in 主人樂賓), …
    statement: str  # 自此至「…」，論…之事
    units: tuple[str, ...]  # its 注疏 units, first to last, in reading order


def outline_entries(ctx: CorpusContext, rite: str | None = None) -> tuple[OutlineEntry, ...]:
    """Every stage (of ``rite``, if given), per rite in order, parents before the stages they hold."""
    out = []
    for s in ctx.outline.stages:
        if rite is not None and s.rite != rite:
            continue
        depth, parent = 0, s.parent
        while parent:
            depth += 1
            parent = ctx.outline.stage(parent).parent
        out.append(OutlineEntry(s.rite, s.key, s.title, depth, s.statement, ctx.stage_units(s)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ReadingView:
    """One unit as a reader sees it: where it stands, what comes before and after, and its counterparts."""

    unit: LemmaUnit
    previous: LemmaUnit | None
    next: LemmaUnit | None
    stages: tuple[Stage, ...]  # outermost first
    label: str  # 鄉飲酒禮 › 主人盥洗獻賓
    corrections: tuple[Correction, ...]  # 校讀, all fields
    parallels: tuple[Parallel, ...]
    citation: str  # the scholarly citation of its 經 ("" where none can be made)


def reading_view(ctx: CorpusContext, unit_id: str) -> ReadingView:
    """The reading view of unit ``unit_id`` (KeyError for an unknown id)."""
    unit = ctx.unit(unit_id)
    before, after = ctx.neighbours(unit_id)
    cited = ctx.cite(unit_id, "jing") if unit.jing else None
    return ReadingView(
        unit=unit,
        previous=before,
        next=after,
        stages=ctx.stage_path(unit_id),
        label=stage_label(ctx, unit_id),
        corrections=ctx.corrections(unit_id),
        parallels=ctx.parallels(unit_id),
        citation=cited.text if cited else "",
    )


__all__ = ["OutlineEntry", "ReadingView", "SEPARATOR", "outline_entries", "reading_view", "stage_label"]
