"""What the corpus covers: which rites, which parts of each rite in which work, and which layers per file.

Derived from the units and their alignment, never typed in: a rite's 析疑 lemmas follow the
whole rite in order, so the 析疑 units aligned (``related``) with a 注疏 file mark where that
file's stretch of the rite lies; 析疑 units between two aligned with the same file are taken to
lie in that file's stretch too (alignment needs a close quotation and misses some), and the
rest are parts only 方苞 comments on. A rite with no 析疑 is covered file by file. Pure: no IO
beyond the corpus given. :meth:`Coverage.statement` says it in zh-Hant or English.
"""

from __future__ import annotations

from dataclasses import dataclass

from .load import Corpus
from .units import LemmaUnit

XIYI_WORK = "仪礼析疑"
_LAYER_NAMES = {"jing": ("經", "經"), "zhu": ("注", "注"), "shu": ("疏", "疏"), "xiyi": ("析疑", "析疑")}


@dataclass(frozen=True, slots=True)
class FileCoverage:
    """One seed file: its work and rite, its line range, and how many units carry each layer."""

    source: str
    work: str
    author: str
    rite: str
    juan: str
    lines: tuple[int, int]
    units: int
    layers: tuple[tuple[str, int], ...]  # (jing/zhu/shu/xiyi, units with that layer), non-zero only
    sections: tuple[tuple[str, int], ...]  # (經/記, units)


@dataclass(frozen=True, slots=True)
class Piece:
    """A stretch of one seed file: lines and first/last unit."""

    source: str
    lines: tuple[int, int]
    first: str
    last: str
    opening: str  # the 經 (or lemma) the stretch opens with, the seed's own characters


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of a rite, in 經 order, and the works that cover it (each with its piece)."""

    rite: str
    works: tuple[str, ...]
    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Coverage:
    files: tuple[FileCoverage, ...]
    segments: tuple[Segment, ...]

    def rites(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.rite for f in self.files))

    def segments_of(self, rite: str) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.rite == rite)

    def statement(self, lang: str = "zh-Hant") -> str:
        """A short human statement of the coverage: ``lang`` zh-Hant or en."""
        if lang not in ("zh-Hant", "en"):
            raise ValueError(f"unknown language {lang!r}: zh-Hant or en")
        return "\n".join(_zh(self) if lang == "zh-Hant" else _en(self))


def _piece(units: list[LemmaUnit]) -> Piece:
    return Piece(
        source=units[0].source,
        lines=(min(u.lines[0] for u in units), max(u.lines[1] for u in units)),
        first=units[0].id,
        last=units[-1].id,
        opening=next((u.jing for u in units if u.jing), ""),
    )


def _file_coverage(corpus: Corpus) -> tuple[FileCoverage, ...]:
    out = []
    for f in corpus.files:
        units = [u for u in corpus.units if u.source == f.name]
        parsed = next((p for p in corpus.parsed if p.source == f.name), None)
        last_line = max((s.line for s in parsed.spans), default=0) if parsed else 0
        layers = tuple(
            (name, n) for name in ("jing", "zhu", "shu", "xiyi") if (n := sum(1 for u in units if name in u.layer_texts))
        )
        sections = tuple((s, n) for s in ("經", "記") if (n := sum(1 for u in units if u.section == s)))
        out.append(
            FileCoverage(f.name, f.work, f.author, f.rite, f.juan, (1, last_line), len(units), layers, sections)
        )
    return tuple(out)


def _segments(corpus: Corpus, rite: str) -> list[Segment]:
    units = [u for u in corpus.units if u.rite == rite]
    zhushu_files = list(dict.fromkeys(u.source for u in units if u.work != XIYI_WORK))
    by_file = {name: [u for u in units if u.source == name] for name in zhushu_files}
    source_of = {u.id: u.source for u in units}
    xiyi = [u for u in units if u.work == XIYI_WORK]
    if not xiyi:
        return [Segment(rite, (by_file[n][0].work,), (_piece(by_file[n]),)) for n in zhushu_files]
    partner = [next((source_of[r] for r in u.related if r in source_of and source_of[r] != u.source), None) for u in xiyi]
    span = {
        name: (partner.index(name), len(partner) - 1 - partner[::-1].index(name)) for name in zhushu_files if name in partner
    }
    label: list[str | None] = [None] * len(xiyi)
    for name, (a, b) in span.items():
        for i in range(a, b + 1):
            label[i] = name
    segments: list[Segment] = []
    i = 0
    while i < len(xiyi):
        j = i
        while j + 1 < len(xiyi) and label[j + 1] == label[i]:
            j += 1
        run = xiyi[i : j + 1]
        zfile = label[i]
        if zfile is None:
            segments.append(Segment(rite, (XIYI_WORK,), (_piece(run),)))
        else:
            z = by_file[zfile]
            segments.append(Segment(rite, (z[0].work, XIYI_WORK), (_piece(z), _piece(run))))
        i = j + 1
    # a 注疏 file no 析疑 lemma is aligned with: its place in the rite is not known; listed last
    segments += [Segment(rite, (by_file[n][0].work,), (_piece(by_file[n]),)) for n in zhushu_files if n not in span]
    return segments


def load_coverage(corpus: Corpus) -> Coverage:
    """What ``corpus`` covers (see the module doc)."""
    rites = list(dict.fromkeys(f.rite for f in corpus.files))
    return Coverage(files=_file_coverage(corpus), segments=tuple(s for r in rites for s in _segments(corpus, r)))


def _head(s: Segment) -> str:
    """The segment's opening words: the 注疏 經's first clause, else the 析疑 lemma."""
    text = s.pieces[0].opening or (s.pieces[-1].opening if len(s.pieces) > 1 else "")
    for i, ch in enumerate(text):
        if ch in "，。；：、":
            return text[:i]
    return text


def _lines(p: Piece) -> str:
    a, b = p.lines
    return f"{p.source}:{a}–{b}"


def _zh(c: Coverage) -> list[str]:
    works = "、".join(f"《{w}》" for w in dict.fromkeys(f.work for f in c.files))
    out = [f"本語料收{len(c.rites())}篇：{'、'.join(c.rites())}；所據{works}。"]
    for rite in c.rites():
        parts = []
        for s in c.segments_of(rite):
            head = _head(s)
            where = "、".join(_lines(p) for p in s.pieces)
            if s.works == (XIYI_WORK,):
                parts.append(f"自「{head}」起一段僅有方苞《{XIYI_WORK}》（{where}）")
            elif XIYI_WORK in s.works:
                parts.append(f"自「{head}」起一段有鄭注賈疏，並有方苞析疑（{where}）")
            else:
                parts.append(f"自「{head}」起有鄭注賈疏（{where}）")
        out.append(f"{rite}：" + "；".join(parts) + "。")
    for f in c.files:
        layers = "、".join(f"{_LAYER_NAMES[k][0]}{n}" for k, n in f.layers)
        secs = "、".join(f"{s}{n}" for s, n in f.sections)
        out.append(f"{f.source}：《{f.work}》{f.rite}（{f.juan}），{f.units}單元（{secs}），各層：{layers}。")
    return out


def _en(c: Coverage) -> list[str]:
    names = {"jing": "jing 經", "zhu": "zhu 注", "shu": "shu 疏", "xiyi": "xiyi 析疑"}
    out = [f"The corpus holds {len(c.rites())} rites: {', '.join(c.rites())}."]
    for rite in c.rites():
        parts = []
        for s in c.segments_of(rite):
            head = _head(s)
            where = ", ".join(_lines(p) for p in s.pieces)
            if s.works == (XIYI_WORK,):
                parts.append(f"from 「{head}」 only Fang Bao's {XIYI_WORK} ({where})")
            elif XIYI_WORK in s.works:
                parts.append(f"from 「{head}」 Zheng Xuan's notes and Jia Gongyan's sub-commentary, with Fang Bao ({where})")
            else:
                parts.append(f"from 「{head}」 Zheng Xuan's notes and Jia Gongyan's sub-commentary ({where})")
        out.append(f"{rite}: " + "; ".join(parts) + ".")
    for f in c.files:
        layers = ", ".join(f"{names[k]} {n}" for k, n in f.layers)
        secs = ", ".join(f"{s} {n}" for s, n in f.sections)
        out.append(f"{f.source}: {f.work}, {f.rite} ({f.juan}), {f.units} units ({secs}); units per layer: {layers}.")
    return out


__all__ = ["Coverage", "FileCoverage", "Piece", "Segment", "load_coverage"]
