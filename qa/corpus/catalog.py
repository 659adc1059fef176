"""The seed catalog (``seeds/catalog.toml``): which files exist and how to read each."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import CatalogError

_REQUIRED = ("name", "work", "work_id", "author", "rite", "rite_id", "juan", "script", "edition", "parser")


@dataclass(frozen=True, slots=True)
class SeedFile:
    """One catalog entry: a seed text and the facts needed to parse and cite it."""

    name: str
    path: Path
    work: str
    work_id: str
    author: str
    rite: str
    rite_id: str
    juan: str
    script: str  # 繁 or 简
    edition: str
    parser: str
    #: Disambiguates several files of one work and rite in unit ids (e.g. "a", "b"); "" if unique.
    part: str = ""

    @property
    def id_prefix(self) -> str:
        """The id prefix of this file's units: work.rite."""
        return f"{self.work_id}.{self.rite_id}"

    def unit_id(self, seq: int) -> str:
        """The stable, citable id of this file's ``seq``-th unit: work.rite.[part]sequence."""
        return f"{self.id_prefix}.{self.part}{seq:03d}"


def load_catalog(seeds_dir: Path) -> tuple[SeedFile, ...]:
    """Read and validate ``seeds_dir/catalog.toml``."""
    path = Path(seeds_dir) / "catalog.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"{path}: catalog not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from None
    entries = data.get("file")
    if not isinstance(entries, list) or not entries:
        raise CatalogError(f"{path}: no [[file]] entries")
    from .parsers import PARSERS  # late import: parsers import this module's types

    seen_names: set[str] = set()
    seen_prefixes: set[tuple[str, str]] = set()
    out: list[SeedFile] = []
    for i, entry in enumerate(entries, 1):
        missing = [k for k in _REQUIRED if not entry.get(k)]
        if missing:
            raise CatalogError(f"{path}: entry {i} lacks {', '.join(missing)}")
        if entry["parser"] not in PARSERS:
            raise CatalogError(
                f"{path}: entry {i} ({entry['name']}): unknown parser {entry['parser']!r}; "
                f"known: {', '.join(sorted(PARSERS))}"
            )
        if entry["name"] in seen_names:
            raise CatalogError(f"{path}: {entry['name']} listed twice")
        key = (f"{entry['work_id']}.{entry['rite_id']}", entry.get("part", ""))
        if key in seen_prefixes:
            raise CatalogError(f"{path}: entry {i} ({entry['name']}): id prefix {key} not unique; set `part`")
        seen_names.add(entry["name"])
        seen_prefixes.add(key)
        fields = {k: str(entry[k]) for k in _REQUIRED}
        out.append(SeedFile(path=Path(seeds_dir) / entry["name"], part=str(entry.get("part", "")), **fields))
    return tuple(out)
