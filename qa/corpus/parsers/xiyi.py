"""Parser for 方苞《仪礼析疑》 (seed 000): a lemma line quoting the 經, then 方苞's note line.

The text is simplified and unpunctuated. Layout and the rules applied:

* **Title lines** (钦定四库全书 / 仪礼析疑卷六 / 撰者 / the rite heading) open the file, up
  to the line that names the catalogued rite; a closing line repeating one of them ends
  it. They are headings the catalog already records (work, juan, author, rite), so they
  are consumed as markup, not put in a unit.
* **【…】** inline notes go to ``notes`` (the brackets are markup). ``【记】`` is not a
  note but the marker where the 記 begins: its unit and all later ones have section 記.
* **Lemma or note.** Most lines alternate lemma, note. The exceptions — the opening
  general note (no lemma: a unit with empty ``jing``), a lemma and its note on one line,
  a note spilling onto the next line — are decided for lines in lemma position (the
  line after a note) with a character bigram model (:mod:`.charmodel`) of lemma vs note
  text: lemma = the 注疏 seeds' 經 (:mod:`.jingref`) plus this file's short lines
  (≤ 12 characters), note = this file's long lines (≥ 60; each scored without its own
  counts). A lemma-position line of at most 50 characters is a lemma unless its mean
  log-odds is below −0.5 (then a note: a spill, or the general note before any lemma —
  but only if the next line can open a unit, else it is a lemma after all); a longer
  one (no lemma is that long) holds a lemma then its note, cut where a two-segment
  model likes it best — Σ log-odds of the prefix (each character's evidence bounded
  to ±3, so that one rite word such as 燕 cannot outvote a clause) plus the seam's own
  evidence: how 經 texts end (P(end | last character), from the 經 reference and the
  short lines) and how this file's notes open (P(first character | line start), from
  its long lines) — if the prefix reads as 經 and the rest as note; otherwise it is a
  note. While a long line is split, short lines it quotes (sharing a run of ≥ 5
  characters) leave the lemma class: 方苞's notes quote other lemmas, and a quotation
  cannot vouch that it is this line's lemma. Units shaped this way (shared line,
  spill, general note) have ``boundary == "inferred"``; the plain layout is "marked".
* Two notes on one line separated by a space stay together, space included, in ``xiyi``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from ...text.normalize import normalize
from ..catalog import SeedFile
from ..units import LemmaUnit, ParsedFile, ParseWarning, Section, SourceSpan, source_lines
from .charmodel import CharModel
from .jingref import jing_reference

log = logging.getLogger(__name__)

_NOTE = re.compile(r"【([^】]*)】")
#: To train the note model: this file's lines at least this long are notes (no lemma is).
_LONG = 60
#: This file's lines at most this long join the 經 reference as lemma examples.
_SHORT = 12
#: A lemma line is at most this long; a longer line in lemma position holds a note too.
_MAX_LEMMA = 50
#: A lemma-position line whose mean log-odds (lemma vs note) falls below −this is a note.
_NOTE_MARGIN = 0.5
#: A lemma quoted inside a shared line has at least this many characters, and so has its note.
_MIN_PIECE = 2
#: Bound on one character's lemma-vs-note log-odds when a long line is split: naive
#: Bayes evidence is overconfident for words the classes use unevenly for reasons of
#: topic (the rite's name 燕, 曰 in quoted speech), and one such word must not move a seam.
_CLIP = 3.0
#: A short line sharing a run this long with a long line is a quotation of it (see module doc).
_QUOTE = 5

L, N, LN = "L", "N", "LN"  # line kinds: lemma, note, lemma then note


@dataclass(slots=True)
class _Line:
    no: int
    text: str
    #: (start, end) offsets of the plain text runs (outside 【】), in order
    runs: list[tuple[int, int]] = field(default_factory=list)
    #: (start, end) of each 【…】 content, and whether it is the 【记】 marker
    notes: list[tuple[int, int, bool]] = field(default_factory=list)

    @property
    def plain(self) -> str:
        return "".join(self.text[s:e] for s, e in self.runs)

    def offset(self, k: int) -> int:
        """The line offset of plain-text character ``k`` (``len(plain)`` → end of the last run)."""
        for s, e in self.runs:
            if k < e - s:
                return s + k
            k -= e - s
        return self.runs[-1][1] if self.runs else 0


def _read_line(no: int, text: str) -> _Line:
    line = _Line(no=no, text=text)
    pos = 0
    for m in _NOTE.finditer(text):
        if m.start() > pos:
            line.runs.append((pos, m.start()))
        line.notes.append((m.start(1), m.end(1), normalize(m.group(1)) in ("记",)))
        pos = m.end()
    if pos < len(text):
        line.runs.append((pos, len(text)))
    return line


def _title_lines(lines: list[str], rite: str) -> tuple[int, int]:
    """How many lines open and close the file as titles (see module doc)."""
    target = normalize(rite)
    head = 0
    for i, line in enumerate(lines[:8]):
        if normalize(line) == target:
            head = i + 1
            break
    titles = {normalize(x) for x in lines[:head]}
    tail = 0
    while head < len(lines) - tail and lines[-1 - tail].strip() and normalize(lines[-1 - tail]) in titles:
        tail += 1
    return head, tail


def _best_split(scores: list[float], cuts: list[float]) -> int:
    """k maximizing Σ scores[:k] + cuts[k] (lemma = plain[:k]), with k ≤ _MAX_LEMMA.

    Relative to reading the whole line as note, that is the log-odds of "lemma
    plain[:k], then a note" under the two-segment model (module doc).
    """
    best, best_k, prefix = float("-inf"), 0, 0.0
    for k in range(1, min(len(scores) - _MIN_PIECE, _MAX_LEMMA) + 1):
        prefix += scores[k - 1]
        if k >= _MIN_PIECE and prefix + cuts[k] > best:
            best, best_k = prefix + cuts[k], k
    return best_k


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _lemma_texts(body: list[_Line], skip: frozenset[int] = frozenset()) -> list[str]:
    return [*jing_reference(), *(ln.plain for ln in body if len(ln.plain) <= _SHORT and ln.no not in skip)]


def _note_texts(body: list[_Line]) -> list[str]:
    return [ln.plain for ln in body if len(ln.plain) >= _LONG]


def train_model(body: list[_Line]) -> CharModel:
    """Lemma = the 注疏 經 reference + this file's short lines; note = its long lines."""
    return CharModel.train(_lemma_texts(body), _note_texts(body))


def _quotes(long_text: str, short_text: str) -> bool:
    """Whether ``long_text`` shares a run of at least _QUOTE characters with ``short_text``."""
    a, b = normalize(short_text), normalize(long_text)
    return any(a[i : i + _QUOTE] in b for i in range(len(a) - _QUOTE + 1))


def split_model(line: _Line, body: list[_Line], model: CharModel) -> CharModel:
    """The model to split a long line with: ``model``, less the short lines the line quotes."""
    quoted = [ln for ln in body if len(ln.plain) <= _SHORT and ln.no != line.no and _quotes(line.plain, ln.plain)]
    if not quoted:
        return model
    log.debug("line %d quotes short line(s) %s; left out of the lemma class", line.no, [q.no for q in quoted])
    return CharModel.train(_lemma_texts(body, frozenset(q.no for q in quoted)), _note_texts(body))


def _line_scores(line: _Line, model: CharModel) -> list[float]:
    """Lemma-vs-note log-odds per plain character.

    A long line is left out of the note class while it is scored: it may hold a lemma
    too, which must not be taken for note text because the line trained the note class.
    (Short lines stay in: that short lines are lemmas is the prior we mean to apply.)
    """
    return model.char_scores(line.plain, held_out=_held_out(line))


def _held_out(line: _Line) -> str | None:
    return "b" if len(line.plain) >= _LONG else None


def _reading(line: _Line, body: list[_Line], model: CharModel) -> tuple[str, int]:
    """How a line reads when in lemma position, on its own: (L, 0), (LN, split) or (N, 0)."""
    if len(line.plain) <= _MAX_LEMMA:
        return (L, 0) if _mean(_line_scores(line, model)) >= -_NOTE_MARGIN else (N, 0)
    split = split_model(line, body, model)
    scores = [max(-_CLIP, min(_CLIP, x)) for x in _line_scores(line, split)]
    k = _best_split(scores, split.cut_scores(line.plain, held_out=_held_out(line)))
    if k and _mean(scores[:k]) > 0 > _mean(scores[k:]):
        return LN, k
    return N, 0


def decode_lines(body: list[_Line], model: CharModel) -> list[tuple[str, int]]:
    """(kind, split) per body line: L lemma, N note, LN lemma with note from ``split`` on.

    A line right after a lemma is its note. A line in lemma position is a lemma when at
    most _MAX_LEMMA long and not clearly note text; longer, it holds a lemma then a note
    (LN) when its best split has a lemma-like prefix and a note-like rest; otherwise it
    is a note (the opening general note, or the previous note spilling over). A short
    note-like line is taken for a spill only if the line after it can open a unit (reads
    as a lemma or a shared line); if that line is itself a note, the short line must be
    the lemma it belongs to.
    """
    readings = [_reading(line, body, model) for line in body]
    kinds: list[tuple[str, int]] = []
    lemma_pos = True
    for i, line in enumerate(body):
        if not lemma_pos:
            kinds.append((N, 0))
            lemma_pos = True
            continue
        kind, k = readings[i]
        if kind == N and len(line.plain) <= _MAX_LEMMA and i + 1 < len(body) and readings[i + 1][0] == N:
            kind = L
        kinds.append((kind, k))
        lemma_pos = kind != L
    return kinds


@dataclass(slots=True)
class _Unit:
    first: int
    last: int
    jing: list[tuple[int, int, int]] = field(default_factory=list)  # (line, start, end)
    xiyi: list[tuple[int, int, int]] = field(default_factory=list)
    notes: list[tuple[int, int, int]] = field(default_factory=list)
    ji: bool = False
    inferred: bool = False


def parse(seed: SeedFile, text: str) -> ParsedFile:
    """Parse a 析疑 lemma-line / note-line file into lemma units (see module doc)."""
    raw = source_lines(text)
    warnings: list[ParseWarning] = []
    spans: list[SourceSpan] = []
    head, tail = _title_lines(raw, seed.rite)
    if not head:
        warnings.append(ParseWarning(seed.name, 1, f"no title line naming the rite {seed.rite}; all lines read as text"))
    markup: list[tuple[int, int, int]] = [(no, 0, len(raw[no - 1])) for no in (*range(1, head + 1), *range(len(raw) - tail + 1, len(raw) + 1))]
    body: list[_Line] = []
    for no in range(head + 1, len(raw) - tail + 1):
        if not raw[no - 1].strip():
            markup.append((no, 0, len(raw[no - 1])))
            continue
        body.append(_read_line(no, raw[no - 1]))

    kinds = decode_lines(body, train_model(body))
    units: list[_Unit] = []
    prev = ""
    for line, (kind, k) in zip(body, kinds):
        no = line.no
        plain_len = len(line.plain)
        if kind in (L, LN) or not units:
            units.append(_Unit(first=no, last=no))
            if kind == N:  # a note before any lemma: the opening general note
                units[-1].inferred = True
        unit = units[-1]
        unit.last = no
        if kind == N and prev in (N, LN):
            unit.inferred = True  # a note spilling onto this line
            log.info("%s:%d: note continues the previous line's note (inferred)", seed.name, no)
        cut = {L: plain_len, N: 0, LN: k}[kind]
        if kind == LN:
            unit.inferred = True
        cut_at = line.offset(cut) if cut < plain_len else len(line.text)
        for s, e in line.runs:
            if s < min(e, cut_at):
                unit.jing.append((no, s, min(e, cut_at)))
            if max(s, cut_at) < e:
                unit.xiyi.append((no, max(s, cut_at), e))
        for s, e, is_ji in line.notes:
            markup += [(no, s - 1, s), (no, e, e + 1)]  # the 【 】 brackets
            if is_ji:
                markup.append((no, s, e))
                unit.ji = True
            else:
                unit.notes.append((no, s, e))
        prev = kind

    for u in units:
        if u.jing and not u.xiyi:
            warnings.append(ParseWarning(seed.name, u.first, "lemma without a note (kept)"))
    out: list[LemmaUnit] = []
    section: Section = "經"
    seq = 0 if units and not units[0].jing else 1
    for u in units:
        section = "記" if u.ji else section
        uid = seed.unit_id(seq)
        seq += 1

        def text_of(pieces: list[tuple[int, int, int]]) -> str:
            return "".join(raw[no - 1][s:e] for no, s, e in pieces)

        for name, pieces in (("jing", u.jing), ("xiyi", u.xiyi)):
            spans += [SourceSpan(no, s, e, uid, name) for no, s, e in pieces]
        spans += [SourceSpan(no, s, e, uid, f"notes.{i}") for i, (no, s, e) in enumerate(u.notes) if e > s]
        out.append(
            LemmaUnit(
                id=uid,
                work=seed.work,
                rite=seed.rite,
                source=seed.name,
                lines=(u.first, u.last),
                section=section,
                jing=text_of(u.jing),
                xiyi=text_of(u.xiyi),
                notes=tuple(text_of([n]) for n in u.notes),
                boundary="inferred" if u.inferred else "marked",
            )
        )
    spans += [SourceSpan(no, s, e) for no, s, e in markup if e > s]
    spans.sort(key=lambda sp: (sp.line, sp.start))
    return ParsedFile(source=seed.name, units=tuple(out), warnings=tuple(warnings), spans=tuple(spans))
