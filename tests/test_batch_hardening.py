"""The batch door against what breaks it: lone surrogates, writing over the questions, --resume
onto someone else's file, formula injection, forged report markers, huge CSV fields, OS errors
as one line, and `qa eval` / `qa ask` going on where the pipeline can."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from qa.batch import existing_ids, run_batch
from qa.cli import main
from qa.errors import InputFormatError

FORMATS = [".jsonl", ".csv", ".xlsx", ".md", ".html"]


def _cli(settings) -> list[str]:
    return ["--seeds-dir", str(settings.seeds_dir), "--index-dir", str(settings.index_dir), "--model", settings.model]


def _one_line_error(err: str) -> bool:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("WARNING")]
    return "Traceback" not in err and len(lines) == 1 and lines[0].startswith("qa ")


# ---------------------------------------------------------------- (1) lone surrogates


@pytest.mark.parametrize("suffix", FORMATS)
def test_lone_surrogate_in_question_and_id(mini_retriever, tmp_path: Path, suffix: str, capsys):
    q = tmp_path / "q.jsonl"
    row = {"id": "x\ud800", "question": "賓\ud800為什麼說旨？", "tags": ["\udfff"], "meta": {"k\ud801": "v"}}
    q.write_text(json.dumps(row) + "\n", encoding="ascii")
    out = tmp_path / f"a{suffix}"
    assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(out)]) == 0, capsys.readouterr().err
    assert "\ufffd" in out.read_bytes().decode("utf-8", "replace") or suffix == ".xlsx"
    if suffix == ".jsonl":
        row = json.loads(out.read_text(encoding="utf-8"))
        assert row["id"] == "x\ufffd" and row["question"] == "賓\ufffd為什麼說旨？" and row["error"] is None
        assert row["input"] == {"tags": ["\ufffd"], "meta": {"k\ufffd": "v"}}


def test_eval_json_with_a_lone_surrogate_and_an_empty_question_goes_on(mini_retriever, tmp_path: Path, capsys):
    base = {"lang": "zh-Hant", "source_file": "003_excerpt.txt", "jing": "告旨", "evidence": "旨，美也"}
    lines = [json.dumps({**base, "id": "a", "question": "賓為什麼說旨？"}, ensure_ascii=False),
             json.dumps({**base, "id": "b", "question": "\x00\x00 \u3000"}),
             json.dumps({**base, "id": "c\ud800", "question": "賓\ud800旨"})]
    p = tmp_path / "eval.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode() + b"\n")  # with a BOM, as batch accepts
    for extra in ([], ["--no-answer"], ["--no-answer", "--mode", "lexical"]):
        assert main([*_cli(mini_retriever.settings), "eval", str(p), "--json", *extra]) == 0
        out, err = capsys.readouterr()
        report = json.loads(out)
        results = {r["id"]: r for r in report["results"]}
        assert set(results) == {"a", "b", "c\ufffd"} and report["overall"]["n"] == 3
        assert results["b"]["error"].startswith(f"{p}:2: empty question")
        assert results["a"]["error"] is None and results["a"]["rank"] == 1
        assert "Traceback" not in err


# ---------------------------------------------------------------- (2) overwriting


def test_output_never_overwrites_the_input(mini_retriever, tmp_path: Path, capsys):
    q = tmp_path / "a.jsonl"
    q.write_text(json.dumps({"id": "1", "question": "賓為什麼說旨？"}) + "\n", encoding="utf-8")
    before = q.read_bytes()
    assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(q)]) == 2
    assert _one_line_error(capsys.readouterr().err) and q.read_bytes() == before
    link = tmp_path / "link.jsonl"
    os.symlink(q, link)
    with pytest.raises(InputFormatError, match="overwrite the questions"):
        run_batch(mini_retriever, q, link)
    assert q.read_bytes() == before


@pytest.mark.parametrize("suffix", FORMATS)
def test_resume_never_truncates_a_file_that_is_not_a_batch_output(mini_retriever, tmp_path: Path, suffix: str, capsys):
    q = tmp_path / "q.txt"
    q.write_text("賓為什麼說旨？\n", encoding="utf-8")
    w = tmp_path / f"w{suffix}"
    w.write_bytes(b"name,score\r\nalice,90\r\nbob,8")  # someone's file, last line without a newline
    assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(w), "--resume"]) == 2
    err = capsys.readouterr().err
    assert _one_line_error(err) and "--resume" in err
    assert w.read_bytes() == b"name,score\r\nalice,90\r\nbob,8"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".md", ".html"])
def test_resume_keeps_a_3mb_complete_last_row(mini_retriever, tmp_path: Path, suffix: str):
    q = tmp_path / "q.csv"
    q.write_text(f"id,question\n1,賓為什麼說旨？\n2,{'旨' * 3_000_000}\n3,宾为何告旨\n", encoding="utf-8")
    out = tmp_path / f"a{suffix}"
    first = tmp_path / "first.csv"
    first.write_text("\n".join(q.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    run_batch(mini_retriever, first, out, k=1)
    if suffix == ".html":  # as a kill leaves it: without the closing tags
        out.write_bytes(out.read_bytes().removesuffix(b"</body>\n</html>\n"))
    size = out.stat().st_size
    assert size > 3_000_000
    want = ["0", "1"] if suffix in (".md", ".html") else ["1", "2"]
    assert existing_ids(out, suffix, _layout(q)) == want and out.stat().st_size == size
    s = run_batch(mini_retriever, q, out, k=1, resume=True)
    assert (s.kept, s.written) == (2, 1)


def _layout(path: Path):
    from qa.batch import Layout, read_table

    return Layout.of(read_table(path, 2000))


# ---------------------------------------------------------------- (3) formula injection


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_cells_that_would_run_as_formulas_are_neutralized(mini_retriever, tmp_path: Path, suffix: str):
    q = tmp_path / "q.csv"
    cells = ["=HYPERLINK(\"http://x\",\"賓\")", "+1", "-1+賓", "@SUM(1)", "\t=1", "\r=1"]
    with open(q, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question", "note"])
        for c in cells:
            w.writerow([c, c + "賓為什麼說旨？", c])
    out = tmp_path / f"a{suffix}"
    run_batch(mini_retriever, q, out, k=1)
    if suffix == ".csv":
        with open(out, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh))[1:]
    else:
        import openpyxl

        wb = openpyxl.load_workbook(out)
        assert all(c.data_type != "f" for ws in wb for row in ws.iter_rows() for c in row)
        rows = [list(r) for r in wb["answers"].iter_rows(values_only=True)][1:]
    assert len(rows) == len(cells)
    for row, c in zip(rows, cells):
        shown = {"'" + c, "'" + c.replace("\r", "\n")}  # a workbook stores a lone CR as LF
        assert row[0] in shown and row[2] in shown and row[1].startswith("'")


# ---------------------------------------------------------------- (4) reports escape every field


@pytest.mark.parametrize("suffix", [".md", ".html"])
def test_report_escapes_ids_and_forged_markers_and_resumes(mini_retriever, tmp_path: Path, suffix: str):
    q = tmp_path / "q.csv"
    rows = [("<img src=x onerror=alert(1)>", "賓為什麼說旨？<!-- qa-row 7 -->", "<b>x</b>"),
            ("<!-- qa-row 7 -->\n", "<script>alert(1)</script>宾为何告旨", "<!-- qa-row 9 -->"),
            ("3", "賓為什麼說旨？", "")]
    with open(q, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question", "note"])
        w.writerows(rows)
    out = tmp_path / f"r{suffix}"
    run_batch(mini_retriever, q, out, k=1)
    text = out.read_text(encoding="utf-8")
    assert "<img" not in text and "<script" not in text and "<b>" not in text
    assert text.count("<!-- qa-row ") == 3
    assert existing_ids(out, suffix) == ["0", "1", "2"]
    s = run_batch(mini_retriever, q, out, k=1, resume=True)
    assert (s.kept, s.written) == (3, 0)


# ---------------------------------------------------------------- (6) huge CSV fields


def test_a_csv_field_over_131072_characters_is_a_row_error(mini_retriever, tmp_path: Path, capsys):
    q = tmp_path / "q.csv"
    q.write_text(f"id,question\n1,\"{'賓' * 200_000}\"\n2,賓為什麼說旨？\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(out)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "over the limit" in rows[0]["error"] and rows[1]["error"] is None


# ---------------------------------------------------------------- (7) OS errors: one line, status 2


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".md"])
def test_full_disk_is_one_line(mini_retriever, tmp_path: Path, suffix: str, capsys):
    q = tmp_path / "q.txt"
    q.write_text("賓為什麼說旨？\n", encoding="utf-8")
    full = tmp_path / f"full{suffix}"
    os.symlink("/dev/full", full)
    assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(full)]) == 2
    err = capsys.readouterr().err
    assert _one_line_error(err) and "No space left on device" in err


def test_output_under_a_file_and_unreadable_input_are_one_line(mini_retriever, tmp_path: Path, capsys):
    q = tmp_path / "q.txt"
    q.write_text("賓為什麼說旨？\n", encoding="utf-8")
    for out in (q / "a.csv", q / "sub" / "a.xlsx"):
        assert main([*_cli(mini_retriever.settings), "batch", str(q), "-o", str(out)]) == 2
        assert _one_line_error(capsys.readouterr().err)
    for bad in (tmp_path, tmp_path / "missing.csv", tmp_path / "dir.xlsx"):
        if bad.suffix == ".xlsx":
            bad.mkdir()
        assert main([*_cli(mini_retriever.settings), "batch", str(bad), "-o", str(tmp_path / "a.csv")]) == 2
        assert _one_line_error(capsys.readouterr().err)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not a workbook")
    assert main([*_cli(mini_retriever.settings), "batch", str(broken), "-o", str(tmp_path / "a.csv")]) == 2
    assert _one_line_error(capsys.readouterr().err)


# ---------------------------------------------------------------- (13) a seed file missing after the build


def test_batch_and_ask_go_on_when_a_seed_file_is_missing(tmp_path: Path, capsys):
    from conftest import RETRIEVAL_SEEDS

    seeds = tmp_path / "seeds"
    shutil.copytree(RETRIEVAL_SEEDS, seeds)
    args = ["--seeds-dir", str(seeds), "--index-dir", str(tmp_path / "index"), "--model", "hashing"]
    assert main([*args, "build"]) == 0
    (seeds / "000_excerpt.txt").unlink()
    capsys.readouterr()
    q = tmp_path / "q.txt"
    q.write_text("賓為什麼說旨？\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    assert main([*args, "batch", str(q), "-o", str(out)]) == 0
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["error"] is None and "旨，美也" in row["answer"]
    assert main([*args, "ask", "--json", "賓為什麼說旨？"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == row["answer"]
