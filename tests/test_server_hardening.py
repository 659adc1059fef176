"""The server door under bad input: invalid text, bad k, huge bodies and questions, long chats,
many sessions, uploads, bad ports. Each case failed (or could) before its fix."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from conftest import served

from qa.answering.compose import error_row
from qa.answering.inputs import raw_limit
from qa.settings import PROJECT_ROOT, Settings
from qa.webapp import ChatService, build_app

ROW_KEYS = set(error_row(None, "", ""))



@pytest.fixture(scope="module")
def server(mini_retriever):
    with served(mini_retriever) as running:
        yield running


def post(url: str, data: bytes, content_type: str = "application/json") -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def post_big(url: str, data: bytes, content_type: str = "application/json") -> int:
    """POST a large body over a raw socket; the server may answer (413) and close before it is
    all sent, which urllib reports as a broken pipe. Returns the status code."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    head = (f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(head)
        try:
            for at in range(0, len(data), 65536):
                sock.sendall(data[at : at + 65536])
        except (BrokenPipeError, ConnectionResetError):
            pass
        reply = b""
        try:
            while b"\r\n" not in reply:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                reply += chunk
        except ConnectionResetError:
            pass
    return int(reply.split(b" ", 2)[1])


def call_endpoint(base: str, *data) -> tuple[str, object]:
    """The Gradio ``ask`` endpoint over raw HTTP (json.dumps escapes a lone surrogate as \\ud800,
    as any client may): the final SSE event and its data, decoded strictly as UTF-8. Missing
    parameters get their defaults (as gradio_client fills them in)."""
    data = (*data, *(None, 5, None, "orig")[len(data):])
    status, body = post(f"{base}/gradio_api/call/ask", json.dumps({"data": list(data)}).encode("ascii"))
    assert status == 200, body
    event_id = json.loads(body)["event_id"]
    with urllib.request.urlopen(f"{base}/gradio_api/call/ask/{event_id}", timeout=60) as resp:
        stream = resp.read().decode("utf-8")
    events = [block for block in stream.split("\n\n") if block.strip()]
    event, _, payload = events[-1].partition("\ndata: ")
    return event.removeprefix("event: ").strip(), json.loads(payload) if payload.strip() else None


def handler(demo, name: str):
    return next(f.fn for f in demo.fns.values() if f.name == name)


# ---------------------------------------------------------------- invalid text


@pytest.mark.parametrize("question", ["\ud800", "賓拜告旨\udfff", " \ud83d "])
def test_a_lone_surrogate_does_not_tear_the_ask_stream(server, question):
    base, _ = server
    event, data = call_endpoint(base, question, 2)
    assert event == "complete", (event, data)
    row = data[0]
    assert set(row) == ROW_KEYS and "\ufffd" in row["question"]


def test_a_lone_surrogate_in_the_chat_renders(mini_retriever):
    import orjson  # what Gradio encodes the reply with

    service = ChatService(mini_retriever)
    for message in ("\ud800", "賓拜告旨\ud800"):
        turn = service.turn(message, [])
        assert "\ud800" not in turn.question and "\ufffd" in turn.question
        orjson.dumps(service.render([turn], "original"))


def test_a_lone_surrogate_through_the_chat_handler(mini_retriever):
    import orjson

    respond = handler(build_app(mini_retriever), "respond")
    messages, turns, box, *_copies = respond("賓拜告旨\ud800", [], [], "原文", 5, None, None)
    orjson.dumps(messages)
    assert len(turns) == 1 and box == ""


def test_a_lone_surrogate_in_the_api(server):
    base, _ = server
    status, body = post(f"{base}/api/ask", json.dumps({"question": "賓拜告旨\ud800", "k": 1}).encode("ascii"))
    assert status == 200 and "\ufffd" in json.loads(body.decode("utf-8"))["question"]
    status, body = post(f"{base}/api/ask", json.dumps({"question": "q", "rites": ["\ud800"]}).encode("ascii"))
    assert status == 422 and "unknown rite" in json.loads(body.decode("utf-8"))["error"]


# ---------------------------------------------------------------- k


@pytest.mark.parametrize("k", [-1, -100, 0, 51, "abc", 2.5, "2.5", [3]])
def test_the_ask_endpoint_checks_k(server, k):
    base, _ = server
    event, data = call_endpoint(base, "賓拜告旨", k)
    assert event == "complete"
    row = data[0]
    assert set(row) == ROW_KEYS and row["hits"] == []
    assert row["error"].startswith("k must be") and "1 to 50" in row["error"], row["error"]


def test_the_ask_endpoint_takes_history_and_script(server, mini_retriever):
    base, _ = server
    event, data = call_endpoint(base, "那介呢？", 2, ["賓拜告旨"], "hans")
    assert event == "complete"
    row = data[0]
    want = mini_retriever.ask("那介呢？", k=2, history=["賓拜告旨"]).to_dict()
    assert [h["id"] for h in row["hits"]] == [h["id"] for h in want["hits"]]
    event, data = call_endpoint(base, "賓拜告旨", 2, "not a list")
    assert "history must be a list" in data[0]["error"]
    event, data = call_endpoint(base, "賓拜告旨", 2, None, "latin")
    assert "script must be one of orig, hant, hans" in data[0]["error"]


# ---------------------------------------------------------------- sizes


def test_request_bodies_are_capped(server):
    base, _ = server
    status, body = post(f"{base}/api/ask", json.dumps({"question": "旨" * 25_000}).encode("utf-8"))  # 75 KB
    assert status == 413 and "request body over" in json.loads(body)["error"]
    assert post_big(f"{base}/api/ask", json.dumps({"question": "旨" * 1_000_000}).encode("utf-8")) == 413
    assert post_big(f"{base}/gradio_api/call/ask", json.dumps({"data": ["旨" * 200_000, 2, None, "orig"]}).encode("utf-8")) == 413


def test_a_2mb_upload_is_refused(server):
    base, demo = server
    boundary = "qa-upload"
    payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.txt\"\r\n"
               "Content-Type: text/plain\r\n\r\n").encode() + b"x" * (2 * 1024 * 1024) + f"\r\n--{boundary}--\r\n".encode()
    assert post_big(f"{base}/gradio_api/upload", payload, f"multipart/form-data; boundary={boundary}") == 413
    small = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"s.txt\"\r\n"
             "Content-Type: text/plain\r\n\r\n").encode() + b"x" * 4096 + f"\r\n--{boundary}--\r\n".encode()
    status, _ = post(f"{base}/gradio_api/upload", small, f"multipart/form-data; boundary={boundary}")
    assert status >= 400  # over Gradio's own max_file_size (the app has no file input)
    assert demo.max_file_size is not None and demo.max_file_size <= 1024


def test_the_question_is_cut_before_it_is_cleaned(mini_retriever, monkeypatch):
    import qa.retrieval.query as query

    seen: list[int] = []
    clean = query.clean
    monkeypatch.setattr(query, "clean", lambda text: (seen.append(len(text)), clean(text))[1])
    service = ChatService(mini_retriever)
    huge = "告旨" * 2_000_000
    started = time.perf_counter()
    turn = service.turn(huge, [])
    row = service.ask_row(huge, 2)
    assert time.perf_counter() - started < 10
    assert seen and max(seen) <= raw_limit(mini_retriever.settings)
    assert len(turn.question) <= raw_limit(mini_retriever.settings) and row["error"] is None


def test_history_is_capped(mini_retriever, monkeypatch):
    seen: list[list] = []
    texts = type(mini_retriever)._history_texts

    def spy(self, turns):
        seen.append(list(turns))
        return texts(self, turns)

    monkeypatch.setattr(type(mini_retriever), "_history_texts", spy)
    row = ChatService(mini_retriever).ask_row("那介呢？", 2, ["告旨" * 100_000] * 50)
    assert row["error"] is None
    outer = seen[-1]
    assert len(outer) <= mini_retriever.settings.history_turns
    assert all(len(t) <= raw_limit(mini_retriever.settings) for t in outer)


def test_a_chat_keeps_a_bounded_number_of_turns(mini_retriever):
    respond = handler(build_app(mini_retriever), "respond")
    turns: list = []
    messages: list = []
    kept = mini_retriever.settings.session_turns
    for i in range(kept + 5):
        messages, turns, *_rest = respond(f"賓拜告旨 {i}", turns, messages, "原文", 5, None, None)
    assert len(turns) == kept and len(messages) == 2 * kept
    assert turns[-1].question.endswith(str(kept + 4))


def test_sessions_are_bounded(server):
    import gradio as gr

    _, demo = server
    states = [b for b in demo.blocks.values() if isinstance(b, gr.State)]
    assert states and all(s.time_to_live == Settings().session_ttl_s for s in states)
    assert demo.state_session_capacity == Settings().max_sessions


# ---------------------------------------------------------------- ports


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT), "QA_INDEX_DIR": "/nonexistent/index",
                               "QA_AUTO_BUILD": "false", "HF_HUB_OFFLINE": "1"})


@pytest.mark.parametrize("command", [("-m", "qa", "serve"), ("app.py",)])
@pytest.mark.parametrize("port, says", [("99999", "port must be from 1 to 65535, not 99999"), ("0", "port must be from 1 to 65535")])
def test_a_bad_port_is_one_line_and_status_2(command, port, says):
    done = run_cli(*command, "--port", port)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("command", [("-m", "qa", "serve"), ("app.py",)])
def test_a_busy_port_is_one_line_and_status_2(command):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = run_cli(*command, "--port", str(port))
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
