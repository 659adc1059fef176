#!/usr/bin/env python3
"""Verify the gold of the real-user question sets against the parsed corpus.

Usage:
    .venv/bin/python tests/data/questions/check_gold.py [--units units.jsonl] [files...]

Without ``--units`` the seeds are parsed with the project's own parser (``qa.corpus.load``),
so the gold is checked against the units the system retrieves today; without files, every
question set of this folder is checked together (duplicate ids and questions across them
included). ``tests/test_question_sets.py`` runs the same check.

For every answerable question (and every entry in its ``also`` list) it checks that
exactly one unit of ``source_file`` has a 經 containing the normalized ``jing`` and holds
the normalized ``evidence`` in the stated ``layer`` (經 / 注 / 疏 / 析疑; an ``also`` entry
may carry its own ``layer``, else the question's), and that no other unit's 經 contains
the ``jing`` unless that unit is itself one of the question's gold units.
Normalization follows /work/shared/eval/README.md: drop whitespace, punctuation, symbols
and private-use characters (U+E000-U+F8FF), OpenCC t2s, fold 於 to 于.  The t2s step is
applied both per character (as the project's matcher does) and to the whole string; the
gold must pass under both.  It also checks ids, required fields, langs and kinds, and
for offtopic.jsonl the id/question/lang/kind fields.  Exit status 1 on any problem.
"""
from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path

import opencc

HERE = Path(__file__).resolve().parent
_CC = opencc.OpenCC("t2s")
LANGS = {"zh-Hant", "zh-Hans", "lzh", "en"}
KINDS = {"classical", "colloquial", "definition", "english", "layer", "why", "where",
         "number", "sequence", "followup"}
OFF_KINDS = {"offtopic", "other_rite"}
LAYERS = {"經", "注", "疏", "析疑"}
REQUIRED = ["id", "question", "lang", "kind", "source_file", "jing", "evidence", "layer", "answer"]


def _strip(text: str) -> str:
    out = []
    for ch in text:
        if 0xE000 <= ord(ch) <= 0xF8FF:
            continue
        ch = unicodedata.normalize("NFKC", ch)
        if any(unicodedata.category(c)[0] in "PSZC" for c in ch):
            continue
        out.append(ch)
    return "".join(out)


def norm_whole(text: str) -> str:
    return _CC.convert(_strip(text)).replace("於", "于")


def norm_char(text: str) -> str:
    return "".join(_CC.convert(c) for c in _strip(text)).replace("於", "于")


NORMS = (norm_char, norm_whole)


def layer_texts(unit: dict) -> dict[str, str]:
    return {
        "經": unit.get("jing") or "",
        "注": unit.get("zhu") or "",
        "疏": "\n".join((p.get("text") or "") for p in unit.get("shu") or []),
        "析疑": "\n".join([unit.get("xiyi") or ""] + list(unit.get("notes") or [])),
    }


def _gold_ids(units_by_src, entries) -> set[str]:
    """Ids of the units that the question's ``also`` entries point at (jing + evidence anywhere)."""
    ids = set()
    for src, jing, evidence in entries:
        nj, ne = norm_char(jing), norm_char(evidence)
        for u in units_by_src.get(src, []):
            if nj in norm_char(u.get("jing") or "") and ne in norm_char("\n".join(layer_texts(u).values())):
                ids.add(u["id"])
    return ids


def check_entry(units_by_src, src, jing, evidence, layer, label, also_ids) -> list[str]:
    problems = []
    units = units_by_src.get(src)
    if units is None:
        return [f"{label}: unknown source_file {src!r}"]
    if layer not in LAYERS:
        problems.append(f"{label}: bad layer {layer!r}")
        return problems
    for norm in NORMS:
        nj, ne = norm(jing), norm(evidence)
        if not nj or not ne:
            problems.append(f"{label}: empty jing/evidence after normalization")
            break
        by_jing = [u for u in units if nj in norm(u.get("jing") or "")]
        good = [u for u in by_jing if ne in norm(layer_texts(u)[layer])]
        if len(good) != 1:
            problems.append(f"{label} [{norm.__name__}]: {len(good)} units match jing+evidence in {layer} "
                            f"(jing matches {[u['id'] for u in by_jing]})")
            break
        others = [u['id'] for u in by_jing if u is not good[0] and u['id'] not in (also_ids or ())]
        if others:
            problems.append(f"{label} [{norm.__name__}]: jing not unique: also in {others}; lengthen it")
            break
    return problems


def parsed_units(seeds: Path = HERE.parents[2] / "seeds") -> dict[str, list[dict]]:
    """The units of the project's parser, as ``qa units --json`` writes them, by source file."""
    from qa.corpus.load import load_corpus

    out: dict[str, list[dict]] = {}
    for unit in load_corpus(seeds).units:
        d = unit.to_dict()
        out.setdefault(d["source"], []).append(d)
    return out


def read_units(path: Path) -> dict[str, list[dict]]:
    """Units dumped as JSON lines (``qa units --json``), by source file."""
    out: dict[str, list[dict]] = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            u = json.loads(line)
            out.setdefault(u["source"], []).append(u)
    return out


def question_sets() -> list[Path]:
    """Every question set of this folder (probe.jsonl is a scratch list of probes, not a set)."""
    return sorted(p for p in HERE.glob("*.jsonl") if p.name != "probe.jsonl")


def check(files: list[Path], units_by_src: dict[str, list[dict]]) -> tuple[int, list[str]]:
    """(questions checked, problems) for the question files ``files``."""
    problems: list[str] = []
    seen_ids: set[str] = set()
    seen_q: set[str] = set()
    n = 0
    for path in files:
        if not path.exists():
            problems.append(f"{path}: missing")
            continue
        for i, line in enumerate(open(path, encoding="utf-8"), 1):
            if not line.strip():
                continue
            n += 1
            q = json.loads(line)
            label = f"{path.name}:{i}:{q.get('id')}"
            if q.get("id") in seen_ids:
                problems.append(f"{label}: duplicate id")
            seen_ids.add(q.get("id"))
            if q.get("question") in seen_q:
                problems.append(f"{label}: duplicate question")
            seen_q.add(q.get("question"))
            if q.get("lang") not in LANGS:
                problems.append(f"{label}: bad lang {q.get('lang')!r}")
            if q.get("kind") in OFF_KINDS:
                if set(q) - {"id", "question", "lang", "kind"}:
                    problems.append(f"{label}: off-topic entry has extra fields {sorted(set(q))}")
                continue
            missing = [k for k in REQUIRED if not q.get(k)]
            if missing:
                problems.append(f"{label}: missing {missing}")
                continue
            if q["kind"] not in KINDS:
                problems.append(f"{label}: bad kind {q['kind']!r}")
            if "history" in q and not (isinstance(q["history"], list) and all(isinstance(h, str) for h in q["history"])):
                problems.append(f"{label}: history must be a list of strings")
            entries = [(q["source_file"], q["jing"], q["evidence"])] + [
                (a["source_file"], a["jing"], a["evidence"]) for a in q.get("also") or []]
            gold_ids = _gold_ids(units_by_src, entries)
            problems += check_entry(units_by_src, q["source_file"], q["jing"], q["evidence"], q["layer"], label, gold_ids)
            for j, a in enumerate(q.get("also") or []):
                problems += check_entry(units_by_src, a["source_file"], a["jing"], a["evidence"],
                                        a.get("layer", q["layer"]), f"{label}/also{j}", gold_ids)
    return n, problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=Path, help="units as JSON lines (default: parse seeds/ with qa.corpus.load)")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    units_by_src = read_units(args.units) if args.units else parsed_units()
    files = [Path(f) for f in args.files] or question_sets()
    n, problems = check(files, units_by_src)
    for p in problems:
        print("PROBLEM", p)
    print(f"checked {n} questions in {len(files)} files: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
