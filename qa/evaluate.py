"""Retrieval evaluation: score a question file by the rules of ``shared/eval/README.md``, overall and by language.

The rules, implemented exactly (with their OWN matching normalization, not :mod:`qa.text.normalize`,
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
import re
import time
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from .corpus.units import LemmaUnit
from .errors import InputFormatError, QAError
from .text.tokens import longest_common_run

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

    def matches_chunk(self, source: str, text: str) -> bool:
        """For baselines that return fixed-size chunks, not lemma units: a chunk of the gold file
        holding the gold 經 span counts (the closest a chunk can come to the unit rule)."""
        return source == self.source_file and match_norm(self.jing) in match_norm(text)


@dataclass(frozen=True, slots=True)
class Question:
    """One line of a question file."""

    id: str
    question: str
    lang: str
    gold: tuple[Gold, ...]  # the main entry first, then ``also``
    layer: str = ""
    answer: str = ""
    kind: str = ""  # the kind of question (definition, why, colloquial, …), for reporting by kind
    history: tuple[str, ...] = ()  # earlier questions of the conversation, oldest first
    line: int = 0  # line of the question file


_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid(value: Any) -> Any:
    """Strings made valid Unicode (lone surrogates from JSON escapes → U+FFFD), so every
    report can be printed and written; other values as they are."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_valid(v) for v in value]
    if isinstance(value, dict):
        return {_valid(k): _valid(v) for k, v in value.items()}
    return value


def read_questions(path: Path | str) -> list[Question]:
    """Parse a question file (JSON lines, UTF-8 with or without BOM); InputFormatError naming
    file:line on the first bad line."""
    path = Path(path)
    try:
        # split on newlines only: str.splitlines would also cut at U+2028, U+0085, \x1c …,
        # which a JSON string may hold as they are
        lines = [line.removesuffix("\r") for line in path.read_text(encoding="utf-8-sig").split("\n")]
    except FileNotFoundError:
        raise InputFormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"{path}: cannot read as UTF-8 text ({exc.__class__.__name__})") from None
    out: list[Question] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = _valid(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        except ValueError as exc:
            raise InputFormatError(f"{path}:{n}: not valid JSON ({exc})") from None
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
        history = d.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
            raise InputFormatError(f"{path}:{n}: `history` must be a list of earlier questions (strings)")
        out.append(Question(d["id"], d["question"], d["lang"], tuple(gold), str(d.get("layer", "")),
                            str(d.get("answer", "")), str(d.get("kind", "")), tuple(history), n))
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
    evidence_first: bool | None = None  # the first cited sentence alone holds the evidence
    no_passage: bool | None = None  # the answer said that no passage answers
    kind: str = ""
    error: str | None = None  # the question could not be asked (e.g. empty after cleaning)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "lang": self.lang,
            "kind": self.kind,
            "question": self.question,
            "rank": self.rank,
            "returned": list(self.returned),
            "evidence_in_answer": self.evidence_in_answer,
            "evidence_first": self.evidence_first,
            "no_passage": self.no_passage,
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class Scores:
    """Figures for one group of questions."""

    n: int
    hit: dict[int, float]  # k → hit@k
    mrr: float
    evidence_in_answer: float | None  # None: no answers were composed (n/a)
    evidence_first: float | None = None  # share whose first cited sentence holds the evidence
    no_passage: float | None = None  # share told "no passage answers" (false for answerable questions)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"n": self.n}
        d.update({f"hit@{k}": round(v, 4) for k, v in self.hit.items()})
        d["mrr"] = round(self.mrr, 4)
        for name in ("evidence_in_answer", "evidence_first", "no_passage"):
            value = getattr(self, name)
            d[name] = None if value is None else round(value, 4)
        return d


def score(results: Sequence[QuestionResult], cutoffs: Sequence[int] = HIT_AT) -> Scores:
    """hit@k for each cut-off, MRR and evidence-in-answer over ``results``."""
    n = len(results)
    if not n:
        return Scores(0, {k: 0.0 for k in cutoffs}, 0.0, None)
    hit = {k: sum(1 for r in results if r.rank is not None and r.rank <= k) / n for k in cutoffs}
    mrr = sum(1.0 / r.rank for r in results if r.rank) / n

    def share(name: str) -> float | None:
        judged = [getattr(r, name) for r in results if getattr(r, name) is not None]
        return (sum(judged) / len(judged)) if judged else None

    return Scores(n, hit, mrr, share("evidence_in_answer"), share("evidence_first"), share("no_passage"))


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
    by_kind: dict[str, Scores] = field(default_factory=dict)  # only when the file gives kinds

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "k": self.k,
            "mode": self.mode,
            "overall": self.overall.to_dict(),
            "by_lang": {lang: s.to_dict() for lang, s in self.by_lang.items()},
            "by_kind": {kind: s.to_dict() for kind, s in self.by_kind.items()},
            "seconds": round(self.seconds, 3),
            "meta": self.meta,
            "results": [r.to_dict() for r in self.results],
        }


def _unit_of(hit: Any) -> LemmaUnit:
    return hit if isinstance(hit, LemmaUnit) else hit.unit


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What the system gave for one question: hits, and the answer when one was composed."""

    hits: list[Any]
    text: str | None = None  # the answer text shown first
    first: str | None = None  # the first cited sentence
    found: bool | None = None
    error: str | None = None


def _pipeline_outcomes(target: Any, questions: Sequence[Question], k: int, path: str = "") -> list[_Outcome]:
    """Ask every question through the one ask pipeline (:meth:`qa.Retriever.batch_ask` / ``ask``);
    a question the pipeline refuses is reported with its file:line and scored as a miss."""
    from .answering.compose import Answer

    def outcome(a: "Answer | QAError", q: Question) -> _Outcome:
        if not isinstance(a, Answer):
            log.warning("%s:%d: question %s not asked: %s", path, q.line, q.id, a)
            return _Outcome([], error=f"{path}:{q.line}: {a}")
        first = a.evidence[0].text if a.evidence else ""
        return _Outcome(list(a.hits), a.text, first, a.found)

    plain = [q for q in questions if not q.history]
    answers = dict(zip((q.line for q in plain), target.batch_ask([q.question for q in plain], k=k)))
    out = []
    for q in questions:
        if q.history:
            try:
                a: Answer | QAError = target.ask(q.question, k=k, history=q.history)
            except QAError as exc:
                a = exc
        else:
            a = answers[q.line]
        out.append(outcome(a, q))
    return out


def _search_outcomes(target: Any, questions: Sequence[Question], k: int, answer_fn: AnswerFn | None,
                     compose: bool, path: str = "") -> list[_Outcome]:
    """Search with any retriever or function; compose answers with qa's composer when the hits allow it.
    A question the retriever refuses is reported with its file:line and scored as a miss."""
    texts = [q.question for q in questions]
    if hasattr(target, "search"):
        one = lambda t: target.search(t, k)  # noqa: E731
    elif hasattr(target, "batch_search"):
        one = lambda t: target.batch_search([t], k)[0]  # noqa: E731
    elif callable(target):
        one = lambda t: target(t, k)  # noqa: E731
    else:
        raise QAError(f"cannot search with {type(target).__name__}: need batch_search, search or a function")
    errors: dict[int, str] = {}
    try:
        if not hasattr(target, "batch_search"):
            raise QAError("no batch_search")
        all_hits = list(target.batch_search(texts, k))
    except QAError:  # one bad question refuses a whole batch: ask one by one, keeping each refusal
        all_hits = []
        for i, (q, t) in enumerate(zip(questions, texts)):
            try:
                all_hits.append(one(t))
            except QAError as exc:
                log.warning("%s:%d: question %s not asked: %s", path, q.line, q.id, exc)
                errors[i] = f"{path}:{q.line}: {exc}"
                all_hits.append([])
    first_hit = next((h for hits in all_hits for h in hits), None)
    out = []
    for i, (q, hits) in enumerate(zip(questions, all_hits)):
        if i in errors:
            out.append(_Outcome([], error=errors[i]))
        elif answer_fn is None and compose and first_hit is not None and hasattr(first_hit, "low_confidence"):
            from .answering.compose import compose_answer
            from .retrieval.query import analyze

            a = compose_answer(analyze(q.question), list(hits)[:k])
            out.append(_Outcome(list(hits), a.text, a.evidence[0].text if a.evidence else "", a.found))
        else:
            out.append(_Outcome(list(hits), answer_fn(q.question, list(hits)[:k]) if answer_fn else None))
    return out


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

    ``retriever_or_search_fn`` is a :class:`qa.Retriever` (asked through the one ask pipeline,
    ``batch_ask`` / ``ask`` with each question's ``history``), an object with ``batch_search`` or
    ``search(query, k)``, or a function ``(question, k) -> hits``; hits are objects with ``.unit``
    (or LemmaUnits), best first. ``answer_fn(question, hits) -> text`` gives the answer text for
    evidence-in-answer; by default qa's composer when the hits are :class:`qa.Hit` objects and
    ``compose`` is true, else it is n/a.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
        raise QAError(f"k must be a positive whole number, not {k!r}")
    questions = read_questions(questions_path)
    target = retriever_or_search_fn
    started = time.perf_counter()
    if hasattr(target, "batch_ask") and answer_fn is None and compose:
        outcomes = _pipeline_outcomes(target, questions, k, str(questions_path))
    else:
        outcomes = _search_outcomes(target, questions, k, answer_fn, compose, str(questions_path))
    results: list[QuestionResult] = []
    for q, o in zip(questions, outcomes):
        units = [_unit_of(h) for h in o.hits[:k]]
        rank = next((i for i, u in enumerate(units, 1) if any(g.matches(u) for g in q.gold)), None)
        eia = None if o.text is None else any(evidence_in(o.text, g.evidence) for g in q.gold)
        first = None if o.first is None else any(evidence_in(o.first, g.evidence) for g in q.gold)
        no_passage = None if o.found is None else not o.found
        results.append(QuestionResult(q.id, q.lang, q.question, rank, tuple(u.id for u in units), eia,
                                      first, no_passage, q.kind, o.error))
    seconds = time.perf_counter() - started
    by_lang: dict[str, list[QuestionResult]] = {}
    by_kind: dict[str, list[QuestionResult]] = {}
    for r in results:
        by_lang.setdefault(r.lang, []).append(r)
        if r.kind:
            by_kind.setdefault(r.kind, []).append(r)
    return EvalReport(
        path=str(questions_path),
        k=k,
        overall=score(results),
        by_lang={lang: score(rs) for lang, rs in sorted(by_lang.items())},
        results=tuple(results),
        seconds=seconds,
        mode=mode,
        by_kind={kind: score(rs) for kind, rs in sorted(by_kind.items())},
    )


def format_report(report: EvalReport) -> str:
    """A readable table: one row overall, one per language, then the questions missed at 5."""
    header = f"{'':12} {'n':>4} {'hit@1':>7} {'hit@5':>7} {'MRR':>7} {'evid.ans':>9} {'evid.1st':>9} {'no-pass':>8}"
    rows = [f"{report.path}  (k={report.k}{', ' + report.mode if report.mode else ''}, {report.seconds:.1f} s)", header]

    def fig(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.3f}"

    def row(name: str, s: Scores) -> str:
        return (f"{name:12} {s.n:>4} {s.hit.get(1, 0):>7.3f} {s.hit.get(5, 0):>7.3f} {s.mrr:>7.3f} "
                f"{fig(s.evidence_in_answer):>9} {fig(s.evidence_first):>9} {fig(s.no_passage):>8}")

    rows.append(row("overall", report.overall))
    rows.extend(row(lang, s) for lang, s in report.by_lang.items())
    if report.by_kind:
        rows.append("by kind:")
        rows.extend(row(kind, s) for kind, s in report.by_kind.items())
    missed = [r for r in report.results if r.rank is None or r.rank > 5]
    if missed:
        rows.append("not in the first 5:")
        rows.extend(f"  {r.id} ({r.lang}) rank={r.rank or '-'}  {r.question[:60]}" + (f"  [{r.error}]" if r.error else "")
                    for r in missed)
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
