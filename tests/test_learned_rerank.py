"""The learned re-ranker: its weights table, its features on the real corpus, and what it prefers."""

from __future__ import annotations

import numpy as np
import pytest

from qa.retrieval import rerank as rerank_module
from qa.retrieval.features import FEATURES, Evidence, features
from qa.retrieval.query import analyze
from qa.retrieval.rerank import DEPTH, LEARNED, MODEL_FEATURES, learned_model, model_features, rerank
from qa.retrieval.terms import query_terms
from qa.text.tables import TABLES, table_hashes


def test_weights_load_one_finite_weight_per_feature():
    model = learned_model()
    assert model.weights.shape == (len(MODEL_FEATURES),) and MODEL_FEATURES[-1] == "hand_rr"
    assert np.isfinite(model.weights).all()
    assert model.path.endswith("rerank.tsv")


def test_the_weights_table_is_not_part_of_what_an_index_is_built_from():
    assert TABLES["rerank.tsv"].indexed is False
    assert "rerank.tsv" not in table_hashes()


def test_a_table_naming_an_unknown_feature_is_a_one_line_error(tmp_path):
    from qa.errors import DataTableError

    (tmp_path / "rerank.tsv").write_text("# made by hand\nno_such_feature\t1.0\n", encoding="utf-8")
    with pytest.raises(DataTableError, match="unknown re-ranker feature"):
        rerank_module._model_in(tmp_path)


def _units(r, *ids):
    by_id = {u.id: u for u in r.units}
    return [by_id[i] for i in ids]


def test_a_unit_glossing_the_asked_term_rises_above_one_that_only_mentions_it(real_retriever):
    # 仪礼析疑 quotes 「賓以旅酬于西階上」; 鄉飲酒禮's 「司正升相旅」 has the 注 「旅，序也」
    mention, gloss = _units(real_retriever, "xiyi.yan.033", "zhushu.xiangyin.104")
    q = analyze("旅酬是什麼意思？")
    fused = [(mention, 0.08), (gloss, 0.079)]
    evidence = {mention.id: Evidence(1, 12.0, 1, 0.8), gloss.id: Evidence(2, 11.0, 2, 0.78)}
    out = rerank(q, fused, evidence=evidence, learned=True)
    assert [u.id for u, _ in out] == [gloss.id, mention.id]
    assert out[0][1] == pytest.approx(0.08)  # the best keeps the best fused score: ratios stay meaningful


@pytest.mark.parametrize("question, history", [
    ("旅酬是什麼意思？", ()),
    ("為什麼主人要洗爵？", ()),
    ("Where does the guest stand when he is toasted?", ()),
    ("燕禮裡賈疏怎麼說膳宰？", ()),
    ("那介呢？", ("賓為什麼說旨？",)),
])
def test_features_on_the_real_corpus_are_finite_and_the_learned_order_is_a_permutation(real_retriever, monkeypatch,
                                                                                        question, history):
    q = real_retriever.understand(analyze(question, history=history))
    hits = real_retriever.search(q, DEPTH)
    fused = [(h.unit, h.score) for h in hits]
    x = features(q, query_terms(q), fused, real_retriever.data.lexical.term_idf())
    assert x.shape == (len(fused), len(FEATURES)) and np.isfinite(x).all()
    assert ((x >= 0) & (x <= 1.0 + 1e-9)).all()  # every feature is a share, a reciprocal rank or a flag
    monkeypatch.setattr(rerank_module, "LEARNED", True)
    learned = real_retriever.search(q, DEPTH)
    assert sorted(h.unit.id for h in learned) == sorted(h.unit.id for h in hits)
    assert all(np.isfinite(h.score) for h in learned)
    assert [h.score for h in learned] == sorted((h.score for h in learned), reverse=True)


def test_the_learned_model_is_on_and_reads_the_hand_order(real_retriever):
    """The learned model is what orders the head (``LEARNED``), and its last input is the hand re-ranker's verdict:
    1 / the rank the hand-set bonuses give each unit, a permutation of 1 … n."""
    assert LEARNED
    q = real_retriever.understand(analyze("旅酬是什麼意思？"))
    hits = real_retriever.search(q, DEPTH)
    fused = [(h.unit, h.score) for h in hits]
    hand = rerank(q, fused, real_retriever.data.lexical.term_idf(), learned=False)
    x = model_features(q, fused, real_retriever.data.lexical.term_idf(), None, hand)
    assert x.shape == (len(fused), len(MODEL_FEATURES))
    assert sorted(np.round(1.0 / x[:, -1]).astype(int)) == list(range(1, len(fused) + 1))
    assert x[[u.id for u, _ in fused].index(hand[0][0].id), -1] == 1.0  # the hand order's first


def test_the_weights_were_trained_on_development_sets_only():
    header = open(learned_model().path, encoding="utf-8").read().split("# feature")[0]
    assert "real_dev" in header and "real_test" not in header


def test_the_lay_channels_ranks_are_features_and_count_apart_for_english(real_retriever):
    """Each unit's rank in the English shadow, the renderings and the asked questions reaches the model (the
    thirteenth round's features: leave-one-set-out hit@1 0.781 → 0.806), and again, apart, for an English question."""
    from qa.retrieval.retriever import _evidence

    rankings = {"lexical": [("a", 3.0)], "dense": [("b", 0.5)], "asked": [("c", 1.0), ("a", 0.5)], "shadow": [("b", 2.0)]}
    ev = _evidence(rankings)
    assert ev["c"] == Evidence(asked_rank=1) and ev["a"].asked_rank == 2 and ev["b"].shadow_rank == 1
    columns = [FEATURES.index(n) for n in ("shadow_rr", "rendering_rr", "asked_rr")]
    english = [FEATURES.index(n) for n in ("shadow_rr_en", "rendering_rr_en", "asked_rr_en")]
    for text, lay in (("Who leads the blind musicians up into the hall?", True), ("誰扶樂工上堂？", False)):
        q = real_retriever.understand(analyze(text))
        hits = real_retriever.search(q, DEPTH)
        fused = [(h.unit, h.score) for h in hits]
        x = features(q, query_terms(q), fused, real_retriever.data.lexical.term_idf(),
                     _evidence(real_retriever.channel_rankings(q)))
        assert x[:, columns].max() > 0  # some candidate is on a lay channel's list
        assert np.array_equal(x[:, english], x[:, columns]) if lay else not x[:, english].any()


def test_the_training_script_records_what_the_ask_pipeline_reranks(real_retriever):
    """scripts/train_rerank.py stands in for ``rerank`` to record its input: it must take every argument the pipeline
    passes (a follow-up's ``before`` included), or training fails only when someone next retrains."""
    import sys
    from pathlib import Path

    from qa.evaluate import read_questions

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    try:
        import train_rerank
    finally:
        sys.path.pop(0)
    questions = read_questions(Path(__file__).parent / "data" / "questions" / "real_dev.jsonl")
    asked = [q for q in questions if not q.history][:2] + [q for q in questions if q.history][:1]
    samples = train_rerank.record(real_retriever, asked)
    assert len(samples) == 3 and samples[-1].follow_up and samples[0].x.shape == (min(DEPTH, len(samples[0].gold)), len(MODEL_FEATURES))
