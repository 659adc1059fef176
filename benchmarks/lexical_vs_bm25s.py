"""Why the lexical index is hand-written: the same passages, tokens and queries through bm25s and qa.indexing.lexical.

bm25s is a fine general BM25 library, and the project used to declare it without importing it.
This benchmark gives it the same character uni+bigram tokens of the same passages and the same
questions, and prints build time, query p50/p95 and top-10 agreement (the share of bm25s's top 10
passages that the project's index also ranks in its top 10). The project's index differs on
purpose: query-side token weights (glossary expansions and follow-up context weigh less), per-layer
weights, rite and commentator boosts, each passage scored in its unit's context, and exact pruning.
Those cannot be expressed through bm25s's query API (a bag of tokens), which is why it stays
hand-written; bm25s remains a dependency of the naive baselines only (the `baselines` extra).

    python -m benchmarks.lexical_vs_bm25s [--units 20000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks._common import DEV_QUESTIONS, load_questions
from benchmarks.synth import real_units, synth_units


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=0, help="synthetic units to add to the real corpus (0: the real corpus)")
    args = ap.parse_args(argv)

    import bm25s
    import numpy as np

    from qa.indexing.lexical import LexicalIndex, query_weights
    from qa.indexing.lexical_build import passage_tokens
    from qa.indexing.passages import make_passages
    from qa.retrieval.query import analyze

    base = real_units()
    units = tuple(base) + (tuple(synth_units(base, args.units)) if args.units else ())
    passages = make_passages(units)
    questions = [q.question for q in load_questions(DEV_QUESTIONS)]
    queries = [analyze(q) for q in questions]

    t0 = time.perf_counter()
    ours = LexicalIndex.build(passages)
    ours_build = time.perf_counter() - t0

    t0 = time.perf_counter()
    corpus_tokens = [passage_tokens(p.text) or ["\u0000"] for p in passages]
    bm = bm25s.BM25(k1=1.2, b=0.75)
    bm.index(corpus_tokens, show_progress=False)
    bm_build = time.perf_counter() - t0

    ours_t, bm_t, agree = [], [], []
    for q in queries:
        toks = list(query_weights(q)) or ["\u0000"]
        t0 = time.perf_counter()
        mine = [pid for pid, _ in ours.search(q, 10)]
        ours_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        docs, _ = bm.retrieve([toks], k=10, show_progress=False)
        bm_t.append(time.perf_counter() - t0)
        theirs = [int(x) for x in np.asarray(docs)[0]]
        agree.append(len(set(mine) & set(theirs)) / 10)

    print(f"{len(units)} units, {len(passages)} passages, {len(queries)} questions (dev set)")
    print("| index | build s | query p50 ms | query p95 ms |")
    print("|---|---|---|---|")
    print(f"| qa.indexing.lexical | {ours_build:.2f} | {_p(ours_t, .5):.2f} | {_p(ours_t, .95):.2f} |")
    print(f"| bm25s (same tokens) | {bm_build:.2f} | {_p(bm_t, .5):.2f} | {_p(bm_t, .95):.2f} |")
    print(f"top-10 agreement (share of bm25s's top 10 also in ours): mean {statistics.mean(agree):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
