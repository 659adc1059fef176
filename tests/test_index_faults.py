"""Index faults at the doors: a full disk while building, an unreadable index, a damaged calibration — one line each."""

from __future__ import annotations

import errno
import json
import re

import pytest
from conftest import make_settings

from qa import IndexStoreError, Retriever
from qa.cli import main as cli_main
from qa.indexing import store
from qa.indexing.dense import DenseIndex
from qa.retrieval.confidence import Calibration, calibrate


@pytest.fixture
def built(tmp_path):
    settings = make_settings(tmp_path / "index")
    store.build_index(settings, calibrate=calibrate)
    return settings


def _leftovers(settings):
    return sorted(p.name for p in settings.index_dir.parent.iterdir() if p.name.startswith("."))


def test_a_full_disk_while_building_is_one_line_and_keeps_the_old_index(built, monkeypatch):
    before = (built.index_dir / "manifest.json").read_bytes()

    def full(self, path):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(DenseIndex, "save", full)
    with pytest.raises(IndexStoreError, match="No space left on device; the previous index is unchanged") as info:
        store.build_index(built, calibrate=calibrate)
    assert "\n" not in str(info.value)
    assert (built.index_dir / "manifest.json").read_bytes() == before and _leftovers(built) == []


def test_a_safetensors_error_while_building_is_one_line(built, monkeypatch):
    class SafetensorError(Exception):  # what safetensors raises when the encoder cannot be written
        pass

    def fail(self, path):
        raise SafetensorError("Error while serializing: IoError(Os { code: 28, kind: StorageFull })")

    monkeypatch.setattr(DenseIndex, "save", fail)
    with pytest.raises(IndexStoreError, match="StorageFull"):
        store.build_index(built, calibrate=calibrate)


def test_an_unreadable_index_folder_is_one_line(built, monkeypatch, capsys):
    def denied(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(store, "sha256_file", denied)
    with pytest.raises(IndexStoreError, match="Permission denied"):
        store.load_index(built, build=False, calibrate=calibrate)
    args = ["--seeds-dir", str(built.seeds_dir), "--index-dir", str(built.index_dir), "--model", built.model]
    assert cli_main([*args, "ask", "賓為什麼說旨？"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Permission denied" in err and "Traceback" not in err


@pytest.mark.parametrize("confidence", [[1, 2], "calibrated", 3, {"version": 2, "dense_min": "high"}])
def test_a_damaged_calibration_is_rebuilt_or_named(built, confidence):
    path = built.index_dir / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    good = manifest["confidence"]
    manifest["confidence"] = confidence
    path.write_text(json.dumps(manifest), encoding="utf-8")
    assert Calibration.from_manifest(manifest) is None
    with pytest.raises(IndexStoreError, match=re.escape("index needs a rebuild: ") + "(no confidence calibration|confidence calibration damaged)"):
        Retriever.load(settings=built.replace(auto_build=False))
    r = Retriever.load(settings=built)  # rebuilt, not an AttributeError
    assert r.manifest["confidence"] == good
