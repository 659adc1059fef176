"""Train the learned sentence model (qa/answering/sentence_model.py) on the development questions, cross-validated.

    PYTHONPATH=$PWD .venv/bin/python scripts/train_sentences.py                                 # CV report only
    PYTHONPATH=$PWD .venv/bin/python scripts/train_sentences.py --write qa/data/sentence_rerank.tsv

Each question of the files (default: the shared development set and every
``tests/data/questions/real_dev*.jsonl``; never a held-out ``real_test*``) is asked through the one ask pipeline
(follow-ups with their ``history``), with the hand order of sentences; the candidates the composer scores
(:func:`qa.answering.sentences.ordered`) are recorded, each a row of
:data:`qa.answering.sentence_model.FEATURES`, labelled by the eval rule for evidence in the first sentence
(:func:`qa.evaluate.evidence_in` of the candidate's text and a gold evidence). A question whose answer is composed of
several selections (a comparison: one per side) is left out, and so is one with no candidate holding the evidence.
The fit, the L2 strengths, the folds (leave one question set out) and the nested figures are those of
``scripts/train_rerank.py``: "hit@1" here is the share of questions whose first candidate holds the evidence.
``--write`` fits on every question with the strength the CV chose and writes the weights.
"""

from __future__ import annotations

import argparse
import datetime
import logging
from pathlib import Path
from unittest.mock import patch

import numpy as np
from train_rerank import (
    Sample,
    cv_ranks,
    development_files,
    fit,
    fmt,
    folds_of,
    group_folds,
    metrics,
    ranked,
    record_sets,
    write_weights,
)

import qa.answering.sentences as sentences_module
from qa import Retriever
from qa.answering.sentence_model import FEATURES, candidate_features
from qa.evaluate import Question, evidence_in

log = logging.getLogger("train_sentences")

#: L2 strengths tried (fewer than the unit re-ranker's: a question has a hundred candidates or more).
LAMBDAS = (0.001, 0.003, 0.01)
#: Negatives kept per question: the best ones by the hand score (the ones the model must learn to pass).
NEGATIVES = 30
#: Margins by which the model's best must beat the hand's first candidate to overrule it, reported.
MARGINS = (0.0, 0.25, 0.5, 1.0)
#: Inner folds of the nested figure: the training sets dealt round into this many groups.
INNER_FOLDS = 4


def record(retriever: Retriever, questions: list[Question]) -> list[Sample]:
    """Ask every question in the hand order, recording the sentence candidates, and build its samples."""
    calls: list[tuple] = []
    original = sentences_module.ordered

    def recorder(query, cands, ctx, learned=None):  # type: ignore[no-untyped-def]
        out = original(query, cands, ctx, learned=False)
        calls.append((query, [c for c, _ in out], ctx, [s for _, s in out]))
        return out

    samples = []
    with patch.object(sentences_module, "ordered", recorder):  # the recorder asks the hand order of the original
        for q in questions:
            calls.clear()
            retriever.ask(q.question, history=q.history)
            if len(calls) != 1:
                continue  # no sentences chosen, or several selections (a comparison)
            query, cands, ctx, hands = calls[0]
            gold = np.array([any(evidence_in(c.text, g.evidence) for g in q.gold) for c in cands], dtype=bool)
            if not gold.any():
                continue
            parts = [ctx.parts(c) for c in cands]
            x = candidate_features(ctx.terms, query.lang, [c.layer for c in cands], parts, hands)
            # every candidate holding the evidence, and the NEGATIVES best others (the candidates are in hand order)
            keep = np.flatnonzero(gold | (np.cumsum(~gold) <= NEGATIVES))
            x, gold = x[keep], gold[keep]
            hand_rank = int(np.flatnonzero(gold)[0]) + 1  # the candidates come in the hand order
            samples.append(Sample(q.id, q.lang, q.kind, x, gold, 0, hand_rank))
    return samples


def choose(groups: list[str], samples: list[Sample]) -> float:
    """The L2 strength with the best share of first candidates holding the evidence (then MRR; ties: the stronger),
    by INNER_FOLDS folds of whole question sets (random folds of its questions when there is one set)."""
    names = list(dict.fromkeys(groups))
    fold_of = {name: i % INNER_FOLDS for i, name in enumerate(names)}
    folds = ([np.array([i for i, g in enumerate(groups) if fold_of[g] == k]) for k in range(min(INNER_FOLDS, len(names)))]
             if len(names) > 1 else folds_of(len(samples), INNER_FOLDS, 0))  # one set left (two given): as train_rerank
    return best_strength({lam: metrics(cv_ranks(samples, lam, folds)) for lam in LAMBDAS})


def best_strength(table: dict[float, dict[str, float]]) -> float:
    """The L2 strength of ``table`` with the best share of first candidates holding the evidence, then MRR; ties: the
    stronger."""
    return max(table, key=lambda s: (round(table[s]["hit@1"], 6), round(table[s]["mrr"], 6), s))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", nargs="*", type=Path, help="question files (default: every development set)")
    parser.add_argument("--write", type=Path, help="write the weights fitted on every question here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    files = development_files(args.questions)
    if len(files) < 2:
        raise SystemExit("give two or more question sets: the folds are the sets")

    retriever = Retriever.load()
    samples, groups = record_sets(retriever, files, record)
    log.info("%d questions from %d files with a candidate holding the evidence", len(samples), len(files))
    folds = group_folds(groups)
    how = f"leave-one-set-out ({len(folds)} sets)"
    hand = metrics([s.hand_rank for s in samples])
    log.info("hand order (no training)         %s", fmt(hand))
    table = {lam: metrics(cv_ranks(samples, lam, folds)) for lam in LAMBDAS}
    for strength in LAMBDAS:
        log.info("learned, L2 %-6g %s    %s", strength, how, fmt(table[strength]))
    nested = [0] * len(samples)
    by_margin = dict.fromkeys(MARGINS, 0)
    for test in folds:
        held = set(test.tolist())
        train = [s for i, s in enumerate(samples) if i not in held]
        lam = choose([g for i, g in enumerate(groups) if i not in held], train)
        w = fit(train, lam)
        for i in test:
            nested[i] = ranked(samples[i], w)
            z = samples[i].x @ w
            best = int(np.argmax(z))
            for margin in MARGINS:
                pick = best if z[best] - z[0] > margin else 0  # the candidates come in the hand order
                by_margin[margin] += bool(samples[i].gold[pick])
        log.info("%s (%d q, L2 %g): hand %s | learned %s", groups[int(test[0])], len(test), lam,
                 fmt(metrics([samples[i].hand_rank for i in test])), fmt(metrics([nested[i] for i in test])))
    log.info("learned, nested %s       %s", how, fmt(metrics(nested)))
    for margin in MARGINS:
        log.info("learned, nested, overruling the hand's first only by a margin over %g: %.3f", margin,
                 by_margin[margin] / max(1, len(samples)))
    log.info("hand, same questions             %s", fmt(hand))

    lam = best_strength(table)
    w = fit(samples, lam)
    if args.write:
        today = datetime.date.today().isoformat()
        write_weights(args.write, [
            "Weights of the learned sentence model (qa/answering/sentence_model.py), one per feature of",
            "qa/answering/sentence_model.py FEATURES, on the raw feature scale (score = Σ weight × feature).",
            f"Made by scripts/train_sentences.py on {', '.join(f.name for f in files)} ({len(samples)} questions",
            f"with a candidate holding the evidence), pairwise logistic loss, L2 {lam:g} chosen by {how} ({today}).",
            f"Nested {how} there, share of questions whose first candidate holds the evidence: learned "
            f"{metrics(nested)['hit@1']:.3f}, hand {hand['hit@1']:.3f}.",
        ], FEATURES, w)


if __name__ == "__main__":
    main()
