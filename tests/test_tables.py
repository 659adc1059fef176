"""qa.text.tables: one reader for every qa/data table, file:line errors, and a data directory that can be switched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qa.corpus.parsers.jingref import jing_reference
from qa.errors import DataTableError
from qa.retrieval.confidence import offtopic_questions
from qa.settings import PACKAGE_DATA_DIR, Settings
from qa.text import tables
from qa.text.lexicon import commentators_table, glossary, rites_table, scaffolding
from qa.text.normalize import normalize, variant_table


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A private copy of qa/data; the process goes back to the shipped tables afterwards."""
    monkeypatch.delenv("QA_DATA_DIR", raising=False)
    copy = shutil.copytree(PACKAGE_DATA_DIR, tmp_path / "data")
    yield copy
    tables.use_data_dir(None)


def append(path: Path, line: str) -> int:
    """Append ``line`` to a table; returns its line number."""
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text + line + "\n", encoding="utf-8")
    return text.count("\n") + 1


def test_every_shipped_table_is_declared_and_reads():
    assert sorted(p.name for p in PACKAGE_DATA_DIR.iterdir() if p.is_file()) == sorted(tables.TABLES)
    for name in tables.TABLES:
        rows = tables.read_table(name, PACKAGE_DATA_DIR)
        assert rows and all(r.fields[0] for r in rows)
        assert all(r.line > 0 and r.path.name == name for r in rows)


def test_settings_data_dir_defaults_to_the_package_and_follows_QA_DATA_DIR(tmp_path):
    assert Settings.from_env(env={}).data_dir == PACKAGE_DATA_DIR == Path(tables.__file__).parent.parent / "data"
    assert Settings.from_env(env={"QA_DATA_DIR": str(tmp_path)}).data_dir == tmp_path


# Each reader of a table, and a row that is malformed for it.
READERS = [
    ("glossary.tsv", glossary, "only-a-term", "1 column, expected 2 to 4"),
    ("scaffolding.tsv", scaffolding, "请问\tzh\textra", "3 columns, expected 1 to 2"),
    ("rites.tsv", rites_table, "鄉射禮", "1 column, expected 2"),
    ("commentators.tsv", commentators_table, "\txiyi", "empty name"),
    ("variants.tsv", variant_table, "丙", "1 column, expected 2 to 3"),
    ("offtopic.tsv", offtopic_questions, "How old is the moon?\ten\tmore", "3 columns, expected 1 to 2"),
    ("jing_reference.txt", jing_reference, "宾入\t门", "2 columns, expected 1"),
]


@pytest.mark.parametrize("name, reader, row, what", READERS, ids=[r[0] for r in READERS])
def test_a_malformed_row_is_a_qa_error_naming_file_and_line(data, name, reader, row, what):
    line = append(data / name, row)
    with pytest.raises(DataTableError) as info:
        tables.read_table(name, data)
    assert str(info.value).startswith(f"{data / name}:{line}: {what}")
    assert info.value.line == line and "\n" not in str(info.value)
    tables.use_data_dir(data)  # the cached reader says the same, not an IndexError
    with pytest.raises(DataTableError, match=f"{name}:{line}: "):
        reader()


@pytest.mark.parametrize(
    "name, row, what",
    [
        ("variants.tsv", "丙丁\t甲", "'from' must be one character"),
        ("variants.tsv", "丙\t徧", "target .徧. is not a fixed point"),  # 徧 is itself folded to 遍
        ("scaffolding.tsv", "请问\tmodern", "unknown kind 'modern'"),
        ("glossary.tsv", "stone\t。", "no corpus term survives normalization"),
    ],
)
def test_rows_the_readers_reject_name_file_and_line(data, name, row, what):
    line = append(data / name, row)
    tables.use_data_dir(data)
    reader = {"variants.tsv": variant_table, "scaffolding.tsv": scaffolding, "glossary.tsv": glossary}[name]
    with pytest.raises(DataTableError, match=f"{name}:{line}: {what}"):
        reader()


def test_missing_and_undecodable_tables(data):
    (data / "rites.tsv").unlink()
    with pytest.raises(DataTableError, match="rites.tsv: data table missing"):
        tables.read_table("rites.tsv", data)
    (data / "variants.tsv").write_bytes("# ok\n徧\t遍\n".encode() + b"\xff\xfe\t\xe9\n")
    with pytest.raises(DataTableError, match=r"variants.tsv:3: not UTF-8"):
        tables.read_table("variants.tsv", data)
    with pytest.raises(DataTableError):
        tables.table_hashes(data)


def test_comments_blank_lines_crlf_and_a_trailing_tab(data):
    (data / "rites.tsv").write_bytes("# header\r\n\r\n鄉射禮\txiangshe\t\r\n  \n燕禮\tyan\r\n".encode())
    rows = tables.read_table("rites.tsv", data)
    assert [(r.line, r.fields) for r in rows] == [(3, ("鄉射禮", "xiangshe")), (5, ("燕禮", "yan"))]


def test_the_readers_follow_the_data_directory_and_cache_per_directory(data, monkeypatch):
    append(data / "variants.tsv", "丙\t甲\ttest fold")
    assert normalize("丙") == "丙"
    monkeypatch.setenv("QA_DATA_DIR", str(data))
    assert tables.data_dir() == data and normalize("丙") == "甲" and variant_table()["丙"] == "甲"
    monkeypatch.delenv("QA_DATA_DIR")
    assert normalize("丙") == "丙"  # the shipped tables again, from their own cache
    tables.use_data_dir(data)  # what load_index / build_index do with Settings.data_dir
    assert normalize("丙") == "甲"
    tables.use_data_dir(None)
    assert normalize("丙") == "丙"


def test_refresh_reads_a_table_edited_in_place_again(data):
    tables.use_data_dir(data)
    assert "xiangshe" not in set(rites_table().canonical)
    assert not tables.refresh()  # nothing changed: the caches stay
    append(data / "rites.tsv", "鄉射禮\txiangshe")
    assert "xiangshe" not in set(rites_table().canonical)  # cached until refreshed
    assert tables.refresh()
    assert "xiangshe" in set(rites_table().canonical)


def test_table_hashes_cover_every_declared_table(data):
    before = tables.table_hashes(data)
    assert set(before) == {n for n, s in tables.TABLES.items() if s.indexed} and before == tables.table_hashes(PACKAGE_DATA_DIR)
    append(data / "glossary.tsv", "stone\t石")
    after = tables.table_hashes(data)
    assert {n for n in before if before[n] != after[n]} == {"glossary.tsv"}
