"""The index directory: the only module that writes it; builds it atomically and loads it only if it is current.

Layout (all named files, no pickle)::

    index/
      manifest.json     format version, encoder id, dims, what it was built from (seeds hash,
                        sha256 of each data table and of the indexing code), build time,
                        counts, sha256 of every other file, confidence calibration
      units.jsonl       LemmaUnit.to_dict() per line
      passages.jsonl    Passage.to_dict() per line; line number = passage id
      dense.faiss       FAISS index of passage vectors (row = passage id)
      lexical/          qa.indexing.lexical.LexicalIndex.save()
      encoder/          the trained static-corpus model (sentence-transformers format), if used

A build writes a sibling temporary directory and renames it into place, so a failed or
interrupted build leaves the previous index as it was; a build killed before it could clean
up leaves its temporary folder, which the next build removes (:func:`remove_leftovers`).

Loading uses an index only when it is current: built from the same seeds, data tables, code,
encoder and format, with a calibration (qa.indexing.manifest says what that means and why not).
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus.load import Corpus, load_corpus
from ..corpus.units import LemmaUnit
from ..errors import DataTableError, IndexStoreError, QAError
from ..settings import Settings
from ..text import tables
from .dense import DenseIndex
from .encoders import Encoder, encoder_id, load_encoder
from .encoders.static import STATIC_ID
from .lexical import LexicalIndex
from .manifest import (
    FORMAT_VERSION,
    MANIFEST,
    Calibrate,
    code_hashes,
    expected_manifest,
    read_manifest,
    sha256_file,
    stale_reasons,
)
from .passages import Passage, make_passages

log = logging.getLogger(__name__)

#: A leftover build folder is removed when its process is gone, or, when the name holds no
#: process id (folders of older versions), once it is this old.
LEFTOVER_SECONDS = 24 * 3600
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
    lexical: LexicalIndex
    encoder: Encoder


def _file_hashes(directory: Path) -> dict[str, str]:
    return {
        p.relative_to(directory).as_posix(): sha256_file(p)
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


def _reuse_key(text: str, norm: str) -> str:
    # The normalized form too: an encoder may read it (hashing, static-corpus), and a table or
    # code change alters it for some passages only; the others are not embedded again.
    return hashlib.sha256(f"{text}\0{norm}".encode()).hexdigest()


def _reusable_vectors(settings: Settings, enc_id: str) -> dict[str, np.ndarray]:
    """Vectors of the current index keyed by passage text (and its normalized form), when its encoder is the same and fixed.

    A trained static-corpus model changes with the corpus, so its vectors are never reused.
    """
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
    try:
        return {_reuse_key(r["text"], r["norm"]): vectors[i] for i, r in enumerate(rows)}
    except (KeyError, TypeError):
        return {}


def _encode_passages(encoder: Encoder, passages: tuple[Passage, ...], reuse: dict[str, np.ndarray]) -> np.ndarray:
    """Passage vectors; a passage whose key is in ``reuse`` is not embedded again."""
    keys = [_reuse_key(p.text, p.norm) for p in passages]
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


def _use_tables(settings: Settings) -> None:
    """Read the tables of ``settings.data_dir`` from now on, afresh if one changed on disk."""
    tables.use_data_dir(settings.data_dir)
    if tables.refresh():
        log.info("data tables changed on disk: read again")


def build_index(settings: Settings, *, corpus: Corpus | None = None, calibrate: Calibrate | None = None) -> Path:
    """Build the index for ``settings`` into a temporary directory and rename it to ``settings.index_dir``.

    ``calibrate`` (qa.retrieval.confidence.calibrate) computes the confidence calibration the
    manifest stores; without it the index has none, and a retriever will rebuild it.
    """
    started = time.perf_counter()
    target = Path(settings.index_dir)
    _use_tables(settings)
    corpus = corpus if corpus is not None else load_corpus(settings.seeds_dir)
    if not corpus.units:
        raise IndexStoreError(f"{settings.seeds_dir}: the corpus has no lemma units; nothing to index")
    if target.exists():
        _check_replaceable(target)  # fail before the work, not after it
    expected = expected_manifest(settings, corpus=corpus, calibrate=calibrate)
    expected.pop("confidence_version", None)  # the calibration itself records its version
    enc_id = encoder_id(settings.model)
    reuse = _reusable_vectors(settings, enc_id)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target)
        # the process id in the name tells a later build whether this one is still running
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-{os.getpid()}-", dir=target.parent))
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
        manifest: dict[str, Any] = {
            **expected,
            "encoder_dim": encoder.dim,
            "dense_kind": dense.kind,
            "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "counts": {"units": len(corpus.units), "passages": len(passages)},
        }
        if calibrate is not None:
            manifest["confidence"] = calibrate(IndexData(tmp, manifest, corpus.units, passages, dense, lexical, encoder),
                                               settings)
        manifest["build_seconds"] = round(time.perf_counter() - started, 2)
        manifest["files"] = _file_hashes(tmp)
        (tmp / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        _swap_into_place(tmp, target)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        # A full disk shows as OSError, or as safetensors' own error when the encoder is saved.
        if isinstance(exc, OSError) or type(exc).__name__ == "SafetensorError":
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
            raise IndexStoreError(f"cannot write the index {target}: {why}; the previous index is unchanged") from None
        raise
    log.info("built %s: %d units, %d passages, %s, %.1f s", target, len(corpus.units), len(passages), enc_id,
             time.perf_counter() - started)
    return target


_LEFTOVER_PID = re.compile(r"(\d+)-")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, as another user
        return True
    return True


def remove_leftovers(target: Path) -> list[Path]:
    """Remove the temporary folders (``.<name>.building-*``, ``.<name>.old-*``) that builds of
    ``target`` killed before they could clean up left beside it; returns those removed.

    A folder whose name holds a process id stays while that process runs (a concurrent build);
    one without (older versions) stays until it is LEFTOVER_SECONDS old. Process ids are
    this machine's: builds from several machines into one shared folder are not told apart.
    """
    target = Path(target)
    removed = []
    for kind in ("building", "old"):
        prefix = f".{target.name}.{kind}-"
        for path in sorted(target.parent.glob(glob.escape(prefix) + "*")):
            m = _LEFTOVER_PID.match(path.name[len(prefix):])
            try:
                if m is not None:
                    if _pid_alive(int(m.group(1))):
                        continue
                    why = f"process {m.group(1)} is gone"
                else:
                    age = time.time() - path.stat().st_mtime
                    if age < LEFTOVER_SECONDS:
                        continue
                    why = f"{age / 3600:.0f} h old"
            except OSError:
                continue  # removed meanwhile
            log.warning("removing %s, left by a build that did not finish (%s)", path, why)
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


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
    recorded = manifest.get("files")
    if not isinstance(recorded, dict):
        raise IndexStoreError(f"{directory / MANIFEST}: no file list; rebuild with `qa build --force`")
    for rel, digest in recorded.items():
        path = directory / rel
        if not path.is_file():
            raise IndexStoreError(f"{path}: missing from the index")
        if sha256_file(path) != digest:
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


def load_index(settings: Settings, *, build: bool | None = None, calibrate: Calibrate | None = None) -> IndexData:
    """The current index for ``settings``: built when missing, rebuilt when stale or damaged.

    An OS error on the way (an unreadable index folder, a full disk while rebuilding) is an
    IndexStoreError naming the path, so every door shows one line.

    ``build`` (default ``settings.auto_build``) False turns every such case into an
    IndexStoreError saying why (naming what changed) and how to fix it. With ``calibrate``
    (qa.retrieval.confidence.calibrate), an index without a calibration of its version is
    stale too, and a build computes one; the calibration is never computed at load.
    """
    try:
        return _load_index(settings, build=build, calibrate=calibrate)
    except OSError as exc:
        where = exc.filename or settings.index_dir
        raise IndexStoreError(f"{where}: cannot read or write the index: {exc.strerror or exc}") from None


def _load_index(settings: Settings, *, build: bool | None, calibrate: Calibrate | None) -> IndexData:
    build = settings.auto_build if build is None else build
    directory = Path(settings.index_dir)
    _use_tables(settings)
    try:
        expected = expected_manifest(settings, calibrate=calibrate)
    except DataTableError:
        raise  # without its tables nothing can be normalized: the index could not serve either
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
    build_index(settings, calibrate=calibrate)
    manifest = read_manifest(directory)
    assert manifest is not None
    return _open(directory, manifest, settings)


__all__ = [
    "IndexData",
    "Calibrate",
    "code_hashes",
    "remove_leftovers",
    "FORMAT_VERSION",
    "build_index",
    "load_index",
    "read_manifest",
    "expected_manifest",
    "stale_reasons",
]
