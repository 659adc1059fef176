"""Batch answering, the door for question files: read what people have (``read``), answer
through the one ask pipeline (``run``), write what they need (``write``, ``xlsx``, ``report``).

Every non-blank input row gives exactly one output row, in input order, beside all of its
input columns; a bad row gets an ``error`` and is never dropped; ``--resume`` continues an
interrupted output exactly where it stopped.
"""

from __future__ import annotations

from .layout import Layout
from .read import INPUT_FORMATS, InputRow, QuestionTable, read_questions, read_table
from .run import CHUNK, BatchSummary, answer_rows, run_batch
from .write import OUTPUT_FORMATS, RowWriter, existing_ids

__all__ = [
    "CHUNK",
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "BatchSummary",
    "InputRow",
    "Layout",
    "QuestionTable",
    "RowWriter",
    "answer_rows",
    "existing_ids",
    "read_questions",
    "read_table",
    "run_batch",
]
