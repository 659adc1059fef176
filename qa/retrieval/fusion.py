"""Fusion of unit rankings from several retrievers: weighted reciprocal-rank fusion, a few pure lines.

``fuse({"lexical": [...], "dense": [...]})`` gives each unit Σ weight_r / (RRF_K + rank_r),
over the retrievers that returned it (rank is 1-based). Ties keep the order of the first
ranking that holds the unit, so fusing a single ranking returns it unchanged.

The constants were chosen on the dev set by kind of question (see ``weights_for``; a third ranking,
the English shadow of :mod:`qa.retrieval.shadow`, joins for English and modern-Chinese questions): BM25 over
the glossary-expanded query is the stronger signal on this corpus, and the dense encoder
mostly breaks ties and rescues paraphrases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .query import Query

#: RRF damping constant: larger flattens the difference between ranks.
RRF_K = 20.0
#: Default weight of each retriever; a name not listed weighs 1.0.
DEFAULT_WEIGHTS: Mapping[str, float] = {"lexical": 1.0, "dense": 0.5}
#: English questions match the corpus only through the glossary and the few 漢字 they quote,
#: so the dense side, which sees the same expansions, weighs a little more there.
ENGLISH_WEIGHTS: Mapping[str, float] = {"lexical": 1.0, "dense": 0.6}
#: Weight of the English-shadow ranking (qa.retrieval.shadow: the units translated word by word into
#: English), one for English and modern Chinese alike: 0.2–0.5 measured within a question or two of
#: each other on real_dev for English; 0.5 for modern Chinese cost shared dev two questions at hit@1.
SHADOW_WEIGHT = 0.3
#: The languages that use the shadow channel: not classical questions, which write the corpus's own
#: words (the channel left lzh unchanged at hit@1 and cost it a little MRR).
SHADOW_LANGS = frozenset({"en", "zh-Hans", "zh-Hant", "mixed"})
#: Weight of the renderings' ranking (qa.retrieval.renderings: the units retold in plain English and
#: modern Chinese), by the question's language (a language not listed: the channel is not used).
#: Measured on the five development sets (511 questions) with the encoder trained on the renderings:
#: English 0.5; simplified Chinese 0.2 (without it zh-Hans hit@1 0.644 → 0.610); traditional Chinese,
#: whose askers write more of the corpus's own words, none (0.15 cost zh-Hant hit@1 0.685 → 0.669).
RENDERING_WEIGHTS: Mapping[str, float] = {"en": 0.5, "zh-Hans": 0.2, "mixed": 0.3}
#: A traditional-Chinese question that writes little of the corpus's vocabulary (ritual share below
#: MODERN_SHARE: see qa.retrieval.confidence.ritual_share; 「樂師喝酒是坐著喝還是站著喝？」, not 「賓為什麼告旨？」)
#: is modern Chinese in traditional characters: it meets the renderings, written in the same modern words, at
#: MODERN_RENDERING_WEIGHT, as much as the lexical side. Measured on the seven development sets (669 questions):
#: traditional Chinese hit@1 0.663 → 0.711, hit@5 0.892 → 0.916, evidence first 0.620 → 0.657; shared dev
#: unchanged; weight 0.5 gains about half as much; a share of 0.7 costs shared dev two questions. Simplified
#: Chinese keeps its 0.2: at 1.0 for its low-share questions its hit@5 and evidence first rose (0.915 → 0.933,
#: 0.573 → 0.591) but hit@1 fell (0.683 → 0.677; real_dev4 0.59 → 0.56), and English does not gain at all.
MODERN_SHARE = 0.6
MODERN_RENDERING_WEIGHT = 1.0
MODERN_RENDERING_LANGS = frozenset({"zh-Hant"})
#: Weight of the asked-questions ranking (qa.retrieval.asked: the questions each unit answers, in lay words),
#: by the question's language. Measured on the eight development sets (747 questions), with the encoder also
#: trained on the questions (qa.indexing.encoders.static): hit@1 English 0.67 → 0.71, simplified Chinese 0.70 →
#: 0.74, traditional 0.68 → 0.76, classical 0.87 → 0.88 (at 0.2; 0.35 and 0.5 gained less there); 0.3–0.6 for the
#: modern languages measure alike; shared dev unchanged. A unit scored by the sum of its questions' scores, not
#: the best, gained less.
ASKED_WEIGHTS: Mapping[str, float] = {"en": 0.5, "zh-Hans": 0.5, "zh-Hant": 0.5, "mixed": 0.5, "lzh": 0.2}
#: A follow-up (「那介呢？」 after the 告旨 question) is half a question: the written questions match whole ones, and
#: 介 alone matches any that names the 介, so the channel weighs this much of its weight there. Measured on the
#: development sets: 0.5 changes no hit@1 or evidence first (one real_dev question leaves the top 5; 0 costs two at
#: hit@1), and 「那介呢？」 leads again with the 介's 「不告旨」 (at 1.0, with the 介's reception 「主人以介揖讓升」).
ASKED_FOLLOW_UP = 0.5


def fuse(
    rankings: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Weighted RRF of ``rankings`` (retriever name → [(unit_id, score)] best first); best first."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    fused: dict[str, float] = {}
    first_seen: dict[str, tuple[int, int]] = {}
    for r_index, (name, ranking) in enumerate(rankings.items()):
        weight = float(w.get(name, 1.0))
        seen: set[str] = set()
        for rank, (unit_id, _score) in enumerate(ranking, 1):
            if unit_id in seen:  # a unit counts once per ranking, at its best rank
                continue
            seen.add(unit_id)
            fused[unit_id] = fused.get(unit_id, 0.0) + weight / (RRF_K + rank)
            first_seen.setdefault(unit_id, (r_index, rank))
    return sorted(fused.items(), key=lambda kv: (-kv[1], first_seen[kv[0]]))


def weights_for(query: "Query", share: float | None = None) -> Mapping[str, float]:
    """The fusion weights for the kind of question ``query`` is: its language and, given its ``share``
    of the corpus's vocabulary, whether it is written in modern words (see :func:`rendering_weight`)."""
    base = ENGLISH_WEIGHTS if query.lang == "en" else DEFAULT_WEIGHTS
    out = dict(base)
    shadow = shadow_weight(query)
    if shadow:
        out["shadow"] = shadow
    rendering = rendering_weight(query, share)
    if rendering:
        out["rendering"] = rendering
    asked = asked_weight(query)
    if asked:
        out["asked"] = asked
    return out


def asked_weight(query: "Query") -> float:
    """The asked-questions channel's fusion weight for ``query`` (0.0: the channel is not used)."""
    weight = ASKED_WEIGHTS.get(query.lang, 0.0)
    return weight * ASKED_FOLLOW_UP if query.context else weight


def shadow_weight(query: "Query") -> float:
    """The English-shadow channel's fusion weight for ``query`` (0.0: the channel is not used)."""
    return SHADOW_WEIGHT if query.lang in SHADOW_LANGS else 0.0


def rendering_weight(query: "Query", share: float | None = None) -> float:
    """The renderings channel's fusion weight for ``query`` (0.0: the channel is not used); ``share``,
    the question's ritual share when known, weighs the channel up for a traditional-Chinese question in modern words."""
    weight = RENDERING_WEIGHTS.get(query.lang, 0.0)
    if share is not None and share < MODERN_SHARE and query.lang in MODERN_RENDERING_LANGS:
        weight = max(weight, MODERN_RENDERING_WEIGHT)
    return weight


__all__ = ["fuse", "weights_for", "shadow_weight", "rendering_weight", "asked_weight", "ASKED_WEIGHTS", "ASKED_FOLLOW_UP", "RENDERING_WEIGHTS", "MODERN_SHARE",
           "MODERN_RENDERING_WEIGHT", "SHADOW_WEIGHT", "SHADOW_LANGS", "RRF_K", "DEFAULT_WEIGHTS", "ENGLISH_WEIGHTS"]
