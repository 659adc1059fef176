"""qa batch: answer a file of questions (.txt, .csv, .jsonl) into .jsonl, .csv or .md."""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

from ..settings import Settings

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", type=Path, help="questions: .txt (one a line), .csv (column question, optional id) or .jsonl")
    parser.add_argument("-o", "--output", type=Path, required=True, help="answers: .jsonl, .csv or .md (a readable report)")
    parser.add_argument("-k", type=int, dest="k", help="units per answer (QA_K, default 5)")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows OUTPUT already holds and answer only the rest (a torn last row is redone)",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    import sys

    from ..answering.pipeline import Retriever
    from ..batch import read_questions, run_batch

    read_questions(args.input, settings.max_query_chars)  # fail on a bad file before loading anything
    retriever = Retriever.load(settings=settings)
    started = time.perf_counter()
    written, skipped = run_batch(
        retriever,
        args.input,
        args.output,
        k=settings.k,
        resume=args.resume,
        progress=settings.progress,
    )
    took = time.perf_counter() - started
    rate = written / took if took > 0 else 0.0
    print(
        f"qa batch: {written} answered, {skipped} kept from before → {args.output} ({took:.1f} s, {rate:.1f} questions/s)",
        file=sys.stderr,
    )
    return 0
