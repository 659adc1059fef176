"""qa ask: answer one question, with citations, then the units layer by layer."""

from __future__ import annotations

import argparse
import json
import sys

from ..settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("question", help="the question, e.g. 「賓為什麼說旨？」")
    parser.add_argument("-k", type=int, dest="k", help="units to retrieve (QA_K, default 5)")
    parser.add_argument("--json", action="store_true", help="print the answer as a JSON row (as `qa batch` writes)")
    parser.add_argument(
        "--script",
        choices=("original", "hant", "hans"),
        default="original",
        help="display script: the source's own (default), 繁體 or 简体",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="highlight matched terms with terminal colours (default: when stdout is a terminal)",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..answering.compose import SourceLines, compose_answer, query_terms
    from ..retrieval.query import analyze
    from ..answering.render import answer_terminal
    from ..retrieval.retriever import Retriever

    query = analyze(args.question, max_chars=settings.max_query_chars)  # a bad question fails before loading
    retriever = Retriever.load(settings=settings)
    hits = retriever.search(query, settings.k)
    answer = compose_answer(query, hits, locate=SourceLines.from_seeds(settings.seeds_dir))
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
        return 0
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(answer_terminal(answer, query_terms(query), args.script, color=color))
    return 0
