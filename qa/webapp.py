"""The Gradio chat: answers with citations, layered unit cards, a 繁/简 toggle, follow-ups, and
a named API endpoint ``ask`` returning the same JSON rows as ``qa batch``.

The retriever is loaded once, before the app is built; handlers only search. Every text a
user typed goes through :func:`qa.render.user_html` (escaped) before it reaches the page,
and library errors become a message in the chat, never a traceback.
"""

from __future__ import annotations

import argparse
import html
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answering.compose import Answer
from .answering.inputs import door_question
from .answering.rows import AnswerRow, RowScript, ask_row
from .errors import ConfigError, QAError
from .answering.render import CSS, SCRIPTS, Script, answer_html, user_html
from .settings import Settings

if TYPE_CHECKING:  # pragma: no cover
    import gradio as gr

    from .answering.pipeline import Retriever

log = logging.getLogger(__name__)

#: Example questions offered under the chat (the kinds people ask, in each language).
EXAMPLES: tuple[str, ...] = (
    "賓為什麼說旨？",
    "宾为何告旨",
    "Why does the guest praise the wine?",
    "主人為什麼拜崇酒？",
    "燕禮誰為主人？",
)
#: Exchanges a chat session keeps (and re-renders); older ones drop off the top. Follow-ups lean
#: on the last ``Settings.history_turns`` only, so this bounds memory, not behaviour.
KEPT_TURNS = 20
#: A session's turns are forgotten this long after its last change (Gradio also drops them when
#: the tab closes) ...
SESSION_TTL_S = 3600
#: ... and at most this many sessions are held (the oldest go first). Gradio keeps a copy of each
#: session's page config and chat: ≈ 0.15 MB after one question, ≈ 0.5 MB after 20 turns
#: (benchmarks/soak.py), so this caps sessions near 0.5 GB.
MAX_SESSIONS = 1000


@dataclass(frozen=True, slots=True)
class Turn:
    """One exchange: what the user typed, and the answer or the error message."""

    question: str
    answer: Answer | None
    error: str | None = None


class ChatService:
    """The app's logic without the UI: ask (through the one pipeline, :meth:`Retriever.ask`), render."""

    def __init__(self, retriever: "Retriever"):
        self.retriever = retriever
        self.settings: Settings = retriever.settings
        self.units_by_id = {u.id: u for u in retriever.units}

    def ask_row(self, question: str, k: int | None = None, history: Sequence[str] | None = (),
                script: str = "orig") -> dict[str, Any]:
        """The API: one batch-style row; a bad question, k, history or script gives a row with ``error`` set."""
        return ask_row(self.retriever, question, k=k, history=history, script=script)

    def turn(self, message: str, turns: Sequence[Turn]) -> Turn:
        message = door_question(message, self.settings)  # valid text, bounded, before anything else
        history = [t.answer for t in turns if t.answer is not None]
        try:
            return Turn(message, self.retriever.ask(message, history=history))
        except QAError as exc:
            return Turn(message, None, str(exc))

    def render(self, turns: Sequence[Turn], script: Script) -> list[dict[str, str]]:
        """The chat as Gradio messages; user text escaped, answers as HTML cards."""
        messages: list[dict[str, str]] = []
        for t in turns:
            messages.append({"role": "user", "content": user_html(t.question)})
            if t.answer is None:
                body = f'<div class="qa-answer qa-notfound">⚠ {html.escape(t.error or "")}</div>'
            else:
                body = answer_html(t.answer, t.answer.terms, script, units_by_id=self.units_by_id)
            messages.append({"role": "assistant", "content": body})
        return messages


def build_app(retriever: "Retriever") -> "gr.Blocks":
    """The Blocks app around an already loaded retriever."""
    import gradio as gr

    service = ChatService(retriever)

    def respond(message: str, turns: list[Turn], script_label: str):
        turns = list(turns or [])
        if message:  # whitespace-only reaches the query analyzer, whose error is shown in the chat
            turns.append(service.turn(message, turns))
        turns = turns[-KEPT_TURNS:]  # a session's state and the re-sent chat stay bounded
        return service.render(turns, SCRIPTS.get(script_label, "original")), turns, ""

    def rerender(turns: list[Turn], script_label: str):
        return service.render(turns or [], SCRIPTS.get(script_label, "original"))

    def clear():
        return [], [], ""

    def ask(question: str, k: int = retriever.settings.k, history: list[str] | None = None,
            script: RowScript = "orig") -> AnswerRow:
        """Answer one question (a follow-up of `history`, earlier questions oldest first), shown in
        `script` (orig, hant, hans); returns the same JSON row as `qa batch`, with `error` set for a
        bad parameter."""
        return service.ask_row(question, k, history, script=script)  # type: ignore[return-value]

    # Gradio reads the return type from the signature as is; with postponed annotations that is
    # the string "AnswerRow", which its API page would show as Any.
    ask.__annotations__["return"] = AnswerRow

    with gr.Blocks(title="Yili QA · 儀禮問答") as demo:
        gr.Markdown(
            "## 儀禮問答 Yili QA\n"
            "Ask about 鄉飲酒禮 and 燕禮 in 繁體, 简体, 文言 or English. "
            "Answers quote 鄭注, 賈疏 and 方苞《仪礼析疑》 with citations; the units follow as cards."
        )
        turns = gr.State([], time_to_live=SESSION_TTL_S)
        with gr.Row():
            script = gr.Radio(list(SCRIPTS), value="原文", label="顯示 繁/简", scale=0, min_width=380, elem_id="qa-script")
            clear_btn = gr.Button("新對話 New chat", scale=0, min_width=140)
        chatbot = gr.Chatbot(
            label="對話",
            height=640,
            latex_delimiters=[],
            sanitize_html=True,
            elem_id="qa-chat",
            feedback_options=None,
        )
        with gr.Row():
            box = gr.Textbox(
                placeholder="例如：賓為什麼說旨？  ·  Why does the guest praise the wine?",
                show_label=False,
                scale=5,
                elem_id="qa-input",
                max_lines=4,
            )
            send = gr.Button("問 Ask", variant="primary", scale=1, elem_id="qa-send")
        gr.Examples(examples=[[e] for e in EXAMPLES], inputs=[box], label="例題 Examples")

        outputs = [chatbot, turns, box]
        box.submit(respond, [box, turns, script], outputs, api_visibility="private")
        send.click(respond, [box, turns, script], outputs, api_visibility="private")
        script.change(rerender, [turns, script], [chatbot], api_visibility="private")
        clear_btn.click(clear, None, outputs, api_visibility="private")
        gr.api(ask, api_name="ask")
    return demo


#: Largest request body the chat's own routes read; /api has its own, smaller cap (qa.api).
MAX_BODY_BYTES = 256 * 1024
#: The app has no file input: Gradio's upload route refuses anything bigger than this.
MAX_FILE_SIZE = "1kb"


def check_address(host: str, port: int) -> None:
    """ConfigError (one line) for a port out of range, an unknown host or an address in use,
    before the index is loaded or Gradio starts."""
    import errno
    import socket

    if not 1 <= int(port) <= 65535:
        raise ConfigError(f"port must be from 1 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ConfigError(f"cannot bind to host {host!r}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: TIME_WAIT is not "busy"
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ConfigError(f"port {port} on {host} is in use: stop what holds it or pick another with --port") from None
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(settings: Settings, *, retriever: "Retriever | None" = None, block: bool = True) -> "gr.Blocks":
    """Load the retriever once, then start the chat on ``settings.host:settings.port`` with the
    JSON API (qa.api) mounted at ``/api`` on the same server."""
    check_address(settings.host, settings.port)
    from .answering.pipeline import check_k

    check_k(settings.k, settings)  # the default k every door falls back on
    started = time.perf_counter()
    if retriever is None:
        from .answering.pipeline import Retriever

        retriever = Retriever.load(settings=settings)
    from starlette.middleware import Middleware
    from starlette.routing import Mount

    from .api import BodyLimit, build_api  # the program door, served beside the chat

    demo = build_app(retriever)
    log.info("retriever loaded and app built in %.1f s; serving http://%s:%d (JSON API at /api/docs)",
             time.perf_counter() - started, settings.host, settings.port)
    demo.queue(default_concurrency_limit=4)
    try:
        demo.launch(
            server_name=settings.host,
            server_port=settings.port,
            prevent_thread_lock=not block,
            css=CSS,
            quiet=not block,
            footer_links=["api"],
            max_file_size=MAX_FILE_SIZE,
            state_session_capacity=MAX_SESSIONS,
            # Routes given to the app's constructor come before Gradio's own; /api has its own limit.
            app_kwargs={"routes": [Mount("/api", app=build_api(retriever))],
                        "middleware": [Middleware(BodyLimit, limit=MAX_BODY_BYTES, skip=("/api/",))]},
        )
    except OSError as exc:  # e.g. the port was taken between the check and the launch
        raise ConfigError(f"cannot serve on {settings.host}:{settings.port}: {exc}") from None
    return demo


def main(argv: list[str] | None = None) -> int:
    """``python app.py``: flags override QA_* variables, which override the defaults."""
    parser = argparse.ArgumentParser(prog="app.py", description="Start the Yili QA chat (Gradio).")
    parser.add_argument("--host", help="bind address (QA_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port, 1–65535 (QA_PORT, default 7860)")
    parser.add_argument("--index-dir", help="index directory (QA_INDEX_DIR)")
    parser.add_argument("--model", help="encoder (QA_MODEL)")
    parser.add_argument("-k", type=int, dest="k", help="units per answer (QA_K)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_env(host=args.host, port=args.port, index_dir=args.index_dir, model=args.model, k=args.k)
        serve(settings)
    except QAError as exc:
        print(f"app.py: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


__all__ = ["EXAMPLES", "ChatService", "Turn", "build_app", "check_address", "main", "serve"]
