"""Writing batch rows as .jsonl, .csv (UTF-8 with BOM, CRLF: Excel opens it), .xlsx, or a
report for people (.md, .html), incrementally, so ``--resume`` continues where a run stopped.

Each row of a text format is written with one ``write`` and flushed; the .xlsx workbook is
rewritten whole (to a temporary file, then renamed) after every chunk. On ``--resume`` the
output is first checked to be a batch output of this layout (its own header or marker):
anything else is refused, never truncated. Then a torn last record (a kill mid-write) is cut
off and the ids already written are returned.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import InputFormatError
from .layout import Layout, csv_text
from .read import InputRow
from .report import HTML_FOOT, HTML_HEAD, MARK_RE, MD_HEAD, html_section, md_section
from .text import safe_cell

log = logging.getLogger(__name__)

OUTPUT_FORMATS = (".jsonl", ".csv", ".xlsx", ".md", ".html")
_JSONL_KEYS = {"id", "question", "answer", "citations", "error"}


def _raise_csv_limit() -> None:
    """Let the csv module read cells as long as any question (the default stops at 131,072)."""
    csv.field_size_limit(max(csv.field_size_limit(), min(sys.maxsize, 2**31 - 1)))


def csv_line(values: list[Any]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow([safe_cell(csv_text(v)) for v in values])
    return buf.getvalue()


def _not_ours(path: Path, what: str) -> InputFormatError:
    return InputFormatError(
        f"{path}: {what}; --resume only continues a file written by qa batch for this input. "
        "Choose another output file, or run without --resume to replace it"
    )


# ---------------------------------------------------------------- per format


def jsonl_record(r: InputRow, row: dict[str, Any], layout: Layout) -> str:
    extra = layout.extra(r)
    return json.dumps({**row, "input": extra} if extra else row, ensure_ascii=False) + "\n"


def scan_jsonl(path: Path, data: bytes) -> tuple[list[str], int]:
    ids: list[str] = []
    keep = 0
    for line in data.split(b"\n")[:-1]:  # the part after the last newline is torn or empty
        try:
            obj = json.loads(line)
            ok = isinstance(obj, dict) and _JSONL_KEYS <= set(obj)
        except ValueError:
            ok = False
        if not ok:
            if not ids:
                raise _not_ours(path, "its first line is not a qa batch row")
            break
        ids.append(str(obj["id"]))
        keep += len(line) + 1
    if not ids and data and not data.startswith(b'{"id": '):
        raise _not_ours(path, "it is not a qa batch output")
    return ids, keep


def csv_head(layout: Layout) -> str:
    return "\ufeff" + csv_line(list(layout.header))


def scan_csv(path: Path, data: bytes, layout: Layout) -> tuple[list[str], int]:
    head = csv_head(layout).encode("utf-8")
    if not data.startswith(head):
        if data.startswith(head[: len(head) // 2]) and len(data) < len(head):
            return [], 0  # the header itself was torn: start again
        raise _not_ours(path, "its header is not the one qa batch writes for this input")
    _raise_csv_limit()
    ids: list[str] = []
    keep = start = at = len(head)
    quotes = 0
    width = len(layout.header)
    while (end := data.find(b"\n", at)) >= 0:
        quotes += data.count(b'"', at, end)
        at = end + 1
        if quotes % 2:  # inside a quoted cell: the record goes on
            continue
        try:
            record = next(csv.reader(io.StringIO(data[start:at].decode("utf-8"), newline="")), [])
        except (UnicodeDecodeError, csv.Error):
            break
        if len(record) != width:
            break
        ids.append(record[layout.id_position])
        keep = start = at
        quotes = 0
    return ids, keep


def scan_report(path: Path, data: bytes, head: str) -> tuple[list[str], int]:
    if not data.startswith(head.encode("utf-8")):
        if len(data) < len(head.encode()) and head.encode().startswith(data):
            return [], 0
        raise _not_ours(path, "it is not a qa batch report")
    ids, keep = [], len(head.encode("utf-8"))
    for m in MARK_RE.finditer(data, keep):
        ids.append(m.group(1).decode())
        keep = m.end()
    return ids, keep


# ---------------------------------------------------------------- the writer


def same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


class RowWriter:
    """Appends rows to an output file in its format, flushing each, so a kill loses at most one
    (for .xlsx: at most the rows since the last :meth:`flush`)."""

    def __init__(self, path: Path, *, resume: bool, layout: Layout | None = None, input_path: Path | None = None):
        self.path = Path(path)
        self.fmt = self.path.suffix.lower()
        self.layout = layout or Layout()
        if self.fmt not in OUTPUT_FORMATS:
            raise InputFormatError(f"{path}: unknown output format {self.fmt or '(none)'}; use {', '.join(OUTPUT_FORMATS)}")
        if input_path is not None and same_file(self.path, Path(input_path)):
            raise InputFormatError(f"{path}: the output would overwrite the questions; choose another output file")
        self.done: list[str] = []
        if self.path.is_dir():
            raise InputFormatError(f"{path}: is a directory; give an output file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputFormatError(f"{path}: cannot write: {exc.strerror or exc}") from None
        if self.fmt == ".xlsx":
            from .xlsx import XlsxBook

            self._book = XlsxBook(self.path, self.layout, resume=resume)
            self.done = self._book.done
            return
        fresh = True
        if resume and self.path.exists() and self.path.stat().st_size > 0:
            self.done = self._resume()
            fresh = False
        try:
            self._f = self.path.open("w" if fresh else "a", encoding="utf-8", newline="")
        except OSError as exc:
            raise InputFormatError(f"{path}: cannot write: {exc.strerror or exc}") from None
        if fresh:
            self._write({".csv": csv_head(self.layout), ".md": MD_HEAD, ".html": HTML_HEAD}.get(self.fmt, ""))

    def _resume(self) -> list[str]:
        data = self.path.read_bytes()
        if self.fmt == ".jsonl":
            ids, keep = scan_jsonl(self.path, data)
        elif self.fmt == ".csv":
            ids, keep = scan_csv(self.path, data, self.layout)
        else:
            ids, keep = scan_report(self.path, data, MD_HEAD if self.fmt == ".md" else HTML_HEAD)
        rest = data[keep:]
        if rest and not (self.fmt == ".html" and rest == HTML_FOOT.encode()):
            log.warning("%s: cutting off an incomplete last record (%d bytes) before resuming", self.path, len(rest))
        if rest:
            with self.path.open("r+b") as f:
                f.truncate(keep)
        return ids

    def key(self, r: InputRow) -> str:
        """What :attr:`done` holds for an input row already written."""
        if self.fmt in (".md", ".html"):
            return str(r.index)
        if self.fmt == ".jsonl":
            return str(r.id)
        return self.layout.key(r)

    def _write(self, s: str) -> None:
        if s:
            try:
                self._f.write(s)
                self._f.flush()
            except OSError as exc:  # a full disk, a lost mount: the output's name, in one line
                raise InputFormatError(f"{self.path}: cannot write: {exc.strerror or exc}") from None

    def write(self, r: InputRow, row: dict[str, Any]) -> None:
        if self.fmt == ".xlsx":
            self._book.add(r, row)
        elif self.fmt == ".jsonl":
            self._write(jsonl_record(r, row, self.layout))
        elif self.fmt == ".csv":
            self._write(csv_line(self.layout.cells(r, row)))
        elif self.fmt == ".md":
            self._write(md_section(r, row, self.layout))
        else:
            self._write(html_section(r, row, self.layout))

    def flush(self) -> None:
        """Make what was written durable (the .xlsx workbook is saved)."""
        if self.fmt == ".xlsx":
            self._book.save(force=False)

    def close(self) -> None:
        if self.fmt == ".xlsx":
            self._book.save()
            return
        try:
            if self.fmt == ".html":
                self._write(HTML_FOOT)
        finally:
            try:
                self._f.close()
            except OSError as exc:
                raise InputFormatError(f"{self.path}: cannot write: {exc.strerror or exc}") from None

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def existing_ids(path: Path, fmt: str, layout: Layout | None = None) -> list[str]:
    """Ids of the complete rows already in an output file; cuts off a torn last record."""
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return []
    if fmt == ".xlsx":
        from .xlsx import XlsxBook

        return XlsxBook(path, layout or Layout(), resume=True).done
    w = RowWriter.__new__(RowWriter)
    w.path, w.fmt, w.layout = path, fmt, layout or Layout()
    return w._resume()


__all__ = ["OUTPUT_FORMATS", "RowWriter", "csv_line", "existing_ids", "same_file"]
