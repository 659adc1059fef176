"""Soak: does ``python app.py`` stay up, answer, and keep its memory flat under many sessions?

Runs the app on 127.0.0.1 only, then

1. **fresh sessions**: ``--requests`` chat messages (default 10,000), each from a new session (as
   many one-question visitors), ``--clients`` at a time; the server's RSS (psutil) is sampled
   every tenth of the way;
2. **rounds**: ``--rounds`` (default 5) rounds of ``--clients`` (default 50) concurrent clients,
   each holding one session for the round and chatting for ``--seconds`` (default 30): RSS after
   each round, p50/p95 latency, errors.

Every loop is bounded by a count or a deadline (``--max-minutes`` for the whole run), so it
stops by itself. ``--target api`` sends ``POST /api/ask`` instead of chat messages. Not a test:

    python -m benchmarks.soak                                      # the full soak (tens of minutes)
    python -m benchmarks.soak --requests 1000 --rounds 3 --clients 20 --seconds 10
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks._common import DEV_QUESTIONS, Timer, latency_summary, load_questions, markdown_table, write_json
from benchmarks._server import ApiClient, ChatClient, rss_mb, running_app

#: Follow-ups a held session sends between questions, so its history is used and capped.
FOLLOW_UPS = ("那介呢？", "and the 介?", "主人呢？")


class Sender:
    """One client: a chat session (or an API connection) and what it measured."""

    def __init__(self, base: str, target: str, config: dict[str, Any] | None) -> None:
        self.target = target
        self.chat = ChatClient(base, config) if target == "chat" else None
        self.api = ApiClient(base) if target == "api" else None

    def send(self, question: str) -> None:
        if self.chat is not None:
            self.chat.send(question)
        else:
            self.api.ask(question)

    def new_session(self) -> None:
        if self.chat is not None:
            self.chat.new_session()

    def close(self) -> None:
        if self.api is not None:
            self.api.close()


def _timed(sender: Sender, question: str, lat: list[float], errors: list[str]) -> None:
    t0 = time.perf_counter()
    try:
        sender.send(question)
        lat.append(time.perf_counter() - t0)
    except Exception as exc:  # noqa: BLE001 - counted, so every client finishes
        errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")


def fresh_sessions(base: str, pid: int, args, questions: list[str], config, deadline: float) -> dict[str, Any]:
    counter = itertools.count()
    lat: list[float] = []
    errors: list[str] = []
    samples: list[tuple[int, float]] = [(0, rss_mb(pid))]
    step = max(1, args.requests // 10)
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        sender = Sender(base, args.target, config)
        try:
            while time.monotonic() < deadline:
                i = next(counter)
                if i >= args.requests:
                    return
                sender.new_session()
                _timed(sender, rng.choice(questions), lat, errors)
                if (i + 1) % step == 0:
                    with lock:
                        samples.append((i + 1, rss_mb(pid)))
        finally:
            sender.close()

    with Timer() as t, ThreadPoolExecutor(max_workers=args.clients) as pool:
        list(pool.map(worker, range(args.clients)))
    samples.append((len(lat) + len(errors), rss_mb(pid)))
    return {"requests": len(lat) + len(errors), "errors": len(errors), "first_errors": errors[:3], "wall_s": t.seconds,
            "rps": (len(lat) + len(errors)) / t.seconds, **latency_summary(lat), "rss_mb": samples}


def one_round(base: str, pid: int, args, questions: list[str], config, deadline: float, seed: int) -> dict[str, Any]:
    lat: list[float] = []
    errors: list[str] = []
    end = min(deadline, time.monotonic() + args.seconds)

    def worker(i: int) -> int:
        rng = random.Random(seed * 1000 + i)
        sender = Sender(base, args.target, config)  # one session for the round
        sent = 0
        try:
            while time.monotonic() < end and sent < args.max_per_client:
                q = rng.choice(FOLLOW_UPS) if sent % 3 == 2 else rng.choice(questions)
                _timed(sender, q, lat, errors)
                sent += 1
        finally:
            sender.close()
        return sent

    with Timer() as t, ThreadPoolExecutor(max_workers=args.clients) as pool:
        sent = sum(pool.map(worker, range(args.clients)))
    return {"requests": sent, "errors": len(errors), "first_errors": errors[:3], "wall_s": t.seconds, "rps": sent / t.seconds,
            **latency_summary(lat), "rss_mb": rss_mb(pid)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=10_000, help="messages from fresh sessions (phase 1)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clients", type=int, default=50, help="concurrent clients")
    ap.add_argument("--seconds", type=float, default=30, help="length of a round")
    ap.add_argument("--max-per-client", type=int, default=10_000, help="messages one client sends in a round, at most")
    ap.add_argument("--target", choices=("chat", "api"), default="chat")
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--index-dir", type=Path, help="index to serve (default: a fresh one in a temporary directory)")
    ap.add_argument("--model", help="encoder (QA_MODEL; default: the project's)")
    ap.add_argument("--max-minutes", type=float, default=120, help="stop everything after this long")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for name in ("requests", "rounds", "clients", "max_per_client"):
        if getattr(args, name) < (0 if name in ("requests", "rounds") else 1):
            ap.error(f"--{name.replace('_', '-')} must be positive")
    questions = [q.question for q in load_questions(args.questions)]
    index_dir = args.index_dir or Path(tempfile.mkdtemp(prefix="yili-soak-")) / "index"
    deadline = time.monotonic() + args.max_minutes * 60
    with Timer() as total, running_app(index_dir, model=args.model) as (base, proc):
        config = ChatClient(base).config if args.target == "chat" else None
        start_rss = rss_mb(proc.pid)
        fresh = fresh_sessions(base, proc.pid, args, questions, config, deadline) if args.requests else None
        rounds = []
        for r in range(args.rounds):
            if time.monotonic() >= deadline:
                break
            rounds.append(one_round(base, proc.pid, args, questions, config, deadline, r))
            print(f"round {r + 1}: {json.dumps({k: v for k, v in rounds[-1].items() if k != 'first_errors'})}", flush=True)
        alive = proc.poll() is None
    sizes = {k: getattr(args, k) for k in ("requests", "rounds", "clients", "seconds", "target")}
    rows = [{"phase": "start", "requests": 0, "errors": 0, "p50 (ms)": float("nan"), "p95 (ms)": float("nan"),
             "rps": float("nan"), "RSS (MiB)": start_rss}]
    if fresh:
        rows.append({"phase": f"{fresh['requests']} fresh sessions", "requests": fresh["requests"], "errors": fresh["errors"],
                     "p50 (ms)": fresh["p50_ms"], "p95 (ms)": fresh["p95_ms"], "rps": fresh["rps"],
                     "RSS (MiB)": fresh["rss_mb"][-1][1]})
    for i, r in enumerate(rounds, 1):
        rows.append({"phase": f"round {i} ({args.clients} clients × {args.seconds:g} s)", "requests": r["requests"],
                     "errors": r["errors"], "p50 (ms)": r["p50_ms"], "p95 (ms)": r["p95_ms"], "rps": r["rps"],
                     "RSS (MiB)": r["rss_mb"]})
    result = {"sizes": sizes, "cpus": os.cpu_count(), "alive_at_end": alive, "fresh": fresh, "rounds": rounds, "rows": rows,
              "seconds": total.seconds}
    path = write_json("soak.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"soak of app.py on 127.0.0.1: {sizes}; {os.cpu_count()} CPUs; {total.seconds:.0f} s; server alive: {alive}")
        if fresh:
            print("RSS during fresh sessions (requests → MiB): "
                  + ", ".join(f"{n}→{m:.0f}" for n, m in fresh["rss_mb"]))
        print(markdown_table(rows, ["phase", "requests", "errors", "p50 (ms)", "p95 (ms)", "rps", "RSS (MiB)"]))
        print(f"\nJSON: {path}")
    errors = (fresh["errors"] if fresh else 0) + sum(r["errors"] for r in rounds)
    return 0 if alive and errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
