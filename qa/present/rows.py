"""The answer row every program-facing door returns (the ``qa batch`` row), typed, and shown in a script.

:meth:`Answer.to_dict` and :func:`error_row` build the rows; the TypedDicts here describe them
for the Gradio ``ask`` endpoint's API page, the MCP tools' output schema and the HTTP API's
response models (``qa.api``), so the three doors describe one row. :func:`row_in_script` converts the text a
reader sees to 繁體 or 简体; ids, file names and citations keep the source's characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from ..answering.compose import error_row
from ..answering.inputs import door_history, door_question
from ..errors import QAError, QueryError

if TYPE_CHECKING:  # pragma: no cover
    from ..answering.pipeline import Retriever

#: Display scripts a program may ask for: the source's own characters, 繁體, 简体.
RowScript = Literal["orig", "hant", "hans"]
ROW_SCRIPTS: tuple[str, ...] = ("orig", "hant", "hans")


class CitationRow(TypedDict):
    """One answering sentence and where it stands."""

    text: str
    unit_id: str
    work: str
    rite: str
    layer: str
    source: str
    lines: list[int]
    citation: str
    cite: str  # the scholarly form (qa.corpus.cite), "" where it cannot be made


class HitRow(TypedDict):
    """One retrieved lemma unit, its layers as text."""

    id: str
    source: str
    lines: list[int]
    rite: str
    work: str
    jing: str
    zhu: str
    shu: str
    xiyi: str
    score: float
    low_confidence: bool


class AnswerRow(TypedDict):
    """The answer to one question: the cited sentences, then the units; ``error`` set when it could not be answered."""

    id: str | None
    question: str | None
    answer: str
    found: bool
    citations: list[CitationRow]
    error: str | None
    hits: list[HitRow]
    #: a plain statement when the question is about a rite the corpus lacks, or a named layer has nothing on it
    notice: str
    #: for English questions: (term, English) for the key ritual terms of the answer
    glosses: list[list[str]]
    #: for English questions: [what it retells, the text] — the first cited sentence in plain English,
    #: a reading aid from the project's renderings, never a source; [] when none
    plain: list[str]


class ShuPartRow(TypedDict):
    on: str
    quote: str | None
    text: str
    header: str


class UnitRow(TypedDict):
    """A lemma unit as ``qa units --json`` prints it, with its citation."""

    id: str
    work: str
    rite: str
    source: str
    lines: list[int]
    section: str
    jing: str
    zhu: str
    shu: list[ShuPartRow]
    xiyi: str
    notes: list[str]
    related: list[str]
    boundary: str
    citation: str


#: Text fields converted for display; everything else (ids, files, numbers) is left alone.
_HIT_TEXT = ("jing", "zhu", "shu", "xiyi")


def check_script(script: Any) -> str:
    """``script`` as one of :data:`ROW_SCRIPTS` (``original`` is taken for ``orig``); QueryError otherwise."""
    if script in (None, "", "original"):
        return "orig"
    if script not in ROW_SCRIPTS:
        raise QueryError(f"script must be one of {', '.join(ROW_SCRIPTS)}, not {script!r}")
    return script


def row_in_script(row: dict[str, Any], script: str) -> dict[str, Any]:
    """A copy of ``row`` whose answer, citation texts and unit layers are in ``script``."""
    script = check_script(script)
    if script == "orig" or row.get("error"):
        return row
    from .render import convert_script  # OpenCC, loaded on first use

    def conv(text: str) -> str:
        return convert_script(text, script)  # type: ignore[arg-type]

    citations = [{**c, "text": conv(c["text"])} for c in row["citations"]]
    if row["found"] and citations:  # rebuilt so the citations themselves are not converted
        cited = {f"{c['text']}〔{c['citation']}〕": f"{n['text']}〔{n['citation']}〕" for c, n in zip(row["citations"], citations)}
        # a line citing nothing (a sequence answer's 「…之後，賈疏所分下一節為…」) is converted whole
        answer = "\n".join(cited.get(line) or conv(line) for line in row["answer"].split("\n"))
    else:
        answer = conv(row["answer"])
    hits = [{**h, **{f: conv(h[f]) for f in _HIT_TEXT}} for h in row["hits"]]
    return {**row, "answer": answer, "citations": citations, "hits": hits}


def ask_row(
    retriever: "Retriever",
    question: Any,
    *,
    k: Any = None,
    history: Sequence[Any] | None = (),
    rites: Sequence[str] | None = (),
    layers: Sequence[str] | None = (),
    script: Any = "orig",
) -> dict[str, Any]:
    """One question through the one pipeline as a row in ``script``; any bad parameter gives a
    row with ``error`` set (same keys), never an exception."""
    question = door_question(question, retriever.settings)
    try:
        script = check_script(script)
        if history is not None and not isinstance(history, (list, tuple)):
            raise QueryError(f"history must be a list of earlier questions, not {type(history).__name__}")
        answer = retriever.ask(question, k=k, history=door_history(history, retriever.settings),
                               rites=rites or (), layers=layers or ())
        return row_in_script(answer.to_dict(id=None), script)
    except QAError as exc:
        return error_row(None, question if isinstance(question, str) else None, str(exc))


__all__ = ["ask_row", "AnswerRow", "CitationRow", "HitRow", "ShuPartRow", "UnitRow", "ROW_SCRIPTS", "RowScript", "check_script", "row_in_script"]
