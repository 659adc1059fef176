"""The HTTP API for programs: ``POST /api/ask``, ``GET /api/units/{id}``, ``GET /api/health``, with
its OpenAPI schema at ``/api/openapi.json`` and docs at ``/api/docs``.

:func:`build_api` makes a FastAPI app around a loaded retriever; :func:`qa.webapp.serve` mounts it
at ``/api`` beside the Gradio chat on the same server, so calls skip Gradio's queue. Answers go
through the one pipeline (:meth:`qa.Retriever.ask`) and come back as the ``qa batch`` row. Every
parameter is checked: a bad one is a 4xx with a one-line ``error``, never a silent change. Text
is made valid (lone surrogates → U+FFFD) before anything else looks at it, and request bodies
over :data:`MAX_BODY_BYTES` are refused before they are read in full.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator
from starlette.exceptions import HTTPException

from .answering.compose import Answer
from .answering.inputs import valid_text
from .errors import QAError
from .present.rows import AnswerRow, UnitRow, row_in_script
from .settings import DEFAULTS

if TYPE_CHECKING:  # pragma: no cover
    from .answering.pipeline import Retriever

log = logging.getLogger(__name__)

#: Largest request body /api reads (bytes); a question is at most a few KB of UTF-8.
MAX_BODY_BYTES = 64 * 1024
#: At most this many earlier questions are accepted in ``history`` (the pipeline uses the newest
#: ``settings.history_turns``); more is an error rather than a silently shortened conversation.
MAX_HISTORY = 20
#: At most this many rite or layer names in a filter.
MAX_NAMES = 10

# ---------------------------------------------------------------- request and response models


def _valid(value: Any) -> Any:
    """Text made valid before validation (and before any message could echo it)."""
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, list):
        return [valid_text(v) if isinstance(v, str) else v for v in value]
    return value


class AskRequest(BaseModel):
    """One question, with its optional conversation, filters and display script."""

    model_config = ConfigDict(extra="forbid")

    question: Annotated[str, Field(min_length=1, max_length=DEFAULTS.max_query_chars,
                                   examples=["賓為什麼說旨？"], description="the question, in 繁體, 简体, 文言 or English")]
    k: Annotated[StrictInt | None, Field(ge=1, le=DEFAULTS.max_k, description="units to retrieve (default: the server's k)")] = None
    history: Annotated[list[Annotated[str, Field(max_length=DEFAULTS.max_query_chars)]], Field(
        max_length=MAX_HISTORY, description="earlier questions of the conversation, oldest first (for follow-ups like 「那介呢？」)")] = []
    rites: Annotated[list[str], Field(max_length=MAX_NAMES, description="only units of these rites (ids or names: xiangyin, 燕禮, …)")] = []
    layers: Annotated[list[str], Field(max_length=MAX_NAMES, description="only units having one of these layers (jing, zhu, shu, xiyi or 經, 注, 疏, 析疑)")] = []
    script: Annotated[Literal["orig", "hant", "hans"], Field(description="display script: the source's own, 繁體 or 简体")] = "orig"

    text_made_valid = field_validator("question", "history", "rites", "layers", mode="before")(_valid)


class Health(BaseModel):
    status: Literal["ok"]
    units: int
    model: str
    k: int
    max_k: int


class Error(BaseModel):
    """What a refused request gets: one line to act on."""

    error: str


ERRORS: dict[int | str, dict[str, Any]] = {413: {"model": Error, "description": "request body too large"},
          422: {"model": Error, "description": "a bad parameter (the message says which)"}}

# ---------------------------------------------------------------- body limit


class BodyLimit:
    """ASGI middleware: refuse a request whose body exceeds ``limit`` bytes with 413, before the
    app reads it (declared Content-Length, or counted while streaming)."""

    def __init__(self, app: Callable, limit: int = MAX_BODY_BYTES, skip: tuple[str, ...] = ()) -> None:
        self.app, self.limit, self.skip = app, limit, skip

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("path", "").startswith(self.skip):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send)
                    return
        seen = 0
        started = False

        async def counted_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        await JSONResponse({"error": f"request body over {self.limit} bytes"}, status_code=413)(
            {"type": "http"}, _no_receive, send)


class _TooLarge(Exception):
    pass


async def _no_receive():  # pragma: no cover - a JSONResponse never reads
    return {"type": "http.disconnect"}


# ---------------------------------------------------------------- the app


def _message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        parts.append(f"{loc}: {e.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def build_api(retriever: "Retriever") -> FastAPI:
    """The JSON API around a loaded retriever (paths relative to where it is mounted: ``/api``)."""
    from . import __version__

    settings = retriever.settings
    units = {u.id: u for u in retriever.units}
    app = FastAPI(
        title="Yili QA API",
        version=__version__,
        summary="Question answering over 儀禮 and its commentaries, with citations.",
        openapi_url="/openapi.json",
        docs_url="/docs",
        redoc_url=None,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _message(exc)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:  # bad JSON, 404, 405: same shape
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(QAError)
    async def refused(request: Request, exc: QAError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @app.post("/ask", response_model=AnswerRow, responses=ERRORS)
    def ask(request: AskRequest) -> dict[str, Any]:
        """Answer one question: the cited sentences, then the lemma units (the ``qa batch`` row)."""
        if len(request.question) > settings.max_query_chars:
            raise QAError(f"question: at most {settings.max_query_chars} characters, not {len(request.question)}")
        if request.k is not None and request.k > settings.max_k:
            raise QAError(f"k must be from 1 to {settings.max_k}, not {request.k}")
        answer: Answer = retriever.ask(request.question, k=request.k, history=request.history,
                                       rites=request.rites, layers=request.layers)
        return row_in_script(answer.to_dict(id=None), request.script)

    @app.get("/units/{unit_id}", response_model=UnitRow, responses={404: {"model": Error, "description": "no such unit"}})
    def unit(unit_id: str) -> Any:
        """One lemma unit by its id (``zhushu.xiangyin.038``)."""
        u = units.get(unit_id)
        if u is None:
            shown = valid_text(unit_id, 100)
            return JSONResponse({"error": f"no unit {shown!r}: ids look like zhushu.xiangyin.038"}, status_code=404)
        return {**u.to_dict(), "citation": u.citation()}

    @app.get("/health", response_model=Health)
    def health() -> dict[str, Any]:
        """Ready to answer: the index is loaded."""
        return {"status": "ok", "units": len(units), "model": settings.model, "k": settings.k, "max_k": settings.max_k}

    return app


__all__ = ["AnswerRow", "AskRequest", "BodyLimit", "MAX_BODY_BYTES", "build_api"]
