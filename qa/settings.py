"""One settings object: defaults, overridden by ``QA_*`` environment variables, then CLI flags."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

#: The project root (the directory holding seeds/, qa/, index/, app.py).
PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: The shipped tables (variants, glossary, scaffolding, names, ...): the default of Settings.data_dir.
PACKAGE_DATA_DIR = Path(__file__).resolve().parent / "data"

#: Name of the offline default encoder, which the project trains itself from the corpus.
DEFAULT_MODEL = "static-corpus"


@dataclass(frozen=True, slots=True)
class Settings:
    """Every tunable of Yili QA. One name per concept; ``k`` is always the result count."""

    seeds_dir: Path = PROJECT_ROOT / "seeds"
    #: The built index (a directory of named files; see index/README.md). index/ itself only
    #: holds built indexes, so several can sit side by side (e.g. one per encoder).
    index_dir: Path = PROJECT_ROOT / "index" / "default"
    #: The tables normalization, query analysis and encoder training read (QA_DATA_DIR): point
    #: it at an edited copy of qa/data to try a change; indexes record each table's hash.
    data_dir: Path = PACKAGE_DATA_DIR
    #: ``static-corpus`` (offline default, trained from the corpus at build time), or any
    #: sentence-transformers model name or local path.
    model: str = DEFAULT_MODEL
    k: int = 5
    #: The largest ``k`` any door accepts (1 ≤ k ≤ max_k; outside it is an error, never a silent change).
    max_k: int = 50
    #: Queries longer than this (characters) are cut, with a warning.
    max_query_chars: int = 2000
    #: How many earlier questions a follow-up may lean on (every door: CLI, API, app).
    history_turns: int = 3
    #: Show tqdm progress bars on long work.
    progress: bool = False
    #: Web app sessions: each keeps its last ``session_turns`` exchanges (follow-ups lean on the last
    #: ``history_turns`` only, so this bounds memory, not behaviour), is forgotten ``session_ttl_s``
    #: after its last change, and at most ``max_sessions`` are held (the oldest go first). Gradio keeps
    #: a copy of each session's chat (≈ 0.15 MB after one question, ≈ 0.3 MB after 10 turns), so
    #: 300 sessions cap that near 100 MB and memory plateaus (benchmarks/soak.py).
    session_turns: int = 10
    session_ttl_s: int = 3600
    max_sessions: int = 300
    #: Web app bind address.
    host: str = "127.0.0.1"
    port: int = 7860
    #: Encoder batch size.
    batch_size: int = 64
    #: Device for sentence-transformers models ("cpu", "cuda", ...); None lets the library choose.
    device: str | None = None
    # --- retrieval core (added by the retriever-core helper) ---
    #: Dense index: exact FAISS IndexFlatIP below this many passages, IVF-Flat (approximate) above.
    ann_threshold: int = 50_000
    #: IVF lists searched per query (QA_IVF_NPROBE); 32 keeps recall@10 vs exact search ≥ 0.95
    #: from 10k to 1M units (benchmarks/README.md). Higher: more accurate, proportionally slower.
    ivf_nprobe: int = 32
    #: Build the index automatically on first use when it is missing or stale.
    auto_build: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "Settings":
        """Defaults, then ``QA_<FIELD>`` variables (e.g. ``QA_INDEX_DIR``), then ``overrides``.

        ``None`` values in ``overrides`` mean "not given" (so CLI flags can pass through).
        """
        env = os.environ if env is None else env  # Mapping: os.environ or a plain dict
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"QA_{f.name.upper()}")
            if raw is not None and raw != "":
                values[f.name] = _coerce(f.name, f.type, raw)
        for name, value in overrides.items():
            if name not in {f.name for f in fields(cls)}:
                raise ConfigError(f"unknown setting {name!r}")
            if value is not None:
                values[name] = _coerce(name, _field_type(cls, name), value)
        return cls(**values)

    def replace(self, **changes: Any) -> "Settings":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)


#: The defaults, for functions that take an optional limit (one home for every default value).
DEFAULTS = Settings()


def _field_type(cls: type, name: str) -> str:
    return next(str(f.type) for f in fields(cls) if f.name == name)


def _coerce(name: str, type_name: Any, value: Any) -> Any:
    t = str(type_name)
    try:
        if t == "Path":
            return Path(value).expanduser()
        if t == "int":
            v = int(value)
            if v <= 0 and name != "port":
                raise ValueError("must be positive")
            return v
        if t == "bool":
            if isinstance(value, bool):
                return value
            s = str(value).strip().lower()
            if s in {"1", "true", "yes", "on"}:
                return True
            if s in {"0", "false", "no", "off"}:
                return False
            raise ValueError("expected true/false")
        return value if value is None else str(value)
    except ValueError as exc:
        raise ConfigError(f"invalid value for {name} (QA_{name.upper()}): {value!r}: {exc}") from None
