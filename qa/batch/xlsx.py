"""The .xlsx output (openpyxl): sheet "answers" with the input columns, answer, citations (one
a line), top unit and found, in readable widths; sheet "hits" with every hit's unit in full.

A workbook cannot be appended to, so it is kept in memory and saved whole (a temporary file,
then renamed) after a chunk when the last save is old enough, and at the end (also when a
run stops on an error); ``--resume`` reads the rows already there back first.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ..errors import InputFormatError
from .layout import OUT_COLUMNS, Layout
from .read import InputRow
from .text import safe_cell

ANSWERS, HITS = "answers", "hits"
HIT_COLUMNS = ("id", "rank", "unit", "work", "rite", "source", "lines", "score", "low_confidence",
               "jing", "zhu", "shu", "xiyi")
#: Seconds between saves of a growing workbook (each save rewrites it whole), and at least this many
#: times the last save's own duration, so saving a large workbook takes at most a fifth of the run.
SAVE_EVERY_S, SAVE_SHARE = 5.0, 4
#: Excel holds at most this many characters in a cell.
CELL_MAX = 32_767
_WIDTH = {"question": 40, "answer": 60, "citations": 60, "top_unit": 22, "found": 8, "error": 30,
          "jing": 40, "zhu": 40, "shu": 60, "xiyi": 40}
_WRAP = {"question", "answer", "citations", "error", "jing", "zhu", "shu", "xiyi"}


def _cell(value: Any) -> Any:
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    value = safe_cell(value)
    if isinstance(value, (dict, list)):
        import json

        value = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)  # control characters a workbook cannot hold
        if len(value) > CELL_MAX:
            value = value[: CELL_MAX - 1] + "…"
    return value


class XlsxBook:
    """The rows of an .xlsx output, in memory, saved whole by :meth:`save`."""

    def __init__(self, path: Path, layout: Layout, *, resume: bool):
        self.path = path
        self.layout = layout
        self.header = list(layout.header)
        self.answers: list[list[Any]] = []
        self.hits: list[list[Any]] = []
        self.done: list[str] = []
        self._saved = time.monotonic()
        self._took = 0.0
        if resume and path.exists() and path.stat().st_size > 0:
            self._load()

    def _load(self) -> None:
        import zipfile

        import openpyxl
        from openpyxl.utils.exceptions import InvalidFileException

        refuse = InputFormatError(
            f"{self.path}: it is not a workbook qa batch wrote for this input; --resume only continues one. "
            "Choose another output file, or run without --resume to replace it"
        )
        try:
            wb = openpyxl.load_workbook(self.path, read_only=True)
        except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError):
            raise refuse from None
        try:
            if wb.sheetnames != [ANSWERS, HITS]:
                raise refuse
            rows = [list(r) for r in wb[ANSWERS].iter_rows(values_only=True)]
            hits = [list(r) for r in wb[HITS].iter_rows(values_only=True)]
        finally:
            wb.close()
        if not rows or [("" if v is None else v) for v in rows[0]] != [_cell(h) for h in self.header] or (hits and list(hits[0]) != list(HIT_COLUMNS)):
            raise refuse
        self.answers = rows[1:]
        self.hits = hits[1:]
        from .layout import csv_text

        self.done = [csv_text(r[self.layout.id_position]) for r in self.answers]

    def add(self, r: InputRow, row: dict[str, Any]) -> None:
        self.answers.append(self.layout.cells(r, row))
        key = self.layout.inputs(r)[self.layout.id_position]
        for rank, h in enumerate(row.get("hits") or [], 1):
            self.hits.append([key, rank, h["id"], h["work"], h["rite"], h["source"],
                              f"{h['lines'][0]}–{h['lines'][1]}", h["score"], h.get("low_confidence", False),
                              h["jing"], h["zhu"], h["shu"], h["xiyi"]])

    def _sheet(self, wb: Any, title: str, header: list[str], rows: list[list[Any]]) -> None:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Alignment, Font
        from openpyxl.utils import get_column_letter

        ws = wb.create_sheet(title)
        ws.freeze_panes = "A2"
        question_at = self.layout.question_column + (self.layout.id_column is None) if title == ANSWERS else -1
        for i, name in enumerate(header):
            width = _WIDTH["question"] if i == question_at else _WIDTH.get(name, 14)
            ws.column_dimensions[get_column_letter(i + 1)].width = width
        bold, wrap, top = Font(bold=True), Alignment(wrap_text=True, vertical="top"), Alignment(vertical="top")
        head = []
        for name in header:
            c = WriteOnlyCell(ws, value=_cell(name))
            c.font = bold
            head.append(c)
        ws.append(head)
        wrapped = [name in _WRAP or i == question_at for i, name in enumerate(header)]
        for values in rows:
            out = []
            for i, v in enumerate(values):
                c = WriteOnlyCell(ws, value=_cell(v))
                c.alignment = wrap if i < len(wrapped) and wrapped[i] else top
                out.append(c)
            ws.append(out)

    def save(self, *, force: bool = True) -> None:
        """Write the workbook; unless ``force``, only when the last save is old enough (see SAVE_EVERY_S)."""
        if not force and time.monotonic() - self._saved < max(SAVE_EVERY_S, SAVE_SHARE * self._took):
            return
        started = time.monotonic()
        import openpyxl

        wb = openpyxl.Workbook(write_only=True)
        self._sheet(wb, ANSWERS, self.header, self.answers)
        self._sheet(wb, HITS, list(HIT_COLUMNS), self.hits)
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            wb.save(tmp)
            os.replace(tmp, self.path)
            self._saved = time.monotonic()
            self._took = self._saved - started
        except OSError as exc:
            raise InputFormatError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        finally:
            if tmp.exists():
                tmp.unlink()


__all__ = ["ANSWERS", "HITS", "HIT_COLUMNS", "OUT_COLUMNS", "XlsxBook"]
