"""Train the learned re-ranker (qa/retrieval/rerank.py) on the development questions, cross-validated, and write its weights.

    PYTHONPATH=$PWD .venv/bin/python scripts/train_rerank.py                       # CV report only
    PYTHONPATH=$PWD .venv/bin/python scripts/train_rerank.py --write qa/data/rerank.tsv

Each question of the files (default: the shared development set and every
``tests/data/questions/real_dev*.jsonl``; never a held-out ``real_test*``) is asked through
the one ask pipeline (follow-ups with their ``history``); the re-ranker's input (the fused
candidates, each retriever's rank and score, the idf, the hand re-ranker's order) is recorded,
and every candidate of the fused top ``DEPTH`` becomes a row of
:data:`qa.retrieval.rerank.MODEL_FEATURES`, labelled by the eval rule
(:meth:`qa.evaluate.Gold.matches`). A follow-up that carries its turn's context keeps the hand
order (the pipeline does not ask the model about it) and is not trained on. A linear model is fitted on pairs (a gold unit above a
non-gold one of the same question; pairwise logistic loss, each question weighing the same,
L2 on standardized features) by Newton's method in numpy.

Reported: hit@1 / hit@5 / MRR (k=10) of the hand re-ranker and of the learned one, each
question scored by a model not trained on it. With several files the folds are the files
(leave one question set out: the sets were written by different people at different times,
so a fold is a set the model never saw); with one, ``--folds`` random folds (fixed ``--seed``).
Per L2 strength, and nested (the strength chosen by an inner CV on the training folds only,
the honest figure). ``--write`` fits on every question with the strength the CV chose and
writes the weights on the raw feature scale (what :func:`qa.retrieval.rerank.learned_model` reads).
"""

from __future__ import annotations

import argparse
import datetime
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from unittest.mock import patch

import numpy as np

import qa.retrieval.retriever as retriever_module
from qa import Retriever
from qa.evaluate import Question, read_questions
from qa.retrieval.rerank import DEPTH, MODEL_FEATURES, model_features

log = logging.getLogger("train_rerank")

#: L2 strengths tried (on standardized features; the loss is a mean over questions).
LAMBDAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
#: Ranks counted (as ``qa eval``'s default k).
K = 10
NEWTON_STEPS = 50


@dataclass(frozen=True)
class Sample:
    """One question's candidates: features of the head, gold labels, and the hand re-ranker's order."""

    qid: str
    lang: str
    kind: str
    x: np.ndarray  # (n_head, F)
    gold: np.ndarray  # (n_head,) bool
    tail_gold_rank: int  # 1-based rank of the first gold unit below the head (0: none)
    hand_rank: int  # rank of the first gold unit under the hand re-ranker (0: not in the list)
    follow_up: bool = False  # a follow-up carrying context: the hand order answers it (not trained on)


def record(retriever: Retriever, questions: list[Question]) -> list[Sample]:
    """Ask every question, recording the re-ranker's input, and build its samples."""
    calls: list[tuple] = []
    original = retriever_module.rerank

    def recorder(query, fused, idf=None, *, evidence=None, learned=None, before=None):  # type: ignore[no-untyped-def]
        out = original(query, fused, idf, evidence=evidence, learned=False, before=before)
        calls.append((query, list(fused), idf, evidence, out))
        return out

    samples = []
    with patch.object(retriever_module, "rerank", recorder):  # the recorder asks the hand order of the original
        for q in questions:
            calls.clear()
            answer = retriever.ask(q.question, k=K, history=q.history)
            ids = [h.unit.id for h in answer.hits]
            # the call that made the answer's hits (a follow-up also searches its history)
            match = [c for c in calls if [u.id for u, _ in c[4][: len(ids)]] == ids]
            if not match:
                log.warning("%s: no recorded search gave the answer's hits; skipped", q.id)
                continue
            query, fused, idf, evidence, hand = match[-1]
            head, tail = fused[:DEPTH], fused[DEPTH:]
            x = model_features(query, head, idf, evidence, hand[:DEPTH])
            gold = np.array([any(g.matches(u) for g in q.gold) for u, _ in head], dtype=bool)
            tail_rank = next((DEPTH + i for i, (u, _) in enumerate(tail, 1) if any(g.matches(u) for g in q.gold)), 0)
            hand_rank = next((i for i, (u, _) in enumerate(hand, 1) if any(g.matches(u) for g in q.gold)), 0)
            samples.append(Sample(q.id, q.lang, q.kind, x, gold, tail_rank, hand_rank, bool(query.context)))
    return samples


def rank_of(sample: Sample, scores: np.ndarray) -> int:
    """1-based rank of the first gold unit when the head is ordered by ``scores`` (ties: fused order)."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    for r, i in enumerate(order, 1):
        if sample.gold[i]:
            return r
    return sample.tail_gold_rank


def ranked(sample: Sample, w: np.ndarray) -> int:
    """The gold's rank under weights ``w`` as the pipeline ranks: a follow-up keeps the hand order."""
    return sample.hand_rank if sample.follow_up else rank_of(sample, sample.x @ w)


def metrics(ranks: list[int]) -> dict[str, float]:
    n = len(ranks) or 1
    inside = [r for r in ranks if r and r <= K]
    return {"hit@1": sum(r == 1 for r in inside) / n, "hit@5": sum(r <= 5 for r in inside) / n,
            "mrr": sum(1.0 / r for r in inside) / n}


def pairs(samples: list[Sample], mean: np.ndarray, sd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Differences x_gold − x_other (standardized), and a weight per pair so each question sums to 1."""
    diffs, weights = [], []
    for s in samples:
        if s.follow_up:
            continue
        pos, neg = np.flatnonzero(s.gold), np.flatnonzero(~s.gold)
        if not len(pos) or not len(neg):
            continue
        z = (s.x - mean) / sd
        d = (z[pos][:, None, :] - z[neg][None, :, :]).reshape(-1, z.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))
    if not diffs:
        return np.zeros((0, len(mean))), np.zeros(0)
    return np.vstack(diffs), np.concatenate(weights)


def fit(samples: list[Sample], lam: float) -> np.ndarray:
    """Raw-scale weights of the pairwise logistic model with L2 ``lam`` (standardized features)."""
    x = np.vstack([s.x for s in samples if not s.follow_up])
    mean, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd < 1e-9] = 1.0  # a feature constant here weighs nothing
    d, w = pairs(samples, mean, sd)
    n_q = max(1, sum(1 for s in samples if s.gold.any() and (~s.gold).any() and not s.follow_up))
    beta = np.zeros(d.shape[1])
    for _ in range(NEWTON_STEPS):
        m = d @ beta
        p = 1.0 / (1.0 + np.exp(m))  # σ(−m): the gradient's weight of each pair
        grad = -(d * (w * p)[:, None]).sum(axis=0) / n_q + lam * beta
        h = (d * (w * p * (1 - p))[:, None]).T @ d / n_q + lam * np.eye(d.shape[1])
        step = np.linalg.solve(h, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    constant = x.std(axis=0) < 1e-9
    raw = beta / sd
    raw[constant] = 0.0
    return raw


def folds_of(n: int, k: int, seed: int) -> list[np.ndarray]:
    order = np.random.default_rng(seed).permutation(n)
    return [order[i::k] for i in range(k)]


def cv_ranks(samples: list[Sample], lam: float, folds: list[np.ndarray]) -> list[int]:
    ranks = [0] * len(samples)
    for test in folds:
        held = set(test.tolist())
        w = fit([s for i, s in enumerate(samples) if i not in held], lam)
        for i in test:
            ranks[i] = ranked(samples[i], w)
    return ranks


def group_folds(groups: list[str]) -> list[np.ndarray]:
    """One fold per group (question set), in order of first appearance."""
    out: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        out.setdefault(g, []).append(i)
    return [np.array(v) for v in out.values()]


def choose(samples: list[Sample], k: int, seed: int,
           groups: list[str] | None = None) -> tuple[float, dict[float, dict[str, float]]]:
    """The L2 strength with the best CV MRR (then hit@1; ties: the stronger L2), and every strength's figures;
    folds by ``groups`` when there are two or more, else ``k`` random ones."""
    folds = group_folds(groups) if groups and len(set(groups)) > 1 else folds_of(len(samples), k, seed)
    table = {lam: metrics(cv_ranks(samples, lam, folds)) for lam in LAMBDAS}
    best = max(LAMBDAS, key=lambda lam: (round(table[lam]["mrr"], 6), round(table[lam]["hit@1"], 6), lam))
    return best, table


def fmt(m: dict[str, float]) -> str:
    return f"hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  MRR {m['mrr']:.3f}"


def default_files() -> list[Path]:
    """The shared development set and every real_dev*.jsonl of tests/data/questions (sorted)."""
    here = Path(__file__).resolve().parents[1]
    shared = here.parent / "shared" / "eval" / "dev_questions.jsonl"
    return [*([shared] if shared.exists() else []), *sorted((here / "tests/data/questions").glob("real_dev*.jsonl"))]


def development_files(given: list[Path]) -> list[Path]:
    """``given`` (default :func:`default_files`); SystemExit when one is a held-out ``real_test*`` set."""
    files = given or default_files()
    if any("real_test" in f.name for f in files):
        raise SystemExit("real_test is held out: never train or tune on it")
    return files


def record_sets(retriever: Retriever, files: list[Path],
                record_one: Callable[[Retriever, list[Question]], list[Sample]]) -> tuple[list[Sample], list[str]]:
    """Every file's samples by ``record_one``, and each sample's question set (the file's stem: the folds)."""
    samples: list[Sample] = []
    groups: list[str] = []
    for f in files:
        got = record_one(retriever, read_questions(f))
        samples += got
        groups += [f.stem] * len(got)
    return samples, groups


def write_weights(path: Path, header: list[str], names: Sequence[str], w: np.ndarray) -> None:
    """A weights table: the ``header`` lines (comments, without their "# "), then feature<TAB>weight per name."""
    lines = [f"# {line}" for line in (*header, "feature\tweight")]
    lines += [f"{n}\t{v:.6f}" for n, v in zip(names, w)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log.info("wrote %s", path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", nargs="*", type=Path, help="question files (default: every development set)")
    parser.add_argument("--folds", type=int, default=5, help="random folds, for a single file")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--write", type=Path, help="write the weights fitted on every question here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    files = development_files(args.questions)

    retriever = Retriever.load()
    samples, groups = record_sets(retriever, files, record)
    log.info("%d questions from %d files, %d with a gold unit in the fused top %d", len(samples), len(files),
             sum(s.gold.any() for s in samples), DEPTH)
    by_set = len(files) > 1
    folds = group_folds(groups) if by_set else folds_of(len(samples), args.folds, args.seed)
    how = f"leave-one-set-out ({len(folds)} sets)" if by_set else f"{args.folds}-fold CV"
    hand = metrics([s.hand_rank for s in samples])
    fused = metrics([rank_of(s, s.x[:, 0]) for s in samples])
    log.info("fused order (no re-ranking)      %s", fmt(fused))
    log.info("hand re-ranker (no training)     %s", fmt(hand))
    for lam in LAMBDAS:
        log.info("learned, L2 %-6g %s    %s", lam, how, fmt(metrics(cv_ranks(samples, lam, folds))))

    # nested: in each outer fold the strength is chosen by an inner CV on the training questions only
    nested = [0] * len(samples)
    for f, test in enumerate(folds):
        held = set(test.tolist())
        train = [s for i, s in enumerate(samples) if i not in held]
        train_groups = [g for i, g in enumerate(groups) if i not in held] if by_set else None
        lam, _ = choose(train, args.folds, args.seed + 1 + f, train_groups)
        w = fit(train, lam)
        for i in test:
            nested[i] = ranked(samples[i], w)
        name = groups[int(test[0])] if by_set else f"fold {f + 1}"
        log.info("%s (%d q, L2 %g): hand %s | learned %s", name, len(test), lam,
                 fmt(metrics([samples[i].hand_rank for i in test])), fmt(metrics([nested[i] for i in test])))
    log.info("learned, nested %s       %s", how, fmt(metrics(nested)))
    log.info("hand, same questions             %s", fmt(hand))

    lam, _ = choose(samples, args.folds, args.seed, groups if by_set else None)
    w = fit(samples, lam)
    log.info("full fit, L2 %g: %s (on its own training questions: %s)", lam,
             ", ".join(f"{n} {v:+.3f}" for n, v in zip(MODEL_FEATURES, w)), fmt(metrics([ranked(s, w) for s in samples])))
    if args.write:
        today = datetime.date.today().isoformat()
        write_weights(args.write, [
            "Weights of the learned re-ranker (qa/retrieval/rerank.py), one per feature of",
            "qa/retrieval/rerank.py MODEL_FEATURES, on the raw feature scale (score = Σ weight × feature).",
            f"Made by scripts/train_rerank.py on {', '.join(f.name for f in files)} ({len(samples)} questions),",
            f"pairwise logistic loss, L2 {lam:g} chosen by {how} ({today}).",
            f"Nested {how} there: learned {fmt(metrics(nested))}; hand {fmt(hand)}.",
        ], MODEL_FEATURES, w)


if __name__ == "__main__":
    main()
