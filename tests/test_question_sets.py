"""The evaluation question sets (tests/data/questions): their gold still matches the parse.

Every gold entry names a unit by a piece of its 經 and a span of its commentary; a change in how
the parser cuts units would silently turn right answers into misses in ``qa eval``. This runs
``check_gold.py`` on every set against the units the project's parser makes today.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SETS = Path(__file__).parent / "data" / "questions"


def _check_gold():
    spec = importlib.util.spec_from_file_location("check_gold", SETS / "check_gold.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_question_set_has_gold_that_picks_out_one_parsed_unit():
    gold = _check_gold()
    files = gold.question_sets()
    assert {"real_dev.jsonl", "real_test.jsonl", "real_dev3.jsonl", "real_test3.jsonl", "offtopic3.jsonl"} <= {f.name for f in files}
    n, problems = gold.check(files, gold.parsed_units())
    assert problems == []
    assert n >= 750


def test_the_check_catches_a_gold_span_the_unit_does_not_hold(tmp_path):
    gold = _check_gold()
    row = (SETS / "real_dev3.jsonl").read_text(encoding="utf-8").splitlines()[0]
    bad = tmp_path / "bad.jsonl"
    q = json.loads(row)
    q["evidence"] = "此句不在任何注疏之中"
    bad.write_text(json.dumps(q, ensure_ascii=False) + "\n", encoding="utf-8")
    n, problems = gold.check([bad], gold.parsed_units())
    assert n == 1 and problems
