"""qa.indexing.store: atomic builds, manifest checks, rebuilds when stale, clear errors when damaged."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import RETRIEVAL_SEEDS, make_settings

from qa.cli import main as qa_main
from qa.errors import DataTableError, EncoderError, IndexStoreError
from qa.indexing import manifest as manifest_module
from qa.indexing import store as index_store
from qa.indexing.store import build_index, load_index, read_manifest
from qa.retrieval.confidence import CALIBRATION_VERSION, calibrate
from qa.settings import PACKAGE_DATA_DIR
from qa.text import tables


@pytest.fixture
def seeds(tmp_path):
    """A private copy of the excerpt seeds, so a test may change them."""
    return shutil.copytree(RETRIEVAL_SEEDS, tmp_path / "seeds")


@pytest.fixture
def built(tmp_path, seeds):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds)
    build_index(settings, calibrate=calibrate)
    return settings


def test_build_writes_named_files_and_a_versioned_manifest(built):
    d = built.index_dir
    names = {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()}
    assert {"manifest.json", "units.jsonl", "passages.jsonl", "dense.faiss"} <= names
    assert any(n.startswith("lexical/") for n in names)
    assert not any(n.endswith((".pkl", ".pickle")) for n in names)  # no pickle
    for npy in d.rglob("*.npy"):
        np.load(npy, allow_pickle=False)
    m = read_manifest(d)
    assert m["format_version"] == index_store.FORMAT_VERSION
    assert m["encoder"] == "hashing" and m["encoder_dim"] == 256 and m["dense_kind"] == "flat"
    assert len(m["corpus_hash"]) == 64 and m["built_at"]
    assert set(m["tables"]) == {"variants.tsv", "glossary.tsv", "scaffolding.tsv", "rites.tsv", "commentators.tsv",
                                "offtopic.tsv", "jing_reference.txt", "other_rites.tsv", "renderings.tsv",
                                "unit_questions.tsv"}
    assert "qa/text/normalize.py" in m["code"] and "qa/corpus/parsers/xiyi.py" in m["code"]
    assert all(len(h) == 64 for h in [*m["tables"].values(), *m["code"].values()])
    assert m["counts"]["units"] > 10 and m["counts"]["passages"] > m["counts"]["units"]
    assert set(m["files"]) == names - {"manifest.json"}
    assert 0 < m["confidence"]["dense_min"] <= 1.01
    assert not list(d.parent.glob(".index.*"))  # no temporary directory left behind


def test_current_index_loads_without_rebuilding(built):
    before = read_manifest(built.index_dir)["built_at"], (built.index_dir / "dense.faiss").stat().st_mtime_ns
    data = load_index(built)
    assert len(data.passages) == len(data.dense) and data.units[0].id
    assert (read_manifest(built.index_dir)["built_at"], (built.index_dir / "dense.faiss").stat().st_mtime_ns) == before


def _edit_manifest(settings, **changes):
    path = settings.index_dir / "manifest.json"
    m = json.loads(path.read_text())
    m.update(changes)
    path.write_text(json.dumps(m))


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"encoder": "some-other-model"}, "encoder changed"),
        ({"tables": {}}, "qa/data/variants.tsv added"),
        ({"code": {"qa/text/normalize.py": "0" * 64}}, "indexing code changed (qa/corpus/__init__.py added"),
        ({"format_version": 0}, "index format changed"),
        ({"corpus_hash": "0" * 64}, "seed texts or catalog changed"),
    ],
)
def test_manifest_mismatch_rebuilds_or_says_why(built, change, reason, caplog):
    _edit_manifest(built, **change)
    with pytest.raises(IndexStoreError, match=re.escape(reason)):
        load_index(built, build=False)
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        load_index(built)
    assert reason in caplog.text
    assert read_manifest(built.index_dir)[next(iter(change))] != next(iter(change.values()))


def test_changed_seeds_rebuild(built, seeds):
    n_before = read_manifest(built.index_dir)["counts"]["units"]
    with open(seeds / "003_excerpt.txt", "a", encoding="utf-8") as f:
        f.write("主人坐取觶于篚。\n")
    with pytest.raises(IndexStoreError, match="seed texts or catalog changed"):
        load_index(built, build=False)
    data = load_index(built)
    assert len(data.units) == n_before + 1
    assert any(u.jing == "主人坐取觶于篚。" for u in data.units)


@pytest.mark.parametrize("victim", ["dense.faiss", "passages.jsonl", "units.jsonl", "lexical/vocab.json"])
def test_truncated_file_is_a_clear_error_or_a_rebuild(built, victim):
    path = built.index_dir / victim
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(IndexStoreError, match="truncated"):
        load_index(built, build=False)
    data = load_index(built)  # auto-build repairs it
    assert len(data.dense) == len(data.passages)


def test_garbled_manifest(built):
    (built.index_dir / "manifest.json").write_text("{not json")
    with pytest.raises(IndexStoreError, match="manifest unreadable"):
        load_index(built, build=False)
    assert load_index(built).manifest["encoder"] == "hashing"


def test_missing_index_builds_on_first_use_or_says_so(tmp_path, seeds):
    settings = make_settings(tmp_path / "fresh", seeds_dir=seeds)
    with pytest.raises(IndexStoreError, match="no index yet.*qa build"):
        load_index(settings, build=False)
    assert load_index(settings).manifest["counts"]["units"] > 0


def test_failed_build_leaves_previous_index_intact(built, tmp_path):
    before = {p.name: p.read_bytes() for p in built.index_dir.iterdir() if p.is_file()}
    broken = built.replace(model=str(tmp_path / "no-such-model-dir"))
    with pytest.raises(EncoderError):
        build_index(broken)
    assert {p.name: p.read_bytes() for p in built.index_dir.iterdir() if p.is_file()} == before
    assert not list(built.index_dir.parent.glob(".index.*"))
    load_index(built, build=False)  # still current and whole


def test_unwritable_location_is_a_clear_error(tmp_path, seeds):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(IndexStoreError, match="cannot write the index"):
        build_index(make_settings(blocker / "index", seeds_dir=seeds))


def test_refuses_to_replace_a_directory_that_is_not_an_index(tmp_path, seeds):
    target = tmp_path / "precious"
    target.mkdir()
    (target / "thesis.txt").write_text("do not delete")
    # an index's own files beside it do not make it an index: the foreign file still protects it
    (target / "units.jsonl").write_text("")
    for attempt in (lambda: build_index(make_settings(target, seeds_dir=seeds)),
                    lambda: load_index(make_settings(target, seeds_dir=seeds))):
        with pytest.raises(IndexStoreError, match="not an index directory") as info:
            attempt()
        msg = str(info.value)
        assert "thesis.txt" in msg and "--index-dir" in msg and "remove" in msg and "\n" not in msg
    assert (target / "thesis.txt").read_text() == "do not delete"
    assert sorted(p.name for p in target.iterdir()) == ["thesis.txt", "units.jsonl"]
    file_target = tmp_path / "a-file"
    file_target.write_text("keep")
    with pytest.raises(IndexStoreError, match="not a directory.*--index-dir"):
        build_index(make_settings(file_target, seeds_dir=seeds))
    assert file_target.read_text() == "keep"


def test_index_without_its_manifest_is_rebuilt_as_damaged(built, caplog):
    (built.index_dir / "manifest.json").unlink()
    with pytest.raises(IndexStoreError, match="manifest.json missing.*qa build"):
        load_index(built, build=False)
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        data = load_index(built)
    assert "manifest.json missing" in caplog.text and "replacing it as a damaged index" in caplog.text
    assert len(data.dense) == len(data.passages) > 0
    assert read_manifest(built.index_dir)["counts"]["passages"] == len(data.passages)


def test_cli_build_force_rebuilds_an_index_without_its_manifest(built, capsys):
    (built.index_dir / "manifest.json").unlink()
    (built.index_dir / "dense.faiss").unlink()  # any subset of the index's own files
    args = ["--seeds-dir", str(built.seeds_dir), "--index-dir", str(built.index_dir), "--model", "hashing",
            "build", "--force"]
    assert qa_main(args) == 0
    assert "built" in capsys.readouterr().out
    load_index(built, build=False)  # whole and current again


def test_large_corpus_gets_an_ivf_index_that_survives_a_reload(tmp_path, seeds):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds).replace(ann_threshold=1, ivf_nprobe=3)
    build_index(settings)
    assert read_manifest(settings.index_dir)["dense_kind"] == "ivf"
    data = load_index(settings, build=False)
    assert data.dense.kind == "ivf" and data.dense.index.nprobe == 3
    assert len(data.dense) == len(data.passages)


def test_unchanged_text_is_not_embedded_again(built, caplog):
    with caplog.at_level(logging.INFO, logger="qa.indexing.store"):
        build_index(built)
    assert "embedded 0 passages, reused" in caplog.text


def test_cli_build_and_force(built, capsys):
    args = ["--seeds-dir", str(built.seeds_dir), "--index-dir", str(built.index_dir), "--model", "hashing", "build"]
    assert qa_main(args) == 0
    assert "index is current" in capsys.readouterr().out
    assert qa_main([*args, "--force"]) == 0
    assert "built" in capsys.readouterr().out
    assert qa_main(["--seeds-dir", str(built.seeds_dir / "nowhere"), "--index-dir", str(built.index_dir), "build"]) == 2
    assert "error" in capsys.readouterr().err


# ── what an index was built from: tables, code, calibration ──────────────────────────────────

#: A row each table accepts: the edit a scholar makes.
NEW_ROWS = {
    "variants.tsv": "丙\t甲\ttest fold",
    "glossary.tsv": "whetstone\t石",
    "scaffolding.tsv": "请告诉我\tzh",
    "rites.tsv": "鄉射禮\txiangshe",
    "other_rites.tsv": "士虞禮\t士虞禮",
    "commentators.tsv": "賈公彥\tshu",
    "offtopic.tsv": "What is the capital of France?\ten",
    "jing_reference.txt": "宾入门左",
    "renderings.tsv": "t.test.999\t宾入门左\tThe guest comes in on the left.\t客人从左边进门。",
    "unit_questions.tsv": "t.test.999\t宾入门左\ten\tWhich side does the guest come in on?",
}


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A private copy of qa/data; the process reads the shipped tables again afterwards."""
    monkeypatch.delenv("QA_DATA_DIR", raising=False)
    yield shutil.copytree(PACKAGE_DATA_DIR, tmp_path / "data")
    tables.use_data_dir(None)


def _append(path, line):
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + line + "\n", encoding="utf-8")


def test_every_table_is_recorded():
    assert set(NEW_ROWS) == {name for name, spec in tables.TABLES.items() if spec.indexed}


@pytest.mark.parametrize("name", sorted(NEW_ROWS))
def test_an_edited_table_rebuilds_the_index_or_is_named(tmp_path, seeds, data_copy, name, caplog):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds, data_dir=data_copy)
    build_index(settings, calibrate=calibrate)
    load_index(settings, build=False, calibrate=calibrate)  # current
    _append(data_copy / name, NEW_ROWS[name])
    changed = f"{data_copy / name} changed"
    with pytest.raises(IndexStoreError) as info:
        load_index(settings, build=False, calibrate=calibrate)
    assert changed in str(info.value) and "qa build" in str(info.value)
    assert info.value.args[0].count("changed") == 1  # exactly what changed, nothing else
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        data = load_index(settings, calibrate=calibrate)
    assert f"building the index in {settings.index_dir} ({changed})" in caplog.text
    assert data.manifest["tables"][name] == hashlib.sha256((data_copy / name).read_bytes()).hexdigest()
    assert data.manifest["data_dir"] == str(data_copy)
    load_index(settings, build=False, calibrate=calibrate)  # current again


def test_the_rebuilt_index_uses_the_edited_table(tmp_path, seeds, data_copy):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds, data_dir=data_copy)
    assert any("之" in p.norm for p in load_index(settings).passages)
    _append(data_copy / "variants.tsv", "之\t乎\ttest: the table is read again, not taken from a cache")
    assert not any("之" in p.norm for p in load_index(settings).passages)


def test_a_glossary_edit_retrains_the_default_encoder(tmp_path, seeds, data_copy):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds, data_dir=data_copy, model="static-corpus")
    before = load_index(settings, calibrate=calibrate).manifest
    meta = settings.index_dir / "encoder" / "yili_static.json"
    pairs = json.loads(meta.read_text())["pairs"]
    _append(data_copy / "glossary.tsv", "honoured visitor\t賓")  # a new training pair: visitor → 經 with 賓
    with pytest.raises(IndexStoreError, match=re.escape(f"{data_copy / 'glossary.tsv'} changed")):
        load_index(settings, build=False, calibrate=calibrate)
    after = load_index(settings, calibrate=calibrate).manifest
    assert after["files"]["encoder/model.safetensors"] != before["files"]["encoder/model.safetensors"]
    assert json.loads(meta.read_text())["pairs"] > pairs  # trained again, with the new word's pairs


def test_the_shipped_tables_are_named_as_qa_data(built):
    m = read_manifest(built.index_dir)
    _edit_manifest(built, tables={**m["tables"], "variants.tsv": "0" * 64})
    with pytest.raises(IndexStoreError, match=re.escape("index needs a rebuild: qa/data/variants.tsv changed; run")):
        load_index(built, build=False)


def test_changed_indexing_code_rebuilds_or_is_named(built, monkeypatch, caplog):
    real = manifest_module.code_hashes()
    assert set(real) >= {"qa/text/normalize.py", "qa/corpus/parsers/xiyi.py", "qa/indexing/passages.py"}
    monkeypatch.setattr(manifest_module, "code_hashes", lambda: {**real, "qa/corpus/parsers/xiyi.py": "0" * 64})
    reason = "indexing code changed (qa/corpus/parsers/xiyi.py changed)"
    with pytest.raises(IndexStoreError, match=re.escape(reason)):
        load_index(built, build=False)
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        data = load_index(built)
    assert reason in caplog.text
    assert data.manifest["code"]["qa/corpus/parsers/xiyi.py"] == "0" * 64


@pytest.mark.parametrize("confidence, reason", [(None, "no confidence calibration"),
                                                ({"version": 1, "dense_min": 0.5},
                                                 "confidence calibration changed (version 1 → 2)")])
def test_a_missing_or_old_calibration_is_a_reason_to_rebuild(built, confidence, reason, caplog):
    m = read_manifest(built.index_dir)
    _edit_manifest(built, confidence=confidence)
    load_index(built, build=False)  # a caller that does not calibrate (no retriever) does not check it
    with pytest.raises(IndexStoreError, match=re.escape(reason)):
        load_index(built, build=False, calibrate=calibrate)
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        data = load_index(built, calibrate=calibrate)
    assert reason in caplog.text and data.manifest["confidence"] == m["confidence"]


def test_the_retriever_reads_the_calibration_and_never_computes_it(built, monkeypatch):
    from qa import Retriever
    from qa.retrieval import confidence

    def fail(*args):
        raise AssertionError("calibrated at load time")

    monkeypatch.setattr(confidence, "_calibrate", fail)
    r = Retriever.load(settings=built)
    assert r.calibration.dense_min == read_manifest(built.index_dir)["confidence"]["dense_min"]
    _edit_manifest(built, confidence=None)
    with pytest.raises(IndexStoreError, match="no confidence calibration"):
        Retriever(load_index(built), built)  # an index without one: said, not recomputed


def test_cli_build_says_why_it_rebuilds(built, capsys):
    m = read_manifest(built.index_dir)
    _edit_manifest(built, tables={**m["tables"], "glossary.tsv": "0" * 64})
    args = ["--seeds-dir", str(built.seeds_dir), "--index-dir", str(built.index_dir), "--model", "hashing", "build"]
    assert qa_main(args) == 0
    out = capsys.readouterr().out
    assert "index needs a rebuild: qa/data/glossary.tsv changed" in out and "built" in out
    assert read_manifest(built.index_dir)["confidence"]["version"] == CALIBRATION_VERSION
    assert qa_main(args) == 0 and "index is current" in capsys.readouterr().out


def test_a_malformed_table_row_is_a_clear_error(tmp_path, seeds, data_copy):
    _append(data_copy / "rites.tsv", "鄉射禮")
    settings = make_settings(tmp_path / "index", seeds_dir=seeds, data_dir=data_copy)
    with pytest.raises(DataTableError, match=re.escape(f"{data_copy / 'rites.tsv'}:")):
        load_index(settings, calibrate=calibrate)


# ── leftovers of killed builds ───────────────────────────────────────────────────────────────


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_leftover_build_folders_are_removed_unless_their_build_is_alive(built, caplog):
    parent, dead = built.index_dir.parent, _dead_pid()
    folders = {
        "dead": parent / f".index.building-{dead}-k2j4h1x0",
        "dead_old": parent / f".index.old-{dead}-1733000000000000000",
        "live": parent / f".index.building-{os.getpid()}-a8d7f6g5",  # a concurrent build of this process
        "legacy_young": parent / ".index.building-q1w2e3r4",  # no pid (older versions): kept a day
        "legacy_old": parent / ".index.building-zz9kq0_a",
        "other_index": parent / f".index2.building-{dead}-abcdefgh",
    }
    for path in folders.values():
        path.mkdir()
        (path / "units.jsonl").write_text("")
    two_days_ago = time.time() - 2 * 86400
    os.utime(folders["legacy_old"], (two_days_ago, two_days_ago))
    with caplog.at_level(logging.WARNING, logger="qa.indexing.store"):
        build_index(built)
    left = {k for k, p in folders.items() if p.exists()}
    assert left == {"live", "legacy_young", "other_index"}
    assert f"process {dead} is gone" in caplog.text and "left by a build that did not finish" in caplog.text
    load_index(built, build=False)


def test_a_killed_build_leaves_a_folder_named_for_its_process_and_the_next_build_removes_it(built, monkeypatch):
    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # stands in for SIGKILL: below, the cleanup does not run either

    monkeypatch.setattr(index_store, "_swap_into_place", killed)
    monkeypatch.setattr(index_store.shutil, "rmtree", lambda *a, **k: None)
    with pytest.raises(KeyboardInterrupt):
        build_index(built)
    monkeypatch.undo()
    leftover = list(built.index_dir.parent.glob(".index.building-*"))
    assert [p.name.split("-")[1] for p in leftover] == [str(os.getpid())]
    build_index(built)
    assert leftover[0].exists()  # its process (this one) still runs: it may be a concurrent build
    monkeypatch.setattr(index_store, "_pid_alive", lambda pid: pid != os.getpid())
    build_index(built)
    assert not leftover[0].exists()
