"""Reading question files as people save them: .txt, .csv, .tsv, .jsonl and .xlsx, in UTF-8
(with or without BOM), UTF-16 (Excel's "Unicode Text"), GB18030/GBK or Big5.

Every non-blank row becomes one :class:`InputRow`, in order, carrying all its input columns;
a bad row (over the length limit, undecodable bytes, unparsable JSON, no question) gets an
``error`` and is never dropped. Blank rows (Excel's trailing empty rows) are skipped and
counted. Files are decoded as a whole with ``surrogateescape``, so undecodable bytes spoil
only the rows holding them; every string is made valid Unicode before it goes further.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputFormatError
from .text import has_undecodable, valid_text

INPUT_FORMATS = (".txt", ".csv", ".tsv", ".jsonl", ".xlsx")
#: Encodings charset-normalizer may choose from when a file is not UTF-8: what Excel and
#: Chinese editors save (GBK is a subset of GB18030).
GUESS_ENCODINGS = ["gb18030", "big5", "utf_16", "utf_8"]
#: Header names (case-insensitive) recognized as the question column, and as the row's id.
QUESTION_HEADERS = ("question", "questions", "q", "問題", "问题", "題目", "题目", "題幹", "题干", "試題", "试题",
                    "提問", "提问", "問", "问")
ID_HEADERS = ("id", "no", "no.", "#", "number", "題號", "题号", "編號", "编号", "序號", "序号")


@dataclass(frozen=True, slots=True)
class InputRow:
    """One question as read: ``error`` is set when it cannot be asked as given."""

    index: int  # 0-based position in the input (rows or lines, blank ones counted)
    id: str | None
    question: str | None
    error: str | None = None
    fields: tuple[Any, ...] = ()  # the row's input columns, aligned with QuestionTable.columns


@dataclass(frozen=True, slots=True)
class QuestionTable:
    """A question file as read: its rows, its columns, what was skipped and how it was decoded."""

    rows: tuple[InputRow, ...]
    columns: tuple[str, ...]  # input column names; ("question",) for one question a line
    question_column: int
    id_column: int | None
    blank: int = 0  # blank rows skipped
    encoding: str = "utf-8"


# ---------------------------------------------------------------- decoding


def _utf8_ok(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """(text, encoding used). ``encoding`` overrides detection; otherwise a BOM decides, then
    UTF-8 when most non-ASCII lines are UTF-8 (the rest are bad rows), then charset-normalizer."""
    if encoding:
        try:
            name = codecs.lookup(encoding).name
        except LookupError:
            raise InputFormatError(f"unknown encoding {encoding!r} (e.g. utf-8, gb18030, big5, utf-16)") from None
        return data.decode(name, "surrogateescape").removeprefix("\ufeff"), name
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", "surrogateescape"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16").removeprefix("\ufeff"), "utf-16"
        except UnicodeDecodeError:
            pass
    if data.count(b"\x00") * 4 > len(data) > 1:  # UTF-16 without a BOM: every other byte of ASCII is NUL
        name = "utf-16-be" if data[::2].count(0) > data[1::2].count(0) else "utf-16-le"
        try:
            return data.decode(name), name
        except UnicodeDecodeError:
            pass
    if _utf8_ok(data):
        return data.decode("utf-8"), "utf-8"
    wide = [line for line in data.split(b"\n") if any(b >= 0x80 for b in line)]
    if sum(map(_utf8_ok, wide)) * 2 >= len(wide):  # a UTF-8 file with a few bad lines
        return data.decode("utf-8", "surrogateescape"), "utf-8"
    import charset_normalizer

    guess = charset_normalizer.from_bytes(data, cp_isolation=GUESS_ENCODINGS).best()
    if guess is None:
        return data.decode("utf-8", "surrogateescape"), "utf-8"
    name = codecs.lookup(guess.encoding).name
    return data.decode(name, "surrogateescape").removeprefix("\ufeff"), name


# ---------------------------------------------------------------- rows


def _blank(fields: Sequence[Any]) -> bool:
    return all(f is None or (isinstance(f, str) and not f.strip()) for f in fields)


def _clean(value: Any) -> Any:
    """Text made valid Unicode, also inside JSON lists and objects; other values as they are."""
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(str(k)): _clean(v) for k, v in value.items()}
    return value


def _check(index: int, id: str, question: str | None, max_chars: int, fields: tuple[Any, ...]) -> InputRow:
    fields = tuple(_clean(f) for f in fields)
    id, question = valid_text(id), None if question is None else valid_text(question)
    if question is None or not question.strip():
        return InputRow(index, id, question, "empty question", fields)
    if len(question) > max_chars:
        error = f"question is {len(question)} characters, over the limit of {max_chars} (QA_MAX_QUERY_CHARS)"
        return InputRow(index, id, question, error, fields)
    return InputRow(index, id, question, None, fields)


def _find(header: Sequence[str], names: Sequence[str]) -> int | None:
    folded = [str(h or "").strip().lstrip("\ufeff").casefold() for h in header]
    for name in names:
        if name.casefold() in folded:
            return folded.index(name.casefold())
    return None


def _question_column(header: Sequence[str], wanted: str | None, what: str, encoding: str = "") -> int:
    shown = ", ".join(str(h) for h in header) or "none"
    if "\ufffd" in shown and encoding:
        what = f"{what} (read as {encoding}, which its header is not: give --encoding)"
    if wanted:
        at = _find(header, [wanted])
        if at is None:
            raise InputFormatError(f"{what} has no column {wanted!r} (columns: {shown})")
        return at
    at = _find(header, QUESTION_HEADERS)
    if at is None:
        raise InputFormatError(
            f"{what} has no 'question' column (columns: {shown}); name it question / 問題 / 題目, or give --question-column"
        )
    return at


def _cell(value: Any) -> Any:
    """An input cell as kept: numbers stay numbers, text stays text, anything else its text."""
    if value is None or isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def _table(records: Sequence[Sequence[Any]], max_chars: int, what: str, question_column: str | None,
           encoding: str, undecodable: str) -> QuestionTable:
    """Rows from a header and records (CSV, TSV, a sheet)."""
    it = iter(enumerate(records))
    header: Sequence[Any] = ()
    for _, header in it:
        if not _blank(header):
            break
    else:
        return QuestionTable((), (), 0, None, 0, encoding)
    header = [_clean(str(h if h is not None else "")).strip().lstrip("\ufeff") for h in header]
    q_col = _question_column(header, question_column, what, encoding)
    id_col = _find(header, ID_HEADERS)
    data = list(it)
    # cells past the header's last name are kept too, under made-up names
    width = max([len(header)] + [len(r) for _, r in data if not _blank(r)])
    header = _unique(header + [f"column {k + 1}" for k in range(len(header), width)])
    rows, blank = [], 0
    for n, (_i, record) in enumerate(data):
        fields = tuple(_cell(v) for v in record)[: len(header)]
        fields += (None,) * (len(header) - len(fields))
        if _blank(fields):
            blank += 1
            continue
        raw_id = fields[id_col] if id_col is not None else None
        id = str(raw_id).strip() if raw_id is not None and str(raw_id).strip() else str(n + 1)
        if any(isinstance(f, str) and has_undecodable(f) for f in [*fields, id]):
            rows.append(InputRow(n, valid_text(id), None, undecodable, tuple(_clean(f) for f in fields)))
            continue
        q = fields[q_col]
        rows.append(_check(n, id, None if q is None else str(q), max_chars, fields))
    return QuestionTable(tuple(rows), tuple(header), q_col, id_col, blank, encoding)


def _unique(names: list[str]) -> list[str]:
    """Header names made unique ("note", "note (2)"), so no column hides another."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        name = name or "column"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _undecodable(encoding: str, what: str) -> str:
    name = "UTF-8" if encoding.startswith("utf-8") or encoding == "utf_8" else encoding
    return f"{what} is not valid {name}"


def read_lines(text: str, max_chars: int, encoding: str) -> QuestionTable:
    """One question a line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":  # the newline ending the last line opens no row
        lines.pop()
    rows, blank = [], 0
    for i, line in enumerate(lines):
        line = line.removesuffix("\r")
        if not line.strip():
            blank += 1
            continue
        if has_undecodable(line):
            rows.append(InputRow(i, str(i + 1), valid_text(line), _undecodable(encoding, "line"), (valid_text(line),)))
        else:
            rows.append(_check(i, str(i + 1), line, max_chars, (line,)))
    return QuestionTable(tuple(rows), ("question",), 0, None, blank, encoding)


def read_delimited(text: str, max_chars: int, encoding: str, delimiter: str, question_column: str | None,
                   what: str) -> QuestionTable:
    """A CSV or tab-separated file with a header row; quoted cells may span lines."""
    csv.field_size_limit(max(csv.field_size_limit(), min(sys.maxsize, 2**31 - 1)))
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise InputFormatError(f"{what}: not readable as CSV: {exc}") from None
    return _table(records, max_chars, what, question_column, encoding, _undecodable(encoding, "row"))


def read_jsonl(text: str, max_chars: int, encoding: str) -> QuestionTable:
    """One JSON object a line, with ``question`` and an optional ``id``; other keys are kept."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    parsed: list[tuple[int, dict[str, Any] | None, str | None]] = []
    columns: dict[str, None] = {}
    blank = 0
    for i, line in enumerate(lines):
        line = line.removesuffix("\r")
        if not line.strip():
            blank += 1
            continue
        if has_undecodable(line):
            parsed.append((i, None, _undecodable(encoding, "line")))
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            parsed.append((i, None, f"not valid JSON: {exc.msg} (column {exc.colno})"))
            continue
        if not isinstance(obj, dict):
            parsed.append((i, None, "not a JSON object"))
            continue
        obj = {valid_text(str(k)): v for k, v in obj.items()}
        columns.update(dict.fromkeys(obj))
        parsed.append((i, obj, None))
    columns.update(dict.fromkeys(("id", "question")))
    names = tuple(columns)
    rows = []
    for i, obj, error in parsed:
        id = str(i + 1)
        if obj is None:
            rows.append(InputRow(i, id, None, error, (None,) * len(names)))
            continue
        fields = tuple(_clean(obj.get(c)) for c in names)
        if obj.get("id") not in (None, ""):
            id = str(obj["id"])
        question = obj.get("question")
        if question is not None and not isinstance(question, str):
            rows.append(InputRow(i, valid_text(id), None, "'question' is not a string", fields))
            continue
        rows.append(_check(i, id, question, max_chars, fields))
    return QuestionTable(tuple(rows), names, names.index("question"), names.index("id"), blank, encoding)


def read_xlsx(path: Path, max_chars: int, question_column: str | None) -> QuestionTable:
    """The first sheet of a workbook (read-only; formulas as their saved values)."""
    import zipfile

    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError) as exc:
        raise InputFormatError(f"{path}: not a readable .xlsx workbook ({exc.__class__.__name__})") from None
    try:
        ws = wb.worksheets[0]
        records = [list(r) for r in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
    return _table(records, max_chars, str(path), question_column, "xlsx", "row is not valid text")


def _looks_tabbed(text: str, question_column: str | None) -> bool:
    """A .txt saved as Excel's "Unicode Text": tab-separated, with a question header."""
    first = text.split("\n", 1)[0].removesuffix("\r")
    if "\t" not in first:
        return False
    header = first.split("\t")
    return _find(header, [question_column] if question_column else QUESTION_HEADERS) is not None


def read_table(path: Path | str, max_chars: int, *, encoding: str | None = None,
               question_column: str | None = None) -> QuestionTable:
    """The rows of a question file, by extension (.txt, .csv, .tsv, .jsonl, .xlsx)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputFormatError(f"{path}: unknown input format {suffix or '(none)'}; use {', '.join(INPUT_FORMATS)}")
    if suffix == ".xlsx":
        try:
            return read_xlsx(path, max_chars, question_column)
        except OSError as exc:
            raise InputFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    text, used = decode(data, encoding)
    if suffix == ".jsonl":
        return read_jsonl(text, max_chars, used)
    if suffix == ".tsv" or (suffix == ".txt" and _looks_tabbed(text, question_column)):
        return read_delimited(text, max_chars, used, "\t", question_column, str(path))
    if suffix == ".csv":
        first = text.split("\n", 1)[0]
        delimiter = "\t" if first.count("\t") > first.count(",") else ","
        return read_delimited(text, max_chars, used, delimiter, question_column, str(path))
    return read_lines(text, max_chars, used)


def read_questions(path: Path | str, max_chars: int, **options: Any) -> list[InputRow]:
    """The rows of a question file (see :func:`read_table`), blank rows left out."""
    return list(read_table(path, max_chars, **options).rows)


__all__ = ["INPUT_FORMATS", "InputRow", "QuestionTable", "decode", "read_questions", "read_table"]
