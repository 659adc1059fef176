"""The one ask pipeline (qa.answering.pipeline): every door answers alike, follow-ups work everywhere, k is checked."""

from __future__ import annotations

import json

import pytest

from qa import Answer, QueryError, Retriever
from qa.answering.pipeline import check_k
from qa.cli import main as cli_main
from qa.settings import Settings
from qa.webapp import ChatService


def test_ask_returns_a_cited_answer(real_retriever: Retriever):
    a = real_retriever.ask("賓為什麼說旨？")
    assert isinstance(a, Answer) and a.found
    assert a.evidence[0].text == "旨，美也。"
    assert a.evidence[0].lines == (110, 110)  # cited by the sentence's own line, not the unit's span
    assert a.grounded == ("告旨",)


def test_history_as_questions_equals_history_as_answers(real_retriever: Retriever):
    """A program passing earlier questions (CLI, HTTP) gets what the app gets passing its earlier answers."""
    first = real_retriever.ask("賓為什麼說旨？")
    by_answer = real_retriever.ask("那介呢？", history=[first])
    by_text = real_retriever.ask("那介呢？", history=["賓為什麼說旨？"])
    assert [h.unit.id for h in by_text.hits] == [h.unit.id for h in by_answer.hits]
    assert by_text.text == by_answer.text
    # the follow-up is about the 介, whose unit says 不告旨
    assert "不告旨" in by_text.hits[0].unit.jing and "介" in by_text.hits[0].unit.jing


def test_only_the_last_turns_count(real_retriever: Retriever):
    turns = real_retriever.settings.history_turns
    unrelated = ["燕禮誰為主人？"] * 5
    a = real_retriever.ask("那介呢？", history=[*unrelated, "賓為什麼說旨？"])
    b = real_retriever.ask("那介呢？", history=["賓為什麼說旨？"] if turns == 1 else [*unrelated[: turns - 1], "賓為什麼說旨？"])
    assert [h.unit.id for h in a.hits] == [h.unit.id for h in b.hits]


def test_batch_ask_keeps_order_and_errors_in_place(real_retriever: Retriever):
    out = real_retriever.batch_ask(["賓為什麼說旨？", "   ", "主人為什麼拜崇酒？"], k=3)
    assert isinstance(out[0], Answer) and isinstance(out[2], Answer)
    assert isinstance(out[1], QueryError) and "empty question" in str(out[1])
    assert out[0].text == real_retriever.ask("賓為什麼說旨？", k=3).text
    assert len(out[2].hits) == 3


@pytest.mark.parametrize("k, expected", [(None, 5), (1, 1), (50, 50), ("7", 7)])
def test_check_k_accepts(k, expected):
    assert check_k(k, Settings.from_env(env={})) == expected


@pytest.mark.parametrize("k", [0, -1, -100, 51, 1000, 2.5, "abc", True, "", [3]])
def test_check_k_refuses_with_a_message(k):
    with pytest.raises(QueryError, match="k must be"):
        check_k(k, Settings.from_env(env={}))


def test_every_door_gives_the_same_row(real_retriever: Retriever, capsys, monkeypatch):
    """Python API, the app's ask endpoint, qa ask --json and qa batch rows are one pipeline's output."""
    from qa.batch import InputRow, answer_rows

    question = "主人為什麼拜崇酒？"
    api = real_retriever.ask(question, k=3).to_dict()
    endpoint = ChatService(real_retriever).ask_row(question, 3)
    batch = next(answer_rows(real_retriever, [InputRow(0, None, question, None)], k=3))
    monkeypatch.setattr(Retriever, "load", classmethod(lambda cls, **kw: real_retriever))
    assert cli_main(["ask", question, "-k", "3", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert api == endpoint == batch == cli


def test_cli_ask_follows_up_with_history(real_retriever: Retriever, capsys, monkeypatch):
    monkeypatch.setattr(Retriever, "load", classmethod(lambda cls, **kw: real_retriever))
    assert cli_main(["ask", "那介呢？", "--history", "賓為什麼說旨？", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["hits"][0]["id"] == real_retriever.ask("那介呢？", history=["賓為什麼說旨？"]).hits[0].unit.id
    assert "不告旨" in row["hits"][0]["jing"]


def test_cli_refuses_a_bad_k_before_loading(capsys, monkeypatch):
    def boom(cls, **kw):  # pragma: no cover - must not be reached
        raise AssertionError("the index was loaded for a bad k")

    monkeypatch.setattr(Retriever, "load", classmethod(boom))
    assert cli_main(["ask", "賓為什麼說旨？", "-k", "51"]) == 2
    err = capsys.readouterr().err
    assert "k must be from 1 to 50" in err and "Traceback" not in err
