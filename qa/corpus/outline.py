"""The rite's own outline: the stages 賈公彥's 疏 divides each rite into, and the stage of every unit.

賈疏 opens a stage in its own words: 「自此至『答再拜』，論主人迎賓入，升堂並拜至之事」
(also 自此盡…, 自此已下至…, 自此下至…, 自此以下至…), or, for a stage of one 經,
「此一經論燕末行射之節」. Each statement gives a :class:`Stage`:

* ``title``: the words after 論, punctuation and the closing 之事/之節/之儀 (and 也) left out,
  e.g. 主人迎賓入升堂並拜至; the 疏's own characters, never normalized;
* its units: from the unit whose 疏 holds the statement to the unit, in 經 order within the
  same seed file, whose 經 closes with the quoted end (compared in matching form; the rule,
  with its fallbacks for a 疏 quoting from memory, is :func:`_stage_end`); 「此一經」 is that
  one unit. A quoted end that no later 經 of the seed holds runs the stage to the seed's
  last unit when no later statement follows (002 stops inside 作樂), else leaves it at its
  statement's unit; ``problems`` says which.

Stages may nest (主人樂賓 holds 獻笙者 and 合樂): a unit takes the finest stage that holds
it, and each stage records its ``parent``, the finest stage that holds it in turn. Where a
later stage begins inside an earlier one and ends after it (賓主燕坐 111–123 and 無算爵…送賓
from 120), the units from the later statement on take the later stage (noted in ``problems``). A 析疑
unit takes the stage of the first 注疏 unit it is aligned with (``related``). Every unit
with no stage is listed in ``unstaged`` with why. Pure: no IO beyond the corpus given.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass

from ..text.normalize import normalize
from .load import Corpus
from .units import LemmaUnit

XIYI_WORK = "仪礼析疑"
#: 自此(已下|以下|下)?(至|盡)「Y」，論T  or  此一經論T, up to the end of the sentence.
STATEMENT = re.compile(r"(?:自此(?:已下|以下|下)?(?:至|盡)[「“]([^」”]+)[」”]|此一經)，?論([^。]+)")
_CLOSINGS = ("之事", "之節", "之儀")
_FINAL_PARTICLES = "也矣焉耳"


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a rite, as the 疏 states it."""

    rite: str
    title: str  # the 疏's words, e.g. 主人迎賓入升堂並拜至
    unit: str  # id of the unit whose 疏 holds the statement
    first: str  # first unit of the stage (the statement's unit)
    last: str  # last unit: its 經 holds the quoted end
    source: str  # seed file
    line: int  # line of the statement in the seed file
    statement: str  # the statement as written, e.g. 自此至「答再拜」，論主人迎賓入，升堂並拜至之事
    end_quote: str | None  # the quoted end (「答再拜」's 答再拜), None for 此一經
    parent: str | None = None  # ``unit`` of the finest stage holding this one

    @property
    def key(self) -> str:
        """The stage's identity: the id of the unit holding its statement (one statement per unit)."""
        return self.unit


@dataclass(frozen=True, slots=True)
class Outline:
    """Stages per rite, and the stage of each unit."""

    stages: tuple[Stage, ...]  # per rite in catalog order, within a rite in 經 order (parents first)
    assignment: tuple[tuple[str, str], ...]  # (unit id, stage key)
    unstaged: tuple[tuple[str, str], ...]  # (unit id, why it has no stage)
    problems: tuple[str, ...] = ()

    def rites(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.rite for s in self.stages))

    def stages_of(self, rite: str) -> tuple[Stage, ...]:
        return tuple(s for s in self.stages if s.rite == rite)

    def stage(self, key: str) -> Stage:
        for s in self.stages:
            if s.key == key:
                return s
        raise KeyError(key)

    def stage_of(self, unit_id: str) -> Stage | None:
        """The finest stage holding unit ``unit_id``, or None (see ``unstaged`` for why)."""
        key = dict(self.assignment).get(unit_id)
        return self.stage(key) if key else None

    def units_of(self, stage: Stage) -> tuple[str, ...]:
        """The units whose finest stage is ``stage``."""
        return tuple(u for u, k in self.assignment if k == stage.key)

    def find(self, words: str, corpus: Corpus | None = None) -> tuple[Stage, ...]:
        """Stages whose title holds ``words`` (matching form), e.g. 獻介; failing that, with
        ``corpus``, the stages of the units whose 經 holds them (合樂: the 疏 titles that stage
        堂上…堂下眾聲俱合, its 經 reads 乃合樂)."""
        w = normalize(words)
        if not w:
            return ()
        titled = tuple(s for s in self.stages if w in normalize(s.title))
        if titled or corpus is None:
            return titled
        keys = [self.stage_of(u.id) for u in corpus.units if u.work != XIYI_WORK and w in normalize(u.jing)]
        return tuple(dict.fromkeys(s for s in keys if s is not None))


def _title(words: str) -> str:
    text = "".join(ch for ch in words if not unicodedata.category(ch).startswith("P"))
    text = text.removesuffix("也")
    for closing in _CLOSINGS:
        if text.endswith(closing):
            return text[: -len(closing)]
    return text


def _id_order(unit_id: str) -> str:
    """經 order of a rite's 注疏 units: part letter, then sequence (as in :mod:`.align`)."""
    return unit_id.rsplit(".", 1)[-1]


def _order_key(unit: LemmaUnit) -> str:
    return _id_order(unit.id)


def _neg(key: str) -> tuple[int, ...]:
    """A sort key ordering strings in reverse (longer spans first among stages that begin together)."""
    return tuple(-ord(c) for c in key) + (1,)


def _statement_line(corpus: Corpus, unit: LemmaUnit, part: int, offset: int) -> int:
    """The seed line holding character ``offset`` of 疏 part ``part``'s text."""
    name = f"shu.{part}.text"
    parsed = next((p for p in corpus.parsed if p.source == unit.source), None)
    if parsed is None:  # a corpus view whose seed could not be read: no spans
        return unit.lines[0]
    seen = 0
    for s in sorted((s for s in parsed.spans if s.unit == unit.id and s.field == name), key=lambda s: (s.line, s.start)):
        seen += s.end - s.start
        if offset < seen:
            return s.line
    return unit.lines[0]


def _one_indel(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one character more or less."""
    if abs(len(a) - len(b)) != 1:
        return False
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _ends(jing: str) -> tuple[str, ...]:
    """The 經 in matching form, and without a closing particle (quotes often leave it out)."""
    n = normalize(jing)
    return (n, n[:-1]) if n[-1:] in _FINAL_PARTICLES else (n,)


def _end_tiers(end: str) -> tuple:
    """Tests of a 經 for the quoted end, strictest first: ends with it, holds it, ends with it
    but one character more or less (賈疏 quotes from memory: 「答再拜」 for …北面答拜)."""
    ne = normalize(end)
    return (
        lambda j: any(t.endswith(ne) for t in _ends(j)),
        lambda j: ne in normalize(j),
        lambda j: len(ne) >= 3 and any(_one_indel(ne, t[-len(ne) - d :]) for t in _ends(j) for d in (-1, 1)),
    )


def _stage_end(units: list[LemmaUnit], i: int, end: str, statements: set[int]) -> int | None:
    """Index of the last unit of the stage stated at ``units[i]`` with quoted end ``end``.

    The first unit, from the statement's on (its own unit only for an exact end), that passes
    the strictest test any unit passes, extended over directly following units that pass it too
    (a repeated closing formula: 獻賓 ends with two 經 ending 主人阼階上答拜), never into a unit
    holding another statement. A stage does not run from the 經 into the 記.
    """
    scope = [k for k in range(i, len(units)) if units[k].section == units[i].section]
    for tier, test in enumerate(_end_tiers(end)):
        hits = [k for k in scope if (k > i or tier < 2) and test(units[k].jing)]
        if hits:
            last = hits[0]
            while last + 1 in hits and last + 1 not in statements:
                last += 1
            return last
    return None


def _stages_of_file(corpus: Corpus, units: list[LemmaUnit], problems: list[str]) -> list[Stage]:
    found: list[tuple[int, int, re.Match[str]]] = []
    for i, u in enumerate(units):
        for k, part in enumerate(u.shu):
            found += [(i, k, m) for m in STATEMENT.finditer(part.text)]
    statements = {i for i, _, _ in found}
    out: list[Stage] = []
    for i, k, m in found:
        u, end = units[i], m.group(1)
        last = i
        if end is not None:
            hit = _stage_end(units, i, end, statements)
            if hit is None and not any(j > i for j in statements):
                last = len(units) - 1
                problems.append(f"{u.source}: {u.id}: stage end 「{end}」 is in no later 經 of this seed; the stage runs to its last unit")
            elif hit is None:
                problems.append(f"{u.source}: {u.id}: stage end 「{end}」 is in no later 經; the stage is its statement's unit")
            else:
                last = hit
        out.append(
            Stage(
                rite=u.rite,
                title=_title(m.group(2)),
                unit=u.id,
                first=u.id,
                last=units[last].id,
                source=u.source,
                line=_statement_line(corpus, u, k, m.start()),
                statement=m.group(0),
                end_quote=end,
            )
        )
    return out


def load_outline(corpus: Corpus) -> Outline:
    """The outline of every rite in ``corpus`` (see the module doc)."""
    problems: list[str] = []
    stages: list[Stage] = []
    assignment: dict[str, str] = {}
    unstaged: dict[str, str] = {}
    position: dict[str, tuple[str, int]] = {}  # unit id → (source, index in its file's 經 order)
    for f in corpus.files:
        units = sorted((u for u in corpus.units if u.source == f.name and u.work != XIYI_WORK), key=_order_key)
        for i, u in enumerate(units):
            position[u.id] = (u.source, i)
        found = _stages_of_file(corpus, units, problems)

        def span(s: Stage) -> tuple[int, int]:
            return position[s.first][1], position[s.last][1]

        found.sort(key=lambda s: (span(s)[0], -span(s)[1]))
        finest: dict[str, Stage] = {}
        with_parent: list[Stage] = []
        for s in found:
            a, b = span(s)
            holders = [p for p in with_parent if span(p)[0] <= a and b <= span(p)[1]]
            problems += [
                f"{s.source}: stage {s.title} ({s.first}–{s.last}) overlaps {p.title} ({p.first}–{p.last}) "
                f"without lying inside it; the units from {s.first} on take {s.title}"
                for p in with_parent
                if span(p)[0] < a <= span(p)[1] < b
            ]
            parent = holders[-1].key if holders else None
            s = dataclasses.replace(s, parent=parent)
            with_parent.append(s)
            for j in range(a, b + 1):
                finest[units[j].id] = s  # later (finer) stages overwrite their parents
        stages += with_parent
        for i, u in enumerate(units):
            if u.id in finest:
                assignment[u.id] = finest[u.id].key
            elif not with_parent:
                unstaged[u.id] = "the 疏 of this file states no stage"
            elif i < span(with_parent[0])[0]:
                unstaged[u.id] = f"before the first stage the 疏 states ({with_parent[0].title}, at {with_parent[0].unit})"
            else:
                prev = max((s for s in with_parent if span(s)[1] < i), key=lambda s: span(s)[1])
                where = "in the 記, " if u.section == "記" else ""
                unstaged[u.id] = f"{where}after the stage {prev.title} ended at {prev.last}, before any later stage statement"
    for u in corpus.units:
        if u.work != XIYI_WORK:
            continue
        partners = [r for r in u.related if r in position]
        staged = [r for r in partners if r in assignment]
        if staged:
            assignment[u.id] = assignment[staged[0]]
        elif not u.jing:
            unstaged[u.id] = "a general note with no 經 lemma"
        elif not partners:
            unstaged[u.id] = "aligned with no 注疏 unit"
        else:
            unstaged[u.id] = f"aligned with {', '.join(partners)}, which has no stage"
    order = {u.id: i for i, u in enumerate(corpus.units)}
    rites = list(dict.fromkeys(f.rite for f in corpus.files))
    stages.sort(key=lambda s: (rites.index(s.rite), _id_order(s.first), _neg(_id_order(s.last))))
    return Outline(
        stages=tuple(stages),
        assignment=tuple(sorted(assignment.items(), key=lambda kv: order[kv[0]])),
        unstaged=tuple(sorted(unstaged.items(), key=lambda kv: order[kv[0]])),
        problems=tuple(problems),
    )


def sequence(outline: Outline, stage: Stage, step: int = 1) -> Stage | None:
    """The stage after (``step`` 1) or before (``step`` -1) ``stage`` in its rite, or None.

    After: the first stage, in 經 order, that begins after ``stage`` ends (so after a stage
    that holds others comes the one following all of them, and after a nested stage its
    next sibling). Before: the stage ending last before ``stage`` begins (the finest of those
    ending together). ``step`` beyond ±1 repeats. For 「合樂之後呢？」.
    """
    if step == 0:
        return stage
    rite = outline.stages_of(stage.rite)
    index = {s.key: i for i, s in enumerate(rite)}
    pos = _id_order
    current: Stage | None = stage
    for _ in range(abs(step)):
        assert current is not None
        if step > 0:
            later = [s for s in rite if pos(s.first) > pos(current.last)]
            current = later[0] if later else None
        else:
            earlier = [s for s in rite if pos(s.last) < pos(current.first)]
            current = max(earlier, key=lambda s: (pos(s.last), pos(s.first), index[s.key])) if earlier else None
        if current is None:
            return None
    return current


__all__ = ["Outline", "Stage", "load_outline", "sequence", "STATEMENT"]
