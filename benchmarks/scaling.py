"""Scaling study: build time, index size, memory and query latency on synthetic corpora of 10k–1M units.

For each size, in its own process (so peak memory is that size's alone):
- lexical: the project's ``LexicalIndex`` over the synthetic units' passages (up to ``--lexical-max``
  units: above that generating and indexing the text does not fit the time budget here);
- dense: exact FAISS (``IndexFlatIP``) against the approximate index the project switches to
  above its size threshold (``qa.indexing.dense``: IVF-Flat), recall@10 of approximate vs exact for
  several ``nprobe`` values (one build serves them all: nprobe is a query-time knob). Passage vectors:
  up to ``--embed-limit`` passages are embedded with the project's real encoder, the rest are
  synthesized from them (see :mod:`benchmarks.synth`), so what is measured is the index, not
  the encoder; the encoder's own throughput is measured on the sample and reported.

    python -m benchmarks.scaling                       # 10k, 100k, 1M units
    python -m benchmarks.scaling --sizes 10000,100000  # a quicker run
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from benchmarks._common import (
    DEV_QUESTIONS,
    Timer,
    latency_summary,
    load_questions,
    markdown_table,
    peak_rss_mb,
    run_child,
    write_json,
)

DEFAULT_SIZES = (10_000, 100_000, 1_000_000)
K = 10


def dir_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def project_encoder(units):
    """The project's default encoder (trained from the real corpus), or the hashing encoder before it exists."""
    from qa.settings import Settings

    settings = Settings.from_env()
    try:
        from qa.corpus.load import load_corpus
        from qa.indexing.encoders import load_encoder  # noqa: F401  (the retriever-core helper's API)

        corpus = load_corpus(settings.seeds_dir)
        cache = Path(tempfile.mkdtemp(prefix="yili-enc-"))
        return load_encoder(settings.model, settings=settings, corpus=corpus, cache_dir=cache)
    except ImportError:
        from qa.indexing.encoders.hashing import HashingEncoder

        print("note: qa.indexing.encoders.load_encoder not available; using the hashing encoder", file=sys.stderr)
        return HashingEncoder()


def exact_index(vectors: np.ndarray):
    """The project's exact index (qa.indexing.dense, forced flat whatever the size)."""
    from qa.indexing.dense import DenseIndex

    return DenseIndex.build(vectors, ann_threshold=len(vectors) + 1)


def project_approx(vectors: np.ndarray, nprobe: int):
    """The approximate index the project switches to above its threshold (qa.indexing.dense, forced on)."""
    from qa.indexing.dense import DenseIndex

    return DenseIndex.build(vectors, ann_threshold=0, nprobe=nprobe)


def _approx_label(idx) -> str:
    if idx.kind == "ivf":
        return f"qa.indexing.dense ivf (nlist={idx.index.nlist}, nprobe={idx.index.nprobe})"
    return f"qa.indexing.dense {idx.kind}"


def _search_each(index, queries: np.ndarray, k: int, threads: int = 1) -> tuple[np.ndarray, list[float]]:
    """One query at a time, as the app searches, on ``threads`` OpenMP threads.

    One thread is the headline: a server answers concurrent requests one per core, and on a
    busy 2-core box FAISS's OpenMP fan-out for a single query costs more than it saves
    (measured here: 34k vectors, 1.3 ms on 1 thread against 24 ms on 2 under load).
    """
    import faiss

    faiss.omp_set_num_threads(threads)
    ids = np.empty((len(queries), k), dtype=np.int64)
    scores = np.empty((len(queries), k), dtype=np.float32)
    times = []
    for i, q in enumerate(queries):
        t0 = time.perf_counter()
        srow, row = index.search(q[None, :], k)  # one query at a time, as the app searches
        times.append(time.perf_counter() - t0)
        ids[i], scores[i] = row[0], srow[0]
    faiss.omp_set_num_threads(os.cpu_count() or 1)
    return (ids, scores), times


def recall_at_k(approx: np.ndarray, exact: np.ndarray) -> float:
    """Share of the exact top-k ids the approximate search returned."""
    hits = sum(len(set(a[a >= 0]) & set(e[e >= 0])) for a, e in zip(approx, exact))
    return hits / max(1, sum(int((e >= 0).sum()) for e in exact))


def tie_aware_recall(approx_scores: np.ndarray, exact_scores: np.ndarray, eps: float = 1e-5) -> float:
    """Share of approximate results scoring at least the exact k-th score: a near-duplicate swapped
    for an equally good one is not a miss (resampled corpora are full of such ties)."""
    kth = exact_scores[:, -1:]
    return float((approx_scores >= kth - eps).sum() / approx_scores.size)


def child(n_units: int, args: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.synth import real_units, synth_units, synth_vectors
    from qa.indexing.passages import make_passages

    out: dict[str, Any] = {"units": n_units}
    base = real_units()
    base_passages = make_passages(base)
    ratio = len(base_passages) / len(base)
    questions = [q.question for q in load_questions(args.questions)]
    tmp = Path(tempfile.mkdtemp(prefix="yili-scale-"))
    try:
        passages: Sequence = ()
        if n_units <= args.lexical_max:
            with Timer() as t:
                units = list(synth_units(base, n_units, seed=args.seed))
                passages = make_passages(units)
            out["synth_text_s"] = t.seconds
            out["passages"] = len(passages)
            out.update(_lexical(passages, questions, tmp))
        else:
            out["passages"] = int(round(n_units * ratio))
            out["passages_note"] = f"count from the real corpus's {ratio:.2f} passages/unit; no text generated"
        n_vec = out["passages"]

        encoder = project_encoder(base)
        out["encoder"] = encoder.name
        if not passages:
            # no full text at this size: still embed a synthetic sample as large as the smaller sizes
            # get, so vectors are synthesized from the same kind of base at every size
            sample_units = list(synth_units(base, max(1, int(args.embed_limit / ratio)), seed=args.seed + 1))
            passages_for_sample = make_passages(sample_units)
        else:
            passages_for_sample = passages
        sample_texts = [p.text for p in passages_for_sample][: args.embed_limit]
        with Timer() as t:
            sample = encoder.encode(sample_texts, kind="passage")
        out["embedded"] = len(sample_texts)
        out["embed_per_s"] = len(sample_texts) / t.seconds
        out["embed_all_projected_s"] = n_vec / out["embed_per_s"]
        vectors = synth_vectors(sample, n_vec, seed=args.seed)
        del sample
        queries = encoder.encode(questions, kind="query")
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        out["dim"] = int(vectors.shape[1])
        out["queries"] = len(queries)

        with Timer() as t:
            exact = exact_index(vectors)
        out["exact_build_s"] = t.seconds
        exact.save(tmp / "exact.faiss")
        out["exact_bytes"] = (tmp / "exact.faiss").stat().st_size
        (tmp / "exact.faiss").unlink()
        exact_result, times = _search_each(exact, queries, K)
        out.update({f"exact_{k}": v for k, v in latency_summary(times).items()})
        _, times = _search_each(exact.index, queries, K, threads=os.cpu_count() or 1)  # raw FAISS: its own threading
        out["exact_p50_ms_all_threads"] = latency_summary(times)["p50_ms"]
        del exact

        out["approx"] = []
        if "project" in args.approx:
            with Timer() as t:
                idx = project_approx(vectors, args.nprobe[0])
            for nprobe in args.nprobe:  # nprobe is a query-time knob: one build serves every value
                idx.index.nprobe = nprobe
                out["approx"].append(_measure_approx(idx, _approx_label(idx), t.seconds, queries, exact_result, tmp))
            del idx
        out["peak_rss_mb"] = peak_rss_mb()
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _measure_approx(idx, kind: str, build_s: float, queries, exact, tmp: Path) -> dict[str, Any]:
    idx.save(tmp / "approx.faiss")
    size = (tmp / "approx.faiss").stat().st_size
    (tmp / "approx.faiss").unlink()
    (ids, scores), times = _search_each(idx, queries, K)
    exact_ids, exact_scores = exact
    return {"kind": kind, "build_s": build_s, "bytes": size, **latency_summary(times),
            "recall@10": recall_at_k(ids, exact_ids), "recall@10_ties": tie_aware_recall(scores, exact_scores)}


def _lexical(passages, questions: Sequence[str], tmp: Path) -> dict[str, Any]:
    from qa.indexing.lexical import LexicalIndex
    from qa.retrieval.query import analyze

    with Timer() as t:
        index = LexicalIndex.build(passages)
    index.save(tmp / "lexical")
    queries = [analyze(q) for q in questions]
    times = []
    for q in queries:
        t0 = time.perf_counter()
        index.search(q, K)
        times.append(time.perf_counter() - t0)
    return {
        "lexical_build_s": t.seconds,
        "lexical_bytes": dir_bytes(tmp / "lexical"),
        **{f"lexical_{k}": v for k, v in latency_summary(times).items()},
    }


def fit_slope(points: Sequence[tuple[float, float]]) -> float | None:
    """log-log slope of cost against corpus size (1 = linear, 0 = flat); None with fewer than 2 points."""
    pts = [(x, y) for x, y in points if x and y and y > 0]
    if len(pts) < 2:
        return None
    return float(np.polyfit(np.log([p[0] for p in pts]), np.log([p[1] for p in pts]), 1)[0])


def fit_slopes(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per cost: its log-log slope over the measured sizes."""
    out = []
    for key in ("lexical_build_s", "lexical_bytes", "lexical_p50_ms", "exact_build_s", "exact_bytes", "exact_p50_ms",
                "peak_rss_mb"):
        slope = fit_slope([(r["units"], r.get(key)) for r in rows])
        if slope is not None:
            out.append({"cost": key, "slope": slope})
    kinds = {a["kind"] for r in rows for a in r.get("approx", ()) if "skipped" not in a}
    for kind in sorted(kinds):
        for key in ("build_s", "bytes", "p50_ms"):
            pts = [(r["units"], a.get(key)) for r in rows for a in r.get("approx", ()) if a["kind"] == kind]
            slope = fit_slope(pts)
            if slope is not None:
                out.append({"cost": f"{kind}: {key}", "slope": slope})
    return out


COLUMNS = ["units", "passages", "lexical_build_s", "lexical_bytes", "lexical_p50_ms", "lexical_p95_ms",
           "exact_build_s", "exact_bytes", "exact_p50_ms", "exact_p95_ms", "exact_p50_ms_all_threads", "peak_rss_mb"]
APPROX_COLUMNS = ["units", "vectors", "kind", "build_s", "bytes", "p50_ms", "p95_ms", "recall@10", "recall@10_ties", "skipped"]


def approx_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"units": r["units"], "vectors": r["passages"], **a} for r in rows for a in r.get("approx", ())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), help="comma-separated unit counts")
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS, help="query texts")
    ap.add_argument("--embed-limit", type=int, default=50_000, help="passages embedded with the real encoder per size")
    ap.add_argument("--lexical-max", type=int, default=1_000_000, help="largest size that gets synthetic text + BM25 (1M: ~11 GiB peak)")
    ap.add_argument("--approx", default="project", help="approximate indexes to measure: project (qa.indexing.dense IVF) or none")
    ap.add_argument("--nprobe", default="16,32", help="IVF nprobe values to measure (the project's default is 32)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print the JSON only")
    args = ap.parse_args(argv)
    args.approx = args.approx if isinstance(args.approx, str) else ",".join(args.approx)
    args.nprobe = [int(x) for x in str(args.nprobe).split(",") if x.strip()]
    if args.child:
        print(json.dumps(child(args.child, args), ensure_ascii=False))
        return 0
    rows = []
    for n in (int(s) for s in args.sizes.split(",") if s.strip()):
        child_args = ["-m", "benchmarks.scaling", "--child", str(n), "--questions", str(args.questions),
                      "--embed-limit", str(args.embed_limit), "--lexical-max", str(args.lexical_max),
                      "--approx", args.approx, "--nprobe", ",".join(map(str, args.nprobe)), "--seed", str(args.seed)]
        row = run_child(child_args, env={"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", str(os.cpu_count()))})
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), file=sys.stderr)
    result = {"rows": rows, "loglog_slopes": fit_slopes(rows), "cpus": os.cpu_count()}
    path = write_json("scaling.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(markdown_table(rows, COLUMNS))
        print()
        print(markdown_table(approx_rows(rows), APPROX_COLUMNS))
        print()
        print(markdown_table(result["loglog_slopes"], ["cost", "slope"]))
        print(f"\nJSON: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
