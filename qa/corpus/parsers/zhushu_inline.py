"""Parser for 儀禮注疏 with 經 and 注 run together on one line, then a ``[疏]`` line (seed 002).

Format: a 經注 line (the 經 text, then 鄭注, no mark between them), optionally followed
by a 疏 line ``[疏]“X”至“Y”。注“A”至“B”。釋曰：…``. The 疏 header marks the split:
the 經 starts with X and ends with Y, the 注 starts with A. A 疏 may hold several parts,
each opened by a header: ``注“A”至“B”。`` in mid-line (before its 釋曰) starts the part
on the 注; a 注 header straight after the 經 header (no 釋曰 between) opens a part of its
own, which holds the 釋曰, while the 經 header's part has empty text: the rule of 001 and
003, where a 釋曰 under a 注 header is on the 注 (so ``on`` means the same in every parser). Quotes are matched ignoring punctuation and script.

Where no header marks the split (no 疏 line, or a header that does not fit its line), the
boundary is inferred: the line is cut into sentences (at 。！？) and the 經 is the
sentence prefix that maximizes Σ log-odds(經) of the prefix + Σ log-odds(注) of the rest,
under a character bigram model (:mod:`.charmodel`) trained on this file's header-marked
units; a sentence opening with 今文/古文 (a 鄭注 collation note) is always 注, and the
line's first sentence is always 經 (every 經注 line opens with 經). Such units have
``boundary == "inferred"``. A 經 sentence and its 注 gloss displaced to the end of a 疏
line (:mod:`.displaced`) get a unit of their own right after (id + "a", boundary "recovered"). Text is never altered: 002's mis-conversions (雲 for 云,
麵 for 面, 複 for 復 …) stay as they are; matching folds them (qa.text.normalize).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text.normalize import normalize, normalize_with_map
from ..catalog import SeedFile
from ..units import Boundary, LemmaUnit, ParsedFile, ParseWarning, Section, ShuOn, ShuPart, SourceSpan, source_lines
from .charmodel import CharModel
from .displaced import find_displaced

WORK_SECTION_JI: Section = "記"
_Q = r"[“「]([^”」]{1,40})[”」]"
_QUOTE = rf"{_Q}(?:至{_Q})?"
#: the header opening a 疏 line: [疏]“X”至“Y”。 then, directly, an optional 注“A”至“B”。
_SHU_MARK = "[疏]"
_SHU_HEAD = re.compile(rf"^\[疏\]\s*(?:{_QUOTE})?[。．.]?○?(?:注(?:{_QUOTE})[。．.]?○?)?")
#: a 注 header in mid-text, recognised only where its 釋曰 follows (so quotations do not match)
_ZHU_HEAD = re.compile(rf"○?注{_QUOTE}[。．.]?○?(?=釋曰)")
_SENTENCE_END = "。！？"
_CLOSERS = "”」』’）)"
_OPENERS = "“「『‘（(《"
#: 鄭注's collation notes open with these; they are never 經.
_ZHU_OPENERS = ("今文", "古文")


@dataclass(slots=True)
class _Part:
    on: ShuOn
    quote: str | None
    x: str | None  # first quoted span (start), or the only one
    y: str | None  # second quoted span (end), or the only one
    line: int
    header: tuple[int, int]
    text: tuple[int, int]


@dataclass(slots=True)
class _Block:
    """One 經注 line (``line`` 0 when the block is an orphan 疏) and its 疏 lines."""

    line: int
    text: str
    parts: list[_Part] = field(default_factory=list)
    last: int = 0


def _quote(m: re.Match, first: int) -> tuple[str | None, str | None, str | None]:
    """(the quoted span as written, X, Y) from groups ``first`` and ``first + 1`` of ``m``."""
    x, y = m.group(first), m.group(first + 1)
    if x is None:
        return None, None, None
    end = m.end(first + 1) if y is not None else m.end(first)
    return m.string[m.start(first) - 1 : end + 1], x, y if y is not None else x


def _split_shu(line_no: int, text: str) -> list[_Part]:
    """Cut one 疏 line into parts at its headers (offsets into ``text``)."""
    head = _SHU_HEAD.match(text)
    assert head is not None  # callers only pass lines that open with a header
    quote, x, y = _quote(head, 1)
    on: ShuOn = "經"
    if quote is None and head.group(3) is not None:  # [疏]注“A”至“B”: a 疏 on the 注 only
        on, (quote, x, y) = "注", _quote(head, 3)
    if quote is not None and head.group(3) is not None:
        # [疏]“X”至“Y”。注“A”至“B”。釋曰…: two headers, then one 釋曰. As in 001 and 003, the 經
        # header stands alone (empty text) and the 釋曰 is the part on the 注, the header read last.
        zhu_at = text.rindex("注", 0, head.start(3))
        heads = [(0, zhu_at, on, quote, x, y), (zhu_at, head.end(), "注", *_quote(head, 3))]
    else:
        heads = [(0, head.end(), on, quote, x, y)]
    for m in _ZHU_HEAD.finditer(text, head.end()):
        heads.append((m.start(), m.end(), "注", *_quote(m, 1)))
    parts = []
    for i, (start, end, on, quote, x, y) in enumerate(heads):
        stop = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        parts.append(_Part(on=on, quote=quote, x=x, y=y, line=line_no, header=(start, end), text=(end, stop)))
    return parts


def _zhu_starts(block: _Block, lines: list[str]) -> list[str]:
    """Every 注 start (A of 注“A”至“B”) the block's 疏 headers give, first one first."""
    out = []
    for p in block.parts:
        header = lines[p.line - 1][p.header[0] : p.header[1]]
        for m in re.finditer(rf"注{_QUOTE}", header):
            out.append(m.group(1))
    return out


def _extend_over_punct(text: str, p: int) -> int:
    """Move ``p`` past closing punctuation, so 「…如初。」 keeps its 。 with the 經."""
    while p < len(text) and not normalize(text[p]) and text[p] not in _OPENERS:
        p += 1
    return p


def _marked_split(text: str, x: str | None, y: str | None, zhu_starts: list[str]) -> tuple[int | None, str]:
    """Where the header puts the 經/注 boundary in ``text``; (None, why) if it does not fit."""
    norm, pos = normalize_with_map(text)
    nx, ny = normalize(x or ""), normalize(y or "")
    if not ny:
        return None, "疏 header gives no 經 span"
    ends = [i + len(ny) for i in range(len(norm)) if norm.startswith(ny, i)]
    if not ends:
        return None, f"疏 header end “{y}” not found in its 經"
    why = "" if norm.startswith(nx) else f"疏 header start “{x}” does not match the start of its 經"
    for a in map(normalize, zhu_starts[:1]):
        for e in ends:
            if a and norm.startswith(a, e):
                return pos[e], why
        why = why or f"疏 header 注 start “{zhu_starts[0]}” does not follow the 經 end “{y}”"
    for e in ends:  # no (usable) 注 start: the first end of Y that closes a clause
        p = pos[e - 1] + 1
        if p == len(text) or not normalize(text[p]):
            return _extend_over_punct(text, p), why
    return _extend_over_punct(text, pos[ends[0] - 1] + 1), why


def _sentences(text: str) -> list[int]:
    """End offsets of the sentences of ``text`` (the last one is ``len(text)``)."""
    ends = []
    i = 0
    while i < len(text):
        if text[i] in _SENTENCE_END:
            i += 1
            while i < len(text) and text[i] in _CLOSERS:
                i += 1
            ends.append(i)
            continue
        i += 1
    if not ends or ends[-1] != len(text):
        ends.append(len(text))
    return ends


def inferred_split(text: str, model: CharModel) -> int:
    """The 經/注 boundary of an unmarked 經注 line: the best sentence prefix (see module doc)."""
    ends = _sentences(text)
    starts = [0, *ends[:-1]]
    scores = []
    for s, e in zip(starts, ends):
        sent = text[s:e]
        scores.append(-1e9 if sent.startswith(_ZHU_OPENERS) else (model.score(sent) if model.trained else 1.0))
    best_k, best = 1, None
    for k in range(1, len(ends) + 1):
        total = sum(scores[:k]) - sum(scores[k:])
        if best is None or total > best:
            best_k, best = k, total
    return ends[best_k - 1]


def _displaced(block: _Block, lines: list[str], model: CharModel, jing: str) -> tuple[int, int, int, int] | None:
    """(line, 經 start, 注 start, end) of 經/注 displaced at the end of the block's last 疏 part
    (:mod:`.displaced`), which is cut short to leave them out; None if there is none."""
    if not block.parts:
        return None
    last = block.parts[-1]
    start, end = last.text
    found = find_displaced(lines[last.line - 1][start:end], model, own_jing=jing)
    if found is None:
        return None
    last.text = (start, start + found.jing_start)
    return last.line, start + found.jing_start, start + found.zhu_start, end


def parse(seed: SeedFile, text: str) -> ParsedFile:
    """Parse a 經注-line / [疏]-line file into lemma units (see module doc)."""
    lines = source_lines(text)
    warnings: list[ParseWarning] = []
    spans: list[SourceSpan] = []

    def warn(line: int, message: str) -> None:
        warnings.append(ParseWarning(seed.name, line, message))

    blocks: list[_Block] = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            if line:
                spans.append(SourceSpan(no, 0, len(line)))  # blank-looking line: whitespace only
            continue
        if line.startswith(_SHU_MARK):
            if not blocks:
                warn(no, "疏 line before any 經 line; kept as a unit without 經")
                blocks.append(_Block(line=0, text="", last=no))
            blocks[-1].parts.extend(_split_shu(no, line))
            blocks[-1].last = no
        else:
            blocks.append(_Block(line=no, text=line, last=no))

    # A 經/注 model from this file's own marked units decides the unmarked ones.
    splits: dict[int, tuple[int | None, str]] = {}
    for i, b in enumerate(blocks):
        head = next((p for p in b.parts if p.on == "經" and p.y), None)
        if b.line and head:
            splits[i] = _marked_split(b.text, head.x, head.y, _zhu_starts(b, lines))
    marked = [(b.text[:p], b.text[p:]) for i, b in enumerate(blocks) if (p := splits.get(i, (None, ""))[0]) is not None]
    model = CharModel.train([j for j, _ in marked], [z for _, z in marked if z])

    units: list[LemmaUnit] = []
    section: Section = "經"
    for i, b in enumerate(blocks):
        uid = seed.unit_id(i + 1)
        p, why = splits.get(i, (None, ""))
        if why:
            warn(b.line, why + "; text kept")
        boundary: Boundary = "marked" if p is not None else "inferred"
        if b.line and p is None:
            p = inferred_split(b.text, model)
        if b.text.startswith("記") and normalize(b.text[:2]) == "记" and b.text[1:2] in "。，：":
            section = WORK_SECTION_JI
        p = p or 0
        if b.line:
            for name, (s, e) in (("jing", (0, p)), ("zhu", (p, len(b.text)))):
                if e > s:
                    spans.append(SourceSpan(b.line, s, e, uid, name))
        displaced = _displaced(b, lines, model, b.text[:p])
        shu = []
        for k, part in enumerate(b.parts):
            line = lines[part.line - 1]
            for name, (s, e) in ((f"shu.{k}.header", part.header), (f"shu.{k}.text", part.text)):
                if e > s:
                    spans.append(SourceSpan(part.line, s, e, uid, name))
            shu.append(ShuPart(on=part.on, quote=part.quote, text=line[part.text[0] : part.text[1]], header=line[part.header[0] : part.header[1]]))
        units.append(
            LemmaUnit(
                id=uid,
                work=seed.work,
                rite=seed.rite,
                source=seed.name,
                lines=(b.line or b.last, b.last),
                section=section,
                jing=b.text[:p],
                zhu=b.text[p:],
                shu=tuple(shu),
                boundary=boundary,
            )
        )
        if displaced is not None:  # its own unit, right after: this id plus a letter, no other id moves
            no, a, z, end = displaced
            rid, line = uid + "a", lines[no - 1]
            spans += [SourceSpan(no, a, z, rid, "jing"), SourceSpan(no, z, end, rid, "zhu")]
            units.append(
                LemmaUnit(
                    id=rid, work=seed.work, rite=seed.rite, source=seed.name, lines=(no, no), section=section,
                    jing=line[a:z], zhu=line[z:end], boundary="recovered",
                )
            )
            warn(
                no,
                f"疏 text ends with 經 「{line[a:z]}」 and its 注 「{line[z:end]}」 displaced into it; "
                "given a unit of their own (recovered), the 疏 keeps the rest",
            )
    warnings.sort(key=lambda w: w.line)
    return ParsedFile(source=seed.name, units=tuple(units), warnings=tuple(warnings), spans=tuple(spans))
