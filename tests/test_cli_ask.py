"""qa ask: the answer with citations, then the labelled units; JSON rows; one-line errors."""

from __future__ import annotations

import json

import pytest

from qa.cli import main


def _args(settings) -> list[str]:
    return ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", settings.model]


@pytest.fixture(scope="module")
def settings(mini_retriever):
    return mini_retriever.settings  # the index is built once, by the fixture


def test_ask_prints_the_answer_then_the_units(settings, capsys):
    assert main([*_args(settings), "ask", "賓為什麼說旨？", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("答\n")
    assert "旨，美也。" in out
    # the citation a scholar pastes (work, 卷, rite, clause, layer and author, edition, line), as in the app
    assert "——《儀禮注疏》卷八" in out.replace(" ", "") and "鄭玄注「旨，美也」" in out and "003:" in out
    assert "003_excerpt.txt:" in out and "score" not in out  # units say where they are; no internal score
    for label in ("經", "注", "疏"):
        assert f"  {label}  " in out
    assert out.index("旨，美也。") < out.index("[1] ")
    assert "\x1b[" not in out


def test_ask_json_is_a_batch_row(settings, capsys):
    assert main([*_args(settings), "ask", "宾为何告旨", "-k", "2", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert {"id", "question", "answer", "citations", "error", "hits"} <= set(row)
    assert len(row["hits"]) == 2 and row["question"] == "宾为何告旨"
    assert "旨，美也" in row["answer"]


def test_ask_colors_matches_when_asked(settings, capsys):
    assert main([*_args(settings), "ask", "賓為什麼說旨？", "--color", "always"]) == 0
    assert "\x1b[1;33m旨\x1b[0m" in capsys.readouterr().out


def test_ask_hans_display(settings, capsys):
    assert main([*_args(settings), "ask", "賓為什麼說旨？", "--color", "never", "--script", "hans"]) == 0
    out = capsys.readouterr().out
    assert "执爵" in out and "執爵" not in out


def test_empty_question_is_one_line_and_non_zero(settings, capsys):
    assert main([*_args(settings), "ask", "   "]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("qa ask: error: empty question") and "\n" not in err
