"""The one reader of the data tables (``qa/data``, or ``Settings.data_dir`` / ``QA_DATA_DIR``).

Every table is declared in :data:`TABLES` with its columns; :func:`read_table` skips
``#`` comments and blank lines, checks each row's column count and raises a
:class:`~qa.errors.DataTableError` naming ``file:line`` and what is wrong, so a scholar who
edits a table gets one line to act on, never an IndexError traceback.

Which directory is read: the one set by :func:`use_data_dir` (``load_index`` / ``build_index``
set it from their settings), else ``QA_DATA_DIR``, else the package's ``qa/data``. The tables
are process-wide (normalization applies to every text and query alike), so the cached readers
built on them (``qa.text.lexicon``, ``qa.text.normalize``) key their caches by directory
(:func:`per_directory`), and :func:`refresh` forgets them when a table read so far has
changed on disk (a build calls it, so it never indexes with tables older than it records).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from ..errors import ConfigError, DataTableError
from ..settings import PACKAGE_DATA_DIR, Settings


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table's columns, tab-separated; the first ``required`` must be present and non-empty."""

    columns: tuple[str, ...]
    required: int
    #: False for a table that only changes what is displayed (not what an index stores), so
    #: editing it needs no rebuild.
    indexed: bool = True

    def describe(self) -> str:
        return "<TAB>".join(self.columns)


#: Every table the library reads, by file name. An index records the hash of each (see
#: qa.indexing.store): they all feed what a build stores (normalized text, lexical tokens,
#: encoder training pairs, and the confidence calibration, which runs the query analysis).
TABLES: dict[str, TableSpec] = {
    "variants.tsv": TableSpec(("from", "to", "why"), 2),
    "glossary.tsv": TableSpec(("term", "corpus terms", "note", "train"), 2),
    "scaffolding.tsv": TableSpec(("phrase", "kind"), 1),
    "rites.tsv": TableSpec(("name", "rite_id"), 2),
    "other_rites.tsv": TableSpec(("name", "rite"), 2),
    "commentators.tsv": TableSpec(("name", "layer"), 2),
    "offtopic.tsv": TableSpec(("question", "lang"), 1),
    # the topic classifier's negatives (qa.retrieval.topic): trained per process, nothing an index stores
    "everyday.tsv": TableSpec(("question", "lang", "brief"), 1, indexed=False),
    # ... and its positives beside the unit and sentence questions: questions in six voices of real readers
    "voices.tsv": TableSpec(("unit id", "voice", "question"), 3, indexed=False),
    # words of today's world (the confidence rule reads them per question; nothing an index stores)
    "modern.tsv": TableSpec(("name", "kind"), 2, indexed=False),
    # ... and what the corpus's text cannot say: other works, a commentator's life, the classic's history
    "beyond.tsv": TableSpec(("name", "kind"), 2, indexed=False),
    "jing_reference.txt": TableSpec(("normalized 經 text",), 1),
    "corrections.tsv": TableSpec(("source file", "wrong form in context", "corrected", "why"), 4, indexed=False),
    # the learned re-ranker's weights: they order search results, never what an index stores
    "rerank.tsv": TableSpec(("feature", "weight"), 2, indexed=False),
    # ... and the learned sentence model's (qa/answering/sentence_model.py): which answer sentence is shown first
    "sentence_rerank.tsv": TableSpec(("feature", "weight"), 2, indexed=False),
    # the project's plain retellings of each unit (qa.retrieval.renderings): a retrieval channel, and
    # training pairs of the static-corpus encoder (so an index records them)
    "renderings.tsv": TableSpec(("unit id", "opening", "en", "zh", "note_en", "note_zh"), 2),
    # ... and of each 注 and 疏 sentence: read by the sentence scorer and the English reading aid only
    "note_renderings.tsv": TableSpec(("unit id", "注 or 疏 sentence (normalized)", "en", "zh"), 4, indexed=False),
    # the questions each unit answers, in lay words (qa.retrieval.asked): a retrieval channel, and training
    # pairs of the static-corpus encoder (so an index records them)
    "unit_questions.tsv": TableSpec(("unit id", "opening", "lang", "question", "train"), 4),
    # ... and of each 注, 疏 and 析疑 sentence: read by the sentence scorer and (rows that train) the topic classifier
    "sentence_questions.tsv": TableSpec(("unit id", "注, 疏 or 析疑 sentence (normalized)", "lang", "question", "train"),
                                        4, indexed=False),
}


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: its fields (stripped; trailing empty ones dropped) and where it stands."""

    path: Path
    line: int
    fields: tuple[str, ...]

    def get(self, i: int, default: str = "") -> str:
        return self.fields[i] if i < len(self.fields) else default

    def error(self, message: str) -> DataTableError:
        """An error about this row (for a check the column count cannot make, e.g. an unknown kind)."""
        return DataTableError(message, path=str(self.path), line=self.line)


_override: Path | None = None
#: sha256 of each table file as read, for refresh().
_read_digests: dict[Path, str] = {}
#: The caches of per_directory readers, cleared together by refresh().
_caches: list = []
_F = TypeVar("_F", bound=Callable)


def per_directory(fn: _F) -> _F:
    """Cache a reader whose first argument is the data directory (a few directories, for tests and scholars)."""
    cached = lru_cache(maxsize=8)(fn)
    _caches.append(cached)
    return cached  # type: ignore[return-value]


def register_cache(cache: _F) -> _F:
    """Have :func:`refresh` clear ``cache`` (an lru_cache whose values depend on the tables) too."""
    _caches.append(cache)
    return cache


def refresh() -> bool:
    """Forget every cached table when one read so far has changed on disk since; True when it did."""
    changed = False
    for path, digest in list(_read_digests.items()):
        try:
            changed = hashlib.sha256(path.read_bytes()).hexdigest() != digest
        except OSError:
            changed = True
        if changed:
            break
    if changed:
        for cache in _caches:
            cache.cache_clear()
        _read_digests.clear()
    return changed


def use_data_dir(directory: Path | str | None) -> None:
    """Make ``directory`` the data directory of this process (None: back to QA_DATA_DIR / the package's)."""
    global _override
    _override = None if directory is None else Path(directory).expanduser()


@lru_cache(maxsize=8)
def _env_dir(raw: str) -> Path:
    return Settings.from_env(env={"QA_DATA_DIR": raw}).data_dir


def data_dir() -> Path:
    """The data directory the readers use now (cheap: the normalizer asks once per text)."""
    if _override is not None:
        return _override
    raw = os.environ.get("QA_DATA_DIR")
    return _env_dir(raw) if raw else PACKAGE_DATA_DIR


def table_path(name: str, directory: Path | None = None) -> Path:
    if name not in TABLES:
        raise ConfigError(f"unknown data table {name!r} (known: {', '.join(TABLES)})")
    return (directory if directory is not None else data_dir()) / name


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise DataTableError(f"data table missing (data directory {path.parent})", path=str(path)) from None
    except OSError as exc:
        raise DataTableError(f"data table unreadable: {exc.strerror or exc}", path=str(path)) from None


def read_table(name: str, directory: Path | None = None) -> tuple[Row, ...]:
    """The data rows of table ``name`` (in ``directory``, default :func:`data_dir`), each checked against its spec."""
    path = table_path(name, directory)  # ConfigError for a table nobody declared
    spec = TABLES[name]
    raw = _read_bytes(path)
    _read_digests[path] = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataTableError(f"not UTF-8 (byte {exc.start})", path=str(path), line=line) from None
    rows = []
    for n, line_text in enumerate(text.split("\n"), 1):
        line_text = line_text.rstrip("\r")
        if not line_text.strip() or line_text.startswith("#"):
            continue
        fields = [f.strip() for f in line_text.split("\t")]
        while len(fields) > spec.required and not fields[-1]:
            fields.pop()  # a stray trailing tab is harmless
        if len(fields) > len(spec.columns) or len(fields) < spec.required:
            want = (f"{spec.required}" if spec.required == len(spec.columns)
                    else f"{spec.required} to {len(spec.columns)}")
            raise DataTableError(
                f"{len(fields)} column{'s' if len(fields) != 1 else ''}, expected {want} ({spec.describe()})",
                path=str(path), line=n,
            )
        empty = [spec.columns[i] for i in range(spec.required) if not fields[i]]
        if empty:
            raise DataTableError(f"empty {', '.join(empty)} ({spec.describe()})", path=str(path), line=n)
        rows.append(Row(path, n, tuple(fields)))
    return tuple(rows)


def read_weights(name: str, features: Sequence[str], what: str, directory: Path | None = None) -> tuple[float, ...]:
    """The weights of a learned model's table ``name`` (feature<TAB>weight), one per name of ``features``, in that
    order; DataTableError naming the row of an unknown feature or a weight that is no number, or the features missing.
    ``what`` names the model in the messages ("re-ranker")."""
    weights: dict[str, float] = {}
    for row in read_table(name, directory):
        feature = row.fields[0]
        if feature not in features:
            raise row.error(f"unknown {what} feature {feature!r} (known: {', '.join(features)})")
        try:
            weights[feature] = float(row.fields[1])
        except ValueError:
            raise row.error(f"weight of {feature} is not a number: {row.fields[1]!r}") from None
    missing = [f for f in features if f not in weights]
    if missing:
        raise DataTableError(f"{what} weights missing for {', '.join(missing)}", path=str(table_path(name, directory)))
    return tuple(weights[f] for f in features)


def table_hashes(directory: Path | None = None) -> dict[str, str]:
    """sha256 of every indexed table's bytes, by file name (what an index records it was built from)."""
    d = directory if directory is not None else data_dir()
    return {name: hashlib.sha256(_read_bytes(d / name)).hexdigest() for name in sorted(TABLES) if TABLES[name].indexed}


__all__ = ["register_cache", "TABLES", "TableSpec", "Row", "read_table", "read_weights", "table_hashes", "table_path", "data_dir", "use_data_dir",
           "per_directory", "refresh"]
