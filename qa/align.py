"""Cross-edition alignment: link each 析疑 lemma to the 注疏 unit of the same 經 via ``related``."""

from __future__ import annotations

from .units import LemmaUnit


def align_units(units: tuple[LemmaUnit, ...]) -> tuple[LemmaUnit, ...]:
    """Return ``units`` with ``related`` filled both ways (placeholder: no links yet)."""
    return units
