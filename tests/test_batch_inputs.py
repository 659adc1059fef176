"""qa.batch.read on files as people save them: GBK, Big5, Excel's UTF-16 "Unicode Text",
UTF-8 with BOM and CRLF, .xlsx with Chinese headers; every answered row keeps its columns."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from qa.batch import read_table, run_batch
from qa.errors import InputFormatError

HANT = [("1", "賓為什麼說旨？", "旨，美也。", "5"), ("2", "宾为何告旨", "告旨，美之。", "3")]
HANS = [("1", "宾为什么说旨？", "旨，美也。", "5"), ("2", "宾为何告旨", "告旨，美之。", "3")]


def _csv_text(header, rows, *, delimiter=",", newline="\n") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=newline)
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def _cli(settings) -> list[str]:
    return ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", settings.model]


def _read_csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def test_gbk_csv_is_detected_and_its_header_read(tmp_path: Path):
    p = tmp_path / "exam.csv"
    p.write_bytes(_csv_text(["题号", "题目", "参考答案", "配分"], HANS, newline="\r\n").encode("gbk"))
    table = read_table(p, 2000)
    assert table.encoding == "gb18030"
    assert table.columns == ("题号", "题目", "参考答案", "配分")
    assert [r.question for r in table.rows] == ["宾为什么说旨？", "宾为何告旨"]
    assert [r.id for r in table.rows] == ["1", "2"] and not any(r.error for r in table.rows)
    assert table.rows[0].fields == ("1", "宾为什么说旨？", "旨，美也。", "5")


def test_big5_csv_is_detected(tmp_path: Path):
    p = tmp_path / "exam.csv"
    rows = [("1", "賓為什麼說旨？", "旨，美也。", "5"), ("2", "主人為何獻賓？", "", "3")]
    p.write_bytes(_csv_text(["題號", "題目", "參考答案", "配分"], rows).encode("big5"))
    table = read_table(p, 2000)
    assert table.encoding == "big5"
    assert [r.question for r in table.rows] == ["賓為什麼說旨？", "主人為何獻賓？"]


def test_excel_unicode_text_utf16_tab_separated(tmp_path: Path):
    p = tmp_path / "exam.txt"  # what Excel's "Unicode Text" saves: UTF-16 LE with BOM, tabs, CRLF
    p.write_bytes(_csv_text(["題號", "題目", "參考答案"], [r[:3] for r in HANT], delimiter="\t", newline="\r\n").encode("utf-16"))
    table = read_table(p, 2000)
    assert table.encoding.startswith("utf-16")
    assert table.columns == ("題號", "題目", "參考答案")
    assert [r.question for r in table.rows] == ["賓為什麼說旨？", "宾为何告旨"]
    assert not any("\x00" in (r.question or "") for r in table.rows)


def test_utf8_bom_crlf_multiline_cell_and_trailing_empty_rows(tmp_path: Path):
    p = tmp_path / "exam.csv"
    text = _csv_text(["題號", "問題", "備註"], [("1", "賓為什麼\r\n說旨？", "兩行"), ("2", "宾为何告旨", "")], newline="\r\n")
    p.write_bytes(b"\xef\xbb\xbf" + (text + ",,\r\n,,\r\n\r\n").encode())
    table = read_table(p, 2000)
    assert table.columns == ("題號", "問題", "備註")  # no BOM in the first header
    assert [r.question for r in table.rows] == ["賓為什麼\r\n說旨？", "宾为何告旨"]
    assert table.blank == 3


def test_headers_are_recognized_case_insensitively_or_named(tmp_path: Path):
    p = tmp_path / "q.csv"
    p.write_text("ID,Question\n7,賓為什麼說旨？\n", encoding="utf-8")
    assert read_table(p, 2000).rows[0].id == "7"
    p.write_text("no,prompt,note\n1,賓為什麼說旨？,x\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="no 'question' column.*prompt.*--question-column"):
        read_table(p, 2000)
    assert read_table(p, 2000, question_column="Prompt").rows[0].question == "賓為什麼說旨？"
    with pytest.raises(InputFormatError, match="no column 'text'"):
        read_table(p, 2000, question_column="text")


def test_gbk_header_in_an_error_message_is_not_mojibake(tmp_path: Path):
    p = tmp_path / "q.csv"
    p.write_bytes("编号,内容\n1,宾为什么说旨？\n".encode("gbk"))
    with pytest.raises(InputFormatError) as e:
        read_table(p, 2000)
    assert "编号, 内容" in str(e.value)


def test_encoding_override(tmp_path: Path):
    p = tmp_path / "q.txt"
    p.write_bytes("賓為什麼說旨？\n".encode("big5"))
    assert read_table(p, 2000, encoding="big5").rows[0].question == "賓為什麼說旨？"
    assert read_table(p, 2000, encoding="utf-8").rows[0].error == "line is not valid UTF-8"
    with pytest.raises(InputFormatError, match="unknown encoding"):
        read_table(p, 2000, encoding="klingon")


def _teacher_xlsx(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["題號", "題目", "參考答案", "配分", "備註"])
    ws.append([1, "賓為什麼說旨？", "旨，美也。", 5, "第一題"])
    ws.append([2, "宾为何告旨", None, 3, None])
    ws.append([3, "@賓為什麼說旨？", None, 2, "-x"])
    ws.cell(row=4, column=3, value="=1+1").data_type = "s"  # text that looks like a formula
    ws.append([None, None, None, None, None])  # Excel's trailing empty rows
    ws.append(["", "  ", None, None, None])
    wb.save(path)
    return path


def test_xlsx_input_with_chinese_headers(tmp_path: Path):
    table = read_table(_teacher_xlsx(tmp_path / "exam.xlsx"), 2000)
    assert table.columns == ("題號", "題目", "參考答案", "配分", "備註")
    assert [r.id for r in table.rows] == ["1", "2", "3"] and table.blank == 2
    assert table.rows[0].fields == (1, "賓為什麼說旨？", "旨，美也。", 5, "第一題")


def test_each_answered_row_keeps_its_columns_gbk_to_csv(mini_retriever, tmp_path: Path, capsys):
    from qa.cli import main

    p = tmp_path / "exam.csv"
    p.write_bytes(_csv_text(["题号", "题目", "参考答案", "配分"], HANS).encode("gbk"))
    out = tmp_path / "answers.csv"
    assert main([*_cli(mini_retriever.settings), "batch", str(p), "-o", str(out), "-k", "3"]) == 0
    got = _read_csv(out)
    assert list(got[0]) == ["题号", "题目", "参考答案", "配分", "answer", "citations", "top_unit", "found", "error"]
    assert [(g["题号"], g["题目"], g["参考答案"], g["配分"]) for g in got] == HANS
    assert "旨，美也" in got[0]["answer"] and got[0]["found"] == "true" and got[0]["top_unit"]
    assert got[0]["citations"].startswith("《儀禮注疏·鄉飲酒禮》鄭玄注：「")
    err = capsys.readouterr().err
    assert "0 errors" in err and "Traceback" not in err


def test_each_answered_row_keeps_its_columns_xlsx_to_xlsx(mini_retriever, tmp_path: Path):
    import openpyxl

    out = tmp_path / "answers.xlsx"
    s = run_batch(mini_retriever, _teacher_xlsx(tmp_path / "exam.xlsx"), out, k=3)
    assert (s.written, s.blank, s.errors) == (3, 2, 0)
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["answers", "hits"]
    rows = list(wb["answers"].iter_rows(values_only=True))
    assert rows[0] == ("題號", "題目", "參考答案", "配分", "備註", "answer", "citations", "top_unit", "found", "error")
    assert rows[1][:5] == (1, "賓為什麼說旨？", "旨，美也。", 5, "第一題") and rows[1][8] is True
    assert rows[3][1:5] == ("'@賓為什麼說旨？", "'=1+1", 2, "'-x")  # never run as formulas
    assert all(c.data_type != "f" for row in wb["answers"].iter_rows() for c in row)
    hits = list(wb["hits"].iter_rows(values_only=True))
    assert hits[0][:3] == ("id", "rank", "unit") and hits[1][:2] == (1, 1) and len(hits) == 1 + 3 * 3


def test_every_row_failed_exits_non_zero_and_says_why(mini_retriever, tmp_path: Path, capsys):
    from qa.cli import main

    p = tmp_path / "exam.csv"
    p.write_bytes(_csv_text(["题号", "题目"], [r[:2] for r in HANS]).encode("gbk"))
    out = tmp_path / "a.jsonl"
    # forced to read it as UTF-8, as the old door did: every row is undecodable
    code = main([*_cli(mini_retriever.settings), "batch", str(p), "-o", str(out), "--encoding", "utf-8",
                 "--question-column", "\ufffd\ufffd"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "no column" in err or "every row failed" in err
    q = tmp_path / "q.txt"
    q.write_bytes("賓為什麼說旨？\n".encode("big5"))
    code = main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(out), "--encoding", "utf-8"])
    err = capsys.readouterr().err
    assert code == 2 and "0 answered, 0 flagged (no passage found), 1 errors" in err
    assert "every row failed" in err and "not valid UTF-8" in err and "--encoding" in err


def test_a_file_of_blank_rows_exits_non_zero(mini_retriever, tmp_path: Path, capsys):
    from qa.cli import main

    q = tmp_path / "q.csv"
    q.write_text("題號,題目\n,\n,\n", encoding="utf-8")
    code = main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(tmp_path / "a.csv")])
    err = capsys.readouterr().err
    assert code == 2 and "no questions" in err and "2 blank rows" in err


def test_utf16_without_bom(tmp_path: Path):
    p = tmp_path / "q.tsv"
    p.write_bytes("id\tquestion\r\n1\tWhy does the guest praise the wine?\r\n2\t賓為什麼說旨？\r\n".encode("utf-16-le"))
    table = read_table(p, 2000)
    assert table.encoding == "utf-16-le"
    assert [r.question for r in table.rows] == ["Why does the guest praise the wine?", "賓為什麼說旨？"]


def _files(tmp_path: Path) -> dict[str, Path]:
    """The files the issue names, each with columns 題號, 題目, 參考答案 (and more)."""
    header = ["題號", "題目", "參考答案", "配分"]
    out = {}
    out["gbk"] = tmp_path / "gbk.csv"
    out["gbk"].write_bytes(_csv_text(["题号", "题目", "参考答案", "配分"], HANS).encode("gbk"))
    out["big5"] = tmp_path / "big5.csv"
    out["big5"].write_bytes(_csv_text(header, [("1", "賓為什麼說旨？", "旨，美也。", "5"), ("2", "主人為何獻賓？", "", "3")]).encode("big5"))
    out["utf16"] = tmp_path / "unicode.txt"
    out["utf16"].write_bytes(_csv_text(header, HANT, delimiter="\t", newline="\r\n").encode("utf-16"))
    out["bom"] = tmp_path / "bom.csv"
    rows = [("1", "賓為什麼\r\n說旨？", "旨，美也。", "5"), ("2", "宾为何告旨", "", "3")]
    out["bom"].write_bytes(b"\xef\xbb\xbf" + (_csv_text(header, rows, newline="\r\n") + ",,,\r\n,,,\r\n").encode())
    out["xlsx"] = _teacher_xlsx(tmp_path / "exam.xlsx")
    return out


@pytest.mark.parametrize("name", ["gbk", "big5", "utf16", "bom", "xlsx"])
def test_every_file_people_have_keeps_its_columns_beside_the_answer(mini_retriever, tmp_path: Path, name: str):
    import json

    path = _files(tmp_path)[name]
    table = read_table(path, 2000)
    out = tmp_path / "a.jsonl"
    s = run_batch(mini_retriever, path, out, k=2)
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(table.rows) == s.written and s.errors == 0
    assert rows[0]["answer"] and rows[0]["hits"]
    for r, got in zip(table.rows, rows):
        assert got["question"].split() == r.question.split() and got["id"] == r.id  # the pipeline folds spaces
        extra = {table.columns[i]: v for i, v in enumerate(r.fields) if i not in (table.question_column, table.id_column)}
        assert got["input"] == extra and ("配分" in extra or "参考答案" in extra)


def test_extra_cells_and_repeated_headers_are_kept(tmp_path: Path):
    p = tmp_path / "q.csv"
    p.write_text("題目,備註,備註\n賓為什麼說旨？,a,b,c\n", encoding="utf-8")
    table = read_table(p, 2000)
    assert table.columns == ("題目", "備註", "備註 (2)", "column 4")
    assert table.rows[0].fields == ("賓為什麼說旨？", "a", "b", "c")
