"""The index directory: the only module that writes it; builds it atomically and loads it only if it is current.

Layout (all named files, no pickle)::

    index/
      manifest.json     format version, encoder id, dims, corpus hash, normalizer version,
                        build time, counts, sha256 of every other file, confidence calibration
      units.jsonl       LemmaUnit.to_dict() per line
      passages.jsonl    Passage.to_dict() per line; line number = passage id
      dense.faiss       FAISS index of passage vectors (row = passage id)
      lexical/          qa.lexical.LexicalIndex.save()
      encoder/          the trained static-corpus model (sentence-transformers format), if used

A build writes a sibling temporary directory and renames it into place, so a failed or
interrupted build leaves the previous index as it was.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus.load import Corpus, corpus_hash, load_corpus
from .dense import DenseIndex
from .encoders import Encoder, encoder_id, load_encoder
from ..errors import IndexStoreError, QAError
from ..text.normalize import NORMALIZER_VERSION
from .passages import Passage, make_passages
from ..settings import Settings
from ..corpus.units import LemmaUnit

log = logging.getLogger(__name__)

#: Bump when the layout or the passage cutting changes: older indexes then rebuild.
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
UNITS = "units.jsonl"
PASSAGES = "passages.jsonl"
DENSE = "dense.faiss"
LEXICAL = "lexical"
ENCODER = "encoder"
#: Every name an index directory holds. A directory with nothing else in it is ours even
#: without its manifest (a damaged index), so a rebuild may replace it.
OWN_NAMES = frozenset({MANIFEST, UNITS, PASSAGES, DENSE, LEXICAL, ENCODER})


@dataclass(frozen=True, slots=True)
class IndexData:
    """Everything a loaded index holds."""

    directory: Path
    manifest: dict[str, Any]
    units: tuple[LemmaUnit, ...]
    passages: tuple[Passage, ...]
    dense: DenseIndex
    lexical: Any  # qa.lexical.LexicalIndex
    encoder: Encoder


def expected_manifest(settings: Settings, *, corpus: Corpus | None = None) -> dict[str, Any]:
    """What a current index's manifest must say for these settings and seeds."""
    return {
        "format_version": FORMAT_VERSION,
        "encoder": encoder_id(settings.model),
        "corpus_hash": corpus.corpus_hash if corpus is not None else corpus_hash(settings.seeds_dir),
        "normalizer_version": NORMALIZER_VERSION,
    }


def stale_reasons(manifest: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Why an index with ``manifest`` is not current (empty when it is)."""
    labels = {
        "format_version": "index format changed",
        "encoder": "encoder changed",
        "corpus_hash": "seed texts or catalog changed",
        "normalizer_version": "normalizer changed",
    }
    return [
        f"{labels[key]} ({manifest.get(key)!r} → {value!r})"
        for key, value in expected.items()
        if manifest.get(key) != value
    ]


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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _file_hashes(directory: Path) -> dict[str, str]:
    return {
        p.relative_to(directory).as_posix(): _sha256(p)
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != MANIFEST
    }


def _write_jsonl(path: Path, rows) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    raise IndexStoreError(f"{path}:{n}: not valid JSON (truncated or corrupt index)") from None
    return rows


def _reusable_vectors(settings: Settings, enc_id: str) -> dict[str, np.ndarray]:
    """Vectors of the current index keyed by passage-text hash, when its encoder is the same and fixed.

    A trained static-corpus model changes with the corpus, so its vectors are never reused.
    """
    from .encoders.static import STATIC_ID

    if enc_id == STATIC_ID:
        return {}
    try:
        manifest = read_manifest(settings.index_dir)
        if not manifest or manifest.get("encoder") != enc_id or manifest.get("format_version") != FORMAT_VERSION:
            return {}
        rows = _read_jsonl(settings.index_dir / PASSAGES)
        dense = DenseIndex.load(settings.index_dir / DENSE)
        vectors = dense.vectors()
    except (QAError, OSError, RuntimeError, ValueError):  # ValueError: undecodable bytes in a damaged file
        return {}
    if len(rows) != len(vectors):
        return {}
    return {hashlib.sha256(r["text"].encode()).hexdigest(): vectors[i] for i, r in enumerate(rows)}


def _encode_passages(encoder: Encoder, passages: tuple[Passage, ...], reuse: dict[str, np.ndarray]) -> np.ndarray:
    """Passage vectors; text whose hash is in ``reuse`` is not embedded again."""
    keys = [hashlib.sha256(p.text.encode()).hexdigest() for p in passages]
    todo = [i for i, key in enumerate(keys) if key not in reuse]
    vectors = np.zeros((len(passages), encoder.dim), dtype=np.float32)
    if todo:
        vectors[todo] = encoder.encode([passages[i].text for i in todo], kind="passage")
    for i, key in enumerate(keys):
        if key in reuse:
            vectors[i] = reuse[key]
    if reuse:
        log.info("embedded %d passages, reused %d unchanged", len(todo), len(passages) - len(todo))
    return vectors


def build_index(settings: Settings, *, corpus: Corpus | None = None) -> Path:
    """Build the index for ``settings`` into a temporary directory and rename it to ``settings.index_dir``."""
    from ..retrieval.confidence import calibrate
    from .lexical import LexicalIndex

    started = time.perf_counter()
    target = Path(settings.index_dir)
    corpus = corpus if corpus is not None else load_corpus(settings.seeds_dir)
    if not corpus.units:
        raise IndexStoreError(f"{settings.seeds_dir}: the corpus has no lemma units; nothing to index")
    if target.exists():
        _check_replaceable(target)  # fail before the work, not after it
    enc_id = encoder_id(settings.model)
    reuse = _reusable_vectors(settings, enc_id)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    except OSError as exc:
        raise IndexStoreError(f"cannot write the index next to {target}: {exc.strerror or exc}") from None
    try:
        passages = make_passages(corpus.units)
        _write_jsonl(tmp / UNITS, (u.to_dict() for u in corpus.units))
        _write_jsonl(tmp / PASSAGES, (p.to_dict() for p in passages))
        encoder = load_encoder(settings.model, settings=settings, corpus=corpus, cache_dir=tmp / ENCODER)
        vectors = _encode_passages(encoder, passages, reuse)
        dense = DenseIndex.build(vectors, ann_threshold=settings.ann_threshold, nprobe=settings.ivf_nprobe)
        dense.save(tmp / DENSE)
        lexical = LexicalIndex.build(passages)
        (tmp / LEXICAL).mkdir()
        lexical.save(tmp / LEXICAL)
        data = IndexData(tmp, {}, corpus.units, passages, dense, lexical, encoder)
        manifest = {
            **expected_manifest(settings, corpus=corpus),
            "encoder_dim": encoder.dim,
            "dense_kind": dense.kind,
            "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "counts": {"units": len(corpus.units), "passages": len(passages)},
            "confidence": calibrate(data, settings),
            "build_seconds": round(time.perf_counter() - started, 2),
            "files": _file_hashes(tmp),
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        _swap_into_place(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log.info("built %s: %d units, %d passages, %s, %.1f s", target, len(corpus.units), len(passages), enc_id,
             time.perf_counter() - started)
    return target


def _check_replaceable(target: Path, *, warn: bool = True) -> None:
    """Refuse to replace ``target`` unless it is an index (whole, or damaged: only index files) or empty."""
    fix = "choose another --index-dir (QA_INDEX_DIR) or remove it"
    if not target.is_dir():
        raise IndexStoreError(f"{target} exists and is not a directory; refusing to replace it: {fix}")
    if (target / MANIFEST).is_file():
        return
    names = sorted(p.name for p in target.iterdir())
    foreign = [n for n in names if n not in OWN_NAMES]
    if foreign:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise IndexStoreError(
            f"{target} exists and is not an index directory (it holds {shown}); refusing to replace it: {fix}"
        )
    if names and warn:
        log.warning("%s has no %s but holds only index files (%s): replacing it as a damaged index",
                    target, MANIFEST, ", ".join(names))


def _swap_into_place(tmp: Path, target: Path) -> None:
    """Replace ``target`` with ``tmp`` by renames (the old index stays whole until the new one is in place)."""
    old = None
    try:
        if target.exists():
            _check_replaceable(target, warn=False)  # checked (and logged) before the build; re-checked for a race
            old = target.with_name(f".{target.name}.old-{os.getpid()}-{time.time_ns()}")
            os.rename(target, old)
        os.rename(tmp, target)
    except OSError as exc:
        if old is not None and not target.exists():
            os.rename(old, target)  # put the previous index back
        raise IndexStoreError(f"cannot move the new index into {target}: {exc.strerror or exc}") from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _open(directory: Path, manifest: dict[str, Any], settings: Settings) -> IndexData:
    """Read every part of a current index, checking each file against the manifest's hashes."""
    from .lexical import LexicalIndex

    recorded = manifest.get("files")
    if not isinstance(recorded, dict):
        raise IndexStoreError(f"{directory / MANIFEST}: no file list; rebuild with `qa build --force`")
    for rel, digest in recorded.items():
        path = directory / rel
        if not path.is_file():
            raise IndexStoreError(f"{path}: missing from the index")
        if _sha256(path) != digest:
            raise IndexStoreError(f"{path}: does not match the manifest (truncated or changed)")
    units = tuple(LemmaUnit.from_dict(d) for d in _read_jsonl(directory / UNITS))
    passages = tuple(Passage.from_dict(d) for d in _read_jsonl(directory / PASSAGES))
    dense = DenseIndex.load(directory / DENSE, nprobe=settings.ivf_nprobe)
    if len(dense) != len(passages):
        raise IndexStoreError(f"{directory / DENSE}: {len(dense)} vectors for {len(passages)} passages")
    try:
        lexical = LexicalIndex.load(directory / LEXICAL, passages)
    except QAError:
        raise
    except Exception as exc:  # noqa: BLE001 - numpy/json errors from a damaged file
        raise IndexStoreError(f"{directory / LEXICAL}: lexical index unreadable: {exc.__class__.__name__}: {exc}") from None
    encoder = load_encoder(settings.model, settings=settings, cache_dir=directory / ENCODER)
    if encoder.dim != dense.dim:
        raise IndexStoreError(f"{directory}: encoder gives {encoder.dim} dimensions, the index holds {dense.dim}")
    return IndexData(directory, manifest, units, passages, dense, lexical, encoder)


def load_index(settings: Settings, *, build: bool | None = None) -> IndexData:
    """The current index for ``settings``: built when missing, rebuilt when stale or damaged.

    ``build`` (default ``settings.auto_build``) False turns every such case into an
    IndexStoreError saying why and how to fix it.
    """
    build = settings.auto_build if build is None else build
    directory = Path(settings.index_dir)
    try:
        expected = expected_manifest(settings)
    except QAError as exc:
        # Seeds unreadable: an existing index can still serve, it just cannot be checked.
        manifest = read_manifest(directory)
        if manifest is None:
            raise
        log.warning("cannot check the index against the seeds (%s); using it as built", exc)
        return _open(directory, manifest, settings)

    why: str
    try:
        manifest = read_manifest(directory)
    except IndexStoreError as exc:
        manifest, why = None, str(exc)
    else:
        if manifest is not None:
            why = "; ".join(stale_reasons(manifest, expected))
        elif directory.exists():
            _check_replaceable(directory, warn=False)  # a directory that is not ours: say so, build nothing
            why = f"{MANIFEST} missing (damaged index)" if any(directory.iterdir()) else "no index yet"
        else:
            why = "no index yet"
    if manifest is not None and not why:
        try:
            return _open(directory, manifest, settings)
        except IndexStoreError as exc:
            why = str(exc)
    if not build:
        raise IndexStoreError(f"{directory}: index needs a rebuild: {why}; run `qa build`")
    # first use is routine (info); replacing an index that exists is worth a warning
    (log.info if manifest is None and not directory.exists() else log.warning)("building the index in %s (%s)", directory, why)
    build_index(settings)
    manifest = read_manifest(directory)
    assert manifest is not None
    return _open(directory, manifest, settings)


__all__ = [
    "IndexData",
    "FORMAT_VERSION",
    "build_index",
    "load_index",
    "read_manifest",
    "expected_manifest",
    "stale_reasons",
]
