"""qa batch: answer a file of questions (.txt, .csv, .tsv, .jsonl, .xlsx) into .jsonl, .csv, .xlsx, or a report (.md, .html)."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from ..errors import InputFormatError
from ..settings import Settings

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "input",
        type=Path,
        help="questions: .txt (one a line, or Excel's tab-separated Unicode Text), .csv / .tsv / .xlsx "
        "(a header row with question / 問題 / 題目; other columns are kept) or .jsonl",
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True,
        help="answers: .jsonl (full rows), .csv (opens in Excel), .xlsx, or a report for people: .md, .html",
    )
    parser.add_argument("-k", type=int, dest="k", help="units per answer (QA_K, default 5)")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows OUTPUT already holds and answer only the rest (a torn last row is redone)",
    )
    parser.add_argument("--encoding", help="the input's encoding (default: detected; utf-8, utf-16, gb18030, big5)")
    parser.add_argument("--question-column", metavar="NAME", help="the column holding the questions (default: recognized by name)")
    parser.add_argument(
        "--script",
        choices=("orig", "original", "hant", "hans"),
        default="orig",
        help="script of the answers and citations shown (.csv, .xlsx, .md, .html): the sources' own (orig), "
        "繁體 (hant: converts only simplified sources) or 简体 (hans)",
    )
    parser.add_argument("--detail", action="store_true", help="reports and citations also show unit ids, scores and file:line")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..answering.pipeline import Retriever, check_k
    from ..batch import read_table, run_batch
    from ..batch.write import OUTPUT_FORMATS, same_file

    check_k(args.k, settings)
    if args.output.suffix.lower() not in OUTPUT_FORMATS:
        raise InputFormatError(f"{args.output}: unknown output format {args.output.suffix or '(none)'}; use {', '.join(OUTPUT_FORMATS)}")
    if same_file(args.input, args.output):
        raise InputFormatError(f"{args.output}: the output would overwrite the questions; choose another output file")
    # a bad file fails before the index is loaded
    table = read_table(args.input, settings.max_query_chars, encoding=args.encoding, question_column=args.question_column)
    if not table.rows:
        raise InputFormatError(f"{args.input}: no questions in it ({table.blank} blank rows)")
    retriever = Retriever.load(settings=settings)
    started = time.perf_counter()
    summary = run_batch(
        retriever,
        args.input,
        args.output,
        k=settings.k,
        resume=args.resume,
        progress=settings.progress,
        encoding=args.encoding,
        question_column=args.question_column,
        script="orig" if args.script == "original" else args.script,
        detail=args.detail,
    )
    took = time.perf_counter() - started
    rate = summary.written / took if took > 0 else 0.0
    print(f"qa batch: {summary.line()} → {args.output} ({took:.1f} s, {rate:.1f} questions/s)", file=sys.stderr)
    if summary.failed:
        hint = f" (read as {summary.encoding}; if that is not the file's encoding, give --encoding)"
        print(f"qa batch: error: every row failed, e.g. row {summary.first_error}{hint}", file=sys.stderr)
        return 2
    return 0
