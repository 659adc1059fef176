"""qa units: list the lemma units parsed from the seeds, as JSON lines or corpus statistics."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import TextIO

from ..corpus.load import Corpus, load_corpus
from ..corpus.units import LAYERS
from ..settings import Settings

XIYI_WORK = "仪礼析疑"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="one JSON object per unit (all LemmaUnit fields)")
    mode.add_argument("--stats", action="store_true", help="counts by file, section and layer; inferred boundaries; warnings; alignments")
    parser.add_argument("--prefix", default="", help="only units whose id starts with this (e.g. zhushu.yan)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    corpus = load_corpus(settings.seeds_dir)
    out = sys.stdout
    if args.stats:
        write_stats(corpus, out)
        return 0
    for unit in corpus.units:
        if not unit.id.startswith(args.prefix):
            continue
        if args.json:
            out.write(json.dumps(unit.to_dict(), ensure_ascii=False) + "\n")
        else:
            preview = unit.jing or unit.xiyi
            out.write(f"{unit.id}\t{unit.section}\t{unit.source}:{unit.lines[0]}-{unit.lines[1]}\t{preview[:30]}\n")
    return 0


def write_stats(corpus: Corpus, out: TextIO) -> None:
    """The corpus figures ``qa units --stats`` prints (plain text, one fact a line)."""
    units = corpus.units
    out.write(f"units: {len(units)} from {len(corpus.files)} files (corpus {corpus.corpus_hash[:12]})\n")
    out.write("by file:\n")
    for seed in corpus.files:
        mine = [u for u in units if u.source == seed.name]
        sections = Counter(u.section for u in mine)
        layers = {name: sum(1 for u in mine if getattr(u, name) if name != "shu") for name in LAYERS}
        layers["shu"] = sum(1 for u in mine if u.shu)
        layers["notes"] = sum(1 for u in mine if u.notes)
        n_inferred = sum(1 for u in mine if u.boundary == "inferred")
        n_recovered = sum(1 for u in mine if u.boundary == "recovered")
        out.write(
            f"  {seed.name} ({seed.work} {seed.rite}): {len(mine)} units; "
            + " ".join(f"{s} {n}" for s, n in sorted(sections.items()))
            + "; with "
            + " ".join(f"{k} {v}" for k, v in layers.items())
            + f"; inferred {n_inferred}; recovered {n_recovered}\n"
        )
    totals = Counter(u.section for u in units)
    out.write("by section: " + " ".join(f"{s} {n}" for s, n in sorted(totals.items())) + "\n")
    layer_totals = {name: sum(1 for u in units if u.layer_texts.get(name)) for name in LAYERS}
    out.write("by layer (units with text): " + " ".join(f"{k} {v}" for k, v in layer_totals.items()) + "\n")
    inferred = [u for u in units if u.boundary == "inferred"]
    out.write(f"inferred boundaries: {len(inferred)}\n")
    for u in inferred:
        out.write(f"  {u.id} {u.source}:{u.lines[0]}-{u.lines[1]}\n")
    recovered = [u for u in units if u.boundary == "recovered"]
    out.write(f"recovered (經/注 displaced into another layer's line, given a unit of their own): {len(recovered)}\n")
    for u in recovered:
        out.write(f"  {u.id} {u.source}:{u.lines[0]}-{u.lines[1]} 經「{u.jing}」 注「{u.zhu}」\n")
    out.write(f"warnings: {len(corpus.warnings)}\n")
    for w in corpus.warnings:
        out.write(f"  {w}\n")
    lemmas = [u for u in units if u.work == XIYI_WORK and u.jing]
    linked = [u for u in lemmas if u.related]
    links = sum(len(u.related) for u in units) // 2
    out.write(f"alignments: {len(linked)} of {len(lemmas)} 析疑 lemmas linked to a 注疏 unit; {links} links in all\n")
