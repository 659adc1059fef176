"""Answers and lemma units for people: layered HTML cards and terminal text, with matched
terms highlighted in the source's own characters and an optional 繁/简 display conversion.

Highlights are found on normalized text and mapped back to original characters with
:func:`qa.normalize.normalize_with_map`. Every piece of text, from the corpus or from the
user, is HTML-escaped here; nothing a user typed ever reaches the page as markup.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from .compose import Answer, Evidence, QueryTerms
from ..text.normalize import normalize_with_map
from ..corpus.units import LemmaUnit

if TYPE_CHECKING:  # pragma: no cover
    from ..retrieval.retriever import Hit

Script = Literal["original", "hant", "hans"]
#: Display choices of the 繁/简 toggle: label → script.
SCRIPTS: dict[str, Script] = {"原文": "original", "繁體": "hant", "简体": "hans"}

_ANSI_MARK = ("\x1b[1;33m", "\x1b[0m")
_ANSI_LABEL = ("\x1b[1;36m", "\x1b[0m")
_ANSI_DIM = ("\x1b[2m", "\x1b[0m")

#: Styles for the cards (passed to the Gradio app's ``css``).
CSS = """
.qa-answer { border-left: 4px solid #b45309; padding: 6px 10px; margin: 4px 0 10px; background: #fffbeb; }
.qa-answer ol { margin: 0; padding-left: 1.4em; }
.qa-answer li { margin: 3px 0; }
.qa-ev { font-size: 1.05em; }
.qa-cite { display: block; color: #57534e; font-size: 0.82em; }
.qa-notfound { border-left-color: #6b7280; background: #f3f4f6; }
.qa-nearest { color: #6b7280; font-size: 0.9em; margin: 8px 0 4px; }
.qa-card { border: 1px solid #d6d3d1; border-radius: 8px; margin: 8px 0; padding: 8px 10px; background: #fff; }
.qa-head { font-size: 0.82em; color: #57534e; margin-bottom: 4px; }
.qa-id { font-family: monospace; background: #f5f5f4; padding: 0 4px; border-radius: 3px; }
.qa-row { display: flex; gap: 12px; flex-wrap: wrap; }
.qa-main { flex: 3 1 320px; min-width: 0; }
.qa-side { flex: 2 1 220px; border-left: 3px solid #7c3aed; padding-left: 8px; background: #faf5ff; }
.qa-layer { margin: 4px 0; line-height: 1.7; }
.qa-label { display: inline-block; font-weight: bold; font-size: 0.8em; border-radius: 3px; padding: 0 5px; margin-right: 6px; color: #fff; }
.qa-jing { font-size: 1.2em; font-weight: 600; color: #1c1917; }
.qa-jing .qa-label { background: #991b1b; }
.qa-zhu { color: #1e3a8a; }
.qa-zhu .qa-label { background: #1d4ed8; }
.qa-shu { color: #365314; font-size: 0.95em; }
.qa-shu .qa-label { background: #4d7c0f; }
.qa-shu summary { cursor: pointer; }
.qa-shu-head { color: #78716c; }
.qa-xiyi { color: #4c1d95; }
.qa-xiyi .qa-label { background: #6d28d9; }
.qa-notes { color: #78716c; font-size: 0.85em; }
.qa-card mark, .qa-answer mark { background: #fde68a; color: inherit; padding: 0; }
.qa-user { white-space: pre-wrap; }
"""


# ---------------------------------------------------------------- text pieces


@lru_cache(maxsize=2)
def _converter(config: str):
    import opencc  # lazily: importing qa.render stays cheap

    return opencc.OpenCC(config)


def convert_script(text: str, script: Script) -> str:
    """``text`` for display in ``script``: unchanged for "original", else OpenCC s2t / t2s."""
    if script == "original" or not text:
        return text
    return _converter("s2t" if script == "hant" else "t2s").convert(text)


def highlight_spans(text: str, terms: QueryTerms) -> list[tuple[int, int]]:
    """Spans of ``text`` (original characters) matching the question's terms.

    A phrase or bigram of the question marks every character it covers; a single
    content character of the question marks itself."""
    norm, pos = normalize_with_map(text)
    marked = [False] * len(norm)
    for term in (*terms.phrases, *terms.bigrams):
        if len(term) < 2:
            continue
        at = norm.find(term)
        while at >= 0:
            for k in range(at, at + len(term)):
                marked[k] = True
            at = norm.find(term, at + 1)
    for k, ch in enumerate(norm):
        if ch in terms.chars:
            marked[k] = True
    spans: list[tuple[int, int]] = []
    for k, on in enumerate(marked):
        if not on:
            continue
        start, end = pos[k], pos[k] + 1
        # one original character may fold to several; extend a span only over contiguous originals
        if spans and spans[-1][1] >= start:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def segments(text: str, terms: QueryTerms | None, script: Script = "original") -> list[tuple[str, bool]]:
    """``text`` cut into (piece, highlighted) runs, each converted for display."""
    spans = highlight_spans(text, terms) if terms else []
    out: list[tuple[str, bool]] = []
    at = 0
    for s, e in spans:
        if s > at:
            out.append((text[at:s], False))
        out.append((text[s:e], True))
        at = e
    if at < len(text):
        out.append((text[at:], False))
    return [(convert_script(piece, script), on) for piece, on in out]


def text_html(text: str, terms: QueryTerms | None, script: Script = "original") -> str:
    """Escaped HTML of ``text`` with matches in <mark>."""
    return "".join(
        f"<mark>{html.escape(p)}</mark>" if on else html.escape(p) for p, on in segments(text, terms, script)
    )


def text_terminal(text: str, terms: QueryTerms | None, script: Script = "original", color: bool = True) -> str:
    """``text`` for a terminal, matches in bold yellow when ``color``."""
    if not color:
        return convert_script(text, script)
    return "".join(f"{_ANSI_MARK[0]}{p}{_ANSI_MARK[1]}" if on else p for p, on in segments(text, terms, script))


def user_html(text: str) -> str:
    """What a user typed, as inert text: escaped, newlines kept, inside one HTML block
    (so Markdown inside it is not interpreted either)."""
    return '<div class="qa-user">' + html.escape(text).replace("\n", "<br>") + "</div>"


# ---------------------------------------------------------------- HTML


def _span(unit: LemmaUnit) -> str:
    first, last = unit.lines
    return f"{first}" if first == last else f"{first}–{last}"


def evidence_html(e: Evidence, terms: QueryTerms | None, script: Script) -> str:
    return (
        f'<li><span class="qa-ev">{text_html(e.text, terms, script)}</span>'
        f'<span class="qa-cite">{html.escape(e.citation())}</span></li>'
    )


def _layers_html(unit: LemmaUnit, terms: QueryTerms | None, script: Script, open_shu: bool) -> str:
    parts = [f'<div class="qa-layer qa-jing"><span class="qa-label">經</span>{text_html(unit.jing, terms, script)}</div>']
    if unit.zhu:
        parts.append(f'<div class="qa-layer qa-zhu"><span class="qa-label">注</span>{text_html(unit.zhu, terms, script)}</div>')
    if unit.shu:
        body = "".join(
            f'<p><span class="qa-shu-head">{html.escape(convert_script(p.header, script))}</span>'
            f"{text_html(p.text, terms, script)}</p>"
            for p in unit.shu
        )
        summary = f'<span class="qa-label">疏</span>賈公彥疏（{len(unit.shu)}）'
        parts.append(f'<details class="qa-layer qa-shu"{" open" if open_shu else ""}><summary>{summary}</summary>{body}</details>')
    if unit.xiyi:
        parts.append(f'<div class="qa-layer qa-xiyi"><span class="qa-label">析疑</span>{text_html(unit.xiyi, terms, script)}</div>')
    for note in unit.notes:
        parts.append(f'<div class="qa-layer qa-notes">【{text_html(note, terms, script)}】</div>')
    return "".join(parts)


def _head_html(unit: LemmaUnit, rank: int | None, score: float | None, extra: str = "") -> str:
    bits = [f'<code class="qa-id">{html.escape(unit.id)}</code>', html.escape(unit.work), html.escape(unit.rite)]
    if unit.section == "記":
        bits.append("記")
    bits.append(html.escape(f"{unit.source}:{_span(unit)}"))
    if score is not None:
        bits.append(f"score {score:.3f}")
    lead = f"[{rank}] " if rank is not None else ""
    return f'<div class="qa-head">{lead}{" · ".join(bits)}{extra}</div>'


def card_html(
    hit: "Hit",
    rank: int,
    terms: QueryTerms | None,
    script: Script = "original",
    *,
    side: LemmaUnit | None = None,
    open_shu: bool = False,
) -> str:
    """One hit as a card: 經 prominent, 注 and 疏 (collapsible) distinct, an aligned unit beside."""
    unit = hit.unit
    main = _layers_html(unit, terms, script, open_shu)
    aside = ""
    if side is not None:
        aside = (
            f'<aside class="qa-side">{_head_html(side, None, None)}'
            f"{_layers_html(side, terms, script, False)}</aside>"
        )
    return (
        f'<div class="qa-card" data-unit="{html.escape(unit.id)}">{_head_html(unit, rank, hit.score)}'
        f'<div class="qa-row"><div class="qa-main">{main}</div>{aside}</div></div>'
    )


def cards_html(
    hits: Sequence["Hit"],
    terms: QueryTerms | None,
    script: Script = "original",
    *,
    units_by_id: Mapping[str, LemmaUnit] | None = None,
    evidence: Sequence[Evidence] = (),
) -> str:
    """The hits as cards; a 析疑 unit is shown beside its aligned 注疏 unit (``related``)."""
    units_by_id = units_by_id or {}
    hit_ids = {h.unit.id for h in hits}
    shown_beside: set[str] = set()
    sides: dict[str, LemmaUnit] = {}
    for h in hits:  # pair each unit with its aligned unit in the other edition
        for rid in h.unit.related:
            other = units_by_id.get(rid) or next((x.unit for x in hits if x.unit.id == rid), None)
            if other is None or h.unit.id in shown_beside:
                continue
            if h.unit.xiyi and rid in hit_ids:
                continue  # the 注疏 unit's card will carry this 析疑
            sides[h.unit.id] = other
            if other.xiyi:
                shown_beside.add(other.id)
            break
    shu_units = {e.unit_id for e in evidence if e.layer == "shu"}
    out = []
    for rank, h in enumerate(hits, 1):
        if h.unit.id in shown_beside and h.unit.id not in sides:
            continue
        out.append(card_html(h, rank, terms, script, side=sides.get(h.unit.id), open_shu=h.unit.id in shu_units))
    return "".join(out)


def answer_html(
    answer: Answer,
    terms: QueryTerms | None,
    script: Script = "original",
    *,
    units_by_id: Mapping[str, LemmaUnit] | None = None,
) -> str:
    """The whole reply: the cited answer first, then the units as cards."""
    if answer.found:
        items = "".join(evidence_html(e, terms, script) for e in answer.evidence)
        head = f'<div class="qa-answer"><ol>{items}</ol></div>'
        lead = ""
    else:
        head = f'<div class="qa-answer qa-notfound">{html.escape(answer.text)}</div>'
        lead = '<div class="qa-nearest">最接近的段落（不一定回答此問）· nearest passages, not an answer</div>' if answer.hits else ""
    cards = cards_html(answer.hits, terms, script, units_by_id=units_by_id, evidence=answer.evidence)
    return head + lead + cards


# ---------------------------------------------------------------- terminal


def answer_terminal(
    answer: Answer,
    terms: QueryTerms | None,
    script: Script = "original",
    *,
    color: bool = True,
    shu_chars: int = 300,
) -> str:
    """The answer with citations, then each unit's layers labelled 經 / 注 / 疏 / 析疑."""

    def label(s: str) -> str:
        return f"{_ANSI_LABEL[0]}{s}{_ANSI_LABEL[1]}" if color else s

    def dim(s: str) -> str:
        return f"{_ANSI_DIM[0]}{s}{_ANSI_DIM[1]}" if color else s

    lines: list[str] = []
    if answer.found:
        lines.append(label("答"))
        for n, e in enumerate(answer.evidence, 1):
            lines.append(f"  {n}. {text_terminal(e.text, terms, script, color)}")
            lines.append("     " + dim(f"—— {e.citation()}"))
    else:
        lines.append(answer.text)
    if answer.hits:
        lines.append("")
        lines.append(label("最接近的段落（不一定回答此問）" if not answer.found else "段落"))
    for rank, h in enumerate(answer.hits, 1):
        u = h.unit
        lines.append("")
        lines.append(dim(f"[{rank}] {u.id}  {u.work} · {u.rite} · {u.source}:{_span(u)}  score {h.score:.3f}"))
        lines.append(f"  {label('經')}  {text_terminal(u.jing, terms, script, color)}")
        if u.zhu:
            lines.append(f"  {label('注')}  {text_terminal(u.zhu, terms, script, color)}")
        if u.shu:
            shu = u.shu_text
            cut = shu if len(shu) <= shu_chars else shu[:shu_chars] + "…"
            lines.append(f"  {label('疏')}  {text_terminal(cut, terms, script, color)}")
        if u.xiyi:
            lines.append(f"  {label('析疑')} {text_terminal(u.xiyi, terms, script, color)}")
    return "\n".join(lines)


__all__ = [
    "CSS",
    "SCRIPTS",
    "Script",
    "answer_html",
    "answer_terminal",
    "card_html",
    "cards_html",
    "convert_script",
    "highlight_spans",
    "segments",
    "text_html",
    "text_terminal",
    "user_html",
]
