"""The columns of a batch output: every input column, then the answer's (answer, citations,
top_unit, found, error), so a teacher's 題號, 參考答案 and 配分 stay beside the answer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .present import answer_sentences, citation_lines, top_unit
from .read import InputRow, QuestionTable
from .text import safe_cell

#: The columns a batch adds after the input's own.
OUT_COLUMNS = ("answer", "citations", "top_unit", "found", "error")


@dataclass(frozen=True, slots=True)
class Layout:
    """How rows are shown: the input's columns, the script, and whether ids and scores are shown."""

    columns: tuple[str, ...] = ("question",)
    question_column: int = 0
    id_column: int | None = None
    script: str = "orig"
    detail: bool = False

    @classmethod
    def of(cls, table: QuestionTable, *, script: str = "orig", detail: bool = False) -> Layout:
        return cls(table.columns or ("question",), table.question_column if table.columns else 0,
                   table.id_column if table.columns else None, script, detail)

    @property
    def header(self) -> tuple[str, ...]:
        """Output column names; an input column named like one of ours is shown as "name (input)"."""
        clash = set(OUT_COLUMNS) | ({"id"} if self.id_column is None else set())
        names = tuple(f"{n} (input)" if n in clash else n for n in self.columns)
        return (("id",) if self.id_column is None else ()) + names + OUT_COLUMNS

    @property
    def id_position(self) -> int:
        return 0 if self.id_column is None else self.id_column

    def inputs(self, r: InputRow) -> list[Any]:
        """The row's input cells (the row's id first when the input has no id column)."""
        fields = list(r.fields[: len(self.columns)])
        if len(fields) < len(self.columns):
            fields += [None] * (len(self.columns) - len(fields))
            fields[self.question_column] = r.question
        return ([r.id] if self.id_column is None else []) + fields

    def extra(self, r: InputRow) -> dict[str, Any]:
        """Input columns other than the id and the question (for JSONL rows and reports)."""
        skip = {self.question_column, self.id_column}
        return {name: r.fields[i] for i, name in enumerate(self.columns) if i not in skip and i < len(r.fields)}

    def cells(self, r: InputRow, row: dict[str, Any]) -> list[Any]:
        """One output row's values, before a format's own escaping."""
        found: Any = "" if row.get("error") else bool(row.get("found"))
        return [
            *self.inputs(r),
            "\n".join(answer_sentences(row, self.script)),
            "\n".join(citation_lines(row, self.script, detail=self.detail)),
            top_unit(row),
            found,
            row.get("error") or "",
        ]

    def key(self, r: InputRow) -> str:
        """How the row's id reads back from a .csv or .xlsx output."""
        return csv_text(safe_cell(self.inputs(r)[self.id_position]))


def csv_text(value: Any) -> str:
    """A cell value as CSV text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


__all__ = ["OUT_COLUMNS", "Layout", "csv_text"]
