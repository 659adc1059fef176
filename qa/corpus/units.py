"""Lemma units: the typed, frozen records every later stage consumes.

A lemma unit is one 經 passage with its 鄭注 and 賈疏 (儀禮注疏), or one 析疑
lemma with 方苞's note (仪礼析疑). Text fields always hold the seed file's own
characters, never normalized text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Section = Literal["經", "記"]
#: how the 經/注 split was found: marked by the source, inferred by a parser, or recovered:
#: 經/注 the source displaced into another layer's line, given a unit of its own.
Boundary = Literal["marked", "inferred", "recovered"]
ShuOn = Literal["經", "注"]

#: Layer names as they appear in citations and JSON; identifiers use pinyin.
LAYERS: tuple[str, ...] = ("jing", "zhu", "shu", "xiyi")
LAYER_LABELS: dict[str, str] = {"jing": "經", "zhu": "注", "shu": "疏", "xiyi": "析疑", "notes": "按"}


@dataclass(frozen=True, slots=True)
class ShuPart:
    """One part of 賈公彥's 疏: on the 經 or on the 注, with its header's quoted span."""

    on: ShuOn
    quote: str | None  # the 「X」至「Y」 span as written in the header, or None without a header
    text: str  # the 疏 text after the header (starting at 釋曰 where present)
    header: str = ""  # the header exactly as in the file (e.g. 疏「鄉飲」至「賓介」。○), "" if none


@dataclass(frozen=True, slots=True)
class LemmaUnit:
    """One citable lemma unit. JSON output uses exactly these keys."""

    id: str  # stable and hierarchical: work.rite.sequence, e.g. zhushu.xiangyin.041
    work: str  # 儀禮注疏 / 仪礼析疑
    rite: str  # 鄉飲酒禮 / 燕禮
    source: str  # seed file name
    lines: tuple[int, int]  # first and last line number (1-based) in the seed file
    section: Section  # 經 or 記
    jing: str  # 經 text (for 析疑, the quoted lemma)
    zhu: str = ""  # 鄭注
    shu: tuple[ShuPart, ...] = ()
    xiyi: str = ""  # 方苞's note (仪礼析疑 only)
    notes: tuple[str, ...] = ()  # 【…】 inline notes, without the brackets
    related: tuple[str, ...] = ()  # ids of the same 經 in another edition
    boundary: Boundary = "marked"  # how the 經/注 (or lemma/note) split was found

    @property
    def shu_text(self) -> str:
        """All 疏 parts joined, for display and matching."""
        return "".join(p.text for p in self.shu)

    @property
    def layer_texts(self) -> dict[str, str]:
        """Each non-empty layer's text, keyed jing/zhu/shu/xiyi."""
        texts = {"jing": self.jing, "zhu": self.zhu, "shu": self.shu_text, "xiyi": self.xiyi}
        return {k: v for k, v in texts.items() if v}

    @property
    def full_text(self) -> str:
        """經 + 注 + 疏 + 析疑 (+ notes), in that order."""
        return "".join((self.jing, self.zhu, self.shu_text, self.xiyi, *self.notes))

    def citation(self) -> str:
        """A one-line citation a scholar can paste: work · rite · id · file:lines."""
        first, last = self.lines
        span = f"{first}" if first == last else f"{first}–{last}"
        return f"{self.work}·{self.rite}·{self.id}（{self.source}:{span}）"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with the public keys."""
        d = asdict(self)
        d["lines"] = list(self.lines)
        d["shu"] = [asdict(p) for p in self.shu]
        d["notes"] = list(self.notes)
        d["related"] = list(self.related)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "LemmaUnit":
        """Inverse of :meth:`to_dict`."""
        return cls(
            id=d["id"],
            work=d["work"],
            rite=d["rite"],
            source=d["source"],
            lines=(int(d["lines"][0]), int(d["lines"][1])),
            section=d["section"],
            jing=d["jing"],
            zhu=d.get("zhu", ""),
            shu=tuple(ShuPart(**p) for p in d.get("shu", ())),
            xiyi=d.get("xiyi", ""),
            notes=tuple(d.get("notes", ())),
            related=tuple(d.get("related", ())),
            boundary=d.get("boundary", "marked"),
        )


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """Something the parser could not place cleanly; the text is still kept."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """Characters ``[start, end)`` of one seed line, and the unit field that holds them.

    ``field`` names a text field of unit ``unit``: ``jing``, ``zhu``, ``xiyi``,
    ``shu.<i>.header``, ``shu.<i>.text`` or ``notes.<i>`` (``<i>`` the 0-based part/note
    index). ``unit == field == ""`` marks markup the parser consumed (【】 brackets, （）
    around 注, title lines ...). Offsets are 0-based within the line, newline excluded.
    """

    line: int  # 1-based line number
    start: int
    end: int
    unit: str = ""
    field: str = ""

    @property
    def is_markup(self) -> bool:
        return not self.field


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """What one parser returns for one seed file."""

    source: str
    units: tuple[LemmaUnit, ...]
    warnings: tuple[ParseWarning, ...] = ()
    #: Where every character of the file went: the spans of each line tile it exactly
    #: (see :func:`lossless_problems`), which is the no-loss proof.
    spans: tuple[SourceSpan, ...] = field(default=())


def rite_id(unit_id: str) -> str:
    """The rite id of a unit id (``work.rite.sequence`` → ``rite``), "" when the id has no rite part."""
    parts = unit_id.split(".")
    return parts[1] if len(parts) >= 3 else ""


def field_text(unit: LemmaUnit, name: str) -> str:
    """The text of field ``name`` (``jing``, ``shu.0.text``, ``notes.1`` ...) of ``unit``."""
    head, _, rest = name.partition(".")
    if head in ("jing", "zhu", "xiyi") and not rest:
        return getattr(unit, head)
    if head == "shu":
        index, _, attr = rest.partition(".")
        if attr in ("header", "text"):
            return getattr(unit.shu[int(index)], attr)
    if head == "notes" and rest:
        return unit.notes[int(rest)]
    raise ValueError(f"unknown unit field {name!r}")


def unit_fields(unit: LemmaUnit) -> tuple[str, ...]:
    """Names of all source-text fields of ``unit`` (the targets of :class:`SourceSpan`)."""
    names = ["jing", "zhu"]
    for i in range(len(unit.shu)):
        names += [f"shu.{i}.header", f"shu.{i}.text"]
    names.append("xiyi")
    names += [f"notes.{i}" for i in range(len(unit.notes))]
    return tuple(names)


def source_lines(text: str) -> list[str]:
    """A seed's lines as every parser and :func:`lossless_problems` read them (LF or CRLF ends)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def lossless_problems(parsed: ParsedFile, text: str) -> tuple[str, ...]:
    """Why ``parsed`` does not account for every character of ``text`` exactly once, in order.

    Empty when: the spans of each line tile it with no gap and no overlap; the spans of each
    field, in file order, concatenate to exactly that field's text; and no non-empty field
    lacks spans (so no text was invented or duplicated). Line ends are not characters here.
    """
    problems: list[str] = []
    lines = source_lines(text)
    by_line: dict[int, list[SourceSpan]] = {}
    for s in parsed.spans:
        by_line.setdefault(s.line, []).append(s)
    for no, line in enumerate(lines, 1):
        pos = 0
        for s in sorted(by_line.pop(no, ()), key=lambda s: (s.start, s.end)):
            if s.start != pos:
                kind = "gap" if s.start > pos else "overlap"
                problems.append(f"{parsed.source}:{no}: {kind} at column {min(pos, s.start)}")
            pos = max(pos, s.end)
        if pos != len(line):
            problems.append(f"{parsed.source}:{no}: characters {pos}–{len(line)} not in any span")
    for no in sorted(by_line):
        problems.append(f"{parsed.source}:{no}: span on a line the file does not have")
    units = {u.id: u for u in parsed.units}
    pieces: dict[tuple[str, str], list[SourceSpan]] = {}
    for s in parsed.spans:
        if s.is_markup:
            continue
        if s.unit not in units:
            problems.append(f"{parsed.source}:{s.line}: span names unknown unit {s.unit!r}")
            continue
        pieces.setdefault((s.unit, s.field), []).append(s)
    for u in parsed.units:
        for name in unit_fields(u):
            spans = pieces.pop((u.id, name), [])
            if any((a.line, a.start) > (b.line, b.start) for a, b in zip(spans, spans[1:])):
                problems.append(f"{parsed.source}: {u.id}.{name}: spans out of file order")
            got = "".join(lines[s.line - 1][s.start : s.end] for s in spans if 0 < s.line <= len(lines))
            if got != field_text(u, name):
                problems.append(f"{parsed.source}: {u.id}.{name}: field text differs from its source spans")
    for unit_id, name in pieces:
        problems.append(f"{parsed.source}: {unit_id}.{name}: spans name a field the unit lacks")
    return tuple(problems)
