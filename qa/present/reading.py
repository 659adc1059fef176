"""The reading view: any unit in its chapter (its work and rite, in id order), with all its
layers, the aligned unit of the other edition, its neighbours, and a stable address
(``?unit=zhushu.xiangyin.038``)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..corpus.units import LemmaUnit
from .render import Display, Script, as_display, card_html, text_html, unit_link

if TYPE_CHECKING:  # pragma: no cover
    from .guide import OutlineEntry


def chapter_of(unit_id: str) -> str:
    """A unit's chapter: its id without the sequence (``zhushu.yan`` of ``zhushu.yan.a012``)."""
    return unit_id.rsplit(".", 1)[0]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a unit stands: its chapter's units in reading order, and its index there."""

    unit: LemmaUnit
    chapter: tuple[LemmaUnit, ...]
    index: int

    @property
    def previous(self) -> LemmaUnit | None:
        return self.chapter[self.index - 1] if self.index > 0 else None

    @property
    def next(self) -> LemmaUnit | None:
        return self.chapter[self.index + 1] if self.index + 1 < len(self.chapter) else None


class Reader:
    """The corpus by chapter, for reading around a passage (pure once built)."""

    def __init__(self, units: Iterable[LemmaUnit]):
        self.units: dict[str, LemmaUnit] = {u.id: u for u in units}
        chapters: dict[str, list[LemmaUnit]] = {}
        for u in self.units.values():
            chapters.setdefault(chapter_of(u.id), []).append(u)
        # ids sort in reading order: 燕禮 part a (中段) before part b (後半), sequences zero-padded
        self.chapters = {k: tuple(sorted(v, key=lambda u: u.id)) for k, v in chapters.items()}
        self._index = {u.id: (k, i) for k, us in self.chapters.items() for i, u in enumerate(us)}

    def place(self, unit_id: str) -> Place | None:
        """Where ``unit_id`` stands, or None for an unknown id."""
        found = self._index.get((unit_id or "").strip())
        if found is None:
            return None
        key, i = found
        chapter = self.chapters[key]
        return Place(chapter[i], chapter, i)

    def step(self, unit_id: str, by: int) -> str:
        """The id ``by`` units away in the same chapter (clamped); an unknown id stays as it is."""
        p = self.place(unit_id)
        if p is None:
            return unit_id
        return p.chapter[max(0, min(len(p.chapter) - 1, p.index + by))].id

    @property
    def first_id(self) -> str:
        return min(self.units) if self.units else ""


def contents_html(reader: Reader) -> str:
    """The chapters, each with its size and a link to its first unit: where reading starts."""
    rows = []
    for _key, units in sorted(reader.chapters.items()):
        first = units[0]
        rows.append(
            f"<li>{html.escape(first.work)} · {html.escape(first.rite)}（{len(units)} 段）"
            f" {unit_link(first.id)} … {unit_link(units[-1].id)}</li>"
        )
    return (
        '<div class="qa-read qa-contents"><div class="qa-read-title">目錄 contents</div>'
        f"<ul>{''.join(rows)}</ul>"
        '<div class="qa-read-link">輸入段落編號，或點答案中的編號 · type a unit id, or click one in an answer</div></div>'
    )


def outline_html(entries: Sequence["OutlineEntry"], units: Mapping[str, LemmaUnit]) -> str:
    """賈疏's stages to browse (:func:`qa.present.guide.outline_entries`): per rite, each stage
    (nested ones indented) opening onto its statement and its units, each a link to the reading view."""
    rites: dict[str, list[str]] = {}
    for e in entries:
        lines = "".join(
            f"<li>{unit_link(u)} {html.escape(_opening(units[u]))}</li>" for u in e.units if u in units
        )
        rites.setdefault(e.rite, []).append(
            f'<details class="qa-outline-stage" style="margin-left:{1.2 * e.depth:.1f}em">'
            f"<summary>{html.escape(e.title)}<span class=\"qa-stmt\">（{len(e.units)} 段）</span></summary>"
            f'<div class="qa-stmt">賈疏：{html.escape(e.statement)}</div><ul>{lines}</ul></details>'
        )
    body = "".join(
        f'<details class="qa-outline-rite" open><summary>{html.escape(rite)}（{len(stages)} 節）</summary>{"".join(stages)}</details>'
        for rite, stages in rites.items()
    )
    return f'<div class="qa-outline"><div class="qa-read-title">綱目 outline · 賈疏分節 Jia Gongyan\'s stages</div>{body}</div>'


def _opening(unit: LemmaUnit) -> str:
    """The first clause of a unit's 經, for a line of the outline."""
    text = unit.jing
    for i, ch in enumerate(text):
        if ch in "，。；：":
            return text[:i]
    return text[:16]


def _preview(unit: LemmaUnit, d: Display, arrow: str) -> str:
    script = d.script_for(unit.source)
    return (
        f'<div class="qa-read-ctx"><div class="qa-head">{arrow} {unit_link(unit.id)}</div>'
        f"{text_html(unit.jing, None, script)}</div>"
    )


def reading_html(reader: Reader, unit_id: str, display: "Display | Script" = "original", *, context: int = 2) -> str:
    """The unit ``unit_id`` with all its layers (疏 open), the aligned unit beside, and the 經 of
    ``context`` neighbours before and after; a message for an unknown id."""
    d = as_display(display)
    place = reader.place(unit_id)
    if place is None:
        return (
            f'<div class="qa-read qa-notfound">沒有這個段落 · no unit {html.escape(unit_id or "")!s}. '
            f"例 e.g. {unit_link(reader.first_id)}</div>"
        )
    u = place.unit
    side = next((reader.units[r] for r in u.related if r in reader.units), None)
    title = (
        f'<div class="qa-read-title">{html.escape(u.work)} · {html.escape(u.rite)}'
        f'<span class="qa-pos">{place.index + 1} / {len(place.chapter)}</span></div>'
    )
    link = f'<div class="qa-read-link">連結 link: <a class="qa-stable" href="?unit={html.escape(u.id)}">?unit={html.escape(u.id)}</a></div>'
    i, chapter = place.index, place.chapter
    before = "".join(_preview(u, d, "↑") for u in chapter[max(0, i - context) : i])
    after = "".join(_preview(u, d, "↓") for u in chapter[i + 1 : i + 1 + context])
    card = card_html(u, place.index + 1, None, d, side=side, open_shu=True)
    return f'<div class="qa-read" title="{html.escape(u.id)}">{title}{before}{card}{after}{link}</div>'


__all__ = ["Place", "Reader", "chapter_of", "contents_html", "outline_html", "reading_html"]
