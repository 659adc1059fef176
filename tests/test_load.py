"""Load: 32 concurrent clients × 10 questions through the running app's ``ask`` API (gradio_client).

Every request must be answered, with no error, and with exactly the answer the app gives
the same question when it is not under load; the 告旨 question must find its unit. The
p50/p95 latencies are printed (run with ``-s`` to see them) and written to
``bench-out/load.json`` (git-ignored).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from conftest import free_port

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 32
PER_CLIENT = 10
#: Written for this test (not from the dev set): the kinds of question users send.
QUESTIONS = (
    "賓為什麼說旨？",
    "宾为何告旨",
    "Why does the guest praise the wine?",
    "主人拜崇酒是什麼意思",
    "公降一等揖賓",
    "樂正命奏陔",
    "介為什麼不告旨",
    "what does the host wash before offering the cup?",
    "燕禮中誰為主人",
    "無算樂何謂",
)

pytestmark = pytest.mark.slow



@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """The real app (``python app.py``) on a free port over the real seeds, hashing encoder for a quick build."""
    index = tmp_path_factory.mktemp("load") / "index"
    port = free_port()
    env = {**os.environ, "QA_INDEX_DIR": str(index), "QA_MODEL": "hashing", "GRADIO_ANALYTICS_ENABLED": "False",
           "HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1,localhost"}
    log = open(tmp_path_factory.mktemp("load-log") / "app.log", "w+")
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 240
    try:
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"app exited with {proc.returncode}:\n{log.read()[-3000:]}")
            try:
                with urllib.request.urlopen(url, timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("app did not start within 240 s")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def client(url: str):
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False)


def answer_key(row: dict) -> tuple:
    return row["answer"], tuple(h["id"] for h in row["hits"])


def test_32_clients_10_questions_each(app_url):
    c = client(app_url)
    expected = {q: c.predict(q, 5, api_name="/ask") for q in QUESTIONS}
    for q, row in expected.items():
        assert row["error"] is None and row["hits"], q
    gaozhi = expected["賓為什麼說旨？"]["hits"]
    assert any("告旨" in h["jing"] for h in gaozhi[:3]), [h["jing"][:20] for h in gaozhi]

    def run_client(seed: int) -> list[tuple[str, dict | None, float, str | None]]:
        rng = random.Random(seed)
        mine = client(app_url)
        out = []
        for q in rng.choices(QUESTIONS, k=PER_CLIENT):
            t0 = time.perf_counter()
            try:
                row, err = mine.predict(q, 5, api_name="/ask"), None
            except Exception as exc:  # noqa: BLE001 - any failure is counted, not raised, so all clients finish
                row, err = None, f"{type(exc).__name__}: {exc}"
            out.append((q, row, time.perf_counter() - t0, err))
        return out

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        results = [r for rs in pool.map(run_client, range(CLIENTS)) for r in rs]
    wall = time.perf_counter() - started

    assert len(results) == CLIENTS * PER_CLIENT
    errors = [(q, err) for q, row, _, err in results if err or row is None or row.get("error")]
    assert not errors, errors[:5]
    wrong = [q for q, row, _, _ in results if answer_key(row) != answer_key(expected[q])]
    assert not wrong, f"{len(wrong)} answers differ under load, e.g. {wrong[:3]}"

    lat = np.array([t for _, _, t, _ in results]) * 1000
    stats = {"requests": len(results), "clients": CLIENTS, "wall_s": round(wall, 2),
             "throughput_rps": round(len(results) / wall, 1), "p50_ms": round(float(np.percentile(lat, 50)), 1),
             "p95_ms": round(float(np.percentile(lat, 95)), 1), "max_ms": round(float(lat.max()), 1)}
    print(f"\nload: {json.dumps(stats)}")
    out = ROOT / "bench-out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "load.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
