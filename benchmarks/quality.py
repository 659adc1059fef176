"""Quality side by side on one question file: Yili QA hybrid and its ablations against the naive pipelines.

Yili QA (default encoder) is scored by ``qa.evaluate`` (the eval README's rules: a unit counts
when it is from the gold file, holds the gold 經 span and the evidence). The naive pipelines
return 500-character chunks; a chunk counts when it is from the gold file and holds the gold
經 span (normalized the same way) -- a looser rule than the units get, which favours the naive
side.

    python -m benchmarks.quality [--questions FILE] [--index-dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any, Sequence

from benchmarks._common import (
    DEV_QUESTIONS,
    Timer,
    chunk_is_hit,
    first_rank,
    load_questions,
    markdown_table,
    rank_metrics,
    write_json,
)

COLUMNS = ["pipeline", "hit@1", "hit@5", "mrr", "hit@5 en", "hit@5 zh", "evidence_in_answer"]


def yili_rows(questions_path: Path, index_dir: Path | None, model: str | None) -> tuple[list[dict[str, Any]], dict]:
    from qa import Retriever
    from qa.evaluate import evaluate
    from qa.settings import Settings

    settings = Settings.from_env()
    index_dir = index_dir or Path(tempfile.mkdtemp(prefix="yili-bench-")) / "index"
    r = Retriever.load(index_dir=index_dir, model=model, settings=settings)
    rows = []
    for name, target, compose in (
        ("Yili QA hybrid", r, True),
        ("Yili QA lexical only", r.lexical, False),
        ("Yili QA dense only", r.dense, False),
    ):
        report = evaluate(questions_path, target, k=10, compose=compose, mode=name)
        o = report.overall
        en = report.by_lang.get("en")
        zh = [s for lang, s in report.by_lang.items() if lang != "en"]
        rows.append({
            "pipeline": f"{name} ({r.manifest.get('encoder')})" if name.endswith("hybrid") else name,
            "hit@1": o.hit[1], "hit@5": o.hit[5], "mrr": o.mrr,
            "hit@5 en": en.hit[5] if en else float("nan"),
            "hit@5 zh": sum(s.hit[5] * s.n for s in zh) / max(1, sum(s.n for s in zh)),
            "evidence_in_answer": o.evidence_in_answer if o.evidence_in_answer is not None else float("nan"),
            "by_lang": {lang: s.to_dict() for lang, s in report.by_lang.items()},
        })
    return rows, {"units": len(r.units), "encoder": r.manifest.get("encoder"), "index_dir": str(index_dir)}


def naive_rows(questions: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict]:
    from benchmarks.naive import NaiveBM25, NaiveDense, make_chunks

    chunks = make_chunks()
    rows = []
    for pipe in (NaiveDense(chunks), NaiveBM25(chunks, "default"), NaiveBM25(chunks, "chars")):
        results = pipe.batch_search([q.question for q in questions], 10)
        ranks = [first_rank(chunk_is_hit(chunks[i].source, chunks[i].text, q) for i in ids) for q, ids in zip(questions, results)]
        m = rank_metrics(ranks)
        en = [r for q, r in zip(questions, ranks) if q.lang == "en"]
        zh = [r for q, r in zip(questions, ranks) if q.lang != "en"]
        rows.append({"pipeline": pipe.name, **m, "hit@5 en": rank_metrics(en)["hit@5"] if en else float("nan"),
                     "hit@5 zh": rank_metrics(zh)["hit@5"] if zh else float("nan"), "evidence_in_answer": float("nan")})
    return rows, {"chunks": len(chunks)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--index-dir", type=Path, help="Yili QA index to use (default: a fresh one in a temp dir)")
    ap.add_argument("--model", help="Yili QA encoder (default: QA_MODEL or static-corpus)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    questions = load_questions(args.questions)
    with Timer() as t:
        yili, ymeta = yili_rows(args.questions, args.index_dir, args.model)
        naive, nmeta = naive_rows(questions)
    result = {"questions": str(args.questions), "n": len(questions), "yili": ymeta, "naive": nmeta,
              "rows": yili + naive, "seconds": t.seconds}
    path = write_json("quality.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{len(questions)} questions from {args.questions}; k=10; {t.seconds:.0f} s")
        print(markdown_table(result["rows"], COLUMNS))
        print(f"\nJSON: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
