"""False "no passage" on lay questions: ask every question of ``tests/data/lay_probe.tsv`` and count the refusals.

    PYTHONPATH=$PWD .venv/bin/python scripts/lay_probe.py [-v]

The probe's questions were written from the units' own texts, four per unit: lay English, simplified Chinese,
Taiwanese / Hong Kong traditional Chinese and a classical prompt (see the file's header): each is answerable by
construction, so every "no passage" is a false one. Printed per language: questions, told "no passage", and the gold
unit's hit@1 / hit@5 (the probe has no evidence spans). A development probe: the confidence rule (fourteenth round),
the Cantonese scaffolding and the bare 燕 (seventeenth) were tuned on it; the held-out sets stay the measure.
"""

from __future__ import annotations

import argparse
import logging
from collections import defaultdict
from pathlib import Path

from qa import Retriever

PROBE = Path(__file__).resolve().parents[1] / "tests" / "data" / "lay_probe.tsv"

log = logging.getLogger("lay_probe")


def read_probe(path: Path = PROBE) -> list[tuple[str, str, str]]:
    """(unit id, lang, question) rows of the probe, comment lines skipped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            unit_id, lang, question = line.split("\t")
            rows.append((unit_id, lang, question))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="list the refused questions")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = read_probe()
    retriever = Retriever.load()
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for unit_id, lang, question in rows:
        answer = retriever.ask(question)
        ids = [hit.unit.id for hit in answer.hits]
        rank = ids.index(unit_id) + 1 if unit_id in ids else 0
        c = counts[lang]
        c[0] += 1
        c[1] += not answer.found
        c[2] += rank == 1
        c[3] += 0 < rank <= 5
        if args.verbose and not answer.found:
            log.info("no passage\t%s\t%s", unit_id, question)
    for lang, (n, refused, h1, h5) in sorted(counts.items()):
        log.info("%-8s n=%4d  told no passage %3d (%.3f)  unit hit@1 %.3f  hit@5 %.3f", lang, n, refused, refused / n, h1 / n, h5 / n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
