"""Filters a caller may put on an ask: only units of some rites, only units that have some layers.

A rite is named by its id (the second part of unit ids: ``xiangyin``, ``yan``) or by its name in
either script (鄉飲酒禮 / 乡饮酒礼, 燕禮 / 燕礼); a layer by its key (``jing``, ``zhu``, ``shu``,
``xiyi``) or its label (經, 注, 疏, 析疑). An unknown name is a :class:`QueryError` that lists the
known ones, never a silently empty result.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from ..corpus.units import LAYER_LABELS, LAYERS, LemmaUnit
from ..errors import QueryError
from ..text.normalize import normalize


def rite_id(unit: LemmaUnit) -> str:
    """The rite part of a unit id (``zhushu.xiangyin.038`` → ``xiangyin``)."""
    parts = unit.id.split(".")
    return parts[1] if len(parts) > 2 else unit.rite


def known_rites(units: Iterable[LemmaUnit]) -> dict[str, str]:
    """Every rite name as the corpus writes it, and every rite id → rite id, for these units."""
    names: dict[str, str] = {}
    for u in units:
        rid = rite_id(u)
        names.setdefault(rid, rid)
        names.setdefault(u.rite, rid)
    return names


#: Layer keys and labels → layer key.
LAYER_NAMES: dict[str, str] = {**{x: x for x in LAYERS}, **{LAYER_LABELS[x]: x for x in LAYERS}}


def _resolve(given: Collection[str] | str, names: dict[str, str], what: str) -> frozenset[str]:
    """Names → values, matched as written, lower-cased or normalized (so 燕礼 finds 燕禮)."""
    folded = {normalize(k) or k.lower(): v for k, v in names.items()}
    if isinstance(given, str):  # a lone name, not a list of characters
        given = [given]
    out, unknown = set(), []
    for name in given:
        value = None
        if isinstance(name, str):
            key = name.strip()
            value = names.get(key) or names.get(key.lower()) or folded.get(normalize(key) or key.lower())
        if value is None:
            unknown.append(name)
        else:
            out.add(value)
    if unknown:
        listed = ", ".join(repr(n) for n in unknown)
        raise QueryError(f"unknown {what} {listed}: use one of {', '.join(names)}")
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class UnitFilter:
    """Which units may be hits: rite ids and required layers (empty: no condition)."""

    rites: frozenset[str] = frozenset()
    layers: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.rites or self.layers)

    def __call__(self, unit: LemmaUnit) -> bool:
        if self.rites and rite_id(unit) not in self.rites:
            return False
        if self.layers:
            present = unit.layer_texts
            return any(layer in present for layer in self.layers)
        return True


def check_filters(rites: Collection[str] | str | None, layers: Collection[str] | str | None,
                  rite_names: dict[str, str]) -> UnitFilter:
    """The filter for rite and layer names (``rite_names``: :func:`known_rites` of the corpus);
    QueryError naming the unknown ones and the known ones."""
    rite_ids: frozenset[str] = _resolve(rites, rite_names, "rite") if rites else frozenset()
    layer_keys: frozenset[str] = _resolve(layers, LAYER_NAMES, "layer") if layers else frozenset()
    return UnitFilter(rite_ids, layer_keys)


UnitPredicate = Callable[[LemmaUnit], bool]

__all__ = ["LAYER_NAMES", "UnitFilter", "UnitPredicate", "check_filters", "known_rites", "rite_id"]
