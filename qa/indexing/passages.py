"""Lemma units → passages: the sentence-sized pieces that are embedded and matched, each mapped to its unit."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from ..corpus.units import LemmaUnit
from ..text.normalize import normalize

#: Target size (characters) of one 疏 / long 注 / 析疑 piece: a sentence or two of 疏.
CHUNK_CHARS = 120
#: A 注 or 析疑 note up to this length stays one passage (a gloss reads best whole).
WHOLE_CHARS = 240
#: Sentence ends first (。；？！), then, for unpunctuated text such as 仪礼析疑, weaker breaks.
SEPARATORS: tuple[str, ...] = ("。", "；", "？", "！", "，", "、", " ", "")


@dataclass(frozen=True, slots=True)
class Passage:
    """One piece of one layer of one lemma unit."""

    unit_id: str  # LemmaUnit.id
    layer: str  # "jing" | "zhu" | "shu" | "xiyi" | "notes"
    part: int  # 0-based index of this piece within the unit's layer
    text: str  # the original characters (display)
    norm: str  # qa.text.normalize.normalize(text) (matching)

    def to_dict(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "layer": self.layer, "part": self.part, "text": self.text, "norm": self.norm}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Passage":
        return cls(unit_id=d["unit_id"], layer=d["layer"], part=int(d["part"]), text=d["text"], norm=d["norm"])


@lru_cache(maxsize=1)
def _splitter():
    from langchain_text_splitters import RecursiveCharacterTextSplitter  # lazy: importing qa stays cheap

    # keep_separator="end": the 。 stays with its sentence, so pieces are verbatim source text.
    return RecursiveCharacterTextSplitter(
        separators=list(SEPARATORS),
        chunk_size=CHUNK_CHARS,
        chunk_overlap=0,
        keep_separator="end",
        strip_whitespace=True,
    )


def split_text(text: str) -> list[str]:
    """Cut ``text`` into sentence-sized pieces of its own characters (never altered, only cut)."""
    text = text.strip()
    if not text:
        return []
    if len(text) <= CHUNK_CHARS:
        return [text]
    return [p for p in _splitter().split_text(text) if p.strip()]


def _pieces(text: str, *, whole_up_to: int) -> list[str]:
    text = text.strip()
    if not text:
        return []
    return [text] if len(text) <= whole_up_to else split_text(text)


def unit_passages(unit: LemmaUnit) -> list[Passage]:
    """The passages of one unit, in reading order: 經, 注, 疏 pieces, 析疑, notes."""
    layers: list[tuple[str, list[str]]] = [
        ("jing", _pieces(unit.jing, whole_up_to=10**9)),  # 經 is one passage: it is what users quote
        ("zhu", _pieces(unit.zhu, whole_up_to=WHOLE_CHARS)),
        ("shu", [piece for p in unit.shu for piece in split_text(p.text)]),
        ("xiyi", _pieces(unit.xiyi, whole_up_to=WHOLE_CHARS)),
        ("notes", [n.strip() for n in unit.notes if n.strip()]),
    ]
    out: list[Passage] = []
    for layer, texts in layers:
        part = 0
        for text in texts:
            norm = normalize(text)
            if not norm:  # punctuation only: nothing to match
                continue
            out.append(Passage(unit.id, layer, part, text, norm))
            part += 1
    return out


def make_passages(units: Sequence[LemmaUnit]) -> tuple[Passage, ...]:
    """All passages of ``units``, unit by unit; a passage's position is its id in the indexes."""
    return tuple(p for u in units for p in unit_passages(u))


__all__ = ["Passage", "make_passages", "unit_passages", "split_text", "CHUNK_CHARS", "WHOLE_CHARS"]
