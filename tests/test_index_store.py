"""qa.indexing.store: atomic builds, manifest checks, rebuilds when stale, clear errors when damaged."""

from __future__ import annotations

import json
import logging
import shutil

import numpy as np
import pytest

from qa.indexing import store as index_store
from qa.cli import main as qa_main
from qa.errors import EncoderError, IndexStoreError
from qa.indexing.store import build_index, load_index, read_manifest

from conftest import RETRIEVAL_SEEDS, make_settings


@pytest.fixture
def seeds(tmp_path):
    """A private copy of the excerpt seeds, so a test may change them."""
    return shutil.copytree(RETRIEVAL_SEEDS, tmp_path / "seeds")


@pytest.fixture
def built(tmp_path, seeds):
    settings = make_settings(tmp_path / "index", seeds_dir=seeds)
    build_index(settings)
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
    assert m["normalizer_version"] and len(m["corpus_hash"]) == 64 and m["built_at"]
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
        ({"normalizer_version": "0"}, "normalizer changed"),
        ({"format_version": 0}, "index format changed"),
        ({"corpus_hash": "0" * 64}, "seed texts or catalog changed"),
    ],
)
def test_manifest_mismatch_rebuilds_or_says_why(built, change, reason, caplog):
    _edit_manifest(built, **change)
    with pytest.raises(IndexStoreError, match=reason):
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
