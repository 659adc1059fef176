"""An index's manifest: what it was built from, and why an index is not current.

An index is current when everything it was built from is unchanged: the seeds, every data
table (qa.text.tables.TABLES, by content), the code that turns them into an index
(:func:`code_hashes`), the encoder, the format and, for a retriever, the confidence
calibration's version. Anything else is a stale reason that names what changed
("qa/data/variants.tsv changed").
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..corpus.load import Corpus, corpus_hash
from ..errors import IndexStoreError
from ..settings import PACKAGE_DATA_DIR, Settings
from ..text import tables
from .encoders import encoder_id

if TYPE_CHECKING:
    from .store import IndexData

MANIFEST = "manifest.json"
#: Bump when the layout changes: older indexes then rebuild. (2: the manifest records the
#: data tables and the code an index was built from, and the calibration is built in.)
FORMAT_VERSION = 2
#: The packages whose code decides what an index holds (normalized text, units, passages,
#: lexical tokens, vectors, encoder training): an index records the hash of each of their
#: source files. The layers above only read an index.
CODE_PACKAGES = ("text", "corpus", "indexing")
_QA_ROOT = Path(__file__).resolve().parent.parent


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Calibrate(Protocol):
    """The confidence calibration step (qa.retrieval.confidence.calibrate), passed in from the layer above.

    Called on the built index, it returns what the manifest stores under ``confidence``
    (with its ``version``); a manifest whose calibration is not of ``version`` is stale.
    """

    version: int

    def __call__(self, data: "IndexData", settings: Settings) -> dict[str, Any]: ...


@lru_cache(maxsize=1)
def code_hashes() -> dict[str, str]:
    """sha256 of every source file of CODE_PACKAGES, by path (``qa/corpus/parsers/xiyi.py``).

    Once per process: it describes the code that is running.
    """
    return {
        path.relative_to(_QA_ROOT.parent).as_posix(): sha256_file(path)
        for package in CODE_PACKAGES
        for path in sorted((_QA_ROOT / package).rglob("*.py"))
    }


def expected_manifest(settings: Settings, *, corpus: Corpus | None = None,
                      calibrate: Calibrate | None = None) -> dict[str, Any]:
    """What a current index's manifest must say for these settings, seeds, tables and code.

    With ``calibrate``, the manifest must also hold a calibration of its version.
    """
    expected: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "encoder": encoder_id(settings.model),
        "corpus_hash": corpus.corpus_hash if corpus is not None else corpus_hash(settings.seeds_dir),
        "data_dir": str(settings.data_dir),  # where the tables were read (recorded, not compared)
        "tables": tables.table_hashes(settings.data_dir),
        "code": code_hashes(),
    }
    if calibrate is not None:
        expected["confidence_version"] = calibrate.version
    return expected


def _data_label(data_dir: str | None) -> str:
    return "qa/data" if data_dir is None or Path(data_dir) == PACKAGE_DATA_DIR else str(data_dir)


def _changed(old: Any, new: dict[str, str]) -> list[tuple[str, str]]:
    """(name, what happened) for each entry of two name → hash maps that differs."""
    old = old if isinstance(old, dict) else {}
    out = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            out.append((name, "added"))
        elif name not in new:
            out.append((name, "removed"))
        elif old[name] != new[name]:
            out.append((name, "changed"))
    return out


def stale_reasons(manifest: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Why an index with ``manifest`` is not current (empty when it is), each naming what changed."""
    labels = {
        "format_version": "index format changed",
        "encoder": "encoder changed",
        "corpus_hash": "seed texts or catalog changed",
    }
    reasons = [
        f"{label} ({manifest.get(key)!r} → {expected[key]!r})"
        for key, label in labels.items()
        if key in expected and manifest.get(key) != expected[key]
    ]
    if manifest.get("format_version") != expected.get("format_version"):
        return reasons  # an older manifest records other things: the format says it all
    where = _data_label(expected.get("data_dir"))
    reasons += [f"{where}/{name} {what}" for name, what in _changed(manifest.get("tables"), expected.get("tables", {}))]
    code = [f"{name} {what}" for name, what in _changed(manifest.get("code"), expected.get("code", {}))]
    if code:
        shown = ", ".join(code[:3]) + (f" and {len(code) - 3} more" if len(code) > 3 else "")
        reasons.append(f"indexing code changed ({shown})")
    if "confidence_version" in expected:
        saved = manifest.get("confidence")
        have = saved.get("version") if isinstance(saved, dict) else None
        if have is None:
            reasons.append("no confidence calibration")
        elif have != expected["confidence_version"]:
            reasons.append(f"confidence calibration changed (version {have!r} → {expected['confidence_version']!r})")
        elif isinstance(saved, dict) and not all(isinstance(saved.get(key, 0.0), (int, float)) and not isinstance(saved.get(key, 0.0), bool)
                     for key in ("dense_min", "ritual_min")):
            reasons.append("confidence calibration damaged (a threshold is not a number)")
    return reasons


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The manifest of ``directory``, None when there is no index; IndexStoreError when it is garbled."""
    path = Path(directory) / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise IndexStoreError(f"{path}: manifest unreadable ({exc.__class__.__name__}); rebuild with `qa build --force`") from None
    if not isinstance(manifest, dict):
        raise IndexStoreError(f"{path}: manifest is not a JSON object; rebuild with `qa build --force`")
    return manifest


__all__ = ["Calibrate", "FORMAT_VERSION", "MANIFEST", "CODE_PACKAGES", "code_hashes", "expected_manifest",
           "read_manifest", "stale_reasons", "sha256_file"]
