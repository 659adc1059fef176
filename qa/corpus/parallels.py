"""Parallels across rites: for a unit, the corresponding step of another rite (鄉飲酒禮 主人獻賓 ↔ 燕禮 獻賓).

Rites of one family are written in the same formulae: 「降席，坐奠爵，拜，告旨，執爵，興」 in the
鄉飲酒禮 is, word for word, what the 賓 does in the 燕禮. A candidate in another rite scores by

* the 經 clauses it shares with the unit (clauses cut at the 經's own punctuation, compared in
  matching form after the 校讀 corrections, so 000's placeholder 告防 reads 告旨): each shared
  clause of two characters or more counts its length times its rarity (log of units over the
  units whose 經 holds it), so 告旨 weighs more than 坐奠爵;
* the same for a clause 方苞's 析疑 note quotes (he compares rites: 「乡饮乡射之酒…燕与大射…」);
* the stage titles (:mod:`.outline`): a share of the title bigrams both stages hold;
* the alignment (``related``): a unit scores at least what any unit aligned with it scores, and a
  析疑 lemma (no punctuation) is read with the clauses of the 注疏 units it is aligned with; units
  aligned with one another are one step, listed once (the one scoring best on its own).

Candidates scoring under :data:`MIN_SCORE` are no parallel. Pure: reads only the corpus given.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..text.normalize import normalize
from .corrections import corrected, unit_corrections
from .load import Corpus
from .outline import Outline
from .units import LemmaUnit

#: A parallel needs about one rare shared clause of three characters (or a common one of six).
MIN_SCORE = 8.0
#: Weight of a clause found only in a 析疑 note, and of the stage-title bigram share.
NOTE_WEIGHT = 1.0
TITLE_WEIGHT = 6.0
_CLAUSE = re.compile(r"[^，。；：、？！“”「」]+")


@dataclass(frozen=True, slots=True)
class Parallel:
    """A unit of another rite that corresponds to the unit asked about, and why."""

    unit: str  # id of the corresponding unit
    rite: str
    score: float
    shared: tuple[str, ...]  # 經 clauses both hold (matching form), longest first
    stage: str | None  # the corresponding unit's 賈疏 stage title, if any


def _jing(u: LemmaUnit) -> str:
    """The 經 as the 校讀 reads it (corrections applied), source characters otherwise."""
    fixes = [c for c in unit_corrections(u) if c.field == "jing"]
    return corrected(u.jing, fixes) if fixes else u.jing


def _note(u: LemmaUnit) -> str:
    fixes = [c for c in unit_corrections(u) if c.field == "xiyi"]
    return corrected(u.xiyi, fixes) if fixes else u.xiyi


def clauses(jing: str) -> tuple[str, ...]:
    """The 經's clauses in matching form, two characters or more (拜, 興 say nothing alone)."""
    out = (normalize(m.group()) for m in _CLAUSE.finditer(jing))
    return tuple(dict.fromkeys(c for c in out if len(c) >= 2))


def _bigrams(text: str) -> set[str]:
    n = normalize(text)
    return {n[i : i + 2] for i in range(len(n) - 1)}


class ParallelTable:
    """What :func:`find_parallels` reads of a corpus, prepared once: each unit's 經 and 析疑 note in matching
    form, its 經 clauses, its stage-title bigrams, and each clause's document frequency (filled as asked).

    Finding one unit's parallels reads the whole corpus, so a reader's companion keeps one table and asks it
    for every unit; the result is that of preparing everything afresh."""

    def __init__(self, corpus: Corpus, outline: Outline) -> None:
        self.corpus = corpus
        self.outline = outline
        self.by_id = corpus.by_id()
        self.jing = {u.id: normalize(_jing(u)) for u in corpus.units}
        self.notes = {u.id: normalize(_note(u)) for u in corpus.units if u.xiyi}
        self.clauses = {u.id: clauses(_jing(u)) for u in corpus.units}
        self.titles: dict[str, set[str]] = {}
        for u in corpus.units:
            stage = outline.stage_of(u.id)
            if stage:
                self.titles[u.id] = _bigrams(stage.title)
        self.order = {u.id: i for i, u in enumerate(corpus.units)}
        self._df: dict[str, int] = {}

    def weight(self, c: str) -> float:
        """A shared clause's worth: its length times its rarity among the units' 經."""
        if c not in self._df:
            self._df[c] = sum(1 for t in self.jing.values() if c in t)
        return len(c) * math.log(1 + len(self.jing) / max(self._df[c], 1))

    def find(self, unit_id: str, limit: int = 3) -> tuple[Parallel, ...]:
        """Up to ``limit`` units of other rites corresponding to unit ``unit_id``, best first (KeyError for an unknown id)."""
        by_id, jing, notes = self.by_id, self.jing, self.notes
        unit = by_id[unit_id]
        mine = [unit, *(by_id[r] for r in unit.related if r in by_id)]
        asked = {c for u in mine for c in self.clauses[u.id]}
        my_jing = "|".join(jing[u.id] for u in mine)
        my_notes = "|".join(notes.get(u.id, "") for u in mine)
        title = self.titles.get(unit_id, set())

        raw: dict[str, tuple[float, tuple[str, ...]]] = {}
        for v in self.corpus.units:
            if v.rite == unit.rite:
                continue
            # symmetric, so an unpunctuated 析疑 lemma on either side is read with the other's clauses
            theirs = self.clauses[v.id]
            shared = {c for c in asked if c in jing[v.id]} | {c for c in theirs if c in my_jing}
            quoted = {c for c in asked if c in notes.get(v.id, "")} | {c for c in theirs if c in my_notes}
            quoted -= shared
            score = sum(self.weight(c) for c in shared) + NOTE_WEIGHT * sum(self.weight(c) for c in quoted)
            their_title = self.titles.get(v.id)
            if title and their_title:
                score += TITLE_WEIGHT * len(title & their_title) / max(len(title | their_title), 1)
            raw[v.id] = (score, tuple(sorted(shared | quoted, key=lambda c: (-len(c), c))))
        # the alignment: a unit is worth what any unit aligned with it is worth
        best: dict[str, tuple[float, tuple[str, ...]]] = {}
        for vid, own in raw.items():
            for rid in by_id[vid].related:
                if rid in raw and raw[rid][0] > own[0]:
                    own = raw[rid]
            best[vid] = own
        order = self.order
        ranked = sorted((v for v in best if best[v][0] >= MIN_SCORE), key=lambda v: (-best[v][0], -raw[v][0], order[v]))
        out: list[Parallel] = []
        listed: set[str] = set()
        for vid in ranked:
            if vid in listed or len(out) == limit:
                continue
            listed |= {vid, *by_id[vid].related}
            score, why = best[vid]
            other = self.outline.stage_of(vid)
            out.append(Parallel(vid, by_id[vid].rite, round(score, 3), why, other.title if other else None))
        return tuple(out)


def find_parallels(corpus: Corpus, outline: Outline, unit_id: str, limit: int = 3) -> tuple[Parallel, ...]:
    """Up to ``limit`` units of other rites corresponding to unit ``unit_id``, best first (KeyError for an unknown id).

    Prepares a :class:`ParallelTable` for this one call; keep a table to ask about many units."""
    return ParallelTable(corpus, outline).find(unit_id, limit)


__all__ = ["MIN_SCORE", "Parallel", "ParallelTable", "clauses", "find_parallels"]
