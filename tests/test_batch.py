"""qa.batch: reading every row (bad ones kept with an error), writing, and --resume."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from qa.answering.compose import error_row
from qa.batch import InputRow, RowWriter, existing_ids, read_questions, read_table
from qa.errors import InputFormatError

BAD = b"\xff\xfe\xfa"


def test_txt_rows_one_per_line_bad_ones_kept(tmp_path: Path):
    p = tmp_path / "q.txt"
    p.write_bytes("\ufeff賓為什麼說旨？\r\n".encode() + b"\n" + BAD + b"\n" + ("長" * 50).encode() + b"\n  \nwhy?")
    table = read_table(p, max_chars=20)
    rows = table.rows
    assert [r.id for r in rows] == ["1", "3", "4", "6"]  # blank lines 2 and 5 are skipped and counted
    assert table.blank == 2
    assert rows[0].question == "賓為什麼說旨？" and rows[0].error is None
    assert rows[1].error == "line is not valid UTF-8"
    assert "over the limit of 20" in rows[2].error
    assert rows[3].question == "why?" and rows[3].error is None


def test_jsonl_ids_and_bad_lines(tmp_path: Path):
    p = tmp_path / "q.jsonl"
    lines = [
        json.dumps({"id": "a", "question": "賓為什麼說旨？"}, ensure_ascii=False).encode(),
        b'{"question": ',
        b"[1, 2]",
        b'{"id": 7}',
        BAD,
        b'{"question": "why?"}',
    ]
    p.write_bytes(b"\n".join(lines) + b"\n")
    rows = read_questions(p, max_chars=2000)
    assert [r.id for r in rows] == ["a", "2", "3", "7", "5", "6"]
    assert rows[3].error == "empty question"
    assert [bool(r.error) for r in rows] == [False, True, True, True, True, False]
    assert rows[1].error.startswith("not valid JSON")


def test_csv_quoted_newlines_and_a_bad_record(tmp_path: Path):
    p = tmp_path / "q.csv"
    p.write_bytes(
        b'id,question\nq1,"\xe8\xb3\x93\xe7\x82\xba\xe4\xbb\x80\xe9\xba\xbc\n\xe8\xaa\xaa\xe6\x97\xa8"\nq2,' + BAD + b"\n,why?\nq4,\n"
    )
    rows = read_questions(p, max_chars=2000)
    assert [r.id for r in rows] == ["q1", "q2", "3", "q4"]
    assert rows[0].question == "賓為什麼\n說旨" and rows[0].error is None
    assert rows[1].error == "row is not valid UTF-8"
    assert rows[2].question == "why?"
    assert rows[3].error == "empty question"


def test_csv_without_question_column_is_a_clear_error(tmp_path: Path):
    p = tmp_path / "q.csv"
    p.write_text("id,text\n1,x\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="no 'question' column"):
        read_questions(p, max_chars=10)


def test_unknown_formats_are_clear_errors(tmp_path: Path):
    with pytest.raises(InputFormatError, match="unknown input format"):
        read_questions(tmp_path / "q.docx", max_chars=10)
    with pytest.raises(InputFormatError, match="unknown output format"):
        RowWriter(tmp_path / "a.docx", resume=False)


def _row(i: int) -> dict:
    return {**error_row(f"id{i}", f"問題{i}", "x" if i % 2 else None), "answer": f"答{i}，\n第二行"}


def _in(i: int) -> InputRow:
    return InputRow(i, f"id{i}", f"問題{i}", None, (f"問題{i}",))


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".md", ".html"])
def test_resume_cuts_a_torn_record_and_keeps_the_rest(tmp_path: Path, suffix: str):
    out = tmp_path / f"out{suffix}"
    with RowWriter(out, resume=False) as w:
        for i in range(3):
            w.write(_in(i), _row(i))
    whole = out.read_bytes()
    if suffix == ".html":
        whole = whole[: -len(b"</body>\n</html>\n")]
    with out.open("wb") as f:  # a kill in the middle of the fourth record
        f.write(whole + whole[len(whole) // 2 : len(whole) // 2 + 25])
    ids = existing_ids(out, suffix)
    assert ids == (["0", "1", "2"] if suffix in (".md", ".html") else ["id0", "id1", "id2"])
    assert out.read_bytes() == whole
    with RowWriter(out, resume=True) as w:
        assert len(w.done) == 3
        w.write(_in(3), _row(3))
    again = tmp_path / f"again{suffix}"
    with RowWriter(again, resume=False) as w:
        for i in range(4):
            w.write(_in(i), _row(i))
    assert out.read_bytes() == again.read_bytes()


def test_csv_output_opens_in_excel_and_round_trips(tmp_path: Path):
    out = tmp_path / "out.csv"
    with RowWriter(out, resume=False) as w:
        w.write(_in(0), {**_row(0), "found": True})
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfid,question,answer,citations,top_unit,found,error\r\n")
    records = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert records[0]["id"] == "id0" and records[0]["answer"] == "答0，\n第二行"
    assert records[0]["found"] == "true" and "hits" not in records[0]


def test_md_escapes_what_users_typed(tmp_path: Path):
    out = tmp_path / "out.md"
    with RowWriter(out, resume=False) as w:
        w.write(_in(0), error_row("1", "<img src=x onerror=alert(1)> *x*", "bad"))
    text = out.read_text(encoding="utf-8")
    assert "<img" not in text and "&lt;img" in text and "\\*x\\*" in text


# ---------------------------------------------------------------- end to end (qa batch)


def _cli(settings) -> list[str]:
    return ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", settings.model]


def _questions(tmp_path: Path) -> Path:
    p = tmp_path / "q.txt"
    p.write_bytes("賓為什麼說旨？\n\n".encode() + BAD + "\n宾为何告旨\n".encode() + ("旨" * 3000).encode() + b"\nWhy does the guest praise the wine?\n")
    return p


def test_batch_writes_one_row_per_input_row_in_order(mini_retriever, tmp_path: Path, capsys):
    from qa.cli import main

    out = tmp_path / "a.jsonl"
    assert main([*_cli(mini_retriever.settings), "batch", str(_questions(tmp_path)), "-o", str(out), "-k", "3"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["1", "3", "4", "5", "6"]  # line 2 is blank
    assert [bool(r["error"]) for r in rows] == [False, True, False, True, False]
    assert "旨，美也" in rows[0]["answer"] and len(rows[0]["hits"]) == 3
    h = rows[0]["hits"][0]
    assert {"id", "source", "lines", "rite", "work", "jing", "zhu", "shu", "xiyi", "score"} <= set(h)
    assert rows[0]["citations"][0]["lines"][0] == rows[0]["citations"][0]["lines"][1]
    err = capsys.readouterr().err
    assert "answered, " in err and "2 errors, 1 blank rows skipped" in err


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".md", ".html"])
def test_batch_resume_after_an_interrupt_loses_and_repeats_nothing(mini_retriever, tmp_path: Path, suffix: str):
    from qa.batch import run_batch

    questions = _questions(tmp_path)
    whole = tmp_path / f"whole{suffix}"
    run_batch(mini_retriever, questions, whole, k=2)
    # an interrupted run: the first three rows written, the fourth torn mid-record
    first3 = tmp_path / "first3.txt"
    first3.write_bytes(b"\n".join(questions.read_bytes().split(b"\n")[:3]) + b"\n")
    cut = tmp_path / f"cut{suffix}"
    run_batch(mini_retriever, first3, cut, k=2)
    done = cut.read_bytes().removesuffix(b"</body>\n</html>\n")
    assert whole.read_bytes().startswith(done)
    cut.write_bytes(done + whole.read_bytes()[len(done) : len(done) + 9])
    summary = run_batch(mini_retriever, questions, cut, k=2, resume=True)
    assert (summary.written, summary.kept) == (3, 2)  # line 2 is blank: 2 rows were kept
    assert cut.read_bytes() == whole.read_bytes()


def test_resume_refuses_an_output_of_another_input(mini_retriever, tmp_path: Path):
    from qa.batch import run_batch

    out = tmp_path / "a.jsonl"
    run_batch(mini_retriever, _questions(tmp_path), out, k=1)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "x9", "question": "賓為什麼說旨？"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="do not match"):
        run_batch(mini_retriever, other, out, k=1, resume=True)
