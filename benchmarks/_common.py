"""Shared benchmark helpers: the eval README's scoring, percentiles, memory, tables, child processes."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

from qa.evaluate import Question, match_norm, read_questions

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEV_QUESTIONS = Path(os.environ.get("QA_DEV_QUESTIONS", PROJECT_ROOT.parent / "shared" / "eval" / "dev_questions.jsonl"))
SEEDS_DIR = PROJECT_ROOT / "seeds"
#: Raw JSON and the summary tables (git-ignored; the README carries the tables).
RESULTS_DIR = PROJECT_ROOT / "bench-out"
#: Ranks beyond this count as a miss for MRR, as in `qa eval -k 10`.
MRR_DEPTH = 10


def eval_norm(text: str) -> str:
    """The eval README's matching normalization: :func:`qa.evaluate.match_norm` (not qa.text.normalize)."""
    return match_norm(text)


def load_questions(path: Path | str = DEV_QUESTIONS) -> list[Question]:
    """Questions in the dev-set format, read by :func:`qa.evaluate.read_questions`."""
    return read_questions(path)


def unit_is_correct(unit: Any, q: Question) -> bool:
    """The eval rule for a lemma unit (:meth:`qa.evaluate.Gold.matches`), for the main gold and every ``also``."""
    return any(g.matches(unit) for g in q.gold)


def chunk_is_hit(source: str, chunk_text: str, q: Question) -> bool:
    """The eval rule for a fixed-size chunk (:meth:`qa.evaluate.Gold.matches_chunk`)."""
    return any(g.matches_chunk(source, chunk_text) for g in q.gold)


def first_rank(flags: Iterable[bool]) -> int | None:
    """1-based rank of the first true flag, or None."""
    for i, ok in enumerate(flags, 1):
        if ok:
            return i
    return None


def rank_metrics(ranks: Sequence[int | None]) -> dict[str, float]:
    """hit@1, hit@5, hit@10 and MRR@10 from first-correct ranks."""
    n = max(len(ranks), 1)
    return {
        "hit@1": sum(1 for r in ranks if r is not None and r <= 1) / n,
        "hit@5": sum(1 for r in ranks if r is not None and r <= 5) / n,
        "hit@10": sum(1 for r in ranks if r is not None and r <= 10) / n,
        "mrr": sum(1.0 / r for r in ranks if r is not None and r <= MRR_DEPTH) / n,
        "n": len(ranks),
    }


def percentile(values: Sequence[float], p: float) -> float:
    """Linear-interpolated percentile (p in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    import numpy as np

    return float(np.percentile(np.asarray(values, dtype=float), p))


def latency_summary(seconds: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {"p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95), "mean_ms": statistics.fmean(ms) if ms else float("nan")}


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Timer:
    """`with Timer() as t: ...; t.seconds`."""

    def __enter__(self) -> "Timer":
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start


def run_child(args: Sequence[str], *, env: dict[str, str] | None = None, timeout: float = 1800) -> dict[str, Any]:
    """Run ``python -m benchmarks.<...>`` in its own process (memory isolation); return the JSON it prints last.

    The child measures itself and prints one JSON object as its last stdout line.
    """
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    full_env.update(env or {})
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, *args], cwd=PROJECT_ROOT, env=full_env, capture_output=True, text=True, timeout=timeout
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"child {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise RuntimeError(f"child {' '.join(args)} printed no JSON:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    out = json.loads(lines[-1])
    out.setdefault("process_wall_s", wall)
    return out


def fmt(value: Any) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "–"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def markdown_table(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """A GitHub Markdown table of ``rows`` restricted to ``columns``."""
    head = "| " + " | ".join(columns) + " |"
    sep = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(fmt(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join([head, sep, *body])


def write_json(name: str, data: Any) -> Path:
    """Save a benchmark's JSON under benchmarks/results/."""
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    if isinstance(data, dict):
        # timings on a shared 2-core box depend on what else runs: record the load next to them
        data = {**data, "machine": {"cpus": os.cpu_count(), "loadavg_1_5_15": os.getloadavg()}}
    path = RESULTS_DIR / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path
