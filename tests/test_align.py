"""Cross-edition alignment: hand-made units (oracle) and pinned links on the real corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.align import align_pairs, align_units, coverage
from qa.corpus.load import load_corpus
from qa.corpus.units import LemmaUnit
from qa.text.tokens import longest_common_run as longest_run

ROOT = Path(__file__).resolve().parent.parent


def _xiyi(i: int, jing: str, rite: str = "燕禮") -> LemmaUnit:
    return LemmaUnit(id=f"xiyi.yan.{i:03d}", work="仪礼析疑", rite=rite, source="000.txt", lines=(i, i), section="經", jing=jing, xiyi="按")


def _zs(tag: str, jing: str, rite: str = "燕禮", source: str = "002.txt") -> LemmaUnit:
    return LemmaUnit(id=f"zhushu.yan.{tag}", work="儀禮注疏", rite=rite, source=source, lines=(1, 1), section="經", jing=jing, zhu="注。")


def test_coverage_and_longest_run():
    assert coverage("司宫兼卷", "司宫兼卷重席") == 1.0
    assert coverage("司宫兼卷", "司宮兼卷重席") == pytest.approx(1 / 3)  # raw text: callers normalize first
    assert longest_run("abcdef", "xxcdeyy") == 3
    assert longest_run("", "abc") == 0


def test_abridged_simplified_lemma_links_both_ways():
    units = (_xiyi(1, "胥荐主人于洗北西面脯醢无胥"), _zs("a001", "胥薦主人於洗北，西麵，脯醢，無脀。"), _zs("a002", "辯獻大夫，遂薦之。"))
    out = {u.id: u for u in align_units(units)}
    assert out["xiyi.yan.001"].related == ("zhushu.yan.a001",)
    assert out["zhushu.yan.a001"].related == ("xiyi.yan.001",)
    assert out["zhushu.yan.a002"].related == ()


def test_other_rite_and_weak_overlap_do_not_link():
    units = (_xiyi(1, "主人坐祭不啐酒"), _zs("a001", "主人坐祭，不啐酒。", rite="鄉飲酒禮"), _zs("a002", "主人坐，卒爵，拜。"))
    assert align_pairs(units) == []


def test_order_decides_between_look_alike_passages():
    # the same formula in two 經; lemma order says the first lemma's partner is the earlier one
    units = (
        _xiyi(1, "公答再拜"),
        _xiyi(2, "司宫兼卷重席"),
        _zs("a001", "媵爵者再拜稽首，公答再拜。"),
        _zs("a002", "司宮兼卷重席，設於賓左。"),
        _zs("a003", "致者再拜稽首，公答再拜。"),
    )
    assert align_pairs(units) == [("xiyi.yan.001", "zhushu.yan.a001"), ("xiyi.yan.002", "zhushu.yan.a002")]


def test_lemma_over_two_adjacent_units_links_both():
    units = (_xiyi(1, "若有诸公则先卿献之席于阼阶西北面"), _zs("a001", "若有諸公，則先卿獻之。"), _zs("a002", "席於阼階西，北麵，東上。"))
    assert align_pairs(units) == [("xiyi.yan.001", "zhushu.yan.a001"), ("xiyi.yan.001", "zhushu.yan.a002")]


def test_same_jing_in_two_zhushu_files_links():
    units = (_zs("a001", "司宮兼卷重席，設於賓左，東上。"), _zs("c001", "司宫兼卷重席设于宾左东上", source="004.txt"))
    assert align_pairs(units) == [("zhushu.yan.a001", "zhushu.yan.c001")]


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


@pytest.mark.parametrize(
    ("lemma", "jing"),
    [
        ("司宫兼卷重席设于宾左", "司宮兼卷重席，設於賓左，東上。"),
        ("胥荐主人于洗北西面脯醢无胥", "胥薦主人於洗北，西麵，脯醢，無脀。"),
        ("羞庶羞", "羞庶羞。"),
        ("士旅酌卒", "士旅酌。卒。"),
    ],
)
def test_real_pinned_links(corpus, lemma, jing):
    by_id = corpus.by_id()
    x = next(u for u in corpus.units if u.work == "仪礼析疑" and u.jing == lemma)
    z = next(u for u in corpus.units if u.jing == jing)
    assert z.id in x.related and x.id in z.related
    assert all(by_id[r].rite == x.rite for r in x.related)


def test_real_alignment_count_and_symmetry(corpus):
    by_id = corpus.by_id()
    lemmas = [u for u in corpus.units if u.work == "仪礼析疑" and u.jing]
    linked = [u for u in lemmas if u.related]
    assert len(linked) == 21, [u.jing for u in linked]
    for u in corpus.units:
        for r in u.related:
            assert u.id in by_id[r].related
    # 鄉飲酒禮 (003) has no 析疑 in the corpus: no links
    assert not any(u.related for u in corpus.units if u.rite == "鄉飲酒禮")
