"""Low-confidence detection: is anything the retrievers found actually about the query?

Two signals, both about the best result:

* ``coverage``: the share of the query's CJK characters and bigrams (after scaffolding
  removal, with glossary expansions) that occur in the best lexical unit's text — noise
  such as "asdf", emoji or random CJK shares (almost) nothing with any unit;
* ``dense``: the best passage's cosine similarity to the query.

A result is low-confidence when *neither* signal clears its threshold. The coverage
threshold is a constant, measured on the dev questions against noise queries (see
``COVERAGE_MIN``). The dense threshold depends on the encoder, so it is calibrated when
the index is built: noise queries (random ASCII letters, random CJK ideographs, emoji)
are generated with a fixed seed and the threshold is set just above the highest dense
score any of them reaches; it is saved in the manifest.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .normalize import normalize

if TYPE_CHECKING:
    from .index_store import IndexData
    from .query import Query
    from .settings import Settings
    from .units import LemmaUnit

log = logging.getLogger(__name__)

#: Below this share of the query's CJK characters+bigrams found in the best unit, lexical evidence is void.
#: Measured (static-corpus index, dev set): dev questions 0.35–1.0; random CJK ≤ 0.07,
#: "asdf"/emoji 0, an everyday sentence (今天天氣很好) 0.2.
COVERAGE_MIN = 0.3
#: Margin added above the highest dense score of the calibration noise.
DENSE_MARGIN = 0.02
#: Dense threshold when a manifest has no calibration (never reached by cosine similarity).
NO_DENSE_THRESHOLD = 1.01
NOISE_SEED = 7
NOISE_PER_KIND = 60


@dataclass(frozen=True, slots=True)
class Signals:
    coverage: float | None  # share of the query found in the best unit (None: not measured)
    dense: float | None  # best dense passage score (None: not measured, e.g. lexical-only ranking)


def _cjk_terms(text: str) -> set[str]:
    out: set[str] = set()
    for seg in text.split():
        run = [c for c in seg if not c.isascii()]
        out.update(run)
        out.update(a + b for a, b in zip(run, run[1:]))
    return out


def unit_coverage(query: "Query", unit: "LemmaUnit | None") -> float:
    """Share of the query's CJK characters and bigrams that occur in ``unit``'s normalized text."""
    terms = _cjk_terms(query.lexical_text)
    if unit is None or not terms:
        return 0.0
    text = normalize(unit.full_text)
    return sum(1 for t in terms if t in text) / len(terms)


@dataclass(frozen=True, slots=True)
class Calibration:
    dense_min: float = NO_DENSE_THRESHOLD
    coverage_min: float = COVERAGE_MIN

    @classmethod
    def from_manifest(cls, manifest: dict[str, Any]) -> "Calibration":
        c = manifest.get("confidence") or {}
        return cls(dense_min=float(c.get("dense_min", NO_DENSE_THRESHOLD)), coverage_min=float(c.get("coverage_min", COVERAGE_MIN)))

    def low_confidence(self, s: Signals) -> bool:
        lexical_ok = s.coverage is not None and s.coverage >= self.coverage_min
        dense_ok = s.dense is not None and s.dense >= self.dense_min
        return not (lexical_ok or dense_ok)


def noise_queries(seed: int = NOISE_SEED, per_kind: int = NOISE_PER_KIND) -> list[str]:
    """Deterministic nonsense: random ASCII letters, random CJK ideographs, emoji runs."""
    rng = np.random.default_rng(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    out: list[str] = []
    for _ in range(per_kind):
        out.append("".join(rng.choice(list(letters), size=int(rng.integers(3, 11)))))
        out.append("".join(chr(int(c)) for c in rng.integers(0x4E00, 0x9FA6, size=int(rng.integers(2, 9)))))
        out.append("".join(chr(int(c)) for c in rng.integers(0x1F600, 0x1F650, size=int(rng.integers(1, 6)))))
    return out


def calibrate(data: "IndexData", settings: "Settings") -> dict[str, Any]:
    """The dense threshold for this index's encoder, from its scores on noise queries."""
    from .query import analyze

    texts = [analyze(t).dense_text for t in noise_queries()]
    vectors = data.encoder.encode(texts, kind="query")
    scores, _ = data.dense.search(vectors, 1)
    top = np.where(np.isfinite(scores[:, 0]), scores[:, 0], 0.0)
    dense_min = min(float(top.max()) + DENSE_MARGIN, NO_DENSE_THRESHOLD)
    log.info("confidence: dense threshold %.3f (noise max %.3f)", dense_min, float(top.max()))
    return {"dense_min": round(dense_min, 4), "coverage_min": COVERAGE_MIN, "noise_queries": len(texts),
            "noise_dense_max": round(float(top.max()), 4)}


__all__ = ["Signals", "Calibration", "unit_coverage", "calibrate", "noise_queries"]
