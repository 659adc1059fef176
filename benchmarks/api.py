"""Latency of one answer through each door, p50/p95: in-process ``Retriever.ask``, the JSON API
(``POST /api/ask`` on ``python app.py``) and the Gradio ``ask`` endpoint (gradio_client, queue + SSE).

The same questions go through each door one at a time (after a warm-up); the rows must agree.
The app runs on 127.0.0.1 over the same index as the in-process retriever.

    python -m benchmarks.api [--questions FILE] [--repeat 1] [--index-dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import DEV_QUESTIONS, Timer, latency_summary, load_questions, markdown_table, write_json
from benchmarks._server import ApiClient, gradio_client, running_app


def _key(row: dict[str, Any]) -> tuple:
    return row["answer"], tuple(h["id"] for h in row["hits"])


def measure(questions: list[str], index_dir: Path, k: int = 5) -> dict[str, Any]:
    from qa import Retriever

    r = Retriever.load(index_dir=index_dir)  # builds the index when missing, before the app starts
    r.ask(questions[0], k=k)
    inproc, expected = [], {}
    for q in questions:
        t0 = time.perf_counter()
        expected[q] = _key(r.ask(q, k=k).to_dict())
        inproc.append(time.perf_counter() - t0)

    with running_app(index_dir, model=r.settings.model) as (base, _):
        api = ApiClient(base)
        api.ask(questions[0], k)
        http, mismatched = [], 0
        for q in questions:
            t0 = time.perf_counter()
            row = api.ask(q, k)
            http.append(time.perf_counter() - t0)
            mismatched += _key(row) != expected[q]
        api.close()

        client = gradio_client(base)
        client.predict(questions[0], k, None, "orig", api_name="/ask")
        grad = []
        for q in questions:
            t0 = time.perf_counter()
            row = client.predict(q, k, None, "orig", api_name="/ask")
            grad.append(time.perf_counter() - t0)
            mismatched += _key(row) != expected[q]
    return {"in_process": latency_summary(inproc), "http_api": latency_summary(http), "gradio_endpoint": latency_summary(grad),
            "n": len(questions), "mismatched_rows": mismatched}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--repeat", type=int, default=1, help="go through the question file this many times")
    ap.add_argument("--index-dir", type=Path, help="index to serve (default: a fresh one in a temporary directory)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import logging

    logging.basicConfig(level=logging.ERROR)
    questions = [q.question for q in load_questions(args.questions)] * max(1, args.repeat)
    index_dir = args.index_dir or Path(tempfile.mkdtemp(prefix="yili-api-")) / "index"
    with Timer() as t:
        res = measure(questions, index_dir)
    rows = [{"door": name, "p50 (ms)": res[key]["p50_ms"], "p95 (ms)": res[key]["p95_ms"],
             "ratio p50 / in-process": res[key]["p50_ms"] / res["in_process"]["p50_ms"]}
            for name, key in (("in-process Retriever.ask", "in_process"), ("HTTP POST /api/ask", "http_api"),
                              ("Gradio ask endpoint (gradio_client)", "gradio_endpoint"))]
    result = {"questions": str(args.questions), "cpus": os.cpu_count(), "raw": res, "rows": rows, "seconds": t.seconds}
    path = write_json("api.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{res['n']} questions from {args.questions}; {os.cpu_count()} CPUs; {t.seconds:.0f} s; "
              f"rows differing between doors: {res['mismatched_rows']}")
        print(markdown_table(rows, ["door", "p50 (ms)", "p95 (ms)", "ratio p50 / in-process"]))
        print(f"\nJSON: {path}")
    return 0 if res["mismatched_rows"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
