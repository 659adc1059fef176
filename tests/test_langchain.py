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
