"""qa eval: score a question file (shared/eval format) by hit@1, hit@5, MRR and evidence-in-answer, by language."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import QAError
from ..settings import Settings

#: Units retrieved per question when -k is not given.
DEFAULT_K = 10
MODES = ("hybrid", "lexical", "dense")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="question file, one JSON object per line (see shared/eval/README.md)")
    parser.add_argument("-k", type=int, dest="k", help=f"units retrieved per question (default {DEFAULT_K})")
    parser.add_argument("--json", action="store_true", help="print the report as JSON, with every question's outcome")
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="hybrid",
        help="which retriever to score: the fused hybrid (default), or the lexical or dense one alone",
    )
    parser.add_argument(
        "--no-answer", action="store_true", help="skip composing answers (evidence-in-answer is then n/a)"
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..answering.pipeline import Retriever
    from ..evaluate import evaluate, format_report, read_questions

    k = args.k if args.k is not None else DEFAULT_K
    if k <= 0:
        raise QAError(f"-k must be positive, not {k}")
    read_questions(args.file)  # a malformed file fails before the index is loaded
    retriever = Retriever.load(settings=settings)
    target = {"hybrid": retriever, "lexical": retriever.lexical, "dense": retriever.dense}[args.mode]
    report = evaluate(args.file, target, k=k, compose=not args.no_answer, mode=args.mode)
    if args.json:
        out = report.to_dict()
        out["encoder"] = retriever.manifest.get("encoder")
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(format_report(report))
    return 0
