"""Answering a question file through the one ask pipeline (:meth:`qa.Retriever.batch_ask`),
chunk by chunk, into an output that ``--resume`` can continue."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..answering.compose import error_row
from ..errors import InputFormatError, QAError
from .layout import Layout
from .read import InputRow, read_table
from .write import RowWriter, same_file

if TYPE_CHECKING:  # pragma: no cover
    from ..answering.pipeline import Retriever

#: Questions answered per ``Retriever.batch_ask`` call (and per save of an .xlsx output).
CHUNK = 32


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """What a run did: rows written now and kept from before, and how the written rows fared."""

    written: int  # rows written by this run
    kept: int  # rows kept from an earlier run (--resume)
    answered: int  # found an answer
    flagged: int  # found=false: no passage answers (the nearest ones are given)
    errors: int  # could not be asked (empty, too long, undecodable, ...)
    blank: int  # blank input rows, skipped
    encoding: str = "utf-8"
    first_error: str | None = None  # "id: message" of the first row in error

    @property
    def failed(self) -> bool:
        """Nothing was asked: no rows, or every row written now is an error."""
        return self.written + self.kept == 0 or (self.kept == 0 and self.errors == self.written)

    def line(self) -> str:
        return (f"{self.answered} answered, {self.flagged} flagged (no passage found), {self.errors} errors, "
                f"{self.blank} blank rows skipped, {self.kept} kept from before")


def answer_rows(
    retriever: Retriever,
    rows: Sequence[InputRow],
    *,
    k: int | None = None,
    chunk: int = CHUNK,
) -> Iterator[dict[str, Any]]:
    """One output row per input row, in order; questions are answered ``chunk`` at a time
    through the one ask pipeline (:meth:`qa.Retriever.batch_ask`)."""
    for start in range(0, len(rows), chunk):
        block = rows[start : start + chunk]
        todo = [r for r in block if not r.error]
        answers = iter(retriever.batch_ask([r.question or "" for r in todo], k=k)) if todo else iter(())
        for r in block:
            if r.error:
                yield error_row(r.id, r.question, r.error)
                continue
            a = next(answers)
            yield error_row(r.id, r.question, str(a)) if isinstance(a, QAError) else a.to_dict(id=r.id)


def run_batch(
    retriever: Retriever,
    input_path: Path,
    output_path: Path,
    *,
    k: int | None = None,
    resume: bool = False,
    progress: bool = False,
    encoding: str | None = None,
    question_column: str | None = None,
    script: str = "orig",
    detail: bool = False,
) -> BatchSummary:
    """Answer every question of ``input_path`` into ``output_path`` (format by extension)."""
    from tqdm import tqdm

    input_path, output_path = Path(input_path), Path(output_path)
    if same_file(input_path, output_path):
        raise InputFormatError(f"{output_path}: the output would overwrite the questions; choose another output file")
    table = read_table(input_path, retriever.settings.max_query_chars, encoding=encoding, question_column=question_column)
    rows = table.rows
    layout = Layout.of(table, script=script, detail=detail)
    counts = {"answered": 0, "flagged": 0, "errors": 0}
    first_error = None
    with RowWriter(output_path, resume=resume, layout=layout, input_path=input_path) as writer:
        done = writer.done
        if done != [writer.key(r) for r in rows[: len(done)]]:
            raise InputFormatError(
                f"{output_path}: its {len(done)} rows do not match the first rows of {input_path}; remove it or run without --resume"
            )
        todo = rows[len(done) :]
        show = progress or sys.stderr.isatty()
        with tqdm(total=len(rows), initial=len(done), disable=not show, unit="q", desc="answering") as bar:
            for n, (r, row) in enumerate(zip(todo, answer_rows(retriever, todo, k=k)), 1):
                writer.write(r, row)
                if row["error"]:
                    counts["errors"] += 1
                    first_error = first_error or f"{r.id}: {row['error']}"
                else:
                    counts["answered" if row["found"] else "flagged"] += 1
                if n % CHUNK == 0:
                    writer.flush()
                bar.update(1)
    return BatchSummary(len(todo), len(done), blank=table.blank, encoding=table.encoding,
                        first_error=first_error, **counts)


__all__ = ["CHUNK", "BatchSummary", "answer_rows", "run_batch"]
