"""Parser for 儀禮注疏 laid out one layer per line: 經 line, 注 line, 疏 line (seed 003, 鄉飲酒禮).

A 疏 line starts with 疏 and a chain of headers, then the text from 釋曰 on:
``疏「X」至「Y」。○注「A」至「B」。○釋曰︰…``, ``疏「X」。○釋曰︰…``,
``疏注「A」至「B」。○釋曰︰…``, ``疏○釋曰︰…``, ``疏釋曰︰…``, ``疏「X」至「Y」。○注釋曰︰…``.
Each header opens a :class:`~qa.corpus.units.ShuPart` (on 經, or on 注 when it reads 注); a
header directly followed by another has empty text. Inside the text, ``○注「A」至「B」。○``
before 釋曰 opens a further part on the 注. The header keeps its exact characters
(疏, spaces, ○); 釋曰 starts the text. 辭曰 (a slip for 釋曰 in 003) is read like 釋曰.

Every other non-blank line is 經 or 注; nothing on the line says which. Heuristic
(documented decision): the lines between two 疏 lines form a block, labelled by a
Viterbi pass over two states, 經 and 注, with

- structure: a block starts with 經, 注 never follows 注, 經→注 is likelier than
  經→經 (a 經 without 注 is rare: 「樂正命奏陔，賓出，至於階，陔作。」);
- pins: a line whose start/end matches the following 疏 header's 經 quote
  (「X」 / 「Y」) or 注 quote (注「A」 / 「B」) is pulled strongly to that role;
- a character uni/bigram score (:class:`.charmodel.CharModel`) trained on the pinned
  lines of the same file (注 reads 「…也」「謂」「今文」, 經 reads 「主人」「拜」…).

A unit's ``boundary`` is "marked" when each of its 經/注 lines was pinned to the role
it got, "inferred" otherwise (e.g. 「不告旨。」/「酒，己物也。」, which no 疏 quotes).
A pin that the labelling overrules is a warning; no line is ever dropped.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...text.normalize import normalize
from ..catalog import SeedFile
from ..units import ParsedFile, ShuOn
from ._zhushu_common import Assembler, Draft, Piece, ShuDraft, piece, quote_fits, split_lines, split_quote
from .charmodel import CharModel

_QUOTE = r"「[^」]*」(?:至「[^」]*」)?"
#: 疏 followed by what can open a header or the text.
SHU_LINE = re.compile(r"\s*疏\s*(?=[「○注]|[釋辭]曰)")
#: One header of the leading chain: ○? 注? 「X」(至「Y」)?。? ○?
_HEAD = re.compile(rf"○?(注)?(?:({_QUOTE})。?)?○?")
#: A header inside the text: ○注「A」至「B」。○ (or ○「X」。○) right before 釋曰.
_INNER = re.compile(rf"○(?:注(?:({_QUOTE})。)?|({_QUOTE})。)○?(?=[釋辭]曰)")
_SHIYUE = re.compile(r"[釋辭]曰")

JING, ZHU = "經", "注"
#: log-probabilities of the label sequence (see the module docstring)
_TRANS = {(JING, ZHU): math.log(0.9), (JING, JING): math.log(0.1), (ZHU, JING): 0.0}
_PIN_WEIGHT = 8.0  # per matched quote end: outweighs any classifier score
_NB_WEIGHT = 4.0  # scales the character model's mean per-character log-odds
_NB_CLIP = 3.0  # so it decides only where structure and pins leave a choice


def _part(lines: list[str], no: int, start: int, end: int, zhu: bool, quote: str | None) -> ShuDraft:
    inner = quote[1:-1] if quote else None
    x, y = split_quote(inner, "」至「")
    on: ShuOn = "注" if zhu else "經"
    return ShuDraft(on=on, quote=quote or None, x=x, y=y, header=[piece(lines, no, start, end)])


def parse_shu_line(lines: list[str], no: int) -> list[ShuDraft]:
    """The 疏 parts of line ``no``: header chain, text, headers inside the text."""
    line = lines[no - 1]
    pos = SHU_LINE.match(line).end()  # type: ignore[union-attr]
    heads: list[tuple[int, int, bool, str | None]] = []
    start = 0
    while True:
        m = _HEAD.match(line, pos)
        assert m is not None  # the pattern matches the empty string
        if not m.group() and heads:
            break
        heads.append((start, m.end(), bool(m.group(1)), m.group(2)))
        start = pos = m.end()
        if not m.group() or not line.startswith(("注", "○注", "「"), pos):
            break
    for m in _INNER.finditer(line, pos):
        heads.append((m.start(), m.end(), m.group(1) is not None or m.group(2) is None, m.group(1) or m.group(2)))
    parts: list[ShuDraft] = []
    for i, (s, e, zhu, quote) in enumerate(heads):
        part = _part(lines, no, s, e, zhu, quote)
        end = heads[i + 1][0] if i + 1 < len(heads) else len(line)
        if end > e:
            part.text.append(piece(lines, no, e, end))
        parts.append(part)
    return parts


@dataclass(frozen=True, slots=True)
class Block:
    """Text lines (經/注, roles unknown) and the 疏 lines that follow them."""

    text: tuple[int, ...]
    shu: tuple[int, ...]


def _blocks(lines: list[str]) -> list[Block]:
    out: list[Block] = []
    text: list[int] = []
    shu: list[int] = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if SHU_LINE.match(line):
            shu.append(no)
            continue
        if shu:
            out.append(Block(tuple(text), tuple(shu)))
            text, shu = [], []
        text.append(no)
    if text or shu:
        out.append(Block(tuple(text), tuple(shu)))
    return out


def role_model(lines: list[str], pinned: dict[int, str | None]) -> CharModel:
    """The 經/注 character model, trained on the lines whose role a 疏 header pinned."""
    return CharModel.train(
        (lines[no - 1] for no, r in pinned.items() if r == JING),
        (lines[no - 1] for no, r in pinned.items() if r == ZHU),
    )


def zhu_score(model: CharModel, text: str) -> float:
    """How 注-like ``text`` is (> 0) or 經-like (< 0): mean per-character log-odds, scaled and clipped."""
    n = len(normalize(text))
    if not model.trained or not n:
        return 0.0
    return max(-_NB_CLIP, min(_NB_CLIP, -_NB_WEIGHT * model.score(text) / n))


def pin_scores(lines: list[str], block: Block, parts: list[ShuDraft]) -> dict[int, dict[str, int]]:
    """Per text line, how strongly the 疏 headers mark it as 經 and as 注.

    A quote end pins the latest line it fits (a 疏 follows what it explains): 「Y」 the
    latest line ending in Y, 「X」 the latest line at or before it starting with X (so a
    quote spanning several 經 lines pins its first and last); a one-ended 「X」 pins the
    line it equals (by 2) or else the latest line containing it. Structure adds: lines
    after a 經 quote's end are 注 (the header says the 經 ends there, and the 疏 follows
    the last 經 of its block); the line before a pinned 注 is 經 (a 注 follows its 經).
    """
    pins = {no: {JING: 0, ZHU: 0} for no in block.text}
    norm = {no: normalize(lines[no - 1]) for no in block.text}

    def latest(ok, upto: int | None = None) -> int | None:
        hits = [no for no in block.text if ok(norm[no]) and (upto is None or no <= upto)]
        return hits[-1] if hits else None

    for part in parts:
        x = normalize(part.x or "")
        if not x:
            continue
        ended: int | None = None  # the line where a 經 quote ends
        if part.y is None:
            whole = latest(lambda t: t == x)
            hit = whole or latest(lambda t: x in t)
            got = [(hit, 2 if whole else 1)] if hit else []
            ended = whole
        else:
            end = latest(lambda t: quote_fits(t, part.x, part.y)[1])
            start = latest(lambda t: t.startswith(x), end)
            got = [(no, 1) for no in (start, end) if no is not None]
            ended = end
        for no, weight in got:
            pins[no][part.on] += weight
            at = block.text.index(no)
            if part.on == ZHU and at > 0:
                pins[block.text[at - 1]][JING] += 1
        if part.on == JING and ended is not None:
            for later in block.text[block.text.index(ended) + 1 :]:
                pins[later][ZHU] += 1
    return pins


def pinned_role(score: dict[str, int]) -> str | None:
    if score[JING] == score[ZHU]:
        return None
    return JING if score[JING] > score[ZHU] else ZHU


def label(texts: list[str], pins: list[dict[str, int]], model: CharModel) -> list[str]:
    """Viterbi labels (經/注) for one block's lines."""
    if not texts:
        return []
    states = (JING, ZHU)

    def emit(i: int, s: str) -> float:
        nb = zhu_score(model, texts[i])
        return _PIN_WEIGHT * pins[i][s] + (nb if s == ZHU else -nb) / 2

    best = {JING: emit(0, JING), ZHU: -math.inf}  # a block opens with 經
    back: list[dict[str, str]] = []
    for i in range(1, len(texts)):
        nxt: dict[str, float] = {}
        ptr: dict[str, str] = {}
        for s in states:
            cands = [(best[p] + _TRANS.get((p, s), -math.inf), p) for p in states]
            score, prev = max(cands)
            nxt[s], ptr[s] = score + emit(i, s), prev
        best, back = nxt, back + [ptr]
    state = max(states, key=lambda s: best[s])
    out = [state]
    for ptr in reversed(back):
        state = ptr[state]
        out.append(state)
    return out[::-1]


@dataclass(frozen=True, slots=True)
class Roles:
    """The labelling of one file: per text line its role and the role its 疏 header pinned."""

    blocks: tuple[Block, ...]
    shu_parts: dict[int, list[ShuDraft]]
    role: dict[int, str]
    pinned: dict[int, str | None]
    model: CharModel


def line_roles(lines: list[str], use_pins: bool = True) -> Roles:
    """Label every 經/注 line of the file (``use_pins=False`` ignores the headers: for measuring)."""
    blocks = _blocks(lines)
    shu_parts = {no: parse_shu_line(lines, no) for b in blocks for no in b.shu}
    pins: dict[int, dict[str, int]] = {}
    for b in blocks:
        pins.update(pin_scores(lines, b, [p for no in b.shu for p in shu_parts[no]]))
    pinned = {no: pinned_role(score) for no, score in pins.items()}
    model = role_model(lines, pinned)
    none = {JING: 0, ZHU: 0}
    role: dict[int, str] = {}
    for b in blocks:
        texts = [lines[no - 1] for no in b.text]
        scores = [pins[no] if use_pins else none for no in b.text]
        role.update(zip(b.text, label(texts, scores, model)))
    return Roles(tuple(blocks), shu_parts, role, pinned, model)


def parse(seed: SeedFile, text: str) -> ParsedFile:
    """Parse a 經/注/疏-per-line 注疏 file (see the module docstring) into lemma units."""
    lines = split_lines(text)
    asm = Assembler(seed)
    for no, line in enumerate(lines, 1):
        if line and not line.strip():
            asm.markup.append(Piece(no, 0, len(line), line))
    roles = line_roles(lines)
    for block in roles.blocks:
        for no in block.text:
            role, pinned = roles.role[no], roles.pinned[no]
            whole = piece(lines, no, 0, len(lines[no - 1]))
            if pinned is not None and pinned != role:
                asm.warn(no, f"疏 header quotes this line as {pinned}, but the line order makes it {role}")
            if role == JING:
                asm.add_item(Draft(jing=[whole], marked=pinned == JING))
            else:
                item = asm.pending[-1]  # label() never starts a block with 注
                item.zhu.append(whole)
                item.marked = item.marked and pinned == ZHU
        for no in block.shu:
            for part in roles.shu_parts[no]:
                asm.add_part(part)
                if part.header and part.text and not _SHIYUE.match(part.text[0].text):
                    asm.warn(no, f"疏 text after header {part.header[0].text!r} does not start with 釋曰")
    return asm.finish()
