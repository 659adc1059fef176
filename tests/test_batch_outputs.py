"""What batch gives back: citations in a scholar's form, --script, the report for people
(.md/.html, no ids unless --detail), .xlsx resume, and input columns kept in every format."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from qa.batch import InputRow, Layout, RowWriter, run_batch
from qa.batch.present import answer_sentences, citation, citation_lines

XIYI = {"text": "宾为苟敬", "unit_id": "xiyi.yan.001", "work": "仪礼析疑", "rite": "燕禮", "layer": "xiyi",
        "source": "000_cb0ccdf07e5071ea.txt", "lines": [3, 3]}
ZHU = {"text": "旨，美也。", "unit_id": "zhushu.xiangyin.038", "work": "儀禮注疏", "rite": "鄉飲酒禮", "layer": "zhu",
       "source": "003_c949fed6c9cacba9.txt", "lines": [120, 121]}
ROW = {"id": "1", "question": "q", "answer": "…", "found": True, "citations": [XIYI, ZHU], "error": None, "hits": []}


def test_citation_in_a_scholars_form():
    assert citation(ZHU) == "《儀禮注疏·鄉飲酒禮》鄭玄注：「旨，美也。」"
    assert citation(XIYI) == "《儀禮析疑·燕禮》方苞析疑：「宾为苟敬」"
    assert citation({**ZHU, "layer": "shu"}).startswith("《儀禮注疏·鄉飲酒禮》賈公彥疏：")
    assert citation(ZHU, detail=True).endswith("（003_c949fed6c9cacba9.txt:120–121 · zhushu.xiangyin.038）")


@pytest.mark.parametrize(
    "script, sentences",
    [("orig", ["宾为苟敬", "旨，美也。"]), ("hant", ["賓爲苟敬", "旨，美也。"]), ("hans", ["宾为苟敬", "旨，美也。"])],
)
def test_script_converts_only_what_it_should(script, sentences):
    got = answer_sentences(ROW, script)
    if script == "hant":  # only the simplified source (方苞) is converted; OpenCC may give 爲 or 為
        assert got[0] in ("賓爲苟敬", "賓為苟敬") and got[1] == "旨，美也。"
    else:
        assert got == sentences
    lines = citation_lines(ROW, script)
    if script == "hans":
        assert lines[1] == "《仪礼注疏·乡饮酒礼》郑玄注：「旨，美也。」"
    else:
        assert lines[1] == "《儀禮注疏·鄉飲酒禮》鄭玄注：「旨，美也。」"


def _cli(settings) -> list[str]:
    return ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", settings.model]


def _exam(tmp_path: Path) -> Path:
    p = tmp_path / "exam.csv"
    p.write_text("題號,題目,參考答案,配分\nA1,賓為什麼說旨？,旨，美也。,5\nA2,asdf qwer zxcv,無,1\nA3,,,2\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("suffix", [".md", ".html"])
def test_report_for_people_has_no_ids_unless_detail(mini_retriever, tmp_path: Path, suffix: str):
    from qa.cli import main

    out = tmp_path / f"report{suffix}"
    assert main([*_cli(mini_retriever.settings), "batch", str(_exam(tmp_path)), "-o", str(out), "-k", "3"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "參考答案" in text and "旨，美也" in text and "鄭玄注" in text and "儀禮注疏" in text
    assert "zhushu." not in text and "score" not in text and ".txt:" not in text
    assert "empty question" in text  # A3's error is shown
    if suffix == ".html":
        assert "@media print" in text and text.rstrip().endswith("</html>")
    detailed = tmp_path / f"detail{suffix}"
    assert main([*_cli(mini_retriever.settings), "batch", str(_exam(tmp_path)), "-o", str(detailed), "-k", "3", "--detail"]) == 0
    text = detailed.read_text(encoding="utf-8").replace("\\", "")  # Markdown's escapes
    assert "zhushu." in text and "score" in text and ".txt:" in text


def test_jsonl_keeps_input_columns_and_script_leaves_hits_alone(mini_retriever, tmp_path: Path):
    out = tmp_path / "a.jsonl"
    run_batch(mini_retriever, _exam(tmp_path), out, k=2, script="hans")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["A1", "A2", "A3"]
    assert rows[0]["input"] == {"參考答案": "旨，美也。", "配分": "5"}
    assert rows[0]["hits"][0]["jing"] == mini_retriever.ask("賓為什麼說旨？", k=2).to_dict()["hits"][0]["jing"]
    assert rows[1]["found"] is False and rows[2]["error"] == "empty question"


def test_csv_script_hans_and_found_column(mini_retriever, tmp_path: Path):
    out = tmp_path / "a.csv"
    s = run_batch(mini_retriever, _exam(tmp_path), out, k=2, script="hans")
    assert (s.answered, s.flagged, s.errors) == (1, 1, 1)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert [g["found"] for g in got] == ["true", "false", ""]
    assert got[0]["citations"].startswith("《仪礼注疏·乡饮酒礼》")
    assert got[0]["參考答案"] == "旨，美也。" and got[2]["error"] == "empty question"


def test_xlsx_resume_reads_back_the_rows_already_there(mini_retriever, tmp_path: Path):
    import openpyxl

    exam = _exam(tmp_path)
    whole = tmp_path / "whole.xlsx"
    run_batch(mini_retriever, exam, whole, k=2)
    first = tmp_path / "first.csv"
    first.write_text("\n".join(exam.read_text(encoding="utf-8").splitlines()[:2]) + "\n", encoding="utf-8")
    part = tmp_path / "part.xlsx"
    assert run_batch(mini_retriever, first, part, k=2).written == 1
    s = run_batch(mini_retriever, exam, part, k=2, resume=True)
    assert (s.written, s.kept) == (2, 1)

    def sheets(p):
        wb = openpyxl.load_workbook(p)
        return {name: list(wb[name].iter_rows(values_only=True)) for name in wb.sheetnames}

    assert sheets(part) == sheets(whole)


def test_input_column_named_like_ours_is_kept(tmp_path: Path):
    out = tmp_path / "a.csv"
    layout = Layout(("question", "answer"), 0, None)
    with RowWriter(out, resume=False, layout=layout) as w:
        w.write(InputRow(0, "1", "q", None, ("q", "teacher's")), {**ROW, "citations": []})
    with open(out, encoding="utf-8-sig", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert got[0]["answer (input)"] == "teacher's" and got[0]["answer"] == "…"
