"""Corrections for a 校讀 (corrected reading) display: mis-conversions and placeholders, never applied to the text.

The table ``qa/data/corrections.tsv`` lists, per seed file, a wrong form in context and its
correction (the same length): 002's mis-conversions (北麵 → 北面, 雲 → 云, 複位 → 復位 …) and
000's placeholder 防 for a lost character (告防 → 告旨). :func:`unit_corrections` reports, for
each text field of a unit, every place a row's context occurs and each character that differs,
as :class:`Correction` s; :func:`corrected` builds the 校讀 string from them. The unit itself
is never changed (house style: original text is sacred).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CorpusError
from ..text.tables import data_dir, per_directory, read_table
from .units import LemmaUnit, field_text, unit_fields

TABLE_FILE = "corrections.tsv"


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the table."""

    source: str  # seed file name
    wrong: str  # the wrong form in context, as in the seed
    right: str  # the same context corrected, as long as ``wrong``
    note: str  # why, and the source that establishes it
    row: int  # line in the table, for messages


@dataclass(frozen=True, slots=True)
class Correction:
    """One corrected character (or run) in a unit's field: ``text[offset:offset+len(source)]``."""

    field: str  # jing, zhu, xiyi, shu.<i>.header, shu.<i>.text, notes.<i>
    offset: int
    source: str  # the seed's own characters
    corrected: str
    note: str


def _rule(fields: tuple[str, ...] | list[str], name: str, no: int) -> Rule:
    if len(fields) != 4 or not all(c.strip() for c in fields):
        raise CorpusError("corrections: a row needs 4 tab-separated columns", path=name, line=no)
    source, wrong, right, note = fields
    if len(wrong) != len(right) or wrong == right:
        raise CorpusError("corrections: the correction must differ and be as long as the wrong form", path=name, line=no)
    return Rule(source, wrong, right, note, no)


def parse_table(text: str, name: str = TABLE_FILE) -> tuple[Rule, ...]:
    """The rules of a corrections table given as text; a CorpusError naming the row if one is malformed."""
    return tuple(
        _rule(line.split("\t"), name, no)
        for no, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.startswith("#")
    )


def load_rules() -> tuple[Rule, ...]:
    """The table of the data directory (``qa/data/corrections.tsv``), read by :func:`qa.text.tables.read_table`."""
    return _load_rules(data_dir())


@per_directory
def _load_rules(directory: Path) -> tuple[Rule, ...]:
    return tuple(_rule(r.fields, str(r.path), r.line) for r in read_table("corrections.tsv", directory))


def _runs(wrong: str, right: str) -> list[tuple[int, int]]:
    """(start, end) of each run of differing characters."""
    out: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(zip(wrong, right)):
        if a == b:
            continue
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def text_corrections(field: str, text: str, rules: tuple[Rule, ...]) -> tuple[Correction, ...]:
    """Corrections of ``text`` (a field named ``field``) by ``rules``, in text order, one per place."""
    found: dict[int, Correction] = {}
    for rule in rules:
        start = text.find(rule.wrong)
        while start >= 0:
            for a, b in _runs(rule.wrong, rule.right):
                found.setdefault(start + a, Correction(field, start + a, rule.wrong[a:b], rule.right[a:b], rule.note))
            start = text.find(rule.wrong, start + 1)
    return tuple(found[k] for k in sorted(found))


def unit_corrections(unit: LemmaUnit, rules: tuple[Rule, ...] | None = None) -> tuple[Correction, ...]:
    """Every correction in ``unit``'s text fields (rules of its own seed file only)."""
    mine = tuple(r for r in (load_rules() if rules is None else rules) if r.source == unit.source)
    if not mine:
        return ()
    return tuple(c for name in unit_fields(unit) for c in text_corrections(name, field_text(unit, name), mine))


def corrected(text: str, corrections: tuple[Correction, ...] | list[Correction]) -> str:
    """The 校讀 of ``text``: its corrections (all of one field) applied to a copy."""
    out = text
    for c in sorted(corrections, key=lambda c: c.offset, reverse=True):
        if out[c.offset : c.offset + len(c.source)] != c.source:
            raise ValueError(f"correction at {c.offset} does not fit the text ({c.source!r})")
        out = out[: c.offset] + c.corrected + out[c.offset + len(c.source) :]
    return out


__all__ = ["Correction", "Rule", "corrected", "load_rules", "parse_table", "text_corrections", "unit_corrections"]
