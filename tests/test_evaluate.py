"""qa.evaluate: the scoring rules of shared/eval/README.md on hand-made units and questions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from qa.corpus.units import LemmaUnit
from qa.errors import InputFormatError
from qa.evaluate import (
    Gold,
    evaluate,
    evidence_in,
    format_report,
    match_norm,
    read_questions,
)
from qa.text.tokens import longest_common_run

DATA = Path(__file__).parent / "data" / "eval"
QUESTIONS = DATA / "questions.jsonl"
UNITS = {
    u.id: u
    for u in (LemmaUnit.from_dict(json.loads(line)) for line in (DATA / "units.jsonl").read_text("utf-8").splitlines())
}
#: What a pretend retriever returns for each question, best first.
RETURNED = {
    "賓為什麼告旨？": ["zhushu.xiangyin.038", "zhushu.xiangyin.044"],
    "why does the host not praise the wine?": ["zhushu.yan.a001", "zhushu.xiangyin.038", "zhushu.xiangyin.044"],
    "士旅食是什麼人？": ["zhushu.xiangyin.038", "xiyi.yan.006"],
    "主人為何不告旨": ["zhushu.xiangyin.044"],
}


class FakeHit:
    def __init__(self, unit: LemmaUnit) -> None:
        self.unit = unit
        self.passages = ()


def search(question: str, k: int) -> list[FakeHit]:
    return [FakeHit(UNITS[i]) for i in RETURNED[question]][:k]


# ── matching normalization ─────────────────────────────────────────────────────


def test_match_norm_drops_spacing_punctuation_and_private_use_folds_script_and_yu():
    assert match_norm("賓拜告旨，主人拜崇酒。") == "宾拜告旨主人拜崇酒"
    assert match_norm("立於 東方\ue123︰") == "立于东方"
    assert match_norm("雲麵複") == "云面复"


def test_gold_needs_source_jing_and_evidence():
    g = Gold("003.txt", "不告旨", "酒，己物也")
    assert g.matches(UNITS["zhushu.xiangyin.044"])
    assert not g.matches(UNITS["zhushu.yan.a001"])  # same text, other seed file
    assert not g.matches(UNITS["zhushu.xiangyin.038"])  # 經 does not hold 不告旨
    assert not Gold("003.txt", "不告旨", "酒，人物也").matches(UNITS["zhushu.xiangyin.044"])
    assert Gold("000.txt", "尊士旅食於門西", "注謂士旅食庶人在官者非也").matches(UNITS["xiyi.yan.006"])


# ── hit@k, MRR, by language ────────────────────────────────────────────────────


def test_hits_mrr_and_languages():
    report = evaluate(QUESTIONS, search, k=10)
    ranks = {r.id: r.rank for r in report.results}
    assert ranks == {"t-1": 1, "t-2": 3, "t-3": 2, "t-4": 1}  # t-4 counts through `also`
    assert report.overall.n == 4
    assert report.overall.hit[1] == pytest.approx(0.5)
    assert report.overall.hit[5] == pytest.approx(1.0)
    assert report.overall.mrr == pytest.approx((1 + 1 / 3 + 1 / 2 + 1) / 4)
    assert set(report.by_lang) == {"en", "zh-Hant"}
    assert report.by_lang["en"].hit[1] == 0 and report.by_lang["en"].mrr == pytest.approx(1 / 3)
    assert report.by_lang["zh-Hant"].hit[1] == pytest.approx(2 / 3)
    assert report.overall.evidence_in_answer is None  # no answers composed: n/a


def test_k_cuts_the_list():
    report = evaluate(QUESTIONS, search, k=2)
    assert {r.id: r.rank for r in report.results}["t-2"] is None
    assert report.overall.hit[5] == pytest.approx(0.75)


def test_retriever_objects_are_accepted():
    class Batch:
        def batch_search(self, questions, k):
            return [search(q, k) for q in questions]

    class Single:
        def search(self, question, k):
            return search(question, k)

    a, b = evaluate(QUESTIONS, Batch(), k=5), evaluate(QUESTIONS, Single(), k=5)
    assert a.overall == b.overall == evaluate(QUESTIONS, search, k=5).overall


def test_report_table_and_json():
    report = evaluate(QUESTIONS, search, k=10)
    table = format_report(report)
    assert "overall" in table and "zh-Hant" in table and "n/a" in table
    d = json.loads(json.dumps(report.to_dict(), ensure_ascii=False))
    assert d["overall"]["hit@1"] == 0.5 and d["by_lang"]["en"]["n"] == 1 and len(d["results"]) == 4


# ── evidence in answer ─────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("疏：賓拜告旨，主人拜崇酒，其節同。", True),  # whole evidence
        ("宾拜告旨主人拜崇酒", True),  # other script, no punctuation
        ("……賓拜告旨，主人……", True),  # 6 of 9 characters in one run: ≥ 60%
        ("……賓拜告旨，主……", False),  # 5 of 9: < 60%
        ("賓拜告旨與主人拜崇酒", False),  # two runs of 4 and 5: not one contiguous run
        ("", False),
    ],
)
def test_evidence_in_answer_rule(answer, ok):
    assert evidence_in(answer, "賓拜告旨，主人拜崇酒") is ok


def test_evidence_in_answer_per_question_uses_any_gold():
    def answer(question: str, hits) -> str:
        return "酒，己物也。" if "告旨" in question else "無關"

    report = evaluate(QUESTIONS, search, k=5, answer_fn=answer)
    eia = {r.id: r.evidence_in_answer for r in report.results}
    assert eia == {"t-1": False, "t-2": False, "t-3": False, "t-4": True}
    assert report.overall.evidence_in_answer == pytest.approx(0.25)


def test_longest_common_run_matches_brute_force():
    rng = random.Random(3)
    for _ in range(300):
        a = "".join(rng.choice("甲乙丙丁") for _ in range(rng.randint(0, 9)))
        b = "".join(rng.choice("甲乙丙丁") for _ in range(rng.randint(0, 9)))
        brute = max((j - i for i in range(len(a)) for j in range(i + 1, len(a) + 1) if a[i:j] in b), default=0)
        assert longest_common_run(a, b) == brute


# ── bad files ──────────────────────────────────────────────────────────────────


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"id": "a", "question": "q", "lang": "en", "source_file": "s", "jing": "j", "evidence": "e"})


@pytest.mark.parametrize(
    "bad, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({"id": "b", "question": "q", "lang": "en", "source_file": "s", "jing": "j"}), "evidence"),
        (json.dumps({"id": "b", "question": "", "lang": "en", "source_file": "s", "jing": "j", "evidence": "e"}), "question"),
        (json.dumps({"id": "b", "question": "q", "lang": "en", "source_file": "s", "jing": "j", "evidence": "e",
                     "also": {"jing": "x"}}), "`also` must be a list"),
        (json.dumps({"id": "b", "question": "q", "lang": "en", "source_file": "s", "jing": "j", "evidence": "e",
                     "also": [{"jing": "x"}]}), "`also` entry 1"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path, [GOOD, "", bad])
    with pytest.raises(InputFormatError) as err:
        read_questions(path)
    assert f"{path}:3:" in str(err.value) and message in str(err.value)


def test_missing_empty_or_binary_file(tmp_path):
    with pytest.raises(InputFormatError, match="no such file"):
        read_questions(tmp_path / "none.jsonl")
    with pytest.raises(InputFormatError, match="no questions"):
        read_questions(_write(tmp_path, [""]))
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputFormatError, match="UTF-8"):
        read_questions(tmp_path / "bin.jsonl")


def test_the_shared_dev_file_parses():
    dev = Path("/work/shared/eval/dev_questions.jsonl")
    if not dev.exists():
        pytest.skip("shared dev set not present")
    qs = read_questions(dev)
    assert len(qs) >= 40 and any(len(q.gold) > 1 for q in qs)
