"""Shared benchmark helpers: the eval README's scoring, percentiles, memory, tables, child processes."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEV_QUESTIONS = Path(os.environ.get("QA_DEV_QUESTIONS", PROJECT_ROOT.parent / "shared" / "eval" / "dev_questions.jsonl"))
SEEDS_DIR = PROJECT_ROOT / "seeds"
#: Raw JSON and the summary tables (git-ignored; the README carries the tables).
RESULTS_DIR = PROJECT_ROOT / "bench-out"
#: Ranks beyond this count as a miss for MRR, as in `qa eval -k 10`.
MRR_DEPTH = 10


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def eval_norm(text: str) -> str:
    """The eval README's matching normalization, on purpose NOT qa.normalize (so figures stay honest).

    Drop whitespace, punctuation and private-use characters, OpenCC t2s, fold 於 to 于.
    """
    kept = "".join(
        ch for ch in text if not (ch.isspace() or unicodedata.category(ch)[0] in "PZ" or unicodedata.category(ch) == "Co")
    )
    return _t2s().convert(kept).replace("於", "于")


def load_questions(path: Path | str = DEV_QUESTIONS) -> list[dict[str, Any]]:
    """Questions in the dev-set JSONL format."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def gold_entries(q: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(source_file, normalized jing, normalized evidence) for the main gold and every `also` entry."""
    entries = [q, *q.get("also", ())]
    return [(e["source_file"], eval_norm(e["jing"]), eval_norm(e.get("evidence", ""))) for e in entries]


def unit_is_correct(unit: Any, q: dict[str, Any]) -> bool:
    """README rule for a lemma unit: gold file, gold 經 span inside its 經, evidence inside its whole text."""
    jing = eval_norm(unit.jing)
    full = eval_norm(unit.full_text)
    return any(src == unit.source and j in jing and ev in full for src, j, ev in gold_entries(q))


def chunk_is_hit(source: str, chunk_norm: str, q: dict[str, Any]) -> bool:
    """A fixed-size chunk is a hit when it comes from the gold file and contains the normalized gold 經 span."""
    return any(src == source and j in chunk_norm for src, j, _ in gold_entries(q))


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
