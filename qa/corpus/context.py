"""The corpus around an index's units, for a reader: outline, coverage, reading order, citations, 校讀, parallels.

An index stores every lemma unit but not the catalog or the parsers' source spans, which the
outline (a stage statement's line) and scholarly citations (a sentence's line) need.
:func:`corpus_view` puts the index's own units together with the catalog and the seeds'
spans (the seeds are parsed again for their spans only; their warnings were reported when the
index was built); :class:`CorpusContext` derives the rest once. Seeds that cannot be read
leave the spans out: lines then fall back to the unit's first line.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import QAError
from .catalog import load_catalog
from .cite import Citation, cite
from .corrections import Correction, unit_corrections
from .coverage import Coverage, load_coverage
from .load import Corpus, read_seed
from .outline import Outline, Stage, load_outline
from .parallels import Parallel, ParallelTable
from .units import LemmaUnit, ParsedFile, rite_id

log = logging.getLogger(__name__)


def corpus_view(units: Iterable[LemmaUnit], seeds_dir: Path) -> Corpus:
    """A Corpus of ``units`` (an index's) with the catalog of ``seeds_dir`` and the seeds' source spans."""
    from .parsers import PARSERS

    try:
        files = load_catalog(seeds_dir)
    except QAError as exc:
        log.warning("cannot read the catalog (%s): no outline, coverage or scholarly citations", exc)
        files = ()
    parsed: list[ParsedFile] = []
    for seed in files:
        try:
            parsed.append(PARSERS[seed.parser](seed, read_seed(seed)))
        except QAError as exc:
            log.warning("cannot read %s for its line spans (%s); citing its units by their first line", seed.name, exc)
    return Corpus(units=tuple(units), files=files, parsed=tuple(parsed), warnings=(), corpus_hash="")


def reading_order(units: Iterable[LemmaUnit]) -> dict[str, tuple[str, ...]]:
    """Each work-and-rite's unit ids in reading (經) order: part letter, then sequence, so 燕禮's
    注疏 runs from 002 (part a) into 001 (part b) whatever the catalog's order."""
    groups: dict[tuple[str, str], list[LemmaUnit]] = {}
    for u in units:
        groups.setdefault((u.work, u.rite), []).append(u)
    return {
        f"{work}·{rite}": tuple(u.id for u in sorted(us, key=lambda u: u.id.rsplit(".", 1)[-1]))
        for (work, rite), us in groups.items()
    }


@dataclass(frozen=True, slots=True)
class CorpusContext:
    """What a reader's companion knows of the corpus beyond search: build with :meth:`build`."""

    corpus: Corpus
    outline: Outline
    coverage: Coverage
    units_by_id: Mapping[str, LemmaUnit]
    #: unit id → (previous id, next id) in its work and rite, None at either end
    _around: Mapping[str, tuple[str | None, str | None]]
    _table: ParallelTable  # what finding parallels reads of the corpus, prepared once
    _rite_names: Mapping[str, str]  # rite id (xiangyin) → the rite's name as the units write it (鄉飲酒禮)
    _parallels: dict[str, tuple[Parallel, ...]] = field(default_factory=dict)  # memo: unit id → parallels

    @classmethod
    def build(cls, corpus: Corpus) -> "CorpusContext":
        around: dict[str, tuple[str | None, str | None]] = {}
        for ids in reading_order(corpus.units).values():
            for i, uid in enumerate(ids):
                around[uid] = (ids[i - 1] if i else None, ids[i + 1] if i + 1 < len(ids) else None)
        outline = load_outline(corpus)
        return cls(corpus, outline, load_coverage(corpus), corpus.by_id(), around, ParallelTable(corpus, outline),
                   {rite_id(u.id): u.rite for u in corpus.units})

    def unit(self, unit_id: str) -> LemmaUnit:
        """The unit with id ``unit_id``; KeyError if there is none."""
        return self.units_by_id[unit_id]

    def rite_names(self, rite_ids: Iterable[str]) -> tuple[str, ...]:
        """The names (鄉飲酒禮) of the rite ids (``Query.rites``: xiangyin) the corpus holds, in their order."""
        return tuple(self._rite_names[r] for r in rite_ids if r in self._rite_names)

    def neighbours(self, unit_id: str) -> tuple[LemmaUnit | None, LemmaUnit | None]:
        """The previous and next unit of the same work and rite (None at either end); KeyError for an unknown id."""
        before, after = self._around[unit_id]
        return (self.units_by_id[before] if before else None, self.units_by_id[after] if after else None)

    def stage_of(self, unit_id: str) -> Stage | None:
        """The finest 賈疏 stage holding the unit, or None (the outline's ``unstaged`` says why)."""
        return self.outline.stage_of(unit_id)

    def stage_path(self, unit_id: str) -> tuple[Stage, ...]:
        """The stages holding the unit, outermost first (主人樂賓 › 獻笙者); () when unstaged."""
        stage = self.stage_of(unit_id)
        path: list[Stage] = []
        while stage is not None:
            path.append(stage)
            stage = self.outline.stage(stage.parent) if stage.parent else None
        return tuple(reversed(path))

    def stage_units(self, stage: Stage) -> tuple[str, ...]:
        """The 注疏 units from the stage's first to its last, in reading order (nested stages included)."""
        out = [stage.first]
        while out[-1] != stage.last:
            after = self._around[out[-1]][1]
            if after is None:
                break
            out.append(after)
        return tuple(out)

    def cite(self, unit_id: str, layer: str = "jing", sentence: str | None = None) -> Citation | None:
        """The scholarly citation (:func:`qa.corpus.cite.cite`), or None where it cannot be made."""
        try:
            return cite(self.corpus, unit_id, layer, sentence)
        except (KeyError, ValueError, StopIteration):
            return None

    def corrections(self, unit_id: str) -> tuple[Correction, ...]:
        """The 校讀 corrections of the unit's text (never applied to it)."""
        return unit_corrections(self.unit(unit_id))

    def parallels(self, unit_id: str) -> tuple[Parallel, ...]:
        """The corresponding steps of the other rites, best first (:mod:`qa.corpus.parallels`)."""
        if unit_id not in self._parallels:
            self._parallels[unit_id] = self._table.find(unit_id)
        return self._parallels[unit_id]


__all__ = ["CorpusContext", "corpus_view", "reading_order"]
