"""The assistant's door: an MCP server (official ``mcp`` SDK, stdio) with ``ask``, ``search`` and ``unit`` tools.

``qa mcp`` loads the retriever once and serves it to an MCP client (Claude Desktop, an IDE, an
agent). The tools go through the one pipeline (:meth:`qa.Retriever.ask`) and return the rows
the other doors return: ``ask`` the ``qa batch`` row (answer, citations, hits), ``search`` the
hits alone, ``unit`` one lemma unit with its citation. A bad parameter is a tool error whose
text says what to change (the model reads it), never a crash.
"""

# No ``from __future__ import annotations``: the SDK reads the tools' parameter types (aliases
# local to build_server) from their signatures.
import logging
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict

from .answering.inputs import valid_text
from .present.rows import AnswerRow, HitRow, RowScript, UnitRow, ask_row

if TYPE_CHECKING:  # pragma: no cover
    from mcp.server.mcpserver import MCPServer

    from .answering.pipeline import Retriever

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Yili QA answers questions about the ritual classic 儀禮 (鄉飲酒禮 and 燕禮) from its primary "
    "sources: the canonical text 經, Zheng Xuan's notes 注, Jia Gongyan's sub-commentary 疏 and Fang "
    "Bao's critique 析疑. Use `ask` for an answer with cited sentences, `search` for the passages "
    "alone, `unit` to read one lemma unit by id. Quote the citations the tools return."
)


class SearchResult(TypedDict):
    """The units that best match a question (the ``hits`` of an ``ask`` row)."""

    question: str
    hits: list[HitRow]


def build_server(retriever: "Retriever") -> "MCPServer":
    """An MCP server whose tools answer from ``retriever`` (loaded once, shared by every call)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        from .errors import QAError

        raise QAError("the MCP server needs the mcp SDK: pip install 'yili-qa[mcp]'") from None
    from . import __version__

    settings = retriever.settings
    units = {u.id: u for u in retriever.units}
    K = Annotated[int, Field(ge=1, le=settings.max_k, description=f"units to retrieve, 1–{settings.max_k}")]
    Question = Annotated[str, Field(description="the question, in 繁體, 简体, 文言 or English, e.g. 賓為什麼說旨？")]
    History = Annotated[list[str] | None, Field(description="earlier questions of the conversation, oldest first (for follow-ups like 那介呢？)")]
    Rites = Annotated[list[str] | None, Field(description="only units of these rites: xiangyin (鄉飲酒禮), yan (燕禮)")]
    Layers = Annotated[list[str] | None, Field(description="only units having one of these layers: jing 經, zhu 注, shu 疏, xiyi 析疑")]
    Script = Annotated[RowScript, Field(description="display script: orig (the source's own), hant 繁體, hans 简体")]

    server = MCPServer(name="yili-qa", title="Yili QA 儀禮問答", version=__version__, instructions=INSTRUCTIONS)

    def answered(question: str, **options: Any) -> dict[str, Any]:
        row = ask_row(retriever, question, **options)
        if row["error"]:
            raise ToolError(row["error"])
        return row

    @server.tool(name="ask", title="Answer a question about 儀禮, with citations")
    def ask(question: Question, k: K = settings.k, history: History = None, rites: Rites = None,
            layers: Layers = None, script: Script = "orig") -> AnswerRow:
        """Answer one question from the sources: `answer` (the cited sentences), `citations` (each
        sentence with work, rite, layer, unit id, file and line) and `hits` (the lemma units, layer by
        layer). `found` is false when no passage answers it; the nearest units are still listed."""
        return answered(question, k=k, history=history, rites=rites, layers=layers, script=script)  # type: ignore[return-value]

    @server.tool(name="search", title="Find the passages of 儀禮 that match a question")
    def search(question: Question, k: K = settings.k, rites: Rites = None, layers: Layers = None,
               script: Script = "orig") -> SearchResult:
        """The lemma units that best match the question (經, 注, 疏, 析疑 text with ids, files and lines), best first."""
        row = answered(question, k=k, rites=rites, layers=layers, script=script)
        return {"question": row["question"], "hits": row["hits"]}

    @server.tool(name="unit", title="Read one lemma unit of 儀禮 by id")
    def unit(id: Annotated[str, Field(description="a unit id from a hit or citation, e.g. zhushu.xiangyin.038")]) -> UnitRow:
        """One lemma unit: its 經, 注, 疏 parts and 析疑, the seed file and lines, and a citation to quote."""
        u = units.get(id)
        if u is None:
            raise ToolError(f"no unit {valid_text(id, 100)!r}: ids look like zhushu.xiangyin.038 (take them from ask or search)")
        return {**u.to_dict(), "citation": u.citation()}  # type: ignore[typeddict-item]
    return server


__all__ = ["INSTRUCTIONS", "SearchResult", "UnitRow", "build_server"]
