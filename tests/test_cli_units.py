"""qa units: --json (one object per unit, all fields), --stats (counts, inferred, warnings, alignments)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from qa.cli import main
from qa.corpus.units import LemmaUnit

ROOT = Path(__file__).resolve().parent.parent
SEEDS = str(ROOT / "seeds")
MINI = str(ROOT / "tests" / "data" / "mini")


def test_json_prints_one_object_per_unit(capsys):
    assert main(["--seeds-dir", SEEDS, "units", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 297
    keys = {f.name for f in fields(LemmaUnit)}
    units = [json.loads(line) for line in lines]
    assert all(set(u) == keys for u in units)
    first = next(u for u in units if u["id"] == "zhushu.yan.a001")
    assert first["jing"] == "司宮兼卷重席，設於賓左，東上。" and first["lines"] == [1, 2]
    assert first["shu"][0]["on"] == "經" and "xiyi.yan.037" in first["related"]
    assert LemmaUnit.from_dict(first).to_dict() == first


def test_json_prefix_filter(capsys):
    assert main(["--seeds-dir", SEEDS, "units", "--json", "--prefix", "zhushu.yan.a"]) == 0
    ids = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert ids == [f"zhushu.yan.a{i:03d}" for i in range(1, 18)]


def test_stats(capsys):
    assert main(["--seeds-dir", SEEDS, "units", "--stats"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("units: 297 from 4 files")
    assert "000_cb0ccdf07e5071ea.txt (仪礼析疑 燕禮): 84 units; 經 74 記 10;" in out
    assert "002_3cbadc02700f2718.txt (儀禮注疏 燕禮): 17 units; 經 17;" in out
    assert "by section: 經 " in out and "by layer (units with text): jing " in out
    assert "  zhushu.yan.a004 002_3cbadc02700f2718.txt:7-7\n" in out  # an inferred boundary
    assert "\nwarnings: " in out and "001_5405e21dc12de2db.txt:155: " in out
    assert "alignments: 21 of 83 析疑 lemmas linked to a 注疏 unit" in out


def test_plain_listing_on_mini_corpus(capsys):
    assert main(["--seeds-dir", MINI, "units"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("xiyi.yan.000\t經\t000_mini.txt:5-5\t")
    assert any(line.startswith("zhushu.xiangyin.") for line in out)


def test_bad_seed_dir_is_one_line_error(capsys, tmp_path):
    assert main(["--seeds-dir", str(tmp_path), "units", "--stats"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qa units: error: ") and "catalog" in err and len(err.strip().splitlines()) == 1
