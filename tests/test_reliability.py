"""Reliability under faults: a damaged, deleted or stale index is rebuilt or reported clearly; a failed build keeps the old one.

Every test works on a real index (two real seed files, the deterministic hashing encoder)
copied into a temporary directory, damages it "while stopped", then starts again.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SMALL_REAL_SEED_NAMES, copy_real_seeds

from qa.errors import IndexStoreError, QAError
from qa.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
#: Two small real seed files (燕禮), so a rebuild takes a second or two.
SEED_NAMES = SMALL_REAL_SEED_NAMES
PROBE = "公降一等揖賓"  # a 經 phrase of 燕禮 every build must still find


def make_settings(seeds: Path, index: Path, **kw) -> Settings:
    return Settings.from_env({}, seeds_dir=seeds, index_dir=index, model="hashing", **kw)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(seeds dir, a freshly built index dir) shared read-only by the tests; each test copies the index."""
    from qa.indexing.store import build_index
    from qa.retrieval.confidence import calibrate

    base = tmp_path_factory.mktemp("reliability")
    seeds = copy_real_seeds(base / "seeds")
    index = base / "index"
    build_index(make_settings(seeds, index), calibrate=calibrate)
    return seeds, index


@pytest.fixture
def env(built, tmp_path) -> tuple[Path, Path]:
    """A private copy of the built index (and its seeds) this test may damage."""
    seeds_src, index_src = built
    seeds = tmp_path / "seeds"
    shutil.copytree(seeds_src, seeds)
    index = tmp_path / "index"
    shutil.copytree(index_src, index)
    return seeds, index


def load(seeds: Path, index: Path, **kw):
    from qa import Retriever

    return Retriever.load(settings=make_settings(seeds, index, **kw))


def index_files(index: Path) -> list[str]:
    return sorted(p.relative_to(index).as_posix() for p in index.rglob("*") if p.is_file())


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "delete":
        path.unlink()
    elif how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garble":
        mid = len(data) // 2
        path.write_bytes(data[:mid] + bytes(b ^ 0x5A for b in data[mid : mid + 64]) + data[mid + 64 :])
    else:  # pragma: no cover
        raise ValueError(how)


def assert_healthy(r) -> None:
    hits = r.search(PROBE, k=3)
    assert hits and any("公降一等" in h.unit.jing for h in hits)


def test_the_fixture_index_is_complete(built):
    _, index = built
    files = index_files(index)
    for name in ("manifest.json", "units.jsonl", "passages.jsonl", "dense.faiss"):
        assert name in files
    assert any(f.startswith("lexical/") for f in files)


FAULTS = ("delete", "truncate", "empty", "garble")


@pytest.mark.parametrize("how", FAULTS)
@pytest.mark.parametrize("target", ["manifest.json", "units.jsonl", "passages.jsonl", "dense.faiss", "lexical"])
def test_damaged_index_is_rebuilt_on_next_start(env, target: str, how: str):
    seeds, index = env
    paths = [index / target] if (index / target).is_file() else sorted(p for p in (index / target).rglob("*") if p.is_file())
    assert paths, f"{target} not in the index"
    for p in paths:
        damage(p, how)
    # every case rebuilds, a deleted manifest too: the directory holds only the index's own files
    r = load(seeds, index)
    assert_healthy(r)
    # the rebuilt index is whole again: a second start opens it without rebuilding
    manifest = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
    r2 = load(seeds, index, auto_build=False)
    assert r2.manifest["built_at"] == manifest["built_at"]
    assert_healthy(r2)


@pytest.mark.parametrize("how", FAULTS)
@pytest.mark.parametrize("target", ["manifest.json", "units.jsonl", "dense.faiss", "lexical"])
def test_damaged_index_without_auto_build_says_why(env, target: str, how: str):
    seeds, index = env
    paths = [index / target] if (index / target).is_file() else sorted(p for p in (index / target).rglob("*") if p.is_file())
    for p in paths:
        damage(p, how)
    with pytest.raises(IndexStoreError) as info:
        load(seeds, index, auto_build=False)
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 400
    assert "qa build" in msg or "rebuild" in msg, msg


def test_changed_seeds_are_rebuilt(env):
    seeds, index = env
    old = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
    path = seeds / SEED_NAMES[0]
    text = path.read_text(encoding="utf-8")
    assert "公降一等" in text
    # a scholar's correction: one 經 phrase changes in the seed file
    path.write_text(text.replace("公降一等", "公降二等", 1), encoding="utf-8")
    r = load(seeds, index)
    assert r.manifest["corpus_hash"] != old["corpus_hash"]
    assert any("公降二等" in u.jing for u in r.units)
    hits = r.search("公降二等", k=3)
    assert hits and "公降二等" in hits[0].unit.jing


def test_changed_seeds_without_auto_build_say_so(env):
    seeds, index = env
    path = seeds / SEED_NAMES[1]
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(IndexStoreError, match="seed"):
        load(seeds, index, auto_build=False)


def test_failed_build_keeps_the_previous_index(env, tmp_path):
    from qa.indexing.store import build_index

    seeds, index = env
    before = {f: (index / f).read_bytes() for f in index_files(index)}
    # the build gets as far as loading the encoder, which does not exist: it fails midway
    bad = make_settings(seeds, index).replace(model=str(tmp_path / "no-such-model"))
    with pytest.raises(QAError) as info:
        build_index(bad)
    assert "\n" not in str(info.value).strip()
    assert {f: (index / f).read_bytes() for f in index_files(index)} == before
    leftovers = [p.name for p in index.parent.iterdir() if p.name.startswith(f".{index.name}.")]
    assert leftovers == [], f"temporary build directories left behind: {leftovers}"
    assert_healthy(load(seeds, index, auto_build=False))


def test_unwritable_index_location_is_a_clear_error(env, tmp_path):
    seeds, _ = env
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(IndexStoreError) as info:
        load(seeds, blocker / "index")
    assert "\n" not in str(info.value) and "index" in str(info.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only directories")
def test_read_only_parent_is_a_clear_error(env, tmp_path):  # pragma: no cover - CI runs as root
    seeds, _ = env
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(IndexStoreError):
            load(seeds, ro / "index")
    finally:
        ro.chmod(0o755)


def test_refuses_to_replace_a_directory_that_is_not_an_index(env, tmp_path):
    seeds, _ = env
    target = tmp_path / "precious"
    target.mkdir()
    (target / "thesis.txt").write_text("do not delete")
    with pytest.raises(IndexStoreError):
        load(seeds, target)
    assert (target / "thesis.txt").read_text() == "do not delete"


@pytest.mark.slow
def test_cli_ask_survives_a_truncated_index(env):
    seeds, index = env
    damage(index / "dense.faiss", "truncate")
    proc = subprocess.run(
        [sys.executable, "-m", "qa", "--seeds-dir", str(seeds), "--index-dir", str(index), "--model", "hashing",
         "ask", "--json", PROBE],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    row = json.loads(proc.stdout)
    assert row["hits"] and not row["error"]


@pytest.mark.slow
def test_cli_reports_a_damaged_index_in_one_line_when_rebuild_is_off(env):
    seeds, index = env
    damage(index / "units.jsonl", "garble")
    proc = subprocess.run(
        [sys.executable, "-m", "qa", "--seeds-dir", str(seeds), "--index-dir", str(index), "--model", "hashing",
         "ask", PROBE],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, "QA_AUTO_BUILD": "false"},
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if "error" in ln]
    assert len(errors) == 1 and "units.jsonl" in errors[0], proc.stderr
