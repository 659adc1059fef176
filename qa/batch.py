"""Batch answering: read questions (.txt / .csv / .jsonl), answer them in chunks, write rows
(.jsonl / .csv / .md) incrementally so ``--resume`` continues exactly where a run stopped.

Every input row gives exactly one output row, in input order. A bad row (empty, over the
length limit, undecodable bytes, unparsable JSON) gets an ``error`` and is never dropped.
Files are read as bytes and decoded line by line, so one bad line spoils only itself.

Resuming: each output row is written with one ``write`` and flushed. On ``--resume`` the
existing output is read back, a torn last record (from a kill mid-write) is cut off, the
ids already written are checked against the input's first rows, and answering continues
after them. In .md the unit of resumption is one section ending in a
``<!-- qa-row N -->`` marker; in .csv one CSV record.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .answering.compose import error_row
from .errors import InputFormatError, QAError

if TYPE_CHECKING:  # pragma: no cover
    from .answering.pipeline import Retriever

log = logging.getLogger(__name__)

INPUT_FORMATS = (".txt", ".csv", ".jsonl")
OUTPUT_FORMATS = (".jsonl", ".csv", ".md")
#: Questions answered per ``Retriever.batch_search`` call (and per flush of the progress bar).
CHUNK = 32
CSV_COLUMNS = ("id", "question", "answer", "citations", "error", "hits")
_MD_MARK = re.compile(r"<!-- qa-row (\d+) -->\n")


@dataclass(frozen=True, slots=True)
class InputRow:
    """One question as read: ``error`` is set when it cannot be asked as given."""

    index: int  # 0-based position in the input
    id: str
    question: str | None
    error: str | None = None


# ---------------------------------------------------------------- reading


def _decode(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _physical_lines(data: bytes) -> list[bytes]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":  # the newline ending the last line opens no row
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def _checked(index: int, id: str, question: str | None, max_chars: int) -> InputRow:
    if question is None or not question.strip():
        return InputRow(index, id, question, "empty question")
    if len(question) > max_chars:
        return InputRow(index, id, question, f"question is {len(question)} characters, over the limit of {max_chars} (QA_MAX_QUERY_CHARS)")
    return InputRow(index, id, question)


def read_txt(data: bytes, max_chars: int) -> list[InputRow]:
    rows = []
    for i, raw in enumerate(_physical_lines(data)):
        text = _decode(raw)
        if text is None:
            rows.append(InputRow(i, str(i + 1), raw.decode("utf-8", "replace"), "line is not valid UTF-8"))
        else:
            rows.append(_checked(i, str(i + 1), text, max_chars))
    return rows


def read_jsonl(data: bytes, max_chars: int) -> list[InputRow]:
    rows = []
    for i, raw in enumerate(_physical_lines(data)):
        id = str(i + 1)
        text = _decode(raw)
        if text is None:
            rows.append(InputRow(i, id, None, "line is not valid UTF-8"))
            continue
        if not text.strip():
            rows.append(InputRow(i, id, None, "empty line"))
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            rows.append(InputRow(i, id, None, f"not valid JSON: {exc.msg} (column {exc.colno})"))
            continue
        if not isinstance(obj, dict):
            rows.append(InputRow(i, id, None, "not a JSON object"))
            continue
        if obj.get("id") not in (None, ""):
            id = str(obj["id"])
        question = obj.get("question")
        if question is not None and not isinstance(question, str):
            rows.append(InputRow(i, id, None, "'question' is not a string"))
            continue
        rows.append(_checked(i, id, question, max_chars))
    return rows


def read_csv(data: bytes, max_chars: int) -> list[InputRow]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    # surrogateescape keeps undecodable bytes as lone surrogates, so the file still parses
    # as CSV (quoted fields may span lines) and only the records holding them are bad.
    text = data.decode("utf-8", "surrogateescape")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        return []
    names = [h.strip().lower() for h in header]
    if "question" not in names:
        raise InputFormatError(f"CSV has no 'question' column (columns: {', '.join(header) or 'none'})")
    q_col = names.index("question")
    id_col = names.index("id") if "id" in names else None
    rows = []
    for i, record in enumerate(reader):
        id = str(i + 1)
        if id_col is not None and id_col < len(record) and record[id_col].strip():
            id = record[id_col].strip()
        if any(_has_surrogates(f) for f in record):
            rows.append(InputRow(i, _clean(id), None, "row is not valid UTF-8"))
            continue
        question = record[q_col] if q_col < len(record) else None
        rows.append(_checked(i, id, question, max_chars))
    return rows


def _has_surrogates(s: str) -> bool:
    return any("\udc80" <= ch <= "\udcff" for ch in s)


def _clean(s: str) -> str:
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def read_questions(path: Path, max_chars: int) -> list[InputRow]:
    """The rows of a question file, by extension (.txt, .csv, .jsonl)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputFormatError(f"{path}: unknown input format {suffix or '(none)'}; use {', '.join(INPUT_FORMATS)}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    reader = {".txt": read_txt, ".jsonl": read_jsonl, ".csv": read_csv}[suffix]
    return reader(data, max_chars)


# ---------------------------------------------------------------- writing


def _csv_record(row: dict[str, Any]) -> str:
    buf = io.StringIO()
    citations = "\n".join(c["citation"] for c in row["citations"])
    hits = json.dumps(row["hits"], ensure_ascii=False)
    csv.writer(buf, lineterminator="\n").writerow(
        [row["id"] or "", row["question"] or "", row["answer"], citations, row["error"] or "", hits]
    )
    return buf.getvalue()


def _md_section(n: int, row: dict[str, Any]) -> str:
    out = [f"## {n + 1}. {_md_escape(row['question'] or '')}", "", f"*id:* `{row['id']}`", ""]
    if row["error"]:
        out += [f"**Error:** {_md_escape(row['error'])}", ""]
    else:
        if row["citations"]:
            for c in row["citations"]:
                out.append(f"> {_md_escape(c['text'])}  ")
                out.append(f"> —— {_md_escape(c['citation'])}")
                out.append(">")
            out.pop()
        else:
            out.append(f"> {_md_escape(row['answer'])}")
        out.append("")
        for k, h in enumerate(row["hits"], 1):
            out.append(f"{k}. `{h['id']}` {h['work']}·{h['rite']} ({h['source']}:{h['lines'][0]}–{h['lines'][1]}, score {h['score']:.3f}): {_md_escape(h['jing'])}")
        out.append("")
    out.append(f"<!-- qa-row {n} -->\n")
    return "\n".join(out)


def _md_escape(s: str) -> str:
    """Text shown as itself in Markdown: HTML escaped, Markdown punctuation backslashed, one line."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = re.sub(r"([\\`*_{}\[\]()#+\-.!|~])", r"\\\1", s)
    return " ".join(s.split())


def existing_ids(path: Path, fmt: str) -> list[str]:
    """Ids of the complete rows already in an output file; cuts off a torn last record."""
    if not path.exists():
        return []
    data = path.read_bytes()
    text = data.decode("utf-8", "replace")
    ids: list[str] = []
    keep = 0  # bytes of complete records
    if fmt == ".jsonl":
        at = 0
        for line in data.split(b"\n")[:-1]:  # the part after the last newline is torn or empty
            try:
                ids.append(str(json.loads(line)["id"]))
            except (ValueError, KeyError, TypeError):
                break
            at += len(line) + 1
            keep = at
    elif fmt == ".csv":
        lines = text.splitlines(keepends=True)
        if lines and lines[0].startswith("id,"):
            keep = len(lines[0].encode())
            buf = ""
            for line in lines[1:]:
                buf += line
                try:
                    records = list(csv.reader(io.StringIO(buf, newline=""), strict=True))
                except csv.Error:
                    continue
                if len(records) == 1 and len(records[0]) == len(CSV_COLUMNS) and buf.endswith("\n"):
                    ids.append(records[0][0])
                    keep += len(buf.encode())
                    buf = ""
    elif fmt == ".md":
        for m in _MD_MARK.finditer(text):
            ids.append(m.group(1))  # markers carry the row index; checked as such below
            keep = len(text[: m.end()].encode())
    if keep < len(data):
        log.warning("%s: cutting off an incomplete last record (%d bytes) before resuming", path, len(data) - keep)
        with path.open("r+b") as f:
            f.truncate(keep)
    return ids


class RowWriter:
    """Appends rows to an output file in its format, flushing each, so a kill loses at most one."""

    def __init__(self, path: Path, *, resume: bool):
        self.path = Path(path)
        self.fmt = self.path.suffix.lower()
        if self.fmt not in OUTPUT_FORMATS:
            raise InputFormatError(f"{path}: unknown output format {self.fmt or '(none)'}; use {', '.join(OUTPUT_FORMATS)}")
        self.done = existing_ids(self.path, self.fmt) if resume else []
        fresh = not resume or not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._f = self.path.open("w" if fresh else "a", encoding="utf-8", newline="")
        except OSError as exc:
            raise InputFormatError(f"{path}: cannot write: {exc.strerror or exc}") from None
        if fresh:
            self.done = []
            if self.fmt == ".csv":
                self._write(",".join(CSV_COLUMNS) + "\n")
            elif self.fmt == ".md":
                self._write("# Yili QA answers\n\n")

    def _write(self, s: str) -> None:
        self._f.write(s)
        self._f.flush()

    def write(self, n: int, row: dict[str, Any]) -> None:
        if self.fmt == ".jsonl":
            self._write(json.dumps(row, ensure_ascii=False) + "\n")
        elif self.fmt == ".csv":
            self._write(_csv_record(row))
        else:
            self._write(_md_section(n, row))

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "RowWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------- answering


def answer_rows(
    retriever: "Retriever",
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
    retriever: "Retriever",
    input_path: Path,
    output_path: Path,
    *,
    k: int | None = None,
    resume: bool = False,
    progress: bool = False,
) -> tuple[int, int]:
    """Answer every question of ``input_path`` into ``output_path``; returns (written now, skipped)."""
    from tqdm import tqdm

    rows = read_questions(input_path, retriever.settings.max_query_chars)
    with RowWriter(output_path, resume=resume) as writer:
        done = writer.done
        expected = [str(r.index) if writer.fmt == ".md" else r.id for r in rows[: len(done)]]
        if done != expected:
            raise InputFormatError(
                f"{output_path}: its {len(done)} rows do not match the first rows of {input_path}; remove it or run without --resume"
            )
        todo = rows[len(done) :]
        show = progress or sys.stderr.isatty()
        with tqdm(total=len(rows), initial=len(done), disable=not show, unit="q", desc="answering") as bar:
            for r, row in zip(todo, answer_rows(retriever, todo, k=k)):
                writer.write(r.index, row)
                bar.update(1)
    return len(todo), len(done)


__all__ = ["InputRow", "RowWriter", "answer_rows", "existing_ids", "read_questions", "run_batch"]
