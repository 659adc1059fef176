"""The report for people (.md and .html, printable): each question, its input columns, the
answering sentences with their citations in a scholar's form; ids, scores and file:line only
with ``--detail``. Every field is escaped, so nothing a question holds can break the report
or forge the ``<!-- qa-row N -->`` markers that ``--resume`` reads."""

from __future__ import annotations

import html
import re
from typing import Any

from .layout import Layout, csv_text
from .present import answer_sentences, citation, shown, simplified_source, title
from .read import InputRow

#: Nearest units shown under a question no passage answers, and how much of each 經.
NEAREST, NEAREST_CHARS = 3, 60

TITLE = "《儀禮》問答 · Yili QA answers"
MARK = "<!-- qa-row {n} -->\n"
MARK_RE = re.compile(rb"<!-- qa-row (\d+) -->\n")
MD_HEAD = f"# {TITLE}\n\n<!-- qa batch report -->\n\n"
HTML_HEAD = f"""<!DOCTYPE html>
<html lang="zh-Hant">
<head>
<meta charset="utf-8">
<meta name="generator" content="qa batch report">
<title>{TITLE}</title>
<style>
body {{ font-family: "Noto Serif CJK TC", "Songti TC", serif; max-width: 52em; margin: 2em auto; line-height: 1.7; }}
section {{ border-top: 1px solid #ccc; padding: .5em 0 1em; }}
h2 {{ font-size: 1.15em; margin: .4em 0; }}
dl.cols {{ display: grid; grid-template-columns: max-content 1fr; gap: 0 1em; margin: .3em 0; color: #444; }}
dl.cols dt {{ font-weight: bold; }} dl.cols dd {{ margin: 0; white-space: pre-wrap; }}
blockquote {{ margin: .4em 0 .4em 1em; }} cite {{ display: block; font-style: normal; color: #555; }}
.flag {{ color: #8a5a00; }} .error {{ color: #a00; }} .detail {{ font-size: .85em; color: #555; }}
@media print {{
  body {{ max-width: none; margin: 0; font-size: 11pt; }}
  section {{ break-inside: avoid; page-break-inside: avoid; }}
  a {{ color: inherit; text-decoration: none; }}
}}
</style>
</head>
<body>
<h1>{TITLE}</h1>
"""
HTML_FOOT = "</body>\n</html>\n"


def md_escape(value: Any) -> str:
    """Text shown as itself in Markdown, on one line: HTML escaped, inline Markdown punctuation
    backslashed, and a start that would open a list or a heading (「1.」「- 」「+ 」) too."""
    s = html.escape(csv_text(value), quote=False)
    s = re.sub(r"([\\`*_{}\[\]#|~!])", r"\\\1", s)
    s = " ".join(s.split())
    s = re.sub(r"^(\d+)([.)])", r"\1\\\2", s)
    return "\\" + s if s[:1] in ("-", "+", ">", "=") else s


def _hit_line(h: dict[str, Any]) -> str:
    first, last = (list(h.get("lines") or [0, 0]) + [0, 0])[:2]
    return f"{h['id']} {h['work']}·{h['rite']} ({h['source']}:{first}–{last}, score {float(h['score']):.3f})"


def nearest(row: dict[str, Any], layout: Layout) -> list[str]:
    """The nearest units of a question no passage answers, as 《work·rite》經：「…」."""
    out = []
    for h in (row.get("hits") or [])[:NEAREST]:
        jing = str(h.get("jing") or "")
        jing = jing if len(jing) <= NEAREST_CHARS else jing[:NEAREST_CHARS] + "…"
        line = f"《{title(str(h.get('work', '')))}·{h.get('rite', '')}》經：「{shown(jing, layout.script, simplified=simplified_source(str(h.get('work', ''))))}」"
        out.append(shown(line, layout.script) if layout.script == "hans" else line)
    return out


def md_section(r: InputRow, row: dict[str, Any], layout: Layout) -> str:
    out = [f"## {md_escape(r.id or r.index + 1)}. {md_escape(row.get('question') or r.question or '')}", ""]
    extra = layout.extra(r)
    if extra:
        out += [" · ".join(f"**{md_escape(k)}** {md_escape(v)}" for k, v in extra.items()), ""]
    if row.get("error"):
        out += [f"**Error:** {md_escape(row['error'])}", ""]
    elif row.get("citations"):
        for text, c in zip(answer_sentences(row, layout.script), row["citations"]):
            out += [f"> {md_escape(text)}  ", f"> —— {md_escape(_source(c, layout))}", ">"]
        out[-1] = ""
    else:
        out += [f"*{md_escape(shown(row.get('answer') or '', layout.script))}*", ""]
        out += [f"- {md_escape(n)}" for n in nearest(row, layout)] + ([""] if row.get("hits") else [])
    if layout.detail and row.get("hits"):
        out += [f"{k}. {md_escape(_hit_line(h))}" for k, h in enumerate(row["hits"], 1)] + [""]
    out.append(MARK.format(n=r.index))
    return "\n".join(out)


def _source(c: dict[str, Any], layout: Layout) -> str:
    """The citation without the sentence (shown just above it)."""
    return citation(c, layout.script, detail=layout.detail, sentence=False)


def html_section(r: InputRow, row: dict[str, Any], layout: Layout) -> str:
    def e(v: Any) -> str:
        return html.escape(csv_text(v))

    out = [f"<section>\n<h2>{e(r.id or r.index + 1)}. {e(row.get('question') or r.question or '')}</h2>"]
    extra = layout.extra(r)
    if extra:
        out.append('<dl class="cols">' + "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in extra.items()) + "</dl>")
    if row.get("error"):
        out.append(f'<p class="error">Error: {e(row["error"])}</p>')
    elif row.get("citations"):
        for text, c in zip(answer_sentences(row, layout.script), row["citations"]):
            out.append(f"<blockquote>{e(text)}<cite>—— {e(_source(c, layout))}</cite></blockquote>")
    else:
        out.append(f'<p class="flag">{e(shown(row.get("answer") or "", layout.script))}</p>')
        if row.get("hits"):
            out.append('<ul class="nearest">' + "".join(f"<li>{e(n)}</li>" for n in nearest(row, layout)) + "</ul>")
    if layout.detail and row.get("hits"):
        out.append('<ol class="detail">' + "".join(f"<li>{e(_hit_line(h))}</li>" for h in row["hits"]) + "</ol>")
    out.append("</section>\n" + MARK.format(n=r.index))
    return "\n".join(out)


__all__ = ["HTML_FOOT", "HTML_HEAD", "MARK_RE", "MD_HEAD", "html_section", "md_escape", "md_section"]
