"""Answers and lemma units for people: layered HTML cards and terminal text, with matched
terms highlighted in the source's own characters and an optional 繁/简 display conversion.

Highlights are found on normalized text and mapped back to original characters with
:func:`qa.text.normalize.normalize_with_map`. Every piece of text, from the corpus or from the
user, is HTML-escaped here; nothing a user typed ever reaches the page as markup.

The 繁 display converts only sources written in simplified script (:attr:`Display.simplified`,
from the catalog's ``script``); a traditional source is never rewritten by a display option
(OpenCC s2t would turn its 云 into 雲, 于 into 於, 后 into 後).
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..answering.compose import Answer, Evidence, QueryTerms
from ..corpus.units import LemmaUnit
from ..text.normalize import normalize_with_map
from .display import (
    COMMON_SHARE,
    LAYER_CHOICES,
    SCRIPTS,
    Display,
    Script,
    as_display,
    common_chars,
    simplified_sources,
)
from .page import CSS
from .plaintext import answer_plain, citation_text

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.corrections import Correction
    from ..retrieval.retriever import Hit

_ANSI_MARK = ("\x1b[1;33m", "\x1b[0m")
_ANSI_LABEL = ("\x1b[1;36m", "\x1b[0m")
_ANSI_DIM = ("\x1b[2m", "\x1b[0m")


# ---------------------------------------------------------------- text pieces


@lru_cache(maxsize=2)
def _converter(config: str):
    import opencc  # lazily: importing qa.present.render stays cheap

    return opencc.OpenCC(config)


def convert_script(text: str, script: Script) -> str:
    """``text`` converted to ``script``: unchanged for "original", else OpenCC s2t / t2s.

    Callers decide whether a source may be converted (:meth:`Display.script_for`)."""
    if script == "original" or not text:
        return text
    return _converter("s2t" if script == "hant" else "t2s").convert(text)


def highlight_spans(text: str, terms: QueryTerms, common: Collection[str] = frozenset()) -> list[tuple[int, int]]:
    """Spans of ``text`` (original characters) matching the question's terms.

    A phrase or bigram of the question marks every character it covers; a single character
    of the question marks itself only when it is not one of the ``common`` characters (人, 主,
    有 ... would light up every line) or is all the question asks."""
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
    singles = {c for c in terms.chars if c not in common}
    if len(terms.phrases) == 1 and len(terms.phrases[0]) == 1:
        singles.add(terms.phrases[0])  # the question is that one character: show it, common or not
    for k, ch in enumerate(norm):
        if ch in singles:
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


def segments(
    text: str, terms: QueryTerms | None, script: Script = "original", common: Collection[str] = frozenset()
) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, highlighted) runs, each converted for display."""
    spans = highlight_spans(text, terms, common) if terms else []
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


def text_html(
    text: str, terms: QueryTerms | None, script: Script = "original", common: Collection[str] = frozenset()
) -> str:
    """Escaped HTML of ``text`` with matches in <mark>."""
    return "".join(
        f"<mark>{html.escape(p)}</mark>" if on else html.escape(p) for p, on in segments(text, terms, script, common)
    )


def text_terminal(text: str, terms: QueryTerms | None, script: Script = "original", color: bool = True) -> str:
    """``text`` for a terminal, matches in bold yellow when ``color``."""
    if not color:
        return convert_script(text, script)
    return "".join(f"{_ANSI_MARK[0]}{p}{_ANSI_MARK[1]}" if on else p for p, on in segments(text, terms, script))


def jiaodu_text_html(
    text: str,
    fixes: Sequence["Correction"],
    terms: QueryTerms | None,
    script: Script = "original",
    common: Collection[str] = frozenset(),
) -> str:
    """:func:`text_html` of the 校讀: each correction in ``fixes`` (of this text) shown corrected in
    ``<span class="qa-jiaodu" title="原作「…」：why">``; the source's character stays on hover."""
    out, at = [], 0
    for c in sorted(fixes, key=lambda c: c.offset):
        if c.offset < at or text[c.offset : c.offset + len(c.source)] != c.source:
            continue  # a correction that does not fit this text is not shown
        out.append(text_html(text[at : c.offset], terms, script, common))
        title = _attr(f"原作「{c.source}」：{c.note}")
        out.append(f'<span class="qa-jiaodu" title="{title}">{html.escape(convert_script(c.corrected, script))}</span>')
        at = c.offset + len(c.source)
    out.append(text_html(text[at:], terms, script, common))
    return "".join(out)


def user_html(text: str) -> str:
    """What a user typed, as inert text: escaped, newlines kept, inside one HTML block
    (so Markdown inside it is not interpreted either)."""
    return '<div class="qa-user">' + html.escape(text).replace("\n", "<br>") + "</div>"


# ---------------------------------------------------------------- HTML


def _span(unit: LemmaUnit) -> str:
    first, last = unit.lines
    return f"{first}" if first == last else f"{first}–{last}"


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def unit_link(unit_id: str, label: str | None = None) -> str:
    """A unit id as a link to the reading view (``?unit=…``, a stable address)."""
    return (
        f'<a class="qa-unit-link" href="?unit={_attr(unit_id)}" target="_blank"'
        f' title="閱讀 read in its chapter">{html.escape(label or unit_id)}</a>'
    )


def key_class(key: str) -> str:
    """A <details>' key as a class (the chat's sanitizer drops data-* attributes): ``qa-k-…``."""
    return "qa-k-" + re.sub(r"[^A-Za-z0-9_-]", "_", key)


def copy_button(text: str, label: str, cls: str = "") -> str:
    """A button the page's script copies ``text`` (plain text, kept in a hidden child: the
    chat's sanitizer drops data-* attributes) from; the label shows what it copies."""
    classes = f"qa-copy {cls}".strip()
    return (
        f'<button type="button" class="{classes}"><span class="qa-copy-label">{html.escape(label)}</span>'
        f'<span class="qa-copy-src">{html.escape(text)}</span></button>'
    )


def evidence_html(e: Evidence, terms: QueryTerms | None, display: "Display | Script") -> str:
    d = as_display(display)
    cite = d.cite(e) if d.cite else None
    first, last = e.lines
    span = f"{first}" if first == last else f"{first}–{last}"
    return (
        f'<li><span class="qa-ev">{text_html(e.text, terms, d.script_for(e.source), d.common)}</span>'
        f'<span class="qa-cite"><span class="qa-where">{html.escape(f"{e.work}·{e.rite}·")}</span>'
        f'{html.escape(e.label)}·{unit_link(e.unit_id)}<span class="qa-src">{html.escape(f"（{e.source}:{span}）")}</span>'
        f'{copy_button(citation_text(e, cite), "複製引文", "qa-copy-cite")}</span></li>'
    )


def _shu_parts(unit: LemmaUnit):
    """疏 parts with text: a header-only part (the file ends after a header) is not shown or counted."""
    return [p for p in unit.shu if p.text.strip()]


def _layers_html(
    unit: LemmaUnit, terms: QueryTerms | None, d: Display, open_shu: bool, key: str = ""
) -> str:
    script = d.script_for(unit.source)
    fixes = list(d.jiaodu(unit)) if d.jiaodu else []

    def text(t: str, field: str = "") -> str:
        mine = [c for c in fixes if c.field == field]
        return jiaodu_text_html(t, mine, terms, script, d.common) if mine else text_html(t, terms, script, d.common)

    parts = [f'<div class="qa-layer qa-jing"><span class="qa-label">經</span>{text(unit.jing, "jing")}</div>']
    if unit.zhu and d.shows_layer("zhu"):
        parts.append(f'<div class="qa-layer qa-zhu"><span class="qa-label">注</span>{text(unit.zhu, "zhu")}</div>')
    shu = _shu_parts(unit)
    if shu and d.shows_layer("shu"):
        body = "".join(
            f'<p><span class="qa-shu-head">{html.escape(convert_script(p.header, script))}</span>'
            f'{text(p.text, f"shu.{unit.shu.index(p)}.text")}</p>'
            for p in shu
        )
        summary = f'<span class="qa-label">疏</span>賈公彥疏（{len(shu)}）'
        kc = f" {key_class(key + ':shu')}" if key else ""
        parts.append(
            f'<details class="qa-layer qa-shu{kc}"{" open" if open_shu else ""}><summary>{summary}</summary>{body}</details>'
        )
    if unit.xiyi and d.shows_layer("xiyi"):
        parts.append(f'<div class="qa-layer qa-xiyi"><span class="qa-label">析疑</span>{text(unit.xiyi, "xiyi")}</div>')
    for i, note in enumerate(unit.notes):
        parts.append(f'<div class="qa-layer qa-notes">【{text(note, f"notes.{i}")}】</div>')
    if d.corrections:
        for c in d.corrections(unit):
            parts.append(f'<div class="qa-layer qa-corr">校 {html.escape(c)}</div>')
    if d.parallels:
        found = list(d.parallels(unit))[:1]  # the best counterpart: one line, not a list
        for uid, rite, why, source in found:
            because = f'<span class="qa-why">（{html.escape(convert_script(why, d.script_for(source)))}）</span>' if why else ""
            parts.append(
                f'<div class="qa-layer qa-parallel"><span class="qa-label">對應</span>'
                f"{html.escape(rite)} {unit_link(uid)}{because}</div>"
            )
    return "".join(parts)


def _head_html(unit: LemmaUnit, rank: int | None, d: Display, tag: str = "div") -> str:
    lead = f'<span class="qa-rank">[{rank}]</span> ' if rank is not None else ""
    bits = [unit_link(unit.id), f'<span class="qa-work"> · {html.escape(unit.work)}</span>', f" · {html.escape(unit.rite)}"]
    if unit.section == "記":
        bits.append(" · 記")
    stage = d.stage_of(unit) if d.stage_of else None
    if stage:
        bits.append(f' › <span class="qa-stage">{html.escape(stage)}</span>')
    bits.append(f'<span class="qa-src"> · {html.escape(f"{unit.source}:{_span(unit)}")}</span>')
    return f'<{tag} class="qa-head">{lead}{"".join(bits)}</{tag}>'


def card_html(
    hit: "Hit | LemmaUnit",
    rank: int,
    terms: QueryTerms | None,
    display: "Display | Script" = "original",
    *,
    side: LemmaUnit | None = None,
    open_shu: bool = False,
    key: str = "",
) -> str:
    """One hit as a collapsible card: 經 prominent, 注 and 疏 (collapsible) distinct, an aligned unit beside.

    ``key`` names the card's <details> for the page script, which keeps what a reader opened
    or closed across re-renders (a 繁/简 switch)."""
    d = as_display(display)
    unit = hit if isinstance(hit, LemmaUnit) else hit.unit
    ckey = f"{key}:{unit.id}" if key else ""
    main = _layers_html(unit, terms, d, open_shu, ckey)
    aside = ""
    if side is not None:
        aside = f'<aside class="qa-side">{_head_html(side, None, d)}{_layers_html(side, terms, d, False, ckey + ":side" if ckey else "")}</aside>'
    kc = f" {key_class(ckey)}" if ckey else ""
    return (
        f'<details class="qa-card{kc}" open>{_head_html(unit, rank, d, "summary")}'
        f'<div class="qa-row"><div class="qa-main">{main}</div>{aside}</div></details>'
    )


def cards_html(
    hits: Sequence["Hit"],
    terms: QueryTerms | None,
    display: "Display | Script" = "original",
    *,
    units_by_id: Mapping[str, LemmaUnit] | None = None,
    evidence: Sequence[Evidence] = (),
    key: str = "",
) -> str:
    """The hits as cards numbered 1, 2, 3 …; a 析疑 unit is shown beside its aligned 注疏 unit (``related``)."""
    d = as_display(display)
    hits = [h for h in hits if d.shows_rite(h.unit.rite)]
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
    out: list[Any] = []
    for h in hits:
        if h.unit.id in shown_beside and h.unit.id not in sides:
            continue
        rank = len(out) + 1  # consecutive, whatever rides beside another card
        out.append(card_html(h, rank, terms, d, side=sides.get(h.unit.id), open_shu=h.unit.id in shu_units, key=key))
    return "".join(out)


def shown_evidence(answer: Answer, display: "Display | Script") -> list[Evidence]:
    """The answer's sentences that the rite and layer filters let through."""
    d = as_display(display)
    return [e for e in answer.evidence if d.shows_rite(e.rite) and (d.layers is None or e.layer in d.layers)]


def reading_aid_html(answer: Answer, shown: Sequence[Evidence]) -> str:
    """For an English question: the first cited sentence in plain English (when it is the first shown) and
    the English of its key terms, labelled as the project's aid, not a source; "" for other questions."""
    parts = []
    if answer.plain and shown and answer.evidence and shown[0] is answer.evidence[0]:
        label, text = answer.plain
        parts.append(f'<p class="qa-plain"><span class="qa-aid-label">{html.escape(label)}</span> '
                     f'<span class="qa-aid-note">(Yili QA\'s rendering, not a source)</span>: {html.escape(text)}</p>')
    if answer.glosses:
        terms = " · ".join(f"{html.escape(t)} <i>{html.escape(g)}</i>" for t, g in answer.glosses)
        parts.append(f'<p class="qa-glosses"><span class="qa-aid-label">Terms</span>: {terms}</p>')
    return f'<div class="qa-aid" lang="en">{"".join(parts)}</div>' if parts else ""


def answer_html(
    answer: Answer,
    terms: QueryTerms | None,
    display: "Display | Script" = "original",
    *,
    units_by_id: Mapping[str, LemmaUnit] | None = None,
    turn: int | None = None,
) -> str:
    """The whole reply: the cited answer first (with plain-text copy buttons), then the units as
    collapsible cards. ``turn`` numbers the reply, for the page script that scrolls a new
    answer's start into view and keeps open/closed state across re-renders."""
    d = as_display(display)
    key = f"t{turn}" if turn is not None else ""
    evidence = shown_evidence(answer, d) if answer.found else []
    if answer.found and evidence:
        items = "".join(evidence_html(e, terms, d) for e in evidence)
        tools = f'<div class="qa-tools">{copy_button(answer_plain(answer, evidence, d.cite), "複製答案 copy", "qa-copy-answer")}</div>'
        said = f'<div class="qa-lead">{html.escape(answer.lead)}</div>' if answer.lead else ""
        aid = reading_aid_html(answer, evidence)
        head = f'<div class="qa-answer">{said}<ol>{items}</ol>{aid}{tools}</div>'
        lead = ""
    elif answer.found:
        head = '<div class="qa-answer qa-notfound">所選的禮與層中沒有引句 · no cited sentence in the chosen rites and layers</div>'
        lead = ""
    else:
        scope = (
            f'<div class="qa-scope">{html.escape(answer.coverage)} '
            '<a class="qa-coverage-link" href="#qa-coverage">語料範圍 what the corpus covers</a></div>'
            if answer.coverage else ""
        )
        head = f'<div class="qa-answer qa-notfound">{html.escape(answer.text)}{scope}</div>'
        lead = '<div class="qa-nearest">最接近的段落（不一定回答此問）· nearest passages, not an answer</div>' if answer.hits else ""
    cards = cards_html(answer.hits, terms, d, units_by_id=units_by_id, evidence=evidence, key=key)
    n = cards.count('<details class="qa-card')
    if cards:
        kc = f" {key_class(key + ':cards')}" if key else ""
        cards = f'<details class="qa-cards{kc}" open><summary>段落 {n} passages</summary>{cards}</details>'
    turn_class = f" qa-turn-{turn}" if turn is not None else ""
    return f'<div class="qa-reply{turn_class}">{head}{lead}{cards}</div>'


# ---------------------------------------------------------------- terminal


def answer_terminal(
    answer: Answer,
    terms: QueryTerms | None,
    script: Script = "original",
    *,
    color: bool = True,
    shu_chars: int = 300,
    simplified: Collection[str] = frozenset(),
) -> str:
    """The answer with citations, then each unit's layers labelled 經 / 注 / 疏 / 析疑.

    ``script="hant"`` converts only the sources in ``simplified`` (see :func:`simplified_sources`)."""
    d = Display(script=script, simplified=frozenset(simplified))

    def label(s: str) -> str:
        return f"{_ANSI_LABEL[0]}{s}{_ANSI_LABEL[1]}" if color else s

    def dim(s: str) -> str:
        return f"{_ANSI_DIM[0]}{s}{_ANSI_DIM[1]}" if color else s

    lines: list[str] = []
    if answer.found:
        lines.append(label("答"))
        if answer.lead:  # a notice (the named layer has nothing on it) or a sequence answer's first line
            lines.extend(f"  {line}" for line in answer.lead.split("\n"))
        for n, e in enumerate(answer.evidence, 1):
            lines.append(f"  {n}. {text_terminal(e.text, terms, d.script_for(e.source), color)}")
            lines.append("     " + dim(f"—— {e.scholarly or e.citation()}"))  # the citation a scholar pastes
        if answer.plain:
            lines.append("  " + dim(f"{answer.plain[0]} (Yili QA's rendering, not a source): {answer.plain[1]}"))
        if answer.glosses:
            lines.append("  " + dim("Terms: " + " · ".join(f"{t} {g}" for t, g in answer.glosses)))
    else:
        lines.append(answer.text)
        if answer.coverage and answer.coverage not in answer.text:
            lines.append(answer.coverage)
    if answer.hits:
        lines.append("")
        lines.append(label("最接近的段落（不一定回答此問）" if not answer.found else "段落"))
    for rank, h in enumerate(answer.hits, 1):
        u = h.unit
        script = d.script_for(u.source)
        lines.append("")
        lines.append(dim(f"[{rank}] {u.work} · {u.rite} · {u.source}:{_span(u)}  ({u.id})"))
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
    "COMMON_SHARE",
    "CSS",
    "Display",
    "LAYER_CHOICES",
    "SCRIPTS",
    "Script",
    "answer_html",
    "as_display",
    "common_chars",
    "copy_button",
    "key_class",
    "shown_evidence",
    "simplified_sources",
    "unit_link",
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
