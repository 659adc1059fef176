"""Bad input through every door (Python API, CLI, UI, batch): a clear message or a sensible answer, never a crash or a lost row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_real_seeds

from qa.errors import QAError, QueryError
from qa.settings import Settings

ROOT = Path(__file__).resolve().parent.parent

#: name → what a user (or a broken program) might send
BAD: dict[str, str] = {
    "empty": "",
    "whitespace": " \t\n\u3000 \r\n",
    "long_100k": "賓為什麼說旨？" * 14_286,  # 100,002 characters
    "control_chars": "賓\x07為\x1b[31m什麼\x7f說旨\x08？",
    "nul": "賓\x00旨\x00",
    "nul_only": "\x00\x00\x00",
    "emoji": "🍶🙇‍♂️🍷❓",
    "private_use": "\ue000\ue123公\uf8ff降",
    "html_script": "<img src=x onerror=alert(1)><script>alert('賓')</script>",
    "sql": "'; DROP TABLE units; -- OR 1=1 /* 賓 */",
    "bidi": "\u202e旨告\u202c賓",
    "lone_surrogate": "賓\ud800旨",
    "noise": "asdf qwer zxcv",
    "combining": "e\u0301\u0301\u0301賓\u0300",
}
#: inputs that hold nothing to search for: a clear QueryError is the right answer
NOTHING = {"empty", "whitespace", "nul_only"}
#: pure noise: if answered, the hits must say they are low-confidence
NOISE = {"emoji", "noise"}


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> Settings:
    base = tmp_path_factory.mktemp("bad-input")
    return Settings.from_env({}, seeds_dir=copy_real_seeds(base / "seeds"), index_dir=base / "index", model="hashing")


@pytest.fixture(scope="module")
def retriever(settings):
    from qa import Retriever

    return Retriever.load(settings=settings)


def one_line(msg: str) -> bool:
    return bool(msg.strip()) and "\n" not in msg.strip() and "Traceback" not in msg


# --- Python API ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BAD))
def test_python_api(retriever, name: str):
    from qa.answering.compose import compose_answer
    from qa.retrieval.query import analyze

    text = BAD[name]
    try:
        query = analyze(text, max_chars=retriever.settings.max_query_chars)
    except QueryError as exc:
        assert name in NOTHING, f"{name}: refused a question that has content: {exc}"
        assert one_line(str(exc))
        with pytest.raises(QueryError):
            retriever.search(text)
        return
    assert name not in NOTHING, f"{name}: accepted a question with nothing in it"
    assert len(query.text) <= retriever.settings.max_query_chars
    hits = retriever.search(query, k=5)
    assert len(hits) <= 5
    answer = compose_answer(query, hits)
    assert answer.text.strip()
    json.dumps(answer.to_dict(), ensure_ascii=False)  # serializable as the API returns it
    if name in NOISE:
        assert not hits or hits[0].low_confidence, f"{name}: confident hits for noise"
        assert not answer.found
    if name == "long_100k":
        assert query.truncated


def test_python_api_rejects_non_text(retriever):
    for value in (None, 42, b"\xe8\xb3\x93"):
        with pytest.raises(QAError):
            retriever.search(value)  # type: ignore[arg-type]


def test_batch_search_keeps_every_question(retriever):
    texts = [v for k, v in sorted(BAD.items()) if k not in NOTHING]
    results = retriever.batch_search(texts, k=3)
    assert len(results) == len(texts)
    assert results[texts.index(BAD["sql"])] == retriever.search(BAD["sql"], k=3)


# --- CLI ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BAD))
def test_cli_ask(settings, retriever, name: str, capsys):
    from qa.cli import main

    argv = ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", "hashing",
            "ask", "--json", BAD[name]]
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if name in NOTHING:
        assert code != 0
        errors = [ln for ln in err.splitlines() if "error" in ln]
        assert len(errors) == 1 and "empty" in errors[0], err
    else:
        assert code == 0, err
        row = json.loads(out)
        assert row["answer"].strip() and row["error"] is None


@pytest.mark.slow
def test_cli_ask_undecodable_argv_and_huge_argument(settings, retriever):
    """argv bytes that are not UTF-8 arrive as lone surrogates; printing them must not crash."""
    base = [sys.executable, "-m", "qa", "--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir),
            "--model", "hashing", "ask"]
    for arg in (b"\xe8\xb3\x93\xff\xfe\xe6\x97\xa8", b"x" * 100_000):
        proc = subprocess.run([*map(str.encode, base), arg], capture_output=True, timeout=300, cwd=ROOT)
        err = proc.stderr.decode("utf-8", "replace")
        assert "Traceback" not in err, err[-2000:]
        assert proc.returncode == 0 or len([ln for ln in err.splitlines() if "error" in ln]) == 1, err


# --- UI -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def service(retriever):
    from qa.webapp import ChatService

    return ChatService(retriever)


@pytest.mark.parametrize("name", sorted(BAD))
def test_ui_turn_and_render(service, name: str):
    text = BAD[name]
    turn = service.turn(text, [])
    if name in NOTHING:
        assert turn.answer is None and turn.error and one_line(turn.error)
    else:
        assert turn.error is None and turn.answer is not None
    messages = service.render([turn], "original")
    assert [m["role"] for m in messages] == ["user", "assistant"]
    html = "".join(m["content"] for m in messages)
    assert "<script" not in html.lower() and "<img" not in html.lower(), "user text rendered as HTML"
    assert "\x00" not in messages[1]["content"]  # the user's bubble echoes what was typed; the answer is clean


@pytest.mark.parametrize("name", sorted(BAD))
def test_ui_api_endpoint_row(service, name: str):
    row = service.ask_row(BAD[name])
    assert set(row) >= {"id", "question", "answer", "citations", "error", "hits"}
    if name in NOTHING:
        assert row["error"] and one_line(row["error"])
    else:
        assert row["error"] is None and row["answer"].strip()
    json.dumps(row, ensure_ascii=False)


# --- batch --------------------------------------------------------------------------------


def _batch(retriever, tmp_path: Path, name: str, data: bytes, out_ext: str = ".jsonl") -> tuple[list, Path]:
    from qa.batch import read_questions, run_batch

    inp = tmp_path / name
    inp.write_bytes(data)
    out = tmp_path / f"out{out_ext}"
    run_batch(retriever, inp, out, k=3)
    return read_questions(inp, retriever.settings.max_query_chars), out


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


BAD_BYTES = [b"\xff\xfe\xfa", b"\xe8\xb3", b"\xc0\xaf", b"\xed\xa0\x80"]  # invalid, cut, overlong, surrogate


def _line_safe(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ").replace("\x00", " ")


def test_batch_txt_one_row_per_line(retriever, tmp_path):
    lines = [_line_safe(v).encode("utf-8", "surrogatepass") for _, v in sorted(BAD.items())] + BAD_BYTES + ["賓為什麼說旨？".encode()]
    rows, out = _batch(retriever, tmp_path, "q.txt", b"\n".join(lines) + b"\n")
    got = _jsonl(out)
    blank = [n for n, line in enumerate(lines, 1) if not line.decode("utf-8", "replace").strip()]  # skipped and counted, never answered
    assert len(got) == len(lines) - len(blank) == len(rows)
    assert [g["id"] for g in got] == [r.id for r in rows]
    assert not {str(n) for n in blank} & {g["id"] for g in got}
    for g in got:
        assert g["error"] or g["answer"].strip()
        assert g["error"] is None or one_line(g["error"])
    assert got[-1]["error"] is None and got[-1]["hits"]
    by_id = {g["id"]: g for g in got}
    for bad in range(len(lines) - 1 - len(BAD_BYTES), len(lines) - 1):
        assert by_id[str(bad + 1)]["error"], f"undecodable line {bad + 1} was not flagged"


def test_batch_jsonl_and_csv_keep_every_row(retriever, tmp_path):
    items = sorted(BAD.items())
    jl = b"\n".join(
        [json.dumps({"id": k, "question": v}, ensure_ascii=True).encode() for k, v in items]
        + [b'{"id": "bytes", "question": "' + BAD_BYTES[0] + b'"}', b"{not json", b"null", b'{"id": "n", "question": 7}']
    )
    _, out = _batch(retriever, tmp_path, "q.jsonl", jl + b"\n")
    got = _jsonl(out)
    assert len(got) == len(items) + 4
    assert [g["id"] for g in got[: len(items)]] == [k for k, _ in items]
    for (k, _), g in zip(items, got):
        assert bool(g["error"]) == (k in NOTHING or k == "long_100k"), (k, g["error"])
    assert all(g["error"] for g in got[len(items):])

    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["id", "question"])
    for k, v in items:
        w.writerow([k, v.replace("\x00", "")])  # the csv module cannot carry NUL
    data = buf.getvalue().encode("utf-8", "surrogatepass") + b"raw," + BAD_BYTES[1] + b"\n"
    rows, out = _batch(retriever, tmp_path, "q.csv", data, ".csv")
    with open(out, encoding="utf-8-sig", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == len(rows) == len(items) + 1
    assert [g["id"] for g in got] == [k for k, _ in items] + ["raw"]
    assert got[-1]["error"]


def test_batch_markdown_report_escapes_html(retriever, tmp_path):
    _, out = _batch(retriever, tmp_path, "q.txt", BAD["html_script"].encode() + b"\n", ".md")
    text = out.read_text(encoding="utf-8")
    assert "<script>" not in text and "<img" not in text
