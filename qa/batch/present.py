"""What people read of a batch row: the answer's sentences and their citations in a scholar's
form (《儀禮注疏·燕禮》鄭玄注：「…」), in the script asked for.

``orig`` leaves every text as the source wrote it; ``hans`` converts all shown text to
simplified; ``hant`` converts only sentences from simplified sources (方苞's 析疑, the 000
file) to traditional, since the traditional sources need nothing. The JSONL rows (and the
hits) are never converted.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal

Script = Literal["orig", "hant", "hans"]
SCRIPTS: tuple[str, ...] = ("orig", "hant", "hans")
#: The layer of a sentence, named as a scholar cites it: by its commentator.
LAYER_AUTHORS: dict[str, str] = {"jing": "經", "zhu": "鄭玄注", "shu": "賈公彥疏", "xiyi": "方苞析疑", "notes": "按"}


@lru_cache(maxsize=2)
def _opencc(config: str):
    import opencc

    return opencc.OpenCC(config)


def to_hant(text: str) -> str:
    return _opencc("s2t").convert(text) if text else text


def to_hans(text: str) -> str:
    return _opencc("t2s").convert(text) if text else text


def simplified_source(work: str) -> bool:
    """Whether a work's text is written in simplified characters (its title is: 仪礼析疑)."""
    return to_hans(work) == work


def title(work: str) -> str:
    """A work's title in its usual traditional form: 仪礼析疑 → 儀禮析疑; 儀禮注疏 stays as it is."""
    return to_hant(work) if simplified_source(work) else work


def shown(text: str, script: str, *, simplified: bool = False) -> str:
    """``text`` in the script asked for (see the module docstring)."""
    if script == "hans":
        return to_hans(text)
    if script == "hant" and simplified:
        return to_hant(text)
    return text


def citation(c: Mapping[str, Any], script: str = "orig", *, detail: bool = False, sentence: bool = True) -> str:
    """《work·rite》layer-author：「sentence」 (the sentence left out when it is shown just above),
    plus （file:line · unit id） with ``detail``."""
    simplified = simplified_source(str(c.get("work", "")))
    work = title(str(c.get("work", "")))
    layer = LAYER_AUTHORS.get(str(c.get("layer", "")), str(c.get("layer", "")))
    text = f"《{work}·{c.get('rite', '')}》{layer}"
    if sentence:
        text += f"：「{shown(str(c.get('text', '')), script, simplified=simplified)}」"
    if script == "hans":
        text = to_hans(text)
    if detail:
        first, last = (list(c.get("lines") or [0, 0]) + [0, 0])[:2]
        span = f"{first}" if first == last else f"{first}–{last}"
        text += f"（{c.get('source', '')}:{span} · {c.get('unit_id', '')}）"
    return text


def answer_sentences(row: Mapping[str, Any], script: str = "orig") -> list[str]:
    """The answer as sentences (without their citations); the "nothing answers" text when not found."""
    if row.get("error"):
        return []
    if row.get("citations"):
        return [shown(str(c["text"]), script, simplified=simplified_source(str(c.get("work", ""))))
                for c in row["citations"]]
    return [shown(str(row.get("answer") or ""), script)] if row.get("answer") else []


def citation_lines(row: Mapping[str, Any], script: str = "orig", *, detail: bool = False) -> list[str]:
    return [citation(c, script, detail=detail) for c in row.get("citations") or []]


def top_unit(row: Mapping[str, Any]) -> str:
    hits = row.get("hits") or []
    return str(hits[0]["id"]) if hits else ""


__all__ = ["LAYER_AUTHORS", "SCRIPTS", "Script", "answer_sentences", "citation", "citation_lines", "shown",
           "simplified_source", "top_unit"]
