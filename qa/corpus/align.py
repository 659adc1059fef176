"""Cross-edition alignment: link units of the same 經 in different seed files via ``related``.

方苞's lemmas (仪礼析疑) quote the 經 in simplified script, without punctuation, often
abridged, and 002's 注疏 text carries mis-conversions; so units are compared in
matching form (``qa.text.normalize``) and by overlap, not equality. A 析疑 lemma is linked
to the 注疏 unit of the same rite whose 經 covers it best:

* coverage = the share of the lemma's character bigrams found in the 經 (an abridged
  quotation keeps most of its bigrams; one variant character, 胥 for 脀, costs two);
* a link needs coverage ≥ ``MIN_COVERAGE`` and a common run of at least
  ``MIN_RUN`` characters (or the whole lemma, if shorter);
* 方苞 follows the 經 in order, so the links must too: among the candidates, the
  partners are chosen by dynamic programming as the order-keeping assignment of
  greatest total coverage (this drops look-alike passages elsewhere in the rite, e.g.
  a 再拜稽首 formula repeated later). 注疏 units are put in 經 order by id: the
  catalog's ``part`` letter (files of one rite in 經 order: a, b …), then sequence.

Two 注疏 units from different files are linked when one 經 covers the other's
(coverage ≥ ``MIN_COVERAGE_ZHUSHU`` of the shorter). Links are symmetric, and
existing ``related`` ids are kept.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable

from ..text.normalize import normalize
from ..text.tokens import longest_common_run, ngram_set
from .units import LemmaUnit

log = logging.getLogger(__name__)

MIN_COVERAGE = 0.7
MIN_RUN = 4
MIN_COVERAGE_ZHUSHU = 0.9
#: 注疏 units shorter than this (normalized 經) are not linked to each other: too generic.
MIN_ZHUSHU_CHARS = 6
XIYI_WORK = "仪礼析疑"


def coverage(part: str, whole: str) -> float:
    """Share of ``part``'s character bigrams (normalized text) that occur in ``whole``."""
    grams = ngram_set(part)
    return sum(g in whole for g in grams) / len(grams) if grams else 0.0


def _rite_key(unit: LemmaUnit) -> str:
    return normalize(unit.rite)


def _candidates(lemma: str, zhushu: list[tuple[str, str, str]]) -> dict[int, tuple[float, int]]:
    """Index → (coverage, how many units) of each 經 (normalized) that may hold ``lemma``.

    A lemma may quote across two 經 units that one file splits (若有诸公…无加席 runs over
    two 002 units): when no single unit holds it, two adjacent units of one file may.
    """
    out: dict[int, tuple[float, int]] = {}

    def fits(jing: str) -> float:
        cov = coverage(lemma, jing)
        return cov if cov >= MIN_COVERAGE and longest_common_run(lemma, jing) >= min(MIN_RUN, len(lemma)) else 0.0

    for j, (_, _source, jing) in enumerate(zhushu):
        if cov := fits(jing):
            out[j] = (cov, 1)
    if not out:
        for j in range(len(zhushu) - 1):
            if zhushu[j][1] == zhushu[j + 1][1] and (cov := fits(zhushu[j][2] + zhushu[j + 1][2])):
                out[j] = (cov, 2)
    return out


def _monotone(cands: list[dict[int, tuple[float, int]]], m: int) -> list[int | None]:
    """Partner index per lemma, non-decreasing in 經 order, maximizing total coverage.

    best[j] = (total, path) over the lemmas so far, with the last partner at index ≤ j.
    """
    best: list[tuple[float, tuple[int | None, ...]]] = [(0.0, ())] * (m + 1)  # slot 0: no partner yet
    for c in cands:
        new = [(score, path + (None,)) for score, path in best]
        for j, (cov, _) in c.items():
            score, path = best[j + 1]  # last partner at index ≤ j (best is a running max)
            if score + cov > new[j + 1][0]:
                new[j + 1] = (score + cov, path + (j,))
        for j in range(1, m + 1):  # running max: a partner at ≤ j-1 also allows j
            if new[j - 1][0] > new[j][0]:
                new[j] = new[j - 1]
        best = new
    return list(best[m][1])


def align_pairs(units: Iterable[LemmaUnit]) -> list[tuple[str, str]]:
    """(xiyi id, 注疏 id) and (注疏 id, 注疏 id) pairs of units of the same 經."""
    units = list(units)
    norm = {u.id: normalize(u.jing) for u in units}
    pairs: list[tuple[str, str]] = []
    for rite in dict.fromkeys(_rite_key(u) for u in units):
        xiyi = [u for u in units if u.work == XIYI_WORK and norm[u.id] and _rite_key(u) == rite]
        # 經 order of a rite's 注疏 units: by id (part letter, then sequence), see module doc
        zhushu = sorted(
            (u for u in units if u.work != XIYI_WORK and norm[u.id] and _rite_key(u) == rite),
            key=lambda u: u.id.rsplit(".", 1)[-1],
        )
        if xiyi and zhushu:
            zs = [(z.id, z.source, norm[z.id]) for z in zhushu]
            cands = [_candidates(norm[x.id], zs) for x in xiyi]
            for x, c, j in zip(xiyi, cands, _monotone(cands, len(zs))):
                if j is not None:
                    pairs += [(x.id, zs[j + i][0]) for i in range(c[j][1])]
        for i, a in enumerate(zhushu):
            for b in zhushu[i + 1 :]:
                if a.source == b.source:
                    continue
                short, long_ = sorted((norm[a.id], norm[b.id]), key=len)
                if len(short) >= MIN_ZHUSHU_CHARS and coverage(short, long_) >= MIN_COVERAGE_ZHUSHU:
                    pairs.append((a.id, b.id))
    return pairs


def align_units(units: tuple[LemmaUnit, ...]) -> tuple[LemmaUnit, ...]:
    """Return ``units`` with ``related`` filled both ways (see module doc)."""
    links: dict[str, list[str]] = {u.id: list(u.related) for u in units}
    for a, b in align_pairs(units):
        for src, dst in ((a, b), (b, a)):
            if dst not in links[src]:
                links[src].append(dst)
    aligned = sum(1 for u in units if u.work == XIYI_WORK and u.jing and len(links[u.id]) > len(u.related))
    log.info("alignment: %d 析疑 lemmas linked to a 注疏 unit", aligned)
    return tuple(u if tuple(links[u.id]) == u.related else dataclasses.replace(u, related=tuple(links[u.id])) for u in units)


__all__ = ["align_units", "align_pairs", "coverage"]
