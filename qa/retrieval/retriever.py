"""Retrieval: a lexical and a dense retriever over passages, each returning units, and their hybrid.

Composed the pyserini way: ``HybridRetriever`` holds a ``LexicalRetriever`` and a
``DenseRetriever`` with the same ``search`` / ``batch_search`` and fuses their unit
rankings with :func:`qa.retrieval.fusion.fuse`; ``r.lexical.search(q)`` and ``r.dense.search(q)``
are the ablations. Passage scores become unit scores by their maximum, and every hit
says which passages matched.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Self, Sequence

import numpy as np

from ..corpus.context import reading_order
from ..corpus.units import LemmaUnit
from ..indexing.store import load_index
from ..settings import Settings
from ..text.normalize import normalize
from .asked import CHANNEL_DEPTH, AskedIndex
from .bridge import WORK, Bridge
from .confidence import FOREIGN_WORDS, Calibration, Signals, calibrate, foreign_english, ritual_share
from .features import Evidence
from .fusion import asked_weight, fuse, rendering_weight, shadow_weight, weights_for
from .query import Query, analyze
from .renderings import RenderingIndex, sentence_words
from .rerank import rerank
from .shadow import EnglishShadow
from .topic import topic_probabilities

if TYPE_CHECKING:
    from ..indexing.passages import Passage
    from ..indexing.store import IndexData
    from .bridge import Bridge
    from .query import Query

log = logging.getLogger(__name__)

#: Passages each retriever reads per query before grouping them into units.
PASSAGE_DEPTH = 200
#: Units each retriever hands to fusion (fusion re-ranks; deeper lists only add noise).
FUSION_DEPTH = 50
#: Matched passages kept per hit and retriever.
MAX_MATCHES = 3


@dataclass(frozen=True, slots=True)
class PassageMatch:
    """One passage of a hit's unit that matched the query, and by which retriever."""

    layer: str
    part: int
    text: str
    score: float
    via: str  # "lexical" | "dense"


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved lemma unit."""

    unit: LemmaUnit
    score: float
    passages: tuple[PassageMatch, ...]
    low_confidence: bool

    def to_dict(self) -> dict[str, Any]:
        """The one serialization of a hit (batch rows, the API, adapters): the unit's fields flat,
        its 疏 parts joined in order, the score and the confidence flag."""
        u = self.unit
        return {
            "id": u.id,
            "source": u.source,
            "lines": list(u.lines),
            "rite": u.rite,
            "work": u.work,
            "jing": u.jing,
            "zhu": u.zhu,
            "shu": u.shu_text,
            "xiyi": u.xiyi,
            "score": round(float(self.score), 6),
            "low_confidence": bool(self.low_confidence),
        }


def as_query(query: "str | Query", settings: Settings) -> "Query":
    """A Query from text (qa.retrieval.query.analyze: QueryError when empty), or the Query itself."""

    if isinstance(query, Query):
        return query
    return analyze(query, max_chars=settings.max_query_chars)


@dataclass(frozen=True, slots=True)
class _UnitRanking:
    """A retriever's result for one query before it becomes hits: units best first, with their passages."""

    units: list[tuple[int, float, list[tuple[int, float]]]]  # (unit index, score, [(passage index, score)])
    top: float  # best passage score (0.0 when nothing matched)


class _PassageRetriever:
    """Shared part of the two retrievers: passage ranking → units → hits."""

    via = ""

    def __init__(self, data: "IndexData", settings: Settings, calibration: Calibration) -> None:
        self.data = data
        self.settings = settings
        self.calibration = calibration
        self.units: tuple[LemmaUnit, ...] = data.units
        index_of = {u.id: i for i, u in enumerate(data.units)}
        self._unit_of_passage = np.array([index_of[p.unit_id] for p in data.passages], dtype=np.int64)

    def rank_passages(self, queries: Sequence["Query"], depth: int) -> list[list[tuple[int, float]]]:
        raise NotImplementedError

    def rank_units(self, queries: Sequence["Query"], depth: int = FUSION_DEPTH) -> list[_UnitRanking]:
        out = []
        for ranked in self.rank_passages(queries, PASSAGE_DEPTH):
            by_unit: dict[int, list[tuple[int, float]]] = {}
            for pid, score in ranked:  # best first, so each unit's first passage is its best
                by_unit.setdefault(int(self._unit_of_passage[pid]), []).append((pid, score))
            units = sorted(((u, ps[0][1], ps) for u, ps in by_unit.items()), key=lambda t: -t[1])[:depth]
            out.append(_UnitRanking(units, max((s for _, s in ranked), default=0.0)))
        return out

    def matches(self, passages: list[tuple[int, float]]) -> tuple[PassageMatch, ...]:
        ps: Sequence["Passage"] = self.data.passages
        return tuple(
            PassageMatch(ps[i].layer, ps[i].part, ps[i].text, float(s), self.via) for i, s in passages[:MAX_MATCHES]
        )

    def search(self, query: "str | Query", k: int | None = None) -> list[Hit]:
        return self.batch_search([query], k)[0]

    def batch_search(self, queries: Sequence["str | Query"], k: int | None = None) -> list[list[Hit]]:
        k = k or self.settings.k
        qs = [as_query(q, self.settings) for q in queries]
        results = []
        for q, ranking in zip(qs, self.rank_units(qs, depth=k)):
            signals = self.signals(q, ranking)
            low = self.calibration.low_confidence(signals)
            results.append(
                [Hit(self.units[u], float(score), self.matches(ps), low) for u, score, ps in ranking.units[:k]]
            )
        return results

    def signals(self, query: "Query", ranking: _UnitRanking) -> Signals:
        """What decides ``low_confidence``: how much of the query is ritual vocabulary (+ the dense score)."""
        return Signals(ritual=ritual_share(query, self.data.lexical.term_idf()), dense=None)


class LexicalRetriever(_PassageRetriever):
    """BM25 over passages (qa.indexing.lexical), grouped into units."""

    via = "lexical"

    def rank_passages(self, queries: Sequence["Query"], depth: int) -> list[list[tuple[int, float]]]:
        return [self.data.lexical.search(q, depth) for q in queries]



class DenseRetriever(_PassageRetriever):
    """FAISS search of the query's embedding against passage embeddings, grouped into units."""

    via = "dense"

    def rank_passages(self, queries: Sequence["Query"], depth: int) -> list[list[tuple[int, float]]]:
        if not queries:
            return []
        # Encoders trained here read the stripped, glossary-expanded dense_text; a pretrained
        # model may ask for the question as typed (``query_input = "text"``), which it reads better.
        field = getattr(self.data.encoder, "query_input", "dense_text")
        vectors = self.data.encoder.encode([getattr(q, field) for q in queries], kind="query")
        # A query the encoder knows nothing of embeds as zeros: every score is 0, the order
        # arbitrary; its hits are kept (so noise still gets hits) and marked low-confidence.
        scores, ids = self.data.dense.search(vectors, depth)
        return [[(int(i), float(s)) for s, i in zip(srow, irow) if i >= 0] for srow, irow in zip(scores, ids)]

    def signals(self, query: "Query", ranking: _UnitRanking) -> Signals:
        return Signals(ritual=ritual_share(query, self.data.lexical.term_idf()), dense=ranking.top)


def _evidence(rankings: Mapping[str, Sequence[tuple[str, float]]]) -> dict[str, Evidence]:
    """Each unit's rank (1-based) and score on the lexical and the dense side, and its rank in each lay channel
    (the English shadow, the renderings, the asked questions), for the re-ranker."""
    lexical = {u: (r, s) for r, (u, s) in enumerate(rankings.get("lexical", ()), 1)}
    dense = {u: (r, s) for r, (u, s) in enumerate(rankings.get("dense", ()), 1)}
    channels = {name: {u: r for r, (u, _) in enumerate(rankings.get(name, ()), 1)} for name in ("shadow", "rendering", "asked")}
    out = {}
    for u in lexical.keys() | dense.keys() | set().union(*channels.values()):
        lr, ls = lexical.get(u, (0, 0.0))
        dr, ds = dense.get(u, (0, 0.0))
        out[u] = Evidence(lr, float(ls), dr, float(ds), channels["shadow"].get(u, 0), channels["rendering"].get(u, 0),
                          channels["asked"].get(u, 0))
    return out


class HybridRetriever:
    """Hybrid retrieval: lexical + dense, fused. ``load()`` builds the index on first use.

    The public :class:`qa.Retriever` (:mod:`qa.answering.pipeline`) adds ``ask``: answers on top.
    """

    def __init__(self, data: "IndexData", settings: Settings) -> None:
        self.settings = settings
        self.data = data
        self.units: tuple[LemmaUnit, ...] = data.units
        self._index_of = {u.id: i for i, u in enumerate(data.units)}
        self.manifest: dict[str, Any] = data.manifest
        self.calibration = Calibration.for_index(data)  # computed when the index was built, never here
        self.lexical = LexicalRetriever(data, settings, self.calibration)
        self.dense = DenseRetriever(data, settings, self.calibration)
        self._bridge: "Bridge | None" = None
        self._shadow: EnglishShadow | None = None
        self._renderings: RenderingIndex | None = None
        self._asked: AskedIndex | None = None
        self._english_vocabulary: frozenset[str] | None = None
        self._before: dict[str, str] | None = None

    @property
    def bridge(self) -> "Bridge":
        """The vocabulary bridge of this index (CC-CEDICT and the corpus's glosses), built on first use."""
        if self._bridge is None:

            self._bridge = Bridge.build(self.units, self.data.lexical.term_idf())
        return self._bridge

    @property
    def before(self) -> dict[str, str]:
        """Unit id → the normalized 經 of the unit before it in its work and rite (reading order), built on first use:
        a follow-up's carried subject (司正) is often named only there (:func:`qa.retrieval.rerank.rerank`)."""
        if self._before is None:
            self._before = {later: normalize(self.units[self._index_of[earlier]].jing)
                            for ids in reading_order(self.units).values() for earlier, later in zip(ids, ids[1:])}
        return self._before

    @property
    def shadow(self) -> EnglishShadow:
        """The units' English shadow (qa.retrieval.shadow: translated through the glossary and CC-CEDICT), built on first use."""
        if self._shadow is None:
            self._shadow = EnglishShadow.build(self.units, self.bridge.dictionary)
        return self._shadow

    def shadow_ranking(self, query: "Query") -> list[tuple[str, float]]:
        """The English-shadow channel's units for ``query`` (qa.retrieval.shadow), best first; [] where
        the question's language does not use the channel."""
        if not shadow_weight(query):
            return []
        return [(self.units[u].id, s) for u, s in self.shadow.rank(self.shadow.words(query), FUSION_DEPTH)]

    @property
    def renderings(self) -> RenderingIndex:
        """The units' plain renderings (qa.retrieval.renderings), indexed on first use."""
        if self._renderings is None:
            self._renderings = RenderingIndex.build(self.units)
        return self._renderings

    def rendering_ranking(self, query: "Query", share: float | None = None) -> list[tuple[str, float]]:
        """The renderings channel's units for ``query``, best first; [] where the question does not use it
        (by its language and, when given, its ritual ``share``: see qa.retrieval.fusion.rendering_weight)."""
        if not rendering_weight(query, share):
            return []
        return [(self.units[u].id, s) for u, s in self.renderings.rank(query, FUSION_DEPTH)]

    @property
    def english_vocabulary(self) -> frozenset[str]:
        """The rite's English, in the shadow's key form: every word of the plain renderings (units and note
        sentences) and of the English shadow's reading of the corpus; built on first use."""
        if self._english_vocabulary is None:
            self._english_vocabulary = frozenset(self.renderings.english.postings).union(
                self.shadow.bags.postings, *(w.english for w in sentence_words().values()))
        return self._english_vocabulary

    def foreign_words(self, query: "Query") -> list[str]:
        """The question's English words that neither the glossary, nor the plain renderings, nor the English
        shadow's reading of the corpus use ("japan", "barbecue"; see qa.retrieval.confidence.foreign_english)."""
        if not any(seg.isascii() for seg in query.segments):
            return []  # no English word (and no need to build the vocabulary)
        return foreign_english(query, self.english_vocabulary, self.shadow.stopwords)

    def named(self, query: "Query", foreign: Sequence[str] | None = None) -> bool:
        """Whether ``query`` names a ritual term of the corpus (:meth:`qa.retrieval.bridge.Bridge.names_ritual_term`).
        A question that names it only in everyday words (host and guest, 主人) and writes FOREIGN_WORDS English
        words the rite never uses (``foreign``, default :meth:`foreign_words`: "thanksgiving", "dinner") is set
        in another world: it names the rite only by naming the corpus itself (a rite, a commentator, a term of its own)."""
        if not self.bridge.names_ritual_term(query):
            return False
        if len(self.foreign_words(query) if foreign is None else foreign) < FOREIGN_WORDS:
            return True
        return self.bridge.names_corpus_itself(query, everyday=False)

    def understand(self, query: "Query") -> "Query":
        """``query`` with the corpus terms the bridge finds for its words (see qa.retrieval.bridge)."""
        return self.bridge.understand(query)

    @classmethod
    def load(cls, index_dir: Path | str | None = None, model: str | None = None, *,
             settings: Settings | None = None) -> "Self":
        """Open the index (building or rebuilding it when missing or stale; see qa.indexing.store)."""

        settings = settings or Settings.from_env()
        changes: dict[str, Any] = {}
        if index_dir is not None:
            changes["index_dir"] = Path(index_dir).expanduser()
        if model is not None:
            changes["model"] = model
        settings = settings.replace(**changes) if changes else settings
        return cls(load_index(settings, calibrate=calibrate), settings)

    @property
    def asked(self) -> AskedIndex:
        """The questions each unit answers (qa.retrieval.asked), indexed on first use."""
        if self._asked is None:
            self._asked = AskedIndex.build(self.units)
        return self._asked

    def asked_ranking(self, query: "Query") -> list[tuple[str, float]]:
        """The asked-questions channel's units for ``query``, best first; [] where its language does not use it."""
        if not asked_weight(query):
            return []
        return [(self.units[u].id, s) for u, s in self.asked.rank(query, CHANNEL_DEPTH)]

    def topics(self, queries: Sequence["Query"]) -> list[float | None]:
        """P(about this corpus) of each query by the topic classifier (qa.retrieval.topic); None where it gives no
        verdict: a classical question, a follow-up, or a corpus the written questions it learnt from do not cover."""
        if not self.asked.usable:
            return [None] * len(queries)
        return topic_probabilities(queries)

    def channel_rankings(self, query: "Query", share: float | None = None) -> dict[str, list[tuple[str, float]]]:
        """The rankings of the channels beside the lexical and dense sides that ``query`` uses (channel name →
        [(unit id, score)] best first): the English shadow, the plain renderings and the questions each unit
        answers; a channel that finds nothing, or that the question does not use, is left out."""
        out = {}
        for name, ranking in (("shadow", self.shadow_ranking(query)), ("rendering", self.rendering_ranking(query, share)),
                              ("asked", self.asked_ranking(query))):
            if ranking:
                out[name] = ranking
        return out

    def search(self, query: "str | Query", k: int | None = None) -> list[Hit]:
        return self.batch_search([query], k)[0]

    def batch_search(self, queries: Sequence["str | Query"], k: int | None = None) -> list[list[Hit]]:

        k = k or self.settings.k
        qs = [self.understand(as_query(q, self.settings)) for q in queries]
        idf = self.data.lexical.term_idf()
        lexical = self.lexical.rank_units(qs)
        dense = self.dense.rank_units(qs)
        topics = self.topics(qs)
        results = []
        for q, lex, den, topic in zip(qs, lexical, dense, topics):
            foreign = self.foreign_words(q)
            share = ritual_share(q, idf, foreign)
            rankings = {
                "lexical": [(self.units[u].id, s) for u, s, _ in lex.units],
                "dense": [(self.units[u].id, s) for u, s, _ in den.units],
            }
            channels = self.channel_rankings(q, share)
            rankings.update(channels)
            by_id = {u.id: u for u in (self.units[i] for i, _, _ in (*lex.units, *den.units))}
            for ranking in channels.values():
                by_id.update((u, self.units[self._index_of[u]]) for u, _ in ranking if u not in by_id)
            evidence = _evidence(rankings)
            fused = rerank(q, [(by_id[u], s) for u, s in fuse(rankings, weights_for(q, share))], idf, evidence=evidence,
                           before=self.before if q.context else None)[:k]
            lex_ps = {self.units[u].id: ps for u, _, ps in lex.units}
            den_ps = {self.units[u].id: ps for u, _, ps in den.units}
            modern = self.bridge.modern_kinds(q)
            signals = Signals(ritual=share, dense=den.top, named=self.named(q, foreign),
                              elsewhere=self.bridge.about_other_text(q), modern=bool(modern), figurative=modern == {WORK},
                              topic=topic, itself=self.bridge.names_own_term(q), classical=q.lang == "lzh",
                              english=q.lang == "en")
            low = self.calibration.low_confidence(signals)
            hits = []
            for unit, score in fused:
                unit_id = unit.id
                matches = self.lexical.matches(lex_ps.get(unit_id, [])) + self.dense.matches(den_ps.get(unit_id, []))
                hits.append(Hit(unit, float(score), matches, low))
            results.append(hits)
        return results


__all__ = ["HybridRetriever", "LexicalRetriever", "DenseRetriever", "Hit", "PassageMatch", "as_query"]
