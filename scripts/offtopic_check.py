"""Off-topic check: run a question file's off-topic / other-rite questions through Retriever.ask and count what is flagged.

    PYTHONPATH=. python scripts/offtopic_check.py tests/data/questions/offtopic.jsonl [-v]

A question counts as flagged when the answer says no passage answers it (``found`` is False)
or, for a rite the corpus lacks, when the answer carries a scope notice.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from qa import Retriever


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.file, encoding="utf-8") if line.strip()]
    r = Retriever.load()
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        a = r.ask(row["question"])
        notice = bool(getattr(a, "notice", ""))
        flagged = (not a.found) or notice
        k = by_kind[row.get("kind", "")]
        k[0] += 1
        k[1] += int(not a.found)
        k[2] += int(flagged)
        if args.verbose:
            print(f"{row['id']}\t{'FLAG' if flagged else 'ok  '}\tfound={a.found}\tnotice={notice}\t{row['question']}")
    tot = [sum(v[i] for v in by_kind.values()) for i in range(3)]
    for kind, (n, nf, fl) in sorted(by_kind.items()):
        print(f"{kind:12s} n={n:3d}  not-found {nf / n:.3f}  flagged (not-found or notice) {fl / n:.3f}")
    print(f"{'overall':12s} n={tot[0]:3d}  not-found {tot[1] / tot[0]:.3f}  flagged (not-found or notice) {tot[2] / tot[0]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
