"""Seeds → lemma units: read every catalogued file, parse it, align editions."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path

from ..errors import CorpusError
from .catalog import SeedFile, load_catalog
from .units import LemmaUnit, ParsedFile, ParseWarning

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Corpus:
    """All lemma units of all seed files, in catalog then file order."""

    units: tuple[LemmaUnit, ...]
    files: tuple[SeedFile, ...]
    parsed: tuple[ParsedFile, ...]
    warnings: tuple[ParseWarning, ...]
    #: sha256 over the catalog and every seed file's bytes: the index rebuilds when it changes.
    corpus_hash: str

    def by_id(self) -> dict[str, LemmaUnit]:
        return {u.id: u for u in self.units}


def read_seed(seed: SeedFile) -> str:
    """The seed's text, decoded strictly as UTF-8; a clear CorpusError otherwise."""
    try:
        data = seed.path.read_bytes()
    except OSError as exc:
        raise CorpusError(f"cannot read seed file: {exc.strerror or exc}", path=str(seed.path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CorpusError(f"not valid UTF-8 (byte {exc.start})", path=str(seed.path), line=line) from None


def corpus_hash(seeds_dir: Path) -> str:
    """Content hash of the catalog and the seed files it names (cheap: no parsing)."""
    h = hashlib.sha256()
    for seed in load_catalog(seeds_dir):
        h.update(seed.name.encode())
        try:
            h.update(seed.path.read_bytes())
        except OSError as exc:
            raise CorpusError(f"cannot read seed file: {exc.strerror or exc}", path=str(seed.path)) from None
    h.update((Path(seeds_dir) / "catalog.toml").read_bytes())
    return h.hexdigest()


def load_corpus(seeds_dir: Path) -> Corpus:
    """Parse every catalogued seed file and link the same 經 across editions."""
    from .align import align_units
    from .parsers import PARSERS

    files = load_catalog(seeds_dir)
    parsed: list[ParsedFile] = []
    for seed in files:
        result = PARSERS[seed.parser](seed, read_seed(seed))
        for w in result.warnings:
            log.warning("%s", w)
        parsed.append(result)
    units = align_units(tuple(u for p in parsed for u in p.units))
    warnings = tuple(w for p in parsed for w in p.warnings)
    return Corpus(units=units, files=files, parsed=tuple(parsed), warnings=warnings, corpus_hash=corpus_hash(seeds_dir))
