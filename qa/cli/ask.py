"""qa ask: answer one question, with citations, then the units layer by layer."""

from __future__ import annotations

import argparse
import json
import sys

from ..settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("question", help="the question, e.g. 「賓為什麼說旨？」")
    parser.add_argument("-k", type=int, dest="k", help="units to retrieve, 1–50 (QA_K, default 5)")
    parser.add_argument(
        "--history",
        action="append",
        default=[],
        metavar="QUESTION",
        help="an earlier question of the conversation (repeat, oldest first), so 「那介呢？」 follows it up",
    )
    parser.add_argument("--json", action="store_true", help="print the answer as a JSON row (as `qa batch` writes)")
    parser.add_argument(
        "--script",
        choices=("original", "hant", "hans"),
        default="original",
        help="display script: the source's own (default), 繁體 (converts only the simplified sources) or 简体",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="highlight matched terms with terminal colours (default: when stdout is a terminal)",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    # Late imports keep `qa --help` and argument errors fast (no numpy, torch or FAISS).
    from ..answering.pipeline import Retriever, check_k
    from ..present.render import answer_terminal, simplified_sources
    from ..retrieval.query import analyze

    check_k(args.k, settings)  # a bad k or question fails before the index is loaded
    analyze(args.question, max_chars=settings.max_query_chars)
    retriever = Retriever.load(settings=settings)
    answer = retriever.ask(args.question, k=args.k, history=args.history)
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
        return 0
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    simplified = simplified_sources(settings.seeds_dir) if args.script == "hant" else frozenset()
    print(answer_terminal(answer, answer.terms, args.script, color=color, simplified=simplified))
    return 0
