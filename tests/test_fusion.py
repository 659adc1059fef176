"""qa.retrieval.fusion: weighted reciprocal-rank fusion on hand-written rankings."""

from __future__ import annotations

import pytest

from qa.retrieval.fusion import (
    ASKED_FOLLOW_UP,
    ASKED_WEIGHTS,
    DEFAULT_WEIGHTS,
    ENGLISH_WEIGHTS,
    RENDERING_WEIGHTS,
    RRF_K,
    SHADOW_WEIGHT,
    fuse,
    weights_for,
)
from qa.retrieval.query import analyze


def ids(fused):
    return [u for u, _ in fused]


def test_a_single_ranking_is_returned_unchanged():
    ranking = [("a", 9.0), ("b", 3.0), ("c", 1.0)]
    assert ids(fuse({"lexical": ranking})) == ["a", "b", "c"]


def test_agreement_beats_a_single_first_place():
    fused = fuse({"lexical": [("a", 9), ("b", 8), ("c", 7)], "dense": [("b", 0.9), ("d", 0.8)]}, {"lexical": 1, "dense": 1})
    assert ids(fused)[0] == "b"
    assert set(ids(fused)) == {"a", "b", "c", "d"}


def test_fused_scores_follow_the_formula():
    fused = dict(fuse({"lexical": [("a", 1.0), ("b", 0.5)], "dense": [("b", 0.7)]}, {"lexical": 1.0, "dense": 0.5}))
    assert fused["a"] == pytest.approx(1.0 / (RRF_K + 1))
    assert fused["b"] == pytest.approx(1.0 / (RRF_K + 2) + 0.5 / (RRF_K + 1))


def test_zero_weight_silences_a_retriever():
    fused = fuse({"lexical": [("a", 1), ("b", 1)], "dense": [("b", 1), ("c", 1)]}, {"lexical": 1.0, "dense": 0.0})
    assert ids(fused)[:2] == ["a", "b"]


def test_weights_decide_between_disagreeing_retrievers():
    rankings = {"lexical": [("a", 1), ("b", 1)], "dense": [("b", 1), ("a", 1)]}
    assert ids(fuse(rankings, {"lexical": 2.0, "dense": 1.0}))[0] == "a"
    assert ids(fuse(rankings, {"lexical": 1.0, "dense": 2.0}))[0] == "b"


def test_ties_keep_the_first_rankings_order():
    fused = fuse({"lexical": [("a", 1)], "dense": [("b", 1)]}, {"lexical": 1.0, "dense": 1.0})
    assert ids(fused) == ["a", "b"]


def test_a_duplicate_counts_once_at_its_best_rank():
    fused = dict(fuse({"lexical": [("a", 1), ("a", 0.5), ("b", 0.1)]}))
    assert fused["a"] == pytest.approx(DEFAULT_WEIGHTS["lexical"] / (RRF_K + 1))


def test_empty_rankings():
    assert fuse({}) == [] and fuse({"lexical": [], "dense": []}) == []


def test_weights_by_kind_of_question():
    asked = ASKED_WEIGHTS
    assert weights_for(analyze("Why does the guest bow?")) == {**ENGLISH_WEIGHTS, "shadow": SHADOW_WEIGHT,
                                                               "rendering": RENDERING_WEIGHTS["en"], "asked": asked["en"]}
    assert weights_for(analyze("宾为什么要说酒好？")) == {**DEFAULT_WEIGHTS, "shadow": SHADOW_WEIGHT,
                                                       "rendering": RENDERING_WEIGHTS["zh-Hans"], "asked": asked["zh-Hans"]}
    # no renderings for traditional Chinese in the corpus's words
    assert weights_for(analyze("賓為什麼告旨？")) == {**DEFAULT_WEIGHTS, "shadow": SHADOW_WEIGHT, "asked": asked["zh-Hant"]}
    # classical: neither shadow nor renderings; the written questions a little
    assert weights_for(analyze("賓告旨者何？")) == {**DEFAULT_WEIGHTS, "asked": asked["lzh"]}
    # a follow-up is half a question: the written questions weigh less
    assert weights_for(analyze("那介呢？", history=["賓為什麼說旨？"]))["asked"] == asked["zh-Hant"] * ASKED_FOLLOW_UP
