"""The project's plain renderings of the lemma units (``qa/data/renderings.tsv``): an English and a
modern-Chinese retelling of each unit's 經 (or 析疑 lemma) and one line on its commentary; and of
every sentence of the 注 and the 疏 (``qa/data/note_renderings.tsv``). Also the questions lay readers ask
that each unit, and each sentence of its commentary, answers (``unit_questions.tsv``, ``sentence_questions.tsv``).

Written for Yili QA from each unit's own text, never from a question, and **not sources**: nothing
cited comes from them, and an answer shows one only as a labelled reading aid for an English reader
(:attr:`qa.answering.compose.Answer.plain`). They are read by the retrieval channel and the sentence
scorer (:mod:`qa.retrieval.renderings`, :mod:`qa.answering.sentences`) and by the static-corpus
encoder's training (:mod:`qa.indexing.encoders.static`). Each row quotes the opening of its unit's text, so a
parser change that moves a unit cannot pair it with another unit's rendering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..text.normalize import normalize
from ..text.tables import Row, data_dir, per_directory, read_table

if TYPE_CHECKING:  # pragma: no cover
    from .units import LemmaUnit

#: The table of renderings in the data directory, and of the renderings of each sentence of the 注 and 疏.
TABLE = "renderings.tsv"
SENTENCE_TABLE = "note_renderings.tsv"
#: The table of questions each unit answers, in lay words (document expansion: see unit_questions()).
QUESTION_TABLE = "unit_questions.tsv"
#: ... and of the questions each 注, 疏 or 析疑 sentence answers (see sentence_questions()).
SENTENCE_QUESTION_TABLE = "sentence_questions.tsv"
#: How many normalized characters of a unit's text a row quotes to prove which unit it renders.
OPENING_CHARS = 8


@dataclass(frozen=True, slots=True)
class Rendering:
    """One unit's plain retelling: English and modern Chinese, and one line on its commentary in each."""

    unit_id: str
    opening: str  # the first OPENING_CHARS normalized characters of the unit's text (see opening())
    en: str = ""
    zh: str = ""
    note_en: str = ""
    note_zh: str = ""


def opening(unit: "LemmaUnit") -> str:
    """What a rendering row quotes of ``unit`` to name it: the start of its 經 (or, without one, its 析疑 or 注), normalized."""
    return normalize(unit.jing or unit.xiyi or unit.zhu)[:OPENING_CHARS]


@per_directory
def _table_in(directory: Path) -> Mapping[str, Rendering]:
    out: dict[str, Rendering] = {}
    for row in read_table(TABLE, directory):
        uid = row.fields[0]
        if uid in out:
            raise row.error(f"unit {uid} rendered twice")
        out[uid] = Rendering(uid, *(row.get(i) for i in range(1, 6)))
    return out


def renderings() -> Mapping[str, Rendering]:
    """The renderings of the data directory (``qa/data/renderings.tsv``), by unit id, read once per directory."""
    return _table_in(data_dir())


def rendering_of(unit: "LemmaUnit", table: Mapping[str, Rendering] | None = None) -> Rendering | None:
    """``unit``'s rendering in ``table`` (default :func:`renderings`), or None when it has none or the row
    quotes another opening (a parser change moved the unit: the row retells something else)."""
    r = (renderings() if table is None else table).get(unit.id)
    return r if r is not None and r.opening == opening(unit) else None


@dataclass(frozen=True, slots=True)
class SentenceRendering:
    """One sentence of a unit's 注 or 疏 (normalized, as the sentence scorer cuts it) retold in plain words."""

    unit_id: str
    sentence: str
    en: str
    zh: str


@per_directory
def sentence_renderings_in(directory: Path) -> Mapping[tuple[str, str], SentenceRendering]:
    out: dict[tuple[str, str], SentenceRendering] = {}
    for row in read_table(SENTENCE_TABLE, directory):
        key = (row.fields[0], row.fields[1])
        if key in out:
            raise row.error(f"sentence of {key[0]} rendered twice")
        out[key] = SentenceRendering(*row.fields[:4])
    return out


def sentence_renderings() -> Mapping[tuple[str, str], SentenceRendering]:
    """The renderings of the 注's and 疏's sentences (``qa/data/note_renderings.tsv``): (unit id, the sentence
    normalized) → its rendering; read once per data directory."""
    return sentence_renderings_in(data_dir())


@dataclass(frozen=True, slots=True)
class UnitQuestions:
    """The questions one unit answers, as lay readers ask them: English and modern Chinese."""

    unit_id: str
    opening: str  # the first OPENING_CHARS normalized characters of the unit's text (see opening())
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    #: those of ``en`` and ``zh`` whose row says ``no`` in the train column: documents of the asked-questions
    #: channel only, no training pair of the static encoder and no positive of the topic classifier
    untrained: frozenset[str] = frozenset()

    def trained(self) -> tuple[str, ...]:
        """The questions that train the static encoder and the topic classifier (English, then Chinese)."""
        return tuple(q for q in (*self.en, *self.zh) if q not in self.untrained)


@per_directory
def unit_questions_in(directory: Path) -> Mapping[str, UnitQuestions]:
    rows: dict[str, tuple[str, list[str], list[str], set[str]]] = {}
    for row in read_table(QUESTION_TABLE, directory):
        uid, start, lang, question = row.fields[:4]
        if lang not in ("en", "zh"):
            raise row.error(f"language {lang!r} is neither en nor zh")
        seen = rows.setdefault(uid, (start, [], [], set()))
        if seen[0] != start:
            raise row.error(f"unit {uid} quoted with two openings, {seen[0]!r} and {start!r}")
        (seen[1] if lang == "en" else seen[2]).append(question)
        if not _train_column(row):
            seen[3].add(question)
    return {uid: UnitQuestions(uid, start, tuple(en), tuple(zh), frozenset(no)) for uid, (start, en, zh, no) in rows.items()}


def unit_questions() -> Mapping[str, UnitQuestions]:
    """The questions each unit answers (``qa/data/unit_questions.tsv``): unit id → its questions; read once per
    data directory. Written for the project from each unit's own text, never from a question set, in the lay
    words a reader who has not read the text uses: the *document expansion* (doc2query) of lay retrieval.
    Like the renderings they are no source; the asked-questions channel (qa.retrieval.asked) and the static-corpus
    encoder's training read them."""
    return unit_questions_in(data_dir())


def questions_of(unit: "LemmaUnit", table: Mapping[str, UnitQuestions] | None = None) -> UnitQuestions | None:
    """``unit``'s questions in ``table`` (default :func:`unit_questions`), or None when it has none or they
    quote another opening (a parser change moved the unit)."""
    q = (unit_questions() if table is None else table).get(unit.id)
    return q if q is not None and q.opening == opening(unit) else None


@dataclass(frozen=True, slots=True)
class SentenceQuestions:
    """The questions one 注, 疏 or 析疑 sentence answers, as lay readers ask them."""

    unit_id: str
    sentence: str  # the sentence normalized, as the sentence scorer cuts it
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    #: those of ``en`` and ``zh`` whose row says ``no`` in the train column: read by the sentence scorer only,
    #: no positive of the topic classifier
    untrained: frozenset[str] = frozenset()

    def trained(self) -> tuple[str, ...]:
        """The questions that train the topic classifier (English, then Chinese)."""
        return tuple(q for q in (*self.en, *self.zh) if q not in self.untrained)


def _train_column(row: Row) -> bool:
    """Whether a question row trains (its fifth column empty) or not (``no``); a DataTableError otherwise."""
    train = row.fields[4].strip().lower() if len(row.fields) > 4 else ""
    if train not in ("", "no"):
        raise row.error(f"train column {train!r} is neither empty nor no")
    return train == ""


@per_directory
def sentence_questions_in(directory: Path) -> Mapping[tuple[str, str], SentenceQuestions]:
    rows: dict[tuple[str, str], tuple[list[str], list[str], set[str]]] = {}
    for row in read_table(SENTENCE_QUESTION_TABLE, directory):
        uid, sentence, lang, question = row.fields[:4]
        if lang not in ("en", "zh"):
            raise row.error(f"language {lang!r} is neither en nor zh")
        en, zh, no = rows.setdefault((uid, sentence), ([], [], set()))
        (en if lang == "en" else zh).append(question)
        if not _train_column(row):
            no.add(question)
    return {key: SentenceQuestions(key[0], key[1], tuple(en), tuple(zh), frozenset(no))
            for key, (en, zh, no) in rows.items()}


def sentence_questions() -> Mapping[tuple[str, str], SentenceQuestions]:
    """The questions each sentence of the 注, the 疏 and 方苞's notes answers (``qa/data/sentence_questions.tsv``):
    (unit id, the sentence normalized) → its questions; read once per data directory. Written for the project
    from each sentence and its passage alone, never from a question set; no source. The sentence scorer reads
    them (qa.answering.sentences): the sentence a lay question asks for is the one written questions like it
    were written for. A row whose sentence is no longer one of its unit's (a parser change) is never met."""
    return sentence_questions_in(data_dir())


__all__ = ["Rendering", "SentenceRendering", "UnitQuestions", "SentenceQuestions", "sentence_questions",
           "sentence_questions_in", "SENTENCE_QUESTION_TABLE", "unit_questions", "unit_questions_in", "questions_of",
           "QUESTION_TABLE", "renderings", "rendering_of", "sentence_renderings", "sentence_renderings_in", "opening", "TABLE", "SENTENCE_TABLE",
           "OPENING_CHARS"]
