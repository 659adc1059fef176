"""Shared by benchmarks/api.py and benchmarks/soak.py: start ``python app.py`` on 127.0.0.1 and call
its three doors over HTTP (the JSON API, the Gradio ``ask`` endpoint, the chat as a browser does)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks._common import PROJECT_ROOT

HOST = "127.0.0.1"  # the benchmarks never serve beyond this machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_app(index_dir: Path | None, *, model: str | None = None, timeout: float = 600,
                poll: float = 0.3) -> Iterator[tuple[str, subprocess.Popen]]:
    """``python app.py`` on a free port of 127.0.0.1 until the block ends; yields (base URL, process)
    once it answers (checked every ``poll`` seconds)."""
    port = free_port()
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1,localhost"}
    if index_dir is not None:
        env["QA_INDEX_DIR"] = str(index_dir)
    if model:
        env["QA_MODEL"] = model
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen([sys.executable, "app.py", "--host", HOST, "--port", str(port)], cwd=PROJECT_ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"app.py exited with {proc.returncode}:\n{log.read()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("app.py did not answer within the timeout")
            time.sleep(poll)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


class ApiClient:
    """POST /api/ask over one kept-alive connection (one per thread)."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=120)

    def ask(self, question: str, k: int = 5, history: list[str] | None = None) -> dict[str, Any]:
        body = json.dumps({"question": question, "k": k, "history": history or []}, ensure_ascii=False).encode("utf-8")
        self.conn.request("POST", "/api/ask", body, {"Content-Type": "application/json"})
        resp = self.conn.getresponse()
        data = json.loads(resp.read().decode("utf-8"))
        if resp.status != 200:
            raise RuntimeError(f"/api/ask {resp.status}: {data}")
        return data

    def close(self) -> None:
        self.conn.close()


class ChatClient:
    """The chat as the browser drives it: one Gradio session (``session_hash``), messages through
    the queue (``/gradio_api/queue/join`` + the SSE stream). Finds the chat's event by its
    function name and fills the inputs by component type, so a new layout needs no change here."""

    def __init__(self, base: str, config: dict[str, Any] | None = None) -> None:
        self.base = base
        self.config = config or json.load(urllib.request.urlopen(f"{base}/config", timeout=30))
        self.dep = next(d for d in self.config["dependencies"] if d.get("api_name") == "respond")
        self.components = {c["id"]: c for c in self.config["components"]}
        self.session = uuid.uuid4().hex[:12]

    def new_session(self) -> None:
        self.session = uuid.uuid4().hex[:12]

    def send(self, message: str) -> dict[str, Any]:
        data = []
        for cid in self.dep["inputs"]:
            c = self.components[cid]
            data.append(message if c["type"] == "textbox" else None if c["type"] == "state" else c.get("props", {}).get("value"))
        body = {"data": data, "fn_index": self.dep["id"], "session_hash": self.session,
                "trigger_id": self.dep["targets"][0][0], "event_data": None}
        req = urllib.request.Request(f"{self.base}/gradio_api/queue/join", data=json.dumps(body).encode("utf-8"),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            event_id = json.loads(resp.read())["event_id"]
        with urllib.request.urlopen(f"{self.base}/gradio_api/queue/data?session_hash={self.session}", timeout=300) as resp:
            for raw in resp:
                line = raw.decode("utf-8").strip()
                if not line.startswith("data:"):
                    continue
                msg = json.loads(line[5:])
                if msg.get("event_id") not in (None, event_id):
                    continue
                if msg["msg"] == "process_completed":
                    if not msg.get("success", True):
                        raise RuntimeError(f"chat failed: {str(msg.get('output'))[:300]}")
                    return msg["output"]
                if msg["msg"] in ("unexpected_error", "close_stream"):
                    raise RuntimeError(f"chat stream ended: {msg}")
        raise RuntimeError("chat stream ended without a result")


def gradio_client(base: str):
    from gradio_client import Client

    return Client(base + "/", verbose=False, download_files=False)


def rss_mb(pid: int) -> float:
    """Resident memory of the server process (psutil), MiB."""
    import psutil

    return psutil.Process(pid).memory_info().rss / 2**20


__all__ = ["ApiClient", "ChatClient", "HOST", "free_port", "gradio_client", "rss_mb", "running_app"]
