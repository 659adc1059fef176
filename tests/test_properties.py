"""Property-based tests (hypothesis): the normalizer, the seed parsers and the query path never crash or lose text."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qa.errors import QAError, QueryError
from qa.text.normalize import fold_char, normalize, normalize_with_map

# Text that looks like the seeds: CJK (both scripts, variants), the markup the parsers key on,
# punctuation of every kind, private-use glyphs, and anything else Unicode has.
SEED_ALPHABET = list(
    "賓主人介衆告旨拜酒爵觶洗升降席坐奠興獻酢酬樂工笙歌鄉飲燕禮公卿大夫士宰"
    "宾主人众告旨拜酒爵觯洗升降席坐奠兴献酢酬乐工笙歌乡饮燕礼公卿大夫士宰"
    "於于雲云麵面複復之也者曰謂釋疏注經記"
    "（）()【】〔〕［］[]「」『』“”‘’。，、；：？！○●◎…—　 \t"
    "\ue000\ue123\uf8ff"
)
TOKENS = SEED_ALPHABET + ["\n", "\n", "疏", "釋曰：", "注", "[疏]", "○釋曰︰", "疏「", "」至「", "」。○"]
seedish_text = st.lists(st.sampled_from(TOKENS), max_size=300).map("".join) | st.text(
    alphabet=st.sampled_from(SEED_ALPHABET), max_size=60
).map(lambda s: "\n".join([s, "（" + s + "）", "[疏]“" + s[:2] + "”至“" + s[-2:] + "”。", "釋曰：" + s]))
any_text = st.text(max_size=300)
fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- normalizer -------------------------------------------------------------------------


@fast
@given(any_text)
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@fast
@given(any_text)
def test_normalize_map_points_back_into_the_original(text: str) -> None:
    norm, pos = normalize_with_map(text)
    assert len(norm) == len(pos)
    assert all(0 <= p < len(text) for p in pos)
    assert pos == sorted(pos), "normalized characters keep the original order"
    for ch, p in zip(norm, pos):
        # every kept character comes from folding the character it maps to (spaces join English words)
        assert ch == " " or ch in fold_char(text[p])


@fast
@given(any_text)
def test_normalize_drops_punctuation_controls_and_private_use(text: str) -> None:
    norm = normalize(text)
    for ch in norm:
        cat = unicodedata.category(ch)
        assert ch == " " or cat[0] not in "PZC", f"{ch!r} ({cat}) survived normalization"
    assert "  " not in norm and norm == norm.strip()


@fast
@given(st.text(alphabet=st.sampled_from(SEED_ALPHABET), max_size=100), st.text(alphabet=st.sampled_from(SEED_ALPHABET), max_size=100))
def test_normalize_is_per_character_on_cjk(a: str, b: str) -> None:
    # table-driven per character: normalizing a concatenation is concatenating normalizations
    # (ASCII is excluded: a space is kept between two English words only).
    assert normalize(a + b) == normalize(a) + normalize(b)


@pytest.mark.parametrize("trad,simp", [("賓為什麼說旨", "宾为什么说旨"), ("鄉飲酒禮", "乡饮酒礼"), ("於", "于")])
def test_normalize_folds_scripts_together(trad: str, simp: str) -> None:
    assert normalize(trad) == normalize(simp)


# --- parsers ----------------------------------------------------------------------------


def _seed(parser: str):
    from qa.corpus.catalog import SeedFile

    return SeedFile(
        name=f"prop_{parser}.txt", path=Path(f"prop_{parser}.txt"), work="儀禮注疏", work_id="zhushu", author="鄭玄注 賈公彥疏",
        rite="鄉飲酒禮", rite_id="xiangyin", juan="卷八", script="繁", edition="test", parser=parser,
    )


def _parser_names() -> list[str]:
    from qa.corpus.parsers import PARSERS

    return sorted(PARSERS)


@pytest.mark.parametrize("parser", _parser_names())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=seedish_text)
def test_parsers_never_crash_and_never_lose_a_character(parser: str, text: str) -> None:
    from qa.corpus.parsers import PARSERS
    from qa.corpus.units import lossless_problems

    try:
        parsed = PARSERS[parser](_seed(parser), text)
    except QAError as exc:  # a clear, one-line format error is an acceptable answer to garbage
        assert str(exc) and "\n" not in str(exc)
        return
    assert lossless_problems(parsed, text) == ()
    for u in parsed.units:
        first, last = u.lines
        assert 1 <= first <= last <= max(1, text.count("\n") + 1)


# --- query path -------------------------------------------------------------------------


@fast
@given(any_text, st.integers(min_value=1, max_value=200))
def test_analyze_gives_a_query_or_a_clear_error(text: str, max_chars: int) -> None:
    from qa.retrieval.query import analyze, hanzi_numbers

    try:
        q = analyze(text, max_chars=max_chars)
    except QueryError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert not text.strip() or not normalize(text) or not text.isprintable()
        return
    assert len(q.text) <= max_chars
    assert q.norm == normalize(hanzi_numbers(q.text))  # digits inside Chinese are matched as numerals
    if len(text) <= max_chars:
        assert not q.truncated
    if q.truncated:
        assert len(q.text) == max_chars
    assert q.lang in {"zh-Hant", "zh-Hans", "lzh", "en", "mixed"}
    assert all(e == normalize(e) for e in q.expansions)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=any_text | seedish_text)
def test_search_answers_anything_or_says_why(mini_corpus_retriever, text: str) -> None:
    try:
        hits = mini_corpus_retriever.search(text, k=3)
    except QueryError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(hits) <= 3
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    ids = {u.id for u in mini_corpus_retriever.units}
    assert all(h.unit.id in ids for h in hits)
