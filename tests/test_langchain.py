"""qa.langchain: the hybrid retriever as a LangChain BaseRetriever returning Documents."""

from __future__ import annotations

import sys

import pytest

from qa.errors import QAError

pytest.importorskip("langchain_core")


def test_documents_carry_unit_fields_and_citation(mini_retriever):
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from qa.langchain import as_langchain

    lc = as_langchain(mini_retriever, k=2)
    assert isinstance(lc, BaseRetriever)
    docs = lc.invoke("賓拜告旨")
    assert len(docs) == 2 and all(isinstance(d, Document) for d in docs)
    top = docs[0]
    hit = mini_retriever.search("賓拜告旨", 2)[0]
    assert top.id == hit.unit.id == top.metadata["id"]
    assert top.metadata["citation"] == hit.unit.citation()
    assert top.metadata["jing"] == hit.unit.jing and top.metadata["source"] == hit.unit.source
    assert top.metadata["low_confidence"] is False and top.metadata["matched"]
    assert top.page_content.startswith("經：" + hit.unit.jing)


def test_missing_langchain_is_a_clear_error(monkeypatch):
    import qa.langchain

    qa.langchain.retriever_class.cache_clear()
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.retrievers", None)
    try:
        with pytest.raises(QAError, match="pip install 'yili-qa\\[langchain\\]'"):
            qa.langchain.as_langchain(object())
    finally:
        qa.langchain.retriever_class.cache_clear()


def test_k_and_filters_at_call_time(mini_retriever):
    from qa.langchain import as_langchain

    lc = as_langchain(mini_retriever, k=3)
    assert len(lc.invoke("賓拜告旨")) == 3
    assert len(lc.invoke("賓拜告旨", k=2)) == 2  # used to be ignored
    assert len(lc.invoke("賓拜告旨", k=1)) == 1
    assert len(lc.invoke("賓拜告旨")) == 3  # the default is unchanged by a call
    docs = lc.invoke("賓拜告旨", k=2, rites=["燕禮"])
    assert len(docs) == 2 and all(d.id.split(".")[1] == "yan" for d in docs)
    docs = lc.invoke("賓拜告旨", layers="析疑")
    assert docs and all(d.metadata["xiyi"] for d in docs)
    follow = lc.invoke("那介呢？", k=2, history=["賓拜告旨"])
    assert [d.id for d in follow] == [h.unit.id for h in mini_retriever.ask("那介呢？", k=2, history=["賓拜告旨"]).hits]

    yan = as_langchain(mini_retriever, k=2, rites="yan")
    assert all(d.id.split(".")[1] == "yan" for d in yan.invoke("賓拜告旨"))
    assert all(d.id.split(".")[1] == "xiangyin" for d in yan.invoke("賓拜告旨", rites=["xiangyin"]))


@pytest.mark.parametrize("kwargs, says", [({"k": 0}, "k must be"), ({"k": 51}, "k must be"), ({"k": "abc"}, "k must be"),
                                          ({"k": 2.5}, "k must be"), ({"rites": ["foo"]}, "unknown rite 'foo'"),
                                          ({"layers": ["bar"]}, "unknown layer 'bar'"), ({"top_k": 2}, "unknown option 'top_k'")])
def test_bad_call_options_are_clear_errors(mini_retriever, kwargs, says):
    from qa.langchain import as_langchain

    with pytest.raises(QAError, match=says):
        as_langchain(mini_retriever).invoke("賓拜告旨", **kwargs)


def test_bad_defaults_fail_when_made(mini_retriever):
    from qa.langchain import as_langchain

    with pytest.raises(QAError, match="unknown rite 'foo'"):
        as_langchain(mini_retriever, rites=["foo"])
    with pytest.raises(QAError, match="k must be"):
        as_langchain(mini_retriever, k=99)
