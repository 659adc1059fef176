"""How answers are displayed: the script (繁 converts only sources written in simplified
script, per the catalog), which single characters are too common to highlight, the rite and
layer filters, and optional hooks later corpus layers plug into (stage, citation, 校讀)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..answering.compose import Evidence
from ..corpus.catalog import load_catalog
from ..corpus.corrections import Correction
from ..corpus.units import LemmaUnit
from ..text.normalize import normalize

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

Script = Literal["original", "hant", "hans"]
#: Display choices of the 繁/简 toggle: label → script.
SCRIPTS: dict[str, Script] = {"原文": "original", "繁體": "hant", "简体": "hans"}
#: Layers a reader can filter on: label → layer name.
LAYER_CHOICES: dict[str, str] = {"經": "jing", "注": "zhu", "疏": "shu", "析疑": "xiyi"}
#: A character found in more than this share of the units is too common to highlight alone
#: (人, 主, 有, 禮 ...); terms of two or more characters are always highlighted.
COMMON_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Display:
    """How answers and units are shown: script, what to highlight, filters, and optional hooks.

    The hooks let later corpus layers plug in without changing the renderer: ``stage_of``
    (a unit's stage of the rite, shown in its header), ``cite`` (the scholarly citation of a
    cited sentence, copied by 「複製引文」) and ``corrections`` (校讀 notes shown under a unit)."""

    script: Script = "original"
    #: seed files written in simplified script: the only ones the 繁 display converts
    simplified: frozenset[str] = frozenset()
    #: normalized characters too common to highlight on their own (see :func:`common_chars`)
    common: frozenset[str] = frozenset()
    #: show only these rites / layers (None: all); 經 is always shown as the anchor of a card
    rites: frozenset[str] | None = None
    layers: frozenset[str] | None = None
    stage_of: Callable[[LemmaUnit], str | None] | None = None
    cite: Callable[[Evidence], str] | None = None
    corrections: Callable[[LemmaUnit], Sequence[str]] | None = None
    #: 校讀: a unit's corrections, shown in place (the correction marked, the source's character
    #: on hover); None shows the text exactly as the source has it
    jiaodu: Callable[[LemmaUnit], Sequence[Correction]] | None = None
    #: the corresponding units of another rite, as (unit id, rite, why, its source file): the best
    #: one is shown on a card, a link, with why (the 經 formulae both hold) in the display script
    parallels: Callable[[LemmaUnit], Sequence[tuple[str, str, str, str]]] | None = None

    def script_for(self, source: str) -> Script:
        """The conversion for one source: 繁 leaves traditional sources as they are."""
        if self.script == "hant" and source not in self.simplified:
            return "original"
        return self.script

    def shows_rite(self, rite: str) -> bool:
        return self.rites is None or rite in self.rites

    def shows_layer(self, layer: str) -> bool:
        return layer == "jing" or self.layers is None or layer in self.layers


def as_display(display: "Display | Script") -> Display:
    """A plain script name is a Display with that script and nothing else."""
    return display if isinstance(display, Display) else Display(script=display)


def simplified_sources(seeds_dir: "Path") -> frozenset[str]:
    """Seed files the catalog marks as simplified script (``script = "简"``)."""

    return frozenset(s.name for s in load_catalog(seeds_dir) if s.script.strip() in ("简", "簡", "hans"))


def common_chars(units: Iterable[LemmaUnit], share: float = COMMON_SHARE) -> frozenset[str]:
    """Normalized characters found in more than ``share`` of ``units``: never highlighted alone."""
    counts: dict[str, int] = {}
    n = 0
    for u in units:
        n += 1
        for ch in set(normalize(u.full_text)):
            counts[ch] = counts.get(ch, 0) + 1
    return frozenset(ch for ch, c in counts.items() if n and c / n > share)


__all__ = ["COMMON_SHARE", "LAYER_CHOICES", "SCRIPTS", "Display", "Script", "as_display", "common_chars", "simplified_sources"]
