"""Shared machinery of the 注疏 parsers (001, 003): source pieces, 疏 quotes, 疏 attachment, unit assembly.

A parser cuts each seed line into :class:`Piece` s (line, column range, text) and hands
them to an :class:`Assembler` as 經/注 items and 疏 parts. The assembler attaches each
疏 to the 經 it comments on, merging several 經 items into one unit when the header's
quoted start 「X」 and end 「Y」 span them, and finally builds the :class:`LemmaUnit` s
together with one :class:`SourceSpan` per piece: that is the no-loss proof
(:func:`qa.corpus.units.lossless_problems`).

Attachment rule (documented decision): a 疏 follows the last 經 it explains. With a
two-ended quote 「X」至「Y」, if the last pending 經 does not start with X but an earlier
pending 經 does and the 經 from there to the last ends with Y, those 經 (and their 注)
become one unit; otherwise the 疏 goes on the last 經 alone. One-ended quotes 「X」
(often a mere abbreviation of the 經's start) never merge. Every quote, on 經 or on
注, is checked against its unit after normalization; a mismatch is a warning.

A 經 sentence and its 注 gloss displaced to the end of a unit's last 疏 (:mod:`.displaced`,
003:84) become a unit of their own right after it: the previous id plus a letter
(``zhushu.xiangyin.029a``), so no other id moves; boundary "recovered"; a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text.normalize import normalize
from ..catalog import SeedFile
from ..units import LemmaUnit, ParsedFile, ParseWarning, ShuOn, ShuPart, SourceSpan, source_lines
from .charmodel import CharModel
from .displaced import find_displaced

split_lines = source_lines  # the seed's lines, split exactly as qa.corpus.units.lossless_problems splits them

#: A 經 line opening the 記 (appended notes), e.g. 「記。鄉，朝服而謀賓、介」.
_JI_START = re.compile(r"\s*記[。．.：:︰，,]")
#: Sentence-final particles a 疏 header may omit from its quoted end.
_FINAL_PARTICLES = "也矣焉耳"


@dataclass(frozen=True, slots=True)
class Piece:
    """Characters ``[start, end)`` of seed line ``line`` (1-based) and their text."""

    line: int
    start: int
    end: int
    text: str


def piece(lines: list[str], no: int, start: int, end: int) -> Piece:
    """Piece of line ``no`` (1-based) from ``start`` to ``end``."""
    return Piece(no, start, end, lines[no - 1][start:end])


def joined(pieces: list[Piece]) -> str:
    return "".join(p.text for p in pieces)


def split_quote(inner: str | None, sep: str) -> tuple[str | None, str | None]:
    """(X, Y) of a header quote: ``X」至「Y`` (sep ``」至「``), ``X`` alone, or ``X至Y`` in one bracket."""
    if not inner:
        return None, None
    if sep in inner:
        x, y = inner.split(sep, 1)
        return x, y
    if "至" in inner.strip("至"):  # 「作使至其許」: the 至 written inside one bracket
        x, y = inner.split("至", 1)
        return x, y
    return inner, None


@dataclass(slots=True)
class ShuDraft:
    """One 疏 part being built: its header pieces and text pieces."""

    on: ShuOn  # 經 or 注
    quote: str | None  # as written, outer brackets included, e.g. 「鄉飲」至「賓介」
    x: str | None
    y: str | None  # None for a one-ended quote
    header: list[Piece] = field(default_factory=list)
    text: list[Piece] = field(default_factory=list)

    @property
    def line(self) -> int:
        return (self.header or self.text)[0].line if (self.header or self.text) else 0


@dataclass(slots=True)
class Draft:
    """One unit being built: 經 and 注 pieces, 疏 parts, and whether a header fixed the 經/注 split."""

    jing: list[Piece] = field(default_factory=list)
    zhu: list[Piece] = field(default_factory=list)
    shu: list[ShuDraft] = field(default_factory=list)
    marked: bool = True
    #: 經/注 found displaced at the end of the previous unit's 疏 (see :mod:`.displaced`)
    recovered: bool = False

    def layer(self, on: str) -> str:
        return joined(self.jing if on == "經" else self.zhu)

    def pieces(self) -> list[Piece]:
        out = self.jing + self.zhu
        for part in self.shu:
            out += part.header + part.text
        return out


def merge(drafts: list[Draft]) -> Draft:
    """One draft holding the 經, 注 and 疏 of ``drafts`` in order."""
    out = Draft(marked=all(d.marked for d in drafts))
    for d in drafts:
        out.jing += d.jing
        out.zhu += d.zhu
        out.shu += d.shu
    return out


def quote_fits(text: str, x: str | None, y: str | None) -> tuple[bool, bool]:
    """(start fits, end fits) of quote X…Y on ``text``, compared normalized.

    A one-ended quote (often an abbreviation of the start) fits wherever the text contains it.
    """
    t, nx = normalize(text), normalize(x or "")
    if y is None:
        ok = bool(nx) and nx in t
        return ok, ok
    ny = normalize(y)
    # a header often leaves out a closing particle: 「光明」 for 「…以自光明也。」
    end_ok = bool(ny) and (t.endswith(ny) or (t[-1:] in _FINAL_PARTICLES and t[:-1].endswith(ny)))
    return bool(nx) and t.startswith(nx), end_ok


def _show(quote_x: str | None, quote_y: str | None) -> str:
    return f"「{quote_x}」" if quote_y is None else f"「{quote_x}」至「{quote_y}」"


class Assembler:
    """Collects 經/注 items and 疏 parts in file order and turns them into units."""

    def __init__(self, seed: SeedFile):
        self.seed = seed
        self.pending: list[Draft] = []  # 經 items since the last 疏
        self.parts: list[ShuDraft] = []  # the 疏 being read
        self.done: list[Draft] = []
        self.markup: list[Piece] = []
        self.warnings: list[ParseWarning] = []

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(ParseWarning(self.seed.name, line, message))

    def add_item(self, draft: Draft) -> None:
        """A new 經 (with its 注): closes the 疏 being read, if any."""
        if self.parts:
            self.flush()
        self.pending.append(draft)

    def add_part(self, part: ShuDraft) -> None:
        self.parts.append(part)

    def flush(self) -> None:
        """Attach the 疏 read so far to the pending 經 items (or finish them without 疏)."""
        parts, self.parts = self.parts, []
        pending, self.pending = self.pending, []
        if not parts:
            self.done += pending
            return
        if pending:
            self.done += self._attach(pending, parts)
        elif self.done:  # a 疏 after a 疏: it continues the previous unit
            self.warn(parts[0].line, "疏 with no 經 since the previous 疏; kept on the previous unit")
            self.done[-1].shu += parts
        else:
            self.warn(parts[0].line, "疏 before any 經; kept as a unit with empty 經")
            self.done.append(Draft(shu=parts, marked=False))

    def _attach(self, pending: list[Draft], parts: list[ShuDraft]) -> list[Draft]:
        start = len(pending) - 1
        anchor = next((p for p in parts if p.x), None)
        if anchor is not None and anchor.y is not None and len(pending) > 1:
            nx = normalize(anchor.x or "")
            starts = [bool(nx) and normalize(d.layer(anchor.on)).startswith(nx) for d in pending]
            if not starts[-1]:
                for i in range(len(pending) - 2, -1, -1):
                    whole = "".join(d.layer(anchor.on) for d in pending[i:])
                    if starts[i] and quote_fits(whole, anchor.x, anchor.y)[1]:
                        start = i
                        break
        unit = merge(pending[start:]) if start < len(pending) - 1 else pending[-1]
        unit.shu += parts
        for part in parts:
            if part.x:
                self._check(part, unit, pending[:start])
        return pending[:start] + [unit]

    def _check(self, part: ShuDraft, unit: Draft, before: list[Draft]) -> None:
        text = unit.layer(part.on)
        start_ok, end_ok = quote_fits(text, part.x, part.y)
        if start_ok and end_ok:
            return
        q = _show(part.x, part.y)
        if not text:
            self.warn(part.line, f"疏 header {q} is on the {part.on}, but its unit has no {part.on}")
            return
        where = "start" if not start_ok else "end"
        if not start_ok and not end_ok:
            where = "start or end"
        msg = f"疏 header {q} does not match the {where} of its {part.on} 「{text[:12]}…{text[-6:]}」"
        if not start_ok and before:
            # e.g. 001 「卒主」至「之禮」: the quote begins in the tail of the previous 經
            prev, nx = normalize(before[-1].layer(part.on)), normalize(part.x or "")
            k = (prev + normalize(text)).find(nx)
            if 0 <= k < len(prev) < k + len(nx):
                prev_line = (before[-1].jing or before[-1].zhu)[0].line
                msg += f"; it begins in the {part.on} of line {prev_line}, which keeps its own unit"
        self.warn(part.line, msg)

    def _recover(self, drafts: list[Draft]) -> list[Draft]:
        """Give displaced 經/注 at the end of a unit's last 疏 a unit of its own (:mod:`.displaced`)."""
        model = CharModel.train((joined(d.jing) for d in drafts), (joined(d.zhu) for d in drafts if d.zhu))
        out: list[Draft] = []
        for d in drafts:
            out.append(d)
            part = d.shu[-1] if d.shu else None
            if part is None or not part.text:
                continue
            last = part.text[-1]
            found = find_displaced(last.text, model, own_jing=joined(d.jing))
            if found is None:
                continue
            a, b = last.start + found.jing_start, last.start + found.zhu_start
            jing = Piece(last.line, a, b, last.text[found.jing_start : found.zhu_start])
            zhu = Piece(last.line, b, last.end, last.text[found.zhu_start :])
            part.text[-1] = Piece(last.line, last.start, a, last.text[: found.jing_start])
            out.append(Draft(jing=[jing], zhu=[zhu], marked=False, recovered=True))
            self.warn(
                last.line,
                f"疏 text ends with 經 「{jing.text}」 and its 注 「{zhu.text}」 displaced into it; "
                "given a unit of their own (recovered), the 疏 keeps the rest",
            )
        return out

    def finish(self) -> ParsedFile:
        """Close the last 疏 and build the units and their source spans."""
        self.flush()
        drafts = [d for d in self.done if d.pieces()]
        if drafts and drafts[-1].shu and not drafts[-1].shu[-1].text:
            last = drafts[-1].shu[-1]
            self.warn(last.line, "file ends in the middle of a 疏: header with no 釋曰 text (kept)")
        drafts = self._recover(drafts)
        units: list[LemmaUnit] = []
        spans: list[SourceSpan] = [SourceSpan(p.line, p.start, p.end) for p in self.markup if p.end > p.start]
        in_ji = False
        seq, uid, suffix = 0, "", ""
        for d in drafts:
            if d.recovered:  # between two units: the previous id plus a letter, so no other id moves
                suffix = chr(ord(suffix or "a") + (1 if suffix else 0))
                uid = self.seed.unit_id(seq) + suffix
            else:
                seq, suffix = seq + 1, ""
                uid = self.seed.unit_id(seq)
            in_ji = in_ji or bool(d.jing and _JI_START.match(joined(d.jing)))
            lines = [p.line for p in d.pieces()]
            units.append(
                LemmaUnit(
                    id=uid,
                    work=self.seed.work,
                    rite=self.seed.rite,
                    source=self.seed.name,
                    lines=(min(lines), max(lines)),
                    section="記" if in_ji else "經",
                    jing=joined(d.jing),
                    zhu=joined(d.zhu),
                    shu=tuple(
                        ShuPart(on=p.on, quote=p.quote, text=joined(p.text), header=joined(p.header))
                        for p in d.shu
                    ),
                    boundary="recovered" if d.recovered else "marked" if d.marked else "inferred",
                )
            )
            named = [("jing", d.jing), ("zhu", d.zhu)]
            for i, p in enumerate(d.shu):
                named += [(f"shu.{i}.header", p.header), (f"shu.{i}.text", p.text)]
            for name, pieces in named:
                spans += [SourceSpan(p.line, p.start, p.end, uid, name) for p in pieces if p.end > p.start]
        self.warnings.sort(key=lambda w: w.line)
        return ParsedFile(
            source=self.seed.name, units=tuple(units), warnings=tuple(self.warnings), spans=tuple(spans)
        )
