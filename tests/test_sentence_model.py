"""The learned sentence model: its weights table, its features on the real corpus, and how it orders the answer."""

from __future__ import annotations

import numpy as np
import pytest

from qa.answering import sentence_model as model_module
from qa.answering import sentences as S
from qa.answering.sentence_model import FEATURES, candidate_features, sentence_model
from qa.errors import DataTableError
from qa.retrieval.query import analyze
from qa.text.tables import TABLES, table_hashes


def test_weights_load_one_finite_weight_per_feature():
    model = sentence_model()
    assert model.weights.shape == (len(FEATURES),) and np.isfinite(model.weights).all()
    assert model.path.endswith("sentence_rerank.tsv")
    assert len(set(FEATURES)) == len(FEATURES)


def test_the_weights_table_is_not_part_of_what_an_index_is_built_from():
    assert TABLES["sentence_rerank.tsv"].indexed is False
    assert "sentence_rerank.tsv" not in table_hashes()


def test_a_table_naming_an_unknown_feature_or_missing_one_is_a_one_line_error(tmp_path):
    (tmp_path / "sentence_rerank.tsv").write_text("# made by hand\nno_such_feature\t1.0\n", encoding="utf-8")
    with pytest.raises(DataTableError, match="unknown sentence-model feature"):
        model_module._model_in(tmp_path)
    (tmp_path / "sentence_rerank.tsv").write_text("coverage\t1.0\n", encoding="utf-8")
    with pytest.raises(DataTableError, match="weights missing"):
        model_module._model_in(tmp_path)


def _scored(retriever, question: str):
    q = retriever.understand(analyze(question))
    hits = retriever.search(q, 10)
    cands = S._candidates(hits)
    return q, cands, S.scoring(q, hits, cands)


@pytest.mark.parametrize("question", [
    "旅酬是什麼意思？",
    "為什麼主人要洗爵？",
    "Where does the guest stand when he is toasted?",
    "燕禮裡賈疏怎麼說膳宰？",
    "乡饮酒礼的乐工有几个人？",
])
def test_the_learned_order_is_a_permutation_that_keeps_the_hand_scores(real_retriever, question):
    q, cands, ctx = _scored(real_retriever, question)
    assert len(cands) > 10
    hand = S.ordered(q, cands, ctx, learned=False)
    learned = S.ordered(q, cands, ctx, learned=True)
    # the same candidates; the n-th takes the n-th best hand score, so the cut-offs keep their meaning
    assert sorted(id(c) for c, _ in learned) == sorted(id(c) for c, _ in hand)
    assert [s for _, s in learned] == [s for _, s in hand] == sorted((s for _, s in hand), reverse=True)
    parts = [ctx.parts(c) for c, _ in hand]
    x = candidate_features(ctx.terms, q.lang, [c.layer for c, _ in hand], parts, [s for _, s in hand])
    assert x.shape == (len(cands), len(FEATURES)) and np.isfinite(x).all()
    assert x[0, FEATURES.index("hand_rr")] == 1.0 and x[0, FEATURES.index("hand_share")] == 1.0


def test_the_model_can_be_switched_off(real_retriever, monkeypatch):
    q, cands, ctx = _scored(real_retriever, "為什麼主人要洗爵？")
    monkeypatch.setattr(model_module, "LEARNED_SENTENCES", False)
    assert S.ordered(q, cands, ctx) == S.ordered(q, cands, ctx, learned=False)


def test_why_question_kinds_cross_each_layer():
    t = S.query_terms(analyze("為什麼主人要洗爵？"))
    kinds = model_module.question_kinds(t, "zh-Hant")
    assert kinds[model_module.QUESTION_KINDS.index("why")] == 1.0
    assert kinds[model_module.QUESTION_KINDS.index("english")] == 0.0


def test_the_model_overrules_the_hand_only_by_a_margin():
    m = model_module.SentenceModel(np.array([1.0]), "test")
    near = np.array([[1.0], [1.0 + model_module.OVERRULE_MARGIN / 2]])
    clear = np.array([[1.0], [1.0 + 2 * model_module.OVERRULE_MARGIN]])
    assert m.first(near) == 0 and m.first(clear) == 1
    assert m.order(near) == [1, 0]
