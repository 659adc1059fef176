"""Speed side by side, as ratios against the naive pipeline: build, start, latency, throughput, memory.

Each measurement runs in its own process (memory isolation; peak RSS from getrusage):
- cold build: ``build_index`` into a fresh directory / chunk + embed + FAISS + BM25 and save;
- start to ready: process start → first answer from the saved index (imports, model load, index
  load); for Yili QA also ``python app.py`` start → HTTP 200;
- retrieval and ask latency, p50/p95 over the question file, one question at a time: Yili QA
  ``Retriever.search`` and the app's ``ask`` (analyze + search + compose with citations);
  naive: MiniLM query embedding + FAISS search (its "ask" returns the top chunk, so it is the
  same), and BM25;
- batch throughput: questions/s answering the question file (repeated to ``--batch-size``
  questions) in batches: Yili ``qa.batch.answer_rows`` (full answers) and naive batched encode +
  search;
- peak memory of the serving process.

    python -m benchmarks.speed [--questions FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

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
from benchmarks._server import running_app

# ---------------------------------------------------------------- children (each in its own process)


def child_yili_build(index_dir: Path) -> dict[str, Any]:
    with Timer() as t_import:
        from qa.indexing.store import build_index
        from qa.retrieval.confidence import calibrate
        from qa.settings import Settings
    with Timer() as t:  # with the calibration, as `qa build` does: the index the retriever then loads
        build_index(Settings.from_env().replace(index_dir=index_dir), calibrate=calibrate)
    return {"import_s": t_import.seconds, "build_s": t.seconds, "peak_rss_mb": peak_rss_mb()}


def child_naive_build(index_dir: Path) -> dict[str, Any]:
    import faiss

    from benchmarks.naive import NaiveBM25, NaiveDense, make_chunks

    with Timer() as t:
        chunks = make_chunks()
        dense = NaiveDense(chunks)
        bm25 = NaiveBM25(chunks, "chars")
        index_dir.mkdir(parents=True, exist_ok=True)
        faiss.write_index(dense.index, str(index_dir / "chunks.faiss"))
        (index_dir / "chunks.json").write_text(json.dumps([c.text for c in chunks], ensure_ascii=False), encoding="utf-8")
        bm25.bm25.save(str(index_dir / "bm25"))
    return {"build_s": t.seconds, "chunks": len(chunks), "peak_rss_mb": peak_rss_mb()}


def _yili_serve(index_dir: Path):
    from qa import Retriever
    from qa.webapp import ChatService

    r = Retriever.load(index_dir=index_dir)
    return r, ChatService(r)


def child_yili_ready(index_dir: Path, question: str) -> dict[str, Any]:
    _, service = _yili_serve(index_dir)
    service.ask_row(question)
    return {"peak_rss_mb": peak_rss_mb()}


def _naive_load(index_dir: Path):
    import faiss
    from sentence_transformers import SentenceTransformer

    from benchmarks.naive import minilm_path

    model = SentenceTransformer(minilm_path(), device="cpu")
    index = faiss.read_index(str(index_dir / "chunks.faiss"))
    chunks = json.loads((index_dir / "chunks.json").read_text(encoding="utf-8"))
    return model, index, chunks


def _naive_ask(model, index, chunks, questions: list[str], k: int = 5) -> list[list[str]]:
    import numpy as np

    vecs = model.encode(questions, batch_size=64, normalize_embeddings=True)
    _, ids = index.search(np.ascontiguousarray(vecs, dtype=np.float32), k)
    return [[chunks[i] for i in row if i >= 0] for row in ids]


def child_naive_ready(index_dir: Path, question: str) -> dict[str, Any]:
    model, index, chunks = _naive_load(index_dir)
    _naive_ask(model, index, chunks, [question])
    return {"peak_rss_mb": peak_rss_mb()}


def _repeat(questions: list[str], n: int) -> list[str]:
    return [questions[i % len(questions)] for i in range(n)]


def child_yili_serve(index_dir: Path, questions: list[str], batch_size: int) -> dict[str, Any]:
    from qa.batch import InputRow, answer_rows

    r, service = _yili_serve(index_dir)
    service.ask_row(questions[0])  # warm-up (lazy imports, caches)
    retrieval, ask = [], []
    for q in questions:
        t0 = time.perf_counter()
        r.search(q)
        retrieval.append(time.perf_counter() - t0)
    for q in questions:
        t0 = time.perf_counter()
        row = service.ask_row(q)
        ask.append(time.perf_counter() - t0)
        assert row["error"] is None, row["error"]
    lex, den = [], []
    for q in questions:
        t0 = time.perf_counter()
        r.lexical.search(q)
        lex.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        r.dense.search(q)
        den.append(time.perf_counter() - t0)
    batch = _repeat(questions, batch_size)
    rows = [InputRow(i, str(i + 1), q, None) for i, q in enumerate(batch)]
    with Timer() as t:
        out = list(answer_rows(r, rows, k=r.settings.k))
    assert len(out) == len(batch)
    return {
        "retrieval": latency_summary(retrieval), "ask": latency_summary(ask),
        "lexical": latency_summary(lex), "dense": latency_summary(den),
        "batch_qps": len(batch) / t.seconds, "batch_n": len(batch), "peak_rss_mb": peak_rss_mb(),
    }


def child_naive_serve(index_dir: Path, questions: list[str], batch_size: int) -> dict[str, Any]:
    import bm25s

    from benchmarks.naive import char_grams

    model, index, chunks = _naive_load(index_dir)
    _naive_ask(model, index, chunks, questions[:1])
    dense = []
    for q in questions:
        t0 = time.perf_counter()
        _naive_ask(model, index, chunks, [q])
        dense.append(time.perf_counter() - t0)
    bm25 = bm25s.BM25.load(str(index_dir / "bm25"))
    lex = []
    for q in questions:
        t0 = time.perf_counter()
        bm25.retrieve([char_grams(q) or ["\u0000"]], k=5, show_progress=False)
        lex.append(time.perf_counter() - t0)
    batch = _repeat(questions, batch_size)
    with Timer() as t:
        out = _naive_ask(model, index, chunks, batch)
    assert len(out) == len(batch)
    return {"retrieval": latency_summary(dense), "ask": latency_summary(dense), "lexical": latency_summary(lex),
            "dense": latency_summary(dense), "batch_qps": len(batch) / t.seconds, "batch_n": len(batch),
            "peak_rss_mb": peak_rss_mb()}


CHILDREN = {
    "yili_build": lambda a, qs: child_yili_build(a.index_dir),
    "naive_build": lambda a, qs: child_naive_build(a.index_dir),
    "yili_ready": lambda a, qs: child_yili_ready(a.index_dir, qs[0]),
    "naive_ready": lambda a, qs: child_naive_ready(a.index_dir, qs[0]),
    "yili_serve": lambda a, qs: child_yili_serve(a.index_dir, qs, a.batch_size),
    "naive_serve": lambda a, qs: child_naive_serve(a.index_dir, qs, a.batch_size),
}

# ---------------------------------------------------------------- the parent


def app_start_to_ready(index_dir: Path, timeout: float = 300) -> float:
    """Seconds from ``python app.py`` to the app answering (the retriever is loaded before serving)."""
    started = time.perf_counter()
    with running_app(index_dir, timeout=timeout, poll=0.1):
        return time.perf_counter() - started


def _child(task: str, index_dir: Path, args: argparse.Namespace) -> dict[str, Any]:
    return run_child(["-m", "benchmarks.speed", "--child", task, "--index-dir", str(index_dir),
                      "--questions", str(args.questions), "--batch-size", str(args.batch_size)])


def measure(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="yili-speed-"))
    yidx, nidx = work / "yili-index", work / "naive-index"
    res: dict[str, Any] = {}
    res["yili_build"] = _child("yili_build", yidx, args)
    res["naive_build"] = _child("naive_build", nidx, args)
    res["yili_ready"] = _child("yili_ready", yidx, args)
    res["naive_ready"] = _child("naive_ready", nidx, args)
    res["yili_app_ready_s"] = app_start_to_ready(yidx) if not args.no_app else float("nan")
    res["yili_serve"] = _child("yili_serve", yidx, args)
    res["naive_serve"] = _child("naive_serve", nidx, args)
    return res


def table(res: dict[str, Any]) -> list[dict[str, Any]]:
    y, n = res["yili_serve"], res["naive_serve"]
    rows = [
        ("cold index build, process wall (s)", res["yili_build"]["process_wall_s"], res["naive_build"]["process_wall_s"]),
        ("cold index build, build only (s)", res["yili_build"]["build_s"], res["naive_build"]["build_s"]),
        ("start to first answer (s)", res["yili_ready"]["process_wall_s"], res["naive_ready"]["process_wall_s"]),
        ("app start to ready, python app.py → HTTP 200 (s)", res["yili_app_ready_s"], res["naive_ready"]["process_wall_s"]),
        ("retrieval p50 (ms)", y["retrieval"]["p50_ms"], n["retrieval"]["p50_ms"]),
        ("retrieval p95 (ms)", y["retrieval"]["p95_ms"], n["retrieval"]["p95_ms"]),
        ("ask p50 (ms)", y["ask"]["p50_ms"], n["ask"]["p50_ms"]),
        ("ask p95 (ms)", y["ask"]["p95_ms"], n["ask"]["p95_ms"]),
        ("lexical-only p50 (ms)", y["lexical"]["p50_ms"], n["lexical"]["p50_ms"]),
        ("dense-only p50 (ms)", y["dense"]["p50_ms"], n["dense"]["p50_ms"]),
        ("batch throughput (questions/s)", y["batch_qps"], n["batch_qps"]),
        ("peak memory, build (MiB)", res["yili_build"]["peak_rss_mb"], res["naive_build"]["peak_rss_mb"]),
        ("peak memory, serving (MiB)", y["peak_rss_mb"], n["peak_rss_mb"]),
    ]
    return [{"metric": m, "Yili QA": a, "naive": b, "ratio Yili/naive": (a / b) if b else float("nan")} for m, a, b in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--batch-size", type=int, default=450, help="questions answered in the throughput run")
    ap.add_argument("--no-app", action="store_true", help="skip the python app.py start-up measurement")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", choices=sorted(CHILDREN), help=argparse.SUPPRESS)
    ap.add_argument("--index-dir", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    questions = [q.question for q in load_questions(args.questions)]
    if args.child:
        import logging

        logging.basicConfig(level=logging.ERROR)
        print(json.dumps(CHILDREN[args.child](args, questions)))
        return 0
    with Timer() as t:
        res = measure(args)
    rows = table(res)
    result = {"questions": str(args.questions), "n": len(questions), "cpus": os.cpu_count(), "raw": res, "rows": rows,
              "seconds": t.seconds}
    path = write_json("speed.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{len(questions)} questions from {args.questions}; {os.cpu_count()} CPUs; {t.seconds:.0f} s")
        print(markdown_table(rows, ["metric", "Yili QA", "naive", "ratio Yili/naive"]))
        print(f"\nJSON: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
