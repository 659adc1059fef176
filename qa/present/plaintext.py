"""Answers and conversations as plain text and Markdown, for the copy buttons: the sources'
own characters and citations, never HTML."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from ..answering.compose import Answer, Evidence

Cite = Callable[[Evidence], str]


class TurnLike(Protocol):
    """One exchange of a conversation: what was asked, and the answer or the error."""

    @property
    def question(self) -> str: ...
    @property
    def answer(self) -> Answer | None: ...
    @property
    def error(self) -> str | None: ...


def citation_text(e: Evidence, cite: str | None = None) -> str:
    """One cited sentence as a scholar pastes it: 「sentence」——citation (the given ``cite`` or the default)."""
    return f"{e.text}——{cite or e.citation()}"


def answer_plain(answer: Answer, evidence: Sequence[Evidence] | None = None, cite: Cite | None = None) -> str:
    """The answer's cited sentences, numbered, each with its citation on the next line."""
    evidence = answer.evidence if evidence is None else evidence
    if not answer.found or not evidence:
        return answer.text
    lines = [answer.lead] if answer.lead else []  # a sequence or compare answer's first line
    for n, e in enumerate(evidence, 1):
        lines.append(f"{n}. {e.text}")
        lines.append(f"   —— {cite(e) if cite else e.citation()}")
    return "\n".join(lines)


def conversation_text(turns: Sequence[TurnLike], cite: Cite | None = None) -> str:
    """The whole conversation as plain text: 問 then 答, turn by turn."""
    blocks = []
    for t in turns:
        body = answer_plain(t.answer, cite=cite) if t.answer is not None else f"⚠ {t.error or ''}"
        blocks.append(f"問：{t.question}\n答：\n{body}")
    return "\n\n".join(blocks)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def conversation_markdown(turns: Sequence[TurnLike], cite: Cite | None = None) -> str:
    """The whole conversation as Markdown: a heading per question, the cited sentences as a list."""
    blocks = []
    for t in turns:
        lines = [f"### 問：{_md(t.question)}", ""]
        a = t.answer
        if a is None:
            lines.append(f"> ⚠ {_md(t.error or '')}")
        elif not a.found or not a.evidence:
            lines.append(f"> {_md(a.text)}")
        else:
            if a.lead:
                lines += [_md(a.lead), ""]
            for n, e in enumerate(a.evidence, 1):
                lines.append(f"{n}. {_md(e.text)}  ")
                lines.append(f"   —— {_md(cite(e) if cite else e.citation())}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


__all__ = ["TurnLike", "answer_plain", "citation_text", "conversation_markdown", "conversation_text"]
