"""Synthetic corpora for the scaling study: the real lemma units resampled and perturbed to any size.

Text: each synthetic unit copies a random real unit's layers (經, 注, 疏 parts, 析疑), then
perturbs them so no two units are identical: a share of characters is replaced by characters
drawn from the corpus's own character distribution, clauses are reordered, and one clause
from another unit is spliced in. Lengths, layer mix and vocabulary therefore follow the real
corpus; meaning does not (the scaling study measures cost, not quality).

Vectors: embedding millions of passages with the real encoder does not fit the time budget on
a 2-core machine, so :func:`synth_vectors` embeds a sample of real passages and makes each
further vector from a sampled one: ``normalize(v_i + λ·v_j + σ·g)`` (λ~U(0, 0.5), g Gaussian),
which keeps vectors on the real distribution's manifold with realistic near-neighbour structure.

    python -m benchmarks.synth --units 10000 --out /tmp/synth.jsonl   # write units as JSONL
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from qa.corpus.units import LemmaUnit, ShuPart

#: Share of characters replaced per field.
SUBSTITUTE_RATE = 0.08
#: Length of the Gaussian noise added to a synthesized vector (its base has length 1).
VECTOR_NOISE = 0.5
_CLAUSE = re.compile(r"(?<=[。；，！？])")


def real_units(seeds_dir: Path | None = None) -> tuple[LemmaUnit, ...]:
    """The real corpus's lemma units (the resampling base)."""
    from benchmarks._common import SEEDS_DIR
    from qa.corpus.load import load_corpus

    return load_corpus(Path(seeds_dir or SEEDS_DIR)).units


class Perturber:
    """Random, reproducible perturbation of classical-Chinese text."""

    def __init__(self, units: Sequence[LemmaUnit], seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        counts = Counter(ch for u in units for ch in u.full_text if not ch.isspace())
        self.chars = np.array(list(counts))
        freq = np.array([counts[c] for c in self.chars], dtype=np.float64)
        self.char_p = freq / freq.sum()
        self.clauses = [c for u in units for c in _CLAUSE.split(u.full_text) if 2 <= len(c) <= 40] or ["之。"]
        self._pool = iter(())

    def _char(self) -> str:
        # draw characters in blocks: numpy's choice per character would dominate generation time
        try:
            return next(self._pool)
        except StopIteration:
            self._pool = iter(self.rng.choice(self.chars, size=4096, p=self.char_p).tolist())
            return next(self._pool)

    def text(self, text: str) -> str:
        if not text:
            return text
        clauses = [c for c in _CLAUSE.split(text) if c]
        if len(clauses) > 2 and self.rng.random() < 0.5:
            i, j = self.rng.integers(0, len(clauses), size=2)
            clauses[i], clauses[j] = clauses[j], clauses[i]
        if self.rng.random() < 0.3:
            clauses.insert(int(self.rng.integers(0, len(clauses) + 1)), self.clauses[int(self.rng.integers(len(self.clauses)))])
        out = list("".join(clauses))
        # at least one substitution, so no synthetic text duplicates a real one (exact ties
        # would make approximate-vs-exact recall meaningless)
        n_sub = max(1, int(len(out) * SUBSTITUTE_RATE))
        for pos in self.rng.integers(0, len(out), size=n_sub):
            if not out[pos].isspace():
                out[pos] = self._char()
        return "".join(out)


def synth_units(base: Sequence[LemmaUnit], n: int, *, seed: int = 0) -> Iterator[LemmaUnit]:
    """``n`` synthetic units resampled from ``base`` (ids ``synth.<source unit>.<n>``, original work/rite)."""
    if not base:
        raise ValueError("synth_units needs at least one real unit")
    p = Perturber(base, seed)
    picks = p.rng.integers(0, len(base), size=n)
    for i, b in enumerate(picks):
        u = base[int(b)]
        yield LemmaUnit(
            id=f"synth.{i:07d}",
            work=u.work,
            rite=u.rite,
            source=u.source,
            lines=u.lines,
            section=u.section,
            jing=p.text(u.jing),
            zhu=p.text(u.zhu),
            shu=tuple(ShuPart(on=s.on, quote=s.quote, text=p.text(s.text), header=s.header) for s in u.shu),
            xiyi=p.text(u.xiyi),
            notes=tuple(p.text(n) for n in u.notes),
            boundary=u.boundary,
        )


def synth_vectors(sample: np.ndarray, n: int, *, seed: int = 0, chunk: int = 262_144) -> np.ndarray:
    """``n`` unit-length float32 vectors: the sample itself first, then perturbed mixtures of sampled rows."""
    sample = np.asarray(sample, dtype=np.float32)
    rng = np.random.default_rng(seed)
    out = np.empty((n, sample.shape[1]), dtype=np.float32)
    m = min(n, len(sample))
    out[:m] = sample[:m]
    for start in range(m, n, chunk):
        end = min(n, start + chunk)
        i = rng.integers(0, len(sample), size=end - start)
        j = rng.integers(0, len(sample), size=end - start)
        lam = rng.uniform(0, 0.5, size=(end - start, 1)).astype(np.float32)
        noise = rng.standard_normal((end - start, sample.shape[1]), dtype=np.float32)
        block = sample[i] + lam * sample[j] + noise * (VECTOR_NOISE / np.sqrt(sample.shape[1]))
        block /= np.linalg.norm(block, axis=1, keepdims=True) + 1e-12
        out[start:end] = block
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True, help="JSONL file of LemmaUnit dicts")
    args = ap.parse_args(argv)
    with open(args.out, "w", encoding="utf-8") as fh:
        for u in synth_units(real_units(), args.units, seed=args.seed):
            fh.write(json.dumps(u.to_dict(), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
