"""The one ask pipeline every door uses: question (+ history) → analysis → hybrid search → cited answer.

The CLI (``qa ask``, ``qa batch``), the web app and its ``ask`` endpoint, ``qa eval`` and the
Python API all call :meth:`Retriever.ask` / :meth:`Retriever.batch_ask`, so limits (``k``,
question length, history turns), follow-ups and citations behave the same everywhere.
"""

from __future__ import annotations

import logging
import numbers
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from ..corpus.context import CorpusContext, corpus_view
from ..errors import QAError, QueryError
from ..retrieval.query import Query, analyze, points_back
from ..retrieval.retriever import HybridRetriever
from .companion import enrich, structural_answer
from .compose import Answer, SourceLines, compose_answer
from .filters import UnitFilter, check_filters, known_rites
from .inputs import door_history, door_question

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.context import CorpusContext
    from ..corpus.coverage import Coverage
    from ..corpus.outline import Outline, Stage
    from ..corpus.units import LemmaUnit
    from ..indexing.store import IndexData
    from ..settings import Settings

log = logging.getLogger(__name__)

#: An earlier turn of a conversation: the question as typed, or the Answer it got (which also
#: carries the 經 words it was grounded in).
HistoryItem = str | Answer


def check_k(k: object, settings: "Settings") -> int:
    """``k`` as an int in 1..settings.max_k; ``None`` is the default ``settings.k``. QueryError otherwise."""
    if k is None:
        return settings.k
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        if isinstance(k, str) and k.strip().lstrip("+").isdigit():
            k = int(k)
        else:
            raise QueryError(f"k must be a whole number from 1 to {settings.max_k}, not {k!r}")
    if not 1 <= int(k) <= settings.max_k:
        raise QueryError(f"k must be from 1 to {settings.max_k}, not {int(k)}")
    return int(k)


class Retriever(HybridRetriever):
    """Hybrid retrieval plus answers: ``search`` / ``batch_search`` give hits, ``ask`` / ``batch_ask`` answers.

    >>> r = Retriever.load()
    >>> r.ask("賓為什麼說旨？").text.splitlines()[0]      # doctest: +SKIP
    '旨，美也。〔…〕'
    >>> r.ask("那介呢？", history=["賓為什麼說旨？"])      # doctest: +SKIP
    """

    def __init__(self, data: "IndexData", settings: "Settings") -> None:
        super().__init__(data, settings)
        self._locate: SourceLines | None = None
        self._locate_tried = False
        self.rite_names = known_rites(self.units)  # accepted rite names → rite id, for filters
        self._context: "CorpusContext | None" = None

    @property
    def locate(self) -> SourceLines | None:
        """Seed lines for citing a sentence by its own line; None (unit spans) when the seeds are unreadable."""
        if not self._locate_tried:
            self._locate_tried = True
            try:
                self._locate = SourceLines.from_seeds(self.settings.seeds_dir)
            except QAError as exc:
                log.warning("cannot read the seed files for line citations (%s); citing units by their span", exc)
        return self._locate

    # ------------------------------------------------------------ the corpus around the index

    @property
    def context(self) -> "CorpusContext":
        """The corpus around the index's units (outline, coverage, reading order, citations), built on first use."""
        if self._context is None:

            self._context = CorpusContext.build(corpus_view(self.units, self.settings.seeds_dir))
        return self._context

    @property
    def outline(self) -> "Outline":
        """賈疏's stages of every rite (qa.corpus.outline)."""
        return self.context.outline

    @property
    def coverage(self) -> "Coverage":
        """What the corpus covers (qa.corpus.coverage)."""
        return self.context.coverage

    def coverage_statement(self, lang: str = "zh-Hant") -> str:
        """What the corpus covers, said in zh-Hant or en (ValueError for another language)."""
        return self.coverage.statement(lang)

    def unit(self, unit_id: str) -> "LemmaUnit":
        """The unit with id ``unit_id``; KeyError if there is none."""
        return self.context.unit(unit_id)

    def neighbours(self, unit_id: str) -> "tuple[LemmaUnit | None, LemmaUnit | None]":
        """The previous and next unit of the same work and rite, for a reading view."""
        return self.context.neighbours(unit_id)

    def stage_of(self, unit_id: str) -> "Stage | None":
        """The finest 賈疏 stage holding the unit, or None."""
        return self.context.stage_of(unit_id)

    def analyze(self, question: str, history: Sequence[HistoryItem] = ()) -> Query:
        """The question analysed in the light of the last ``settings.history_turns`` turns."""
        turns = list(history)[-self.settings.history_turns :] if self.settings.history_turns else []
        query = analyze(question, max_chars=self.settings.max_query_chars, history=self._history_texts(turns))
        return self.understand(query)

    def _history_texts(self, turns: Sequence[HistoryItem]) -> tuple[str, ...]:
        """Each turn as text a follow-up can lean on: an Answer's question and grounding; a bare
        question is answered again (in its own context) to find what it was grounded in."""
        texts: list[str] = []
        earlier: list[HistoryItem] = []
        for turn in turns:
            if isinstance(turn, Answer):
                texts.append(turn.as_history)
            elif isinstance(turn, str) and turn.strip():
                try:
                    texts.append(self._answer(turn, self.settings.k, earlier).as_history)
                except QueryError:
                    continue
            else:
                continue
            earlier.append(turn)
        return tuple(texts)

    def _answer(self, question: str, k: int, history: Sequence[HistoryItem], only: UnitFilter | None = None) -> Answer:

        texts = self._history_texts(history)
        query = self.understand(analyze(question, max_chars=self.settings.max_query_chars, history=texts))
        if texts and not query.context and points_back(question) and self._finds_nothing(query):
            # "Why does he twist it before tearing off the tip?": too long to read as a follow-up, yet alone it names
            # nothing the corpus holds; who "he" is, the conversation says
            again = self.understand(analyze(question, max_chars=self.settings.max_query_chars, history=texts,
                                            follow_up=True))
            if again.context and not self._finds_nothing(again):
                query = again
        answer = structural_answer(
            query, self.context, k=k, search=self.search, previous=lambda: self._previous(history), locate=self.locate
        )
        if answer is not None and only and not all(only(self.unit(e.unit_id)) for e in answer.evidence):
            answer = None  # an answer from the outline or both rites that the filters would not show
        if answer is not None:
            return self._enrich(answer)
        if not only:
            return self._enrich(compose_answer(query, self.search(query, k), locate=self.locate))
        # No filter inside the indexes: search deeper, keep the units that pass, cut to k; all
        # fused units when the filter is narrow (the fused list is bounded by the fusion depth).
        hits = [h for h in self.search(query, k * 4) if only(h.unit)]
        if len(hits) < k:
            hits = [h for h in self.search(query, len(self.units)) if only(h.unit)]
        return self._enrich(compose_answer(query, hits[:k], locate=self.locate))

    def _finds_nothing(self, query: Query) -> bool:
        """The search finds no passage it is confident of (every hit low-confidence, or none)."""
        return all(h.low_confidence for h in self.search(query, 1))

    def _previous(self, history: Sequence[HistoryItem]) -> Answer | None:
        """The answer the last turn got (answered again when the turn is a bare question)."""
        for i in range(len(history) - 1, -1, -1):
            turn = history[i]
            if isinstance(turn, Answer):
                return turn
            if isinstance(turn, str) and turn.strip():
                try:
                    return self._answer(turn, self.settings.k, history[:i])
                except QueryError:
                    return None
        return None

    def _enrich(self, answer: Answer) -> Answer:
        """Scholarly citations, parallels and the coverage line (qa.answering.companion)."""

        return enrich(answer, self.context, lambda lang: self.coverage_statement(lang).split("\n", 1)[0])

    def ask(self, question: str, *, k: int | None = None, history: Sequence[HistoryItem] = (),
            rites: Collection[str] | None = (), layers: Collection[str] | None = ()) -> Answer:
        """Answer one question (a follow-up of ``history``, oldest first), hits only from ``rites``
        (ids or names) and units having one of ``layers`` when given. QueryError for a bad
        question, k, rite or layer."""
        k = check_k(k, self.settings)
        only = check_filters(rites, layers, self.rite_names)
        # bounded and valid before the analyzer walks them (qa.answering.inputs)
        question = door_question(question, self.settings)
        return self._answer(question, k, door_history(history, self.settings), only)

    def batch_ask(self, questions: Sequence[str], *, k: int | None = None) -> list[Answer | QAError]:
        """Answer many independent questions, searched together; a bad question gives its QAError in place."""
        k = check_k(k, self.settings)
        out: list[Answer | QAError | None] = [None] * len(questions)
        queries: dict[int, Query] = {}
        for i, question in enumerate(questions):
            try:
                queries[i] = self.understand(analyze(door_question(question, self.settings), max_chars=self.settings.max_query_chars))
            except QAError as exc:
                out[i] = exc

        for i, query in list(queries.items()):
            answer = structural_answer(query, self.context, k=k, search=self.search, locate=self.locate)
            if answer is not None:
                out[i] = self._enrich(answer)
                del queries[i]
        if queries:
            results = self.batch_search(list(queries.values()), k)
            for (i, query), hits in zip(queries.items(), results):
                out[i] = self._enrich(compose_answer(query, hits, locate=self.locate))
        return [a for a in out if a is not None]


__all__ = ["HistoryItem", "Retriever", "check_k"]
