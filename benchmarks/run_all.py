"""Run every benchmark and write the tables to bench-out/summary.md (and each one's JSON).

    python -m benchmarks.run_all                    # quality + speed + api (~1.5 min) + scaling 10k/100k/1M (~7 min, ~11 GiB peak)
    python -m benchmarks.run_all --sizes 10000      # a quick scaling run
    python -m benchmarks.run_all --no-scaling
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._common import DEV_QUESTIONS, PROJECT_ROOT, RESULTS_DIR


def run(module: str, *args: str) -> str:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", f"benchmarks.{module}", *args], cwd=PROJECT_ROOT, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"benchmarks.{module} failed ({proc.returncode})")
    out = proc.stdout.strip()
    print(f"## {module} ({time.perf_counter() - started:.0f} s)\n\n{out}\n", flush=True)
    return f"## {module}\n\n`python -m benchmarks.{module} {' '.join(args)}`\n\n{out}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--sizes", default="10000,100000,1000000", help="scaling study sizes (units)")
    ap.add_argument("--no-scaling", action="store_true")
    args = ap.parse_args(argv)
    parts = [run("quality", "--questions", str(args.questions)), run("speed", "--questions", str(args.questions)),
             run("api", "--questions", str(args.questions))]
    if not args.no_scaling:
        parts.append(run("scaling", "--sizes", args.sizes, "--questions", str(args.questions)))
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "summary.md").write_text("# Benchmark results\n\n" + "\n".join(parts), encoding="utf-8")
    print(f"tables: {RESULTS_DIR / 'summary.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
