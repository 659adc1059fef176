"""qa.answering.filters and qa.answering.inputs: rite/layer filters on an ask, and what doors do to raw text."""

from __future__ import annotations

import pytest

from qa.answering.filters import check_filters, rite_id
from qa.answering.inputs import door_history, door_question, raw_limit, valid_text
from qa.errors import QueryError


def test_rite_filter_keeps_only_that_rite(mini_retriever):
    plain = mini_retriever.ask("賓拜告旨", k=3)
    assert {rite_id(h.unit) for h in plain.hits} == {"xiangyin"}
    for name in ("yan", "燕禮", "燕礼", ["yan"]):
        hits = mini_retriever.ask("賓拜告旨", k=3, rites=name).hits
        assert len(hits) == 3 and {rite_id(h.unit) for h in hits} == {"yan"}, name


def test_layer_filter_keeps_units_having_the_layer(mini_retriever):
    hits = mini_retriever.ask("賓拜告旨", k=2, layers=["析疑"]).hits
    assert len(hits) == 2 and all(h.unit.xiyi for h in hits)
    hits = mini_retriever.ask("賓拜告旨", k=2, layers=["shu"], rites=["xiangyin"]).hits
    assert hits and all(h.unit.shu and rite_id(h.unit) == "xiangyin" for h in hits)


def test_filtered_hits_keep_the_unfiltered_order(mini_retriever):
    deep = [h.unit.id for h in mini_retriever.ask("賓拜告旨", k=20).hits if rite_id(h.unit) == "xiangyin"]
    got = [h.unit.id for h in mini_retriever.ask("賓拜告旨", k=3, rites=["xiangyin"]).hits]
    assert got == deep[:3]


def test_unknown_names_are_listed(mini_retriever):
    with pytest.raises(QueryError, match=r"unknown rite 'foo', 'bar': use one of .*xiangyin"):
        mini_retriever.ask("賓拜告旨", rites=["foo", "bar", "yan"])
    with pytest.raises(QueryError, match=r"unknown layer 'commentary': use one of jing, zhu, shu, xiyi"):
        check_filters(None, ["commentary"], mini_retriever.rite_names)
    with pytest.raises(QueryError, match="unknown layer 3"):
        check_filters(None, [3], mini_retriever.rite_names)


def test_no_filter_is_no_condition(mini_retriever):
    f = check_filters((), None, mini_retriever.rite_names)
    assert not f and all(f(u) for u in mini_retriever.units)


def test_valid_text_replaces_lone_surrogates_and_cuts():
    assert valid_text("賓\ud800說旨\udfff") == "賓\ufffd說旨\ufffd"
    assert valid_text("賓說旨😀") == "賓說旨😀"
    assert valid_text("x" * 10, 4) == "xxxx"
    ("賓\ufffd" + "\ufffd").encode("utf-8")


def test_door_bounds_question_and_history(mini_settings):
    huge = "旨" * (raw_limit(mini_settings) * 3)
    assert len(door_question(huge, mini_settings)) == raw_limit(mini_settings)
    assert door_question(None, mini_settings) is None  # the pipeline reports a non-text question
    turns = door_history([f"q{i}\ud800" for i in range(10)], mini_settings)
    assert turns == [f"q{i}\ufffd" for i in range(10 - mini_settings.history_turns, 10)]


def test_ask_with_a_lone_surrogate_and_a_huge_question(mini_retriever):
    a = mini_retriever.ask("賓拜告旨\ud800", k=2)
    a.to_dict()["question"].encode("utf-8")
    big = mini_retriever.ask("告旨" * 1_000_000, k=1)  # cut before the analyzer walks it
    assert big.hits and len(big.question) == mini_retriever.settings.max_query_chars


def test_batch_ask_bounds_raw_questions(mini_retriever, monkeypatch):
    import qa.retrieval.query as query

    seen: list[int] = []
    clean = query.clean
    monkeypatch.setattr(query, "clean", lambda text: (seen.append(len(text)), clean(text))[1])
    out = mini_retriever.batch_ask(["告旨" * 1_000_000, "賓拜告旨\ud800"], k=1)
    assert max(seen) <= raw_limit(mini_retriever.settings)
    assert all(a.hits for a in out) and "\ud800" not in out[1].question
