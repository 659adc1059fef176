"""Batched exact FAISS search: FAISS's default ``distance_compute_blas_threshold`` vs ours (qa.indexing.dense).

Random unit vectors (200k × 64 by default), k = 10, batches of 1, 16, 32 and 64 queries; the two
settings are timed interleaved (so load on a shared machine hits both alike) and must give the
same ids. Prints a Markdown table; writes bench-out/faiss_blas.json.

    python -m benchmarks.faiss_blas [--n 200000] [--dim 64] [--reps 25] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from ._common import write_json


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--reps", type=int, default=25)
    ap.add_argument("--threads", type=int, default=0, help="OpenMP threads (0: FAISS's default)")
    ap.add_argument("--batches", default="1,16,32,64")
    args = ap.parse_args(argv)

    import faiss

    default = faiss.cvar.distance_compute_blas_threshold  # before qa.indexing.dense sets its own
    from qa.indexing.dense import BLAS_THRESHOLD

    if args.threads:
        faiss.omp_set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    xb = rng.standard_normal((args.n, args.dim)).astype(np.float32)
    xb /= np.linalg.norm(xb, axis=1, keepdims=True)
    index = faiss.IndexFlatIP(args.dim)
    index.add(xb)
    rows = []
    for nq in (int(b) for b in args.batches.split(",")):
        xq = rng.standard_normal((nq, args.dim)).astype(np.float32)
        xq /= np.linalg.norm(xq, axis=1, keepdims=True)
        times: dict[int, list[float]] = {default: [], BLAS_THRESHOLD: []}
        ids: dict[int, np.ndarray] = {}
        for _ in range(args.reps):
            for threshold in (default, BLAS_THRESHOLD):
                faiss.cvar.distance_compute_blas_threshold = threshold
                started = time.perf_counter()
                _, ids[threshold] = index.search(xq, 10)
                times[threshold].append(time.perf_counter() - started)
        before, after = (float(np.median(times[t])) * 1000 for t in (default, BLAS_THRESHOLD))
        rows.append({"queries": nq, "default_ms": round(before, 2), "ours_ms": round(after, 2),
                     "default_min_ms": round(min(times[default]) * 1000, 2),
                     "ours_min_ms": round(min(times[BLAS_THRESHOLD]) * 1000, 2),
                     "speedup": round(before / after, 2), "same_ids": bool(np.array_equal(ids[default], ids[BLAS_THRESHOLD]))})
    faiss.cvar.distance_compute_blas_threshold = BLAS_THRESHOLD
    print(f"FAISS {faiss.__version__}, IndexFlatIP {args.n} × {args.dim}, k = 10, {faiss.omp_get_max_threads()} threads, "
          f"median of {args.reps} (min); load average {os.getloadavg()[0]:.1f}")
    print(f"\n| queries | threshold {default} (FAISS default) | threshold {BLAS_THRESHOLD} (ours) | speed-up | same ids |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['queries']} | {r['default_ms']:.1f} ms ({r['default_min_ms']:.1f}) | {r['ours_ms']:.1f} ms "
              f"({r['ours_min_ms']:.1f}) | ×{r['speedup']:.1f} | {r['same_ids']} |")
    write_json("faiss_blas.json", {"n": args.n, "dim": args.dim, "faiss_default": default, "ours": BLAS_THRESHOLD,
                                   "reps": args.reps, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
