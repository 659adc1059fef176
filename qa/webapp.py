"""The Gradio chat: answers with citations, layered unit cards, a 繁/简 toggle, follow-ups, a
reading view (``?unit=…``), filters, plain-text copies, and a named API endpoint ``ask``
returning the same JSON rows as ``qa batch``.

The retriever is loaded once, before the app is built; handlers only search. Every text a
user typed goes through :func:`qa.present.render.user_html` (escaped) before it reaches the page,
and library errors become a message in the chat, never a traceback.
"""

from __future__ import annotations

import argparse
import html
import logging
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answering.compose import Answer, Evidence
from .answering.inputs import door_question
from .corpus.corrections import unit_corrections
from .corpus.units import LemmaUnit
from .errors import ConfigError, QAError
from .present.guide import outline_entries
from .present.page import JS
from .present.plaintext import conversation_markdown, conversation_text
from .present.reading import Reader, contents_html, outline_html, reading_html
from .present.render import (
    CSS,
    LAYER_CHOICES,
    SCRIPTS,
    Display,
    Script,
    answer_html,
    common_chars,
    simplified_sources,
    user_html,
)
from .present.rows import AnswerRow, RowScript, ask_row
from .retrieval.topic import topic_model
from .settings import Settings
from .text.normalize import normalize_with_map

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
    "合樂之後呢？",
    "兩禮的獻賓有何不同？",
)


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
        self.reader = Reader(retriever.units)
        self.rites: tuple[str, ...] = tuple(dict.fromkeys(u.rite for u in retriever.units))
        self.common = common_chars(retriever.units)
        # the reader's companion: 賈疏's stages, parallels, scholarly citations, 校讀 (qa.corpus.context)
        self.context = getattr(retriever, "context", None)  # None: a bare retriever (tests), no companion
        try:
            self.simplified = simplified_sources(self.settings.seeds_dir)
        except QAError as exc:  # without the catalog, 繁 converts nothing (the safe side)
            log.warning("cannot read the seed catalog (%s); the 繁 display leaves every source as it is", exc)
            self.simplified = frozenset()

    def ask_row(self, question: str, k: int | None = None, history: Sequence[str] | None = (),
                script: str = "orig") -> dict[str, Any]:
        """The API: one batch-style row; a bad question, k, history or script gives a row with ``error`` set."""
        return ask_row(self.retriever, question, k=k, history=history, script=script)

    def turn(
        self,
        message: str,
        turns: Sequence[Turn],
        k: int | None = None,
        *,
        rites: Iterable[str] | None = None,
        layers: Iterable[str] | None = None,
    ) -> Turn:
        """Ask ``message`` as a follow-up of ``turns``, with the page's rite and layer filters (None: all)."""
        message = door_question(message, self.settings)  # valid text, bounded, before anything else
        history = [t.answer for t in turns if t.answer is not None]
        d = self.display("original", rites, layers)
        try:
            return Turn(message, self.retriever.ask(message, k=k, history=history,
                                                    rites=None if d.rites is None else set(d.rites),
                                                    layers=None if d.layers is None else set(d.layers)))
        except QAError as exc:
            return Turn(message, None, str(exc))

    def display(
        self, script: "Script | Display" = "original", rites: Iterable[str] | None = None, layers: Iterable[str] | None = None,
        jiaodu: bool = False,
    ) -> Display:
        """How to show answers: ``script`` (繁 converts only simplified sources), filters (None: all),
        and the 校讀 (corrections marked in place) when ``jiaodu``; every card names its stage and
        its counterpart in the other rite, and 「複製引文」 copies the scholarly citation."""
        if isinstance(script, Display):
            return script
        rite_set = frozenset(rites) if rites is not None else None
        layer_set = frozenset(layers) if layers is not None else None
        return Display(
            script=script,
            simplified=self.simplified,
            common=self.common,
            rites=None if rite_set is None or rite_set >= set(self.rites) else rite_set,
            layers=None if layer_set is None or layer_set >= set(LAYER_CHOICES.values()) else layer_set,
            stage_of=self.stage_of if self.context else None,
            cite=scholarly,
            parallels=self.parallels if self.context else None,
            jiaodu=unit_corrections if jiaodu else None,
        )

    def stage_of(self, unit: LemmaUnit) -> str | None:
        """The unit's stages in 賈疏's words, outermost first (主人樂賓 › 獻笙者); None when unstaged."""
        path = self.context.stage_path(unit.id) if self.context and unit.id in self.context.units_by_id else ()
        return " › ".join(s.title for s in path) or None

    def parallels(self, unit: LemmaUnit) -> list[tuple[str, str, str, str]]:
        """(unit id, rite, the 經 formulae both hold, source) of the unit's counterparts in another rite."""
        if self.context is None or unit.id not in self.context.units_by_id:
            return []
        out = []
        for p in self.context.parallels(unit.id):
            other = self.context.unit(p.unit)
            norm, where = normalize_with_map(other.jing)
            # the shared formulae in the counterpart's own characters (matching form is for matching only)
            said = [other.jing[where[i] : where[i + len(c) - 1] + 1] for c in p.shared if (i := norm.find(c)) >= 0]
            out.append((p.unit, p.rite, "、".join(said[:3]), other.source))
        return out

    def outline(self) -> str:
        """賈疏's stages of every rite, to browse (each unit a link to the reading view)."""
        return outline_html(outline_entries(self.context), self.units_by_id) if self.context else ""

    def coverage(self) -> str:
        """What the corpus covers, in zh-Hant and English, for the page's coverage panel."""
        if not hasattr(self.retriever, "coverage_statement"):
            return ""
        zh, en = (self.retriever.coverage_statement(lang) for lang in ("zh-Hant", "en"))
        return f'<div class="qa-coverage-text">{html.escape(zh)}\n\n{html.escape(en)}</div>'

    def render(self, turns: Sequence[Turn], script: "Script | Display") -> list[dict[str, str]]:
        """The chat as Gradio messages; user text escaped, answers as HTML cards, each reply numbered."""
        d = self.display(script)
        messages: list[dict[str, str]] = []
        for n, t in enumerate(turns, 1):
            messages.append({"role": "user", "content": user_html(t.question)})
            if t.answer is None:
                body = f'<div class="qa-reply qa-turn-{n}"><div class="qa-answer qa-notfound">⚠ {html.escape(t.error or "")}</div></div>'
            else:
                body = answer_html(t.answer, t.answer.terms, d, units_by_id=self.units_by_id, turn=n)
            messages.append({"role": "assistant", "content": body})
        return messages

    def read(self, unit_id: str, script: "Script | Display" = "original") -> str:
        """The reading view of ``unit_id`` (its chapter, neighbours, all layers); the contents for no id."""
        if not (unit_id or "").strip():
            return contents_html(self.reader)
        return reading_html(self.reader, unit_id.strip(), self.display(script))


def scholarly(e: Evidence) -> str:
    """What 「複製引文」 and the conversation copies cite: the scholarly form where it could be made."""
    return e.scholarly or e.citation()


def _labels_to_layers(labels: Iterable[str] | None) -> list[str] | None:
    return None if labels is None else [LAYER_CHOICES[x] for x in labels if x in LAYER_CHOICES]


def build_app(retriever: "Retriever") -> "gr.Blocks":
    """The Blocks app around an already loaded retriever: a chat tab and a reading tab."""
    import gradio as gr

    service = ChatService(retriever)
    settings = service.settings

    def view(script_label: str, rites: list[str] | None, layer_labels: list[str] | None, jiaodu: bool = False) -> Display:
        return service.display(SCRIPTS.get(script_label, "original"), rites, _labels_to_layers(layer_labels), bool(jiaodu))

    def copies(turns: list[Turn]) -> tuple[str, str]:
        return conversation_text(turns, cite=scholarly), conversation_markdown(turns, cite=scholarly)

    def shown(turns: list[Turn] | None, chat: list | None) -> list[Turn]:
        # the chat's trash empties the chat at once, the turns only when its event lands: a
        # question asked in between must not bring the old conversation back
        return list(turns or [])[: len(chat or []) // 2]

    def respond(message: str, turns: list[Turn], chat: list, script_label: str, k: float, rites: list[str], layers: list[str],
                jiaodu: bool = False):
        turns = shown(turns, chat)
        if message:  # whitespace-only reaches the query analyzer, whose error is shown in the chat
            layer_names = _labels_to_layers(layers)
            turns.append(service.turn(message, turns, k=int(k) if k else None, rites=rites, layers=layer_names))
        turns = turns[-settings.session_turns :]  # a session's state and the re-sent chat stay bounded
        return (service.render(turns, view(script_label, rites, layers, jiaodu)), turns, "", *copies(turns))

    def rerender(turns: list[Turn], chat: list, script_label: str, rites: list[str], layers: list[str], jiaodu: bool = False):
        return service.render(shown(turns, chat), view(script_label, rites, layers, jiaodu))

    def clear():  # the question being typed stays
        return [], [], "", ""

    def read(unit_id: str, script_label: str, jiaodu: bool = False):
        uid = (unit_id or "").strip()
        return service.read(uid, view(script_label, None, None, jiaodu)), uid, gr.Tabs(selected="read")

    def step(by: int):
        def go(unit_id: str, script_label: str, jiaodu: bool = False):
            uid = service.reader.step((unit_id or "").strip() or service.reader.first_id, by)
            return service.read(uid, view(script_label, None, None, jiaodu)), uid

        return go

    def on_load(script_label: str, request: gr.Request):
        """A stable link ``?unit=…`` opens the reading view there."""
        uid = (request.query_params.get("unit") or "").strip() if request is not None else ""
        if not uid:
            return gr.update(), gr.update(), gr.update()
        return service.read(uid, view(script_label, None, None)), uid, gr.Tabs(selected="read")

    on_load.__annotations__["request"] = gr.Request  # Gradio finds the request by its type, not a string

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
            "Answers quote 鄭注, 賈疏 and 方苞《仪礼析疑》 with citations; the units follow as cards.",
            elem_id="qa-title",
        )
        turns = gr.State([], time_to_live=settings.session_ttl_s)
        conv_text = gr.Textbox(visible=False)
        conv_md = gr.Textbox(visible=False)
        with gr.Tabs(selected="ask", elem_id="qa-tabs") as tabs:
            with gr.Tab("問答 Ask", id="ask"):
                chatbot = gr.Chatbot(
                    label="對話",
                    height="calc(100vh - 290px)",
                    min_height=280,
                    latex_delimiters=[],
                    sanitize_html=True,
                    elem_id="qa-chat",
                    feedback_options=None,
                    autoscroll=False,
                    buttons=[],
                    layout="panel",
                    show_label=False,
                )
                with gr.Row(elem_id="qa-input-row", equal_height=True):
                    box = gr.Textbox(
                        placeholder="例如：賓為什麼說旨？  ·  Why does the guest praise the wine?",
                        show_label=False,
                        scale=5,
                        min_width=120,
                        elem_id="qa-input",
                        max_lines=4,
                    )
                    send = gr.Button("問 Ask", variant="primary", scale=0, min_width=72, elem_id="qa-send")
                with gr.Row(elem_id="qa-toolbar"):
                    script = gr.Radio(
                        list(SCRIPTS), value="原文", show_label=False, container=False, scale=0, min_width=200, elem_id="qa-script"
                    )
                    answer_only = gr.Checkbox(label="只看答案 answer only", value=False, container=False, scale=0, min_width=150, elem_id="qa-answer-only")
                    jiaodu = gr.Checkbox(label="校讀 corrected reading", value=False, container=False, scale=0, min_width=150, elem_id="qa-jiaodu")
                    clear_btn = gr.Button("新對話 new chat", size="sm", scale=0, min_width=110, elem_id="qa-new")
                    copy_txt = gr.Button("複製對話 text", size="sm", scale=0, min_width=100, elem_id="qa-copy-text")
                    copy_md = gr.Button("複製 Markdown", size="sm", scale=0, min_width=100, elem_id="qa-copy-md")
                with gr.Accordion("篩選 filters: 禮 · 層 · k", open=False, elem_id="qa-filters"):
                    with gr.Row():
                        rites = gr.CheckboxGroup(list(service.rites), value=list(service.rites), label="禮 rite", elem_id="qa-rites")
                        layers = gr.CheckboxGroup(list(LAYER_CHOICES), value=list(LAYER_CHOICES), label="層 layer", elem_id="qa-layers")
                        k = gr.Slider(1, settings.max_k, value=settings.k, step=1, label="段落數 k", elem_id="qa-k")
                gr.Examples(examples=[[e] for e in EXAMPLES], inputs=[box], label="例題 Examples")
                with gr.Accordion("語料範圍 what the corpus covers", open=False, elem_id="qa-coverage"):
                    gr.HTML(service.coverage(), elem_id="qa-coverage-statement")
            with gr.Tab("閱讀 Read", id="read"):
                with gr.Row(elem_id="qa-read-nav", equal_height=True):
                    prev_btn = gr.Button("← 上一段", size="sm", scale=0, min_width=80, elem_id="qa-prev")
                    unit_box = gr.Textbox(
                        placeholder="zhushu.xiangyin.038", show_label=False, container=False, scale=2, min_width=120, elem_id="qa-unit", max_lines=1
                    )
                    go_btn = gr.Button("讀 Read", size="sm", scale=0, min_width=60, elem_id="qa-read-go")
                    next_btn = gr.Button("下一段 →", size="sm", scale=0, min_width=80, elem_id="qa-next")
                reading = gr.HTML(service.read(""), elem_id="qa-reading")
                with gr.Accordion("綱目 outline · 賈疏分節", open=True, elem_id="qa-outline"):
                    gr.HTML(service.outline(), elem_id="qa-outline-panel")

        private: dict[str, Any] = {"api_visibility": "private"}
        outputs = [chatbot, turns, box, conv_text, conv_md]
        asking = [box, turns, chatbot, script, k, rites, layers, jiaodu]
        box.submit(respond, asking, outputs, **private)
        send.click(respond, asking, outputs, **private)
        for control in (script, rites, layers, jiaodu):
            control.change(rerender, [turns, chatbot, script, rites, layers, jiaodu], [chatbot], **private)
        for control in (script, jiaodu):
            control.change(lambda u, s, j: service.read(u, view(s, None, None, j)), [unit_box, script, jiaodu], [reading], **private)
        cleared = [chatbot, turns, conv_text, conv_md]
        clear_btn.click(clear, None, cleared, **private)
        chatbot.clear(clear, None, cleared, **private)  # the trash icon forgets the turns too
        answer_only.change(None, [answer_only], None, js="(v) => { document.body.classList.toggle('qa-answer-only', !!v); }")
        copy_txt.click(None, [conv_text], None, js="(t) => { window.qaCopy(t || ''); }")
        copy_md.click(None, [conv_md], None, js="(t) => { window.qaCopy(t || ''); }")
        unit_box.submit(read, [unit_box, script, jiaodu], [reading, unit_box, tabs], **private)
        go_btn.click(read, [unit_box, script, jiaodu], [reading, unit_box, tabs], **private)
        prev_btn.click(step(-1), [unit_box, script, jiaodu], [reading, unit_box], **private)
        next_btn.click(step(1), [unit_box, script, jiaodu], [reading, unit_box], **private)
        unit_box.change(None, [unit_box], None, js="(u) => { if (window.qaSetUrl) window.qaSetUrl(u); }")
        demo.load(None, None, None, js=JS)
        demo.load(on_load, [script], [reading, unit_box, tabs], **private)
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
    topic_model()  # trained on first use (about a second): now, not on the first visitor's question
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
            state_session_capacity=settings.max_sessions,
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
