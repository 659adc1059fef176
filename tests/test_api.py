"""qa.api: the JSON API beside the chat, over a real socket (the app started on a free port)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from conftest import served

from qa.answering.compose import error_row


@pytest.fixture(scope="module")
def server(mini_retriever):
    """The real server (chat + /api) over the mini corpus, in this process, on a free port."""
    with served(mini_retriever) as (url, _demo):
        yield url


def call(url: str, body: object = None, *, raw: bytes | None = None, method: str | None = None) -> tuple[int, object]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode("utf-8"))
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            status, payload = resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        status, payload = exc.code, exc.read()
    text = payload.decode("utf-8")  # strict: a torn or invalid body fails here
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


def test_health_and_schema(server):
    status, health = call(f"{server}/api/health")
    assert status == 200 and health["status"] == "ok" and health["units"] > 0 and health["max_k"] == 50
    status, schema = call(f"{server}/api/openapi.json")
    assert status == 200 and {"/ask", "/units/{unit_id}", "/health"} <= set(schema["paths"])
    ask = schema["paths"]["/ask"]["post"]
    assert ask["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/AnswerRow")
    assert {"422", "413"} <= set(ask["responses"])
    k = schema["components"]["schemas"]["AskRequest"]["properties"]["k"]
    assert "minimum" in json.dumps(k) and "maximum" in json.dumps(k)
    status, docs = call(f"{server}/api/docs")
    assert status == 200 and "/api/openapi.json" in docs
    assert call(f"{server}/")[0] == 200  # the chat is still there


def test_ask_returns_the_batch_row(server, mini_retriever):
    status, row = call(f"{server}/api/ask", {"question": "賓拜告旨", "k": 3})
    assert status == 200
    assert set(row) == set(error_row(None, "", ""))
    assert row == mini_retriever.ask("賓拜告旨", k=3).to_dict(id=None)
    assert row["found"] and row["citations"] and len(row["hits"]) == 3


def test_ask_follow_up_filters_and_script(server, mini_retriever):
    status, row = call(f"{server}/api/ask", {"question": "那介呢？", "history": ["賓拜告旨"], "k": 2})
    assert status == 200 and row == mini_retriever.ask("那介呢？", k=2, history=["賓拜告旨"]).to_dict()
    status, row = call(f"{server}/api/ask", {"question": "賓拜告旨", "k": 2, "rites": ["燕禮"]})
    assert status == 200 and [h["id"].split(".")[1] for h in row["hits"]] == ["yan", "yan"]
    status, row = call(f"{server}/api/ask", {"question": "賓拜告旨", "k": 2, "layers": ["xiyi"]})
    assert status == 200 and all(h["xiyi"] for h in row["hits"])
    status, orig = call(f"{server}/api/ask", {"question": "賓拜告旨", "k": 2})
    status, hans = call(f"{server}/api/ask", {"question": "賓拜告旨", "k": 2, "script": "hans"})
    assert status == 200 and "執爵" in orig["hits"][0]["jing"] and "执爵" in hans["hits"][0]["jing"]
    assert [h["id"] for h in hans["hits"]] == [h["id"] for h in orig["hits"]]
    assert [c["citation"] for c in hans["citations"]] == [c["citation"] for c in orig["citations"]]


@pytest.mark.parametrize(
    "body, says",
    [
        ({"question": "賓拜告旨", "k": -1}, "k:"),
        ({"question": "賓拜告旨", "k": -100}, "k:"),
        ({"question": "賓拜告旨", "k": 0}, "k:"),
        ({"question": "賓拜告旨", "k": 51}, "k:"),
        ({"question": "賓拜告旨", "k": "abc"}, "k:"),
        ({"question": "賓拜告旨", "k": "5"}, "k:"),
        ({"question": "賓拜告旨", "k": 2.5}, "k:"),
        ({"question": "賓拜告旨", "k": True}, "k:"),
        ({"question": ""}, "question:"),
        ({"question": "   "}, "empty question"),
        ({"question": "旨" * 2001}, "question:"),
        ({"k": 3}, "question:"),
        ({"question": 5}, "question:"),
        ({"question": "賓拜告旨", "history": "賓拜告旨"}, "history:"),
        ({"question": "賓拜告旨", "history": ["q"] * 21}, "history:"),
        ({"question": "賓拜告旨", "script": "latin"}, "script:"),
        ({"question": "賓拜告旨", "rites": ["foo", "yan"]}, "unknown rite 'foo': use one of yan, 燕禮, xiangyin"),
        ({"question": "賓拜告旨", "layers": ["commentary"]}, "unknown layer 'commentary': use one of jing, zhu, shu, xiyi"),
        ({"question": "賓拜告旨", "top_k": 3}, "top_k:"),
        (["賓拜告旨"], "body"),
    ],
)
def test_bad_parameters_are_a_4xx_with_a_message(server, body, says):
    status, reply = call(f"{server}/api/ask", body)
    assert status == 422, reply
    assert set(reply) == {"error"} and says in reply["error"], reply


def test_malformed_json_is_a_4xx(server):
    status, reply = call(f"{server}/api/ask", raw=b'{"question": "\xff"')
    assert status == 400 and set(reply) == {"error"} and reply["error"], reply


def test_units_by_id(server, mini_retriever):
    unit = mini_retriever.units[0]
    status, got = call(f"{server}/api/units/{unit.id}")
    assert status == 200 and got["id"] == unit.id and got["jing"] == unit.jing and got["citation"] == unit.citation()
    status, got = call(f"{server}/api/units/zhushu.nothing.999")
    assert status == 404 and "no unit 'zhushu.nothing.999'" in got["error"]


def test_get_on_ask_is_refused(server):
    status, reply = call(f"{server}/api/ask")
    assert status == 405 and set(reply) == {"error"}


def test_unknown_path_has_the_same_error_shape(server):
    status, reply = call(f"{server}/api/nothing")
    assert status == 404 and set(reply) == {"error"}


def test_the_gradio_ask_endpoint_is_typed_and_takes_history_and_script(server, mini_retriever):
    from gradio_client import Client

    client = Client(f"{server}/", verbose=False, download_files=False)
    info = client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/ask"]
    assert [p["parameter_name"] for p in info["parameters"]] == ["question", "k", "history", "script"]
    assert next(p for p in info["parameters"] if p["parameter_name"] == "script")["type"] == {"enum": ["orig", "hant", "hans"]}
    returns = info["returns"][0]["type"]
    assert returns["type"] == "object" and set(returns["properties"]) == set(error_row(None, "", ""))
    assert set(returns["properties"]["hits"]["items"]["properties"]) >= {"id", "jing", "zhu", "shu", "xiyi", "score"}
    row = client.predict("那介呢？", 2, ["賓拜告旨"], "hans", api_name="/ask")
    want = mini_retriever.ask("那介呢？", k=2, history=["賓拜告旨"]).to_dict()
    assert [h["id"] for h in row["hits"]] == [h["id"] for h in want["hits"]] and row["error"] is None
    assert client.predict("賓拜告旨", 2, api_name="/ask")["hits"]  # history and script have defaults
