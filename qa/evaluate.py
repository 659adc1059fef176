"""Retrieval evaluation: score a question file by the rules of ``shared/eval/README.md``, overall and by language.

The rules, implemented exactly (with their OWN matching normalization, not :mod:`qa.normalize`,
so the figures do not flatter our normalizer):

- texts are compared after dropping whitespace, punctuation and private-use characters,
  OpenCC t2s, and folding 於 to 于;
- a returned unit is correct for a gold entry when it comes from the gold ``source_file``,
  the gold ``jing`` is a substring of the unit's 經, and the unit's whole text (經 注 疏 析疑)
  contains the gold ``evidence``; the ``also`` entries are further gold, any of which counts;
- hit@k: a correct unit among the first k; MRR: mean of 1/rank of the first correct unit
  (0 when none is returned within k);
- evidence in answer: the answer text shown first contains the evidence, or at least 60% of
  it as one contiguous run.
"""

from __future__ import annotations

import json
import logging
import time
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from .errors import InputFormatError, QAError
from .text.tokens import longest_common_run
from .corpus.units import LemmaUnit

log = logging.getLogger(__name__)

#: Share of the evidence that must appear as one contiguous run in the answer text.
EVIDENCE_RUN_SHARE = 0.6
#: The hit@k cut-offs reported.
HIT_AT: tuple[int, ...] = (1, 5)
_REQUIRED = ("id", "question", "lang", "source_file", "jing", "evidence")
_GOLD_KEYS = ("source_file", "jing", "evidence")

SearchFn = Callable[[str, int], Sequence[Any]]  # question, k → hits (objects with .unit) or LemmaUnits
AnswerFn = Callable[[str, Sequence[Any]], str]  # question, hits → the answer text shown first


# ── the README's matching normalization ────────────────────────────────────────


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def match_norm(text: str) -> str:
    """Drop whitespace, punctuation and private-use characters; OpenCC t2s; fold 於 to 于."""
    kept = "".join(
        ch for ch in text if not ch.isspace() and not unicodedata.category(ch).startswith("P") and unicodedata.category(ch) != "Co"
    )
    return _t2s().convert(kept).replace("於", "于")


def evidence_in(answer_text: str, evidence: str) -> bool:
    """The README rule: the normalized evidence is in the normalized answer, or 60% of it as one run."""
    ev, ans = match_norm(evidence), match_norm(answer_text)
    if not ev:
        return False
    return ev in ans or longest_common_run(ev, ans) >= EVIDENCE_RUN_SHARE * len(ev)


# ── gold ───────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True)
class Gold:
    """One acceptable lemma: its seed file, a piece of its 經, and the evidence it must hold."""

    source_file: str
    jing: str
    evidence: str

    def matches(self, unit: LemmaUnit) -> bool:
        if unit.source != self.source_file:
            return False
        if match_norm(self.jing) not in match_norm(unit.jing):
            return False
        whole = match_norm(unit.jing + unit.zhu + unit.shu_text + unit.xiyi)
        return match_norm(self.evidence) in whole


@dataclass(frozen=True, slots=True)
class Question:
    """One line of a question file."""

    id: str
    question: str
    lang: str
    gold: tuple[Gold, ...]  # the main entry first, then ``also``
    layer: str = ""
    answer: str = ""


def read_questions(path: Path | str) -> list[Question]:
    """Parse a question file (JSON lines); InputFormatError naming file:line on the first bad line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputFormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"{path}: cannot read as UTF-8 text ({exc.__class__.__name__})") from None
    out: list[Question] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except ValueError as exc:
            raise InputFormatError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(d, dict):
            raise InputFormatError(f"{path}:{n}: expected a JSON object")
        missing = [k for k in _REQUIRED if not isinstance(d.get(k), str) or not d.get(k)]
        if missing:
            raise InputFormatError(f"{path}:{n}: missing or empty field(s) {', '.join(missing)}")
        gold = [Gold(d["source_file"], d["jing"], d["evidence"])]
        also = d.get("also", [])
        if not isinstance(also, list):
            raise InputFormatError(f"{path}:{n}: `also` must be a list of objects")
        for j, a in enumerate(also, 1):
            if not isinstance(a, dict) or any(not isinstance(a.get(k), str) or not a.get(k) for k in _GOLD_KEYS):
                raise InputFormatError(f"{path}:{n}: `also` entry {j} needs source_file, jing and evidence")
            gold.append(Gold(a["source_file"], a["jing"], a["evidence"]))
        out.append(Question(d["id"], d["question"], d["lang"], tuple(gold), d.get("layer", ""), d.get("answer", "")))
    if not out:
        raise InputFormatError(f"{path}: no questions")
    return out


# ── scoring ────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True)
class QuestionResult:
    """How one question fared."""

    id: str
    lang: str
    question: str
    rank: int | None  # 1-based rank of the first correct unit within k, None if absent
    returned: tuple[str, ...]  # unit ids, best first
    evidence_in_answer: bool | None  # None when no answer text was composed

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "lang": self.lang,
            "question": self.question,
            "rank": self.rank,
            "returned": list(self.returned),
            "evidence_in_answer": self.evidence_in_answer,
        }


@dataclass(frozen=True, slots=True)
class Scores:
    """Figures for one group of questions."""

    n: int
    hit: dict[int, float]  # k → hit@k
    mrr: float
    evidence_in_answer: float | None  # None: no answers were composed (n/a)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"n": self.n}
        d.update({f"hit@{k}": round(v, 4) for k, v in self.hit.items()})
        d["mrr"] = round(self.mrr, 4)
        d["evidence_in_answer"] = None if self.evidence_in_answer is None else round(self.evidence_in_answer, 4)
        return d


def score(results: Sequence[QuestionResult], cutoffs: Sequence[int] = HIT_AT) -> Scores:
    """hit@k for each cut-off, MRR and evidence-in-answer over ``results``."""
    n = len(results)
    if not n:
        return Scores(0, {k: 0.0 for k in cutoffs}, 0.0, None)
    hit = {k: sum(1 for r in results if r.rank is not None and r.rank <= k) / n for k in cutoffs}
    mrr = sum(1.0 / r.rank for r in results if r.rank) / n
    judged = [r.evidence_in_answer for r in results if r.evidence_in_answer is not None]
    eia = (sum(judged) / len(judged)) if judged else None
    return Scores(n, hit, mrr, eia)


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Overall and per-language figures, plus each question's outcome."""

    path: str
    k: int
    overall: Scores
    by_lang: dict[str, Scores]
    results: tuple[QuestionResult, ...]
    seconds: float = 0.0
    mode: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "k": self.k,
            "mode": self.mode,
            "overall": self.overall.to_dict(),
            "by_lang": {lang: s.to_dict() for lang, s in self.by_lang.items()},
            "seconds": round(self.seconds, 3),
            "meta": self.meta,
            "results": [r.to_dict() for r in self.results],
        }


def _unit_of(hit: Any) -> LemmaUnit:
    return hit if isinstance(hit, LemmaUnit) else hit.unit


def _are_retriever_hits(all_hits: Sequence[Sequence[Any]]) -> bool:
    """True when the hits are qa.retriever.Hit objects, which qa.answer knows how to compose."""
    first = next((h for hits in all_hits for h in hits), None)
    if first is None:
        return False
    try:
        from .retrieval.retriever import Hit
    except ImportError:  # pragma: no cover - the retriever is part of the package
        return False
    return isinstance(first, Hit)


def _default_answer_fn() -> AnswerFn | None:
    """Compose with qa.answer when that module is there; None (evidence-in-answer n/a) otherwise."""
    try:
        from .answering.compose import compose_answer
        from .retrieval.query import analyze
    except ImportError:
        return None

    def answer(question: str, hits: Sequence[Any]) -> str:
        return compose_answer(analyze(question), hits).text

    return answer


def evaluate(
    questions_path: Path | str,
    retriever_or_search_fn: Any,
    *,
    k: int = 10,
    answer_fn: AnswerFn | None = None,
    compose: bool = True,
    mode: str = "",
) -> EvalReport:
    """Score every question of ``questions_path`` against a retriever or a search function.

    ``retriever_or_search_fn`` is a Retriever (its ``batch_search`` is used), an object with
    ``search(query, k)``, or a function ``(question, k) -> hits``; hits are objects with
    ``.unit`` (or LemmaUnits), best first. ``answer_fn(question, hits) -> text`` gives the
    answer text for evidence-in-answer; by default ``qa.answer.compose_answer`` (imported lazily)
    when hits are :class:`qa.retriever.Hit` objects and ``compose`` is true, else it is n/a.
    """
    if k <= 0:
        raise QAError(f"k must be positive, not {k}")
    questions = read_questions(questions_path)
    target = retriever_or_search_fn
    started = time.perf_counter()
    texts = [q.question for q in questions]
    if hasattr(target, "batch_search"):
        all_hits = list(target.batch_search(texts, k))
    elif hasattr(target, "search"):
        all_hits = [target.search(t, k) for t in texts]
    elif callable(target):
        all_hits = [target(t, k) for t in texts]
    else:
        raise QAError(f"cannot search with {type(target).__name__}: need batch_search, search or a function")
    if answer_fn is None and compose and _are_retriever_hits(all_hits):
        answer_fn = _default_answer_fn()
    results: list[QuestionResult] = []
    for q, hits in zip(questions, all_hits):
        hits = list(hits)[:k]
        units = [_unit_of(h) for h in hits]
        rank = next((i for i, u in enumerate(units, 1) if any(g.matches(u) for g in q.gold)), None)
        eia: bool | None = None
        if answer_fn is not None:
            text = answer_fn(q.question, hits)
            eia = any(evidence_in(text, g.evidence) for g in q.gold)
        results.append(QuestionResult(q.id, q.lang, q.question, rank, tuple(u.id for u in units), eia))
    seconds = time.perf_counter() - started
    by_lang: dict[str, list[QuestionResult]] = {}
    for r in results:
        by_lang.setdefault(r.lang, []).append(r)
    return EvalReport(
        path=str(questions_path),
        k=k,
        overall=score(results),
        by_lang={lang: score(rs) for lang, rs in sorted(by_lang.items())},
        results=tuple(results),
        seconds=seconds,
        mode=mode,
    )


def format_report(report: EvalReport) -> str:
    """A readable table: one row overall, one per language, then the questions missed at 5."""
    header = f"{'':10} {'n':>4} {'hit@1':>7} {'hit@5':>7} {'MRR':>7} {'evid.ans':>9}"
    rows = [f"{report.path}  (k={report.k}{', ' + report.mode if report.mode else ''}, {report.seconds:.1f} s)", header]

    def row(name: str, s: Scores) -> str:
        eia = "n/a" if s.evidence_in_answer is None else f"{s.evidence_in_answer:.3f}"
        return f"{name:10} {s.n:>4} {s.hit.get(1, 0):>7.3f} {s.hit.get(5, 0):>7.3f} {s.mrr:>7.3f} {eia:>9}"

    rows.append(row("overall", report.overall))
    rows.extend(row(lang, s) for lang, s in report.by_lang.items())
    missed = [r for r in report.results if r.rank is None or r.rank > 5]
    if missed:
        rows.append("not in the first 5:")
        rows.extend(f"  {r.id} ({r.lang}) rank={r.rank or '-'}  {r.question[:60]}" for r in missed)
    return "\n".join(rows)


__all__ = [
    "EvalReport",
    "Gold",
    "Question",
    "QuestionResult",
    "Scores",
    "evaluate",
    "evidence_in",
    "format_report",
    "match_norm",
    "read_questions",
    "score",
]
