"""`qa eval`: the table, --json, --mode, and one-line errors, on the real seeds with the tiny hashing encoder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qa.cli import main

EXTRA = Path(__file__).parent / "data" / "extra_questions.jsonl"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("index") / "index")


def qa_eval(index_dir: str, *args: str) -> int:
    return main(["-q", "--index-dir", index_dir, "--model", "hashing", "eval", *args])


def test_json_report_per_language(index_dir, capsys):
    assert qa_eval(index_dir, str(EXTRA), "--json", "--no-answer", "--mode", "lexical") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "lexical" and report["k"] == 10
    assert report["overall"]["n"] == 20
    assert set(report["by_lang"]) == {"en", "lzh", "zh-Hans", "zh-Hant"}
    assert report["overall"]["evidence_in_answer"] is None
    # the lexical side alone finds most of these questions' lemmas (measured 0.95 at hit@5)
    assert report["overall"]["hit@5"] >= 0.8


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_table_for_each_mode(index_dir, capsys, mode):
    assert qa_eval(index_dir, str(EXTRA), "-k", "5", "--mode", mode, "--no-answer") == 0
    out = capsys.readouterr().out
    assert "hit@1" in out and "overall" in out and f"k=5, {mode}" in out


def test_malformed_file_is_one_line_error(index_dir, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(EXTRA.read_text(encoding="utf-8").splitlines()[0] + "\n{oops\n", encoding="utf-8")
    assert qa_eval(index_dir, str(bad)) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{bad}:2:" in err


def test_missing_file_and_bad_k(index_dir, tmp_path, capsys):
    assert qa_eval(index_dir, str(tmp_path / "nope.jsonl")) == 2
    assert "no such file" in capsys.readouterr().err
    assert qa_eval(index_dir, str(EXTRA), "-k", "0") == 2
    assert "positive" in capsys.readouterr().err
