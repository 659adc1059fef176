"""Citations a scholar can paste: work, 卷 and rite, layer with its author, the 經 clause, edition and line.

:func:`cite` turns a unit, a layer and optionally one sentence of it into a conventional
citation, e.g. ``《儀禮注疏》卷八–十〈鄉飲酒禮〉「告旨」鄭玄注「旨，美也」（十三經注疏本，003:110）``:

* work, 卷 and edition come from the catalog (``seeds/catalog.toml``), without the
  descriptive notes in （）; the 卷 is the file's, as the catalog gives it (no seed marks
  where one 卷 ends, so a file spanning 卷八–十 is cited as such rather than guessed);
* the rite, with ·記 for units in the 記;
* the layer with its author: 經; 鄭玄注; 賈公彥疏 with the part's 標起止 (「降席」至「答拜」);
  方苞 for 析疑 (authors split from the catalog's ``author``, e.g. 鄭玄注 賈公彥疏);
* the 經 clause a 注 or 疏 sentence belongs to, where it can be determined: for a 注 gloss
  「A，B」 the one 經 clause holding A; for a 疏 sentence the one 經 clause holding a 「…」 it
  quotes; otherwise none is given;
* the line: the seed file's number and the line where the cited text begins — the full file
  name, with its content hash, is kept in :class:`Citation` for programs, not in the text.

Pure: it reads only the corpus given (catalog entries and the parsers' source spans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.normalize import normalize
from .load import Corpus
from .units import LemmaUnit, ShuPart, SourceSpan

LAYERS = ("jing", "zhu", "shu", "xiyi")
_CLAUSE = re.compile(r"[^，。；：、？！]+")
_QUOTED = re.compile(r"[「“]([^」”]+)[」”]")
#: how long a quoted layer may be before it is abridged
_MAX_QUOTE = 40


@dataclass(frozen=True, slots=True)
class Citation:
    """A citation: ``text`` for people, the rest for programs."""

    text: str
    unit: str
    layer: str
    work: str
    juan: str
    rite: str
    author: str  # of the layer: 鄭玄 / 賈公彥 / 方苞, "" for the 經
    edition: str
    jing_clause: str | None
    quote: str
    source: str  # the seed file, full name
    line: int

    def __str__(self) -> str:
        return self.text


def _plain(text: str) -> str:
    """A catalog value without its descriptive note in （）: 卷八–十（鄉飲酒禮） → 卷八–十."""
    return re.sub(r"（.*）$", "", text).strip()


def layer_author(catalog_author: str, layer: str) -> str:
    """The author of ``layer`` from the catalog's author field (鄭玄注 賈公彥疏 → 注 鄭玄, 疏 賈公彥)."""
    names = catalog_author.split()
    if layer == "jing":
        return ""
    mark = {"zhu": "注", "shu": "疏"}.get(layer)
    if mark:
        return next((n[: -len(mark)] for n in names if n.endswith(mark)), "")
    return names[0] if len(names) == 1 else ""


def _field_spans(corpus: Corpus, unit: LemmaUnit, field: str) -> list[SourceSpan]:
    parsed = next((p for p in corpus.parsed if p.source == unit.source), None)
    if parsed is None:  # a corpus view whose seed could not be read: the unit's first line
        return []
    return sorted((s for s in parsed.spans if s.unit == unit.id and s.field == field), key=lambda s: (s.line, s.start))


def _line_at(spans: list[SourceSpan], offset: int, default: int) -> int:
    seen = 0
    for s in spans:
        seen += s.end - s.start
        if offset < seen:
            return s.line
    return default


def _clause_with(jing: str, words: list[str]) -> str | None:
    """The one 經 clause holding any of ``words`` (matching form), or None if none or several."""
    clauses = [m.group() for m in _CLAUSE.finditer(jing)]
    hits = [c for c in clauses if any(w and w in normalize(c) for w in map(normalize, words))]
    return hits[0] if len(set(hits)) == 1 else None


def _abridge(text: str) -> str:
    text = text.strip()
    quote = text[:-1] if text.endswith("。") else text
    return quote if len(quote) <= _MAX_QUOTE else quote[:20] + "……"


def cite(corpus: Corpus, unit_id: str, layer: str = "jing", sentence: str | None = None) -> Citation:
    """The citation of ``layer`` of unit ``unit_id`` (a sentence of it, if given); see the module doc.

    KeyError for an unknown unit; ValueError for an unknown or empty layer, or a sentence the
    layer does not hold.
    """
    unit = corpus.by_id()[unit_id]
    if layer not in LAYERS:
        raise ValueError(f"unknown layer {layer!r}: one of {', '.join(LAYERS)}")
    seed = next(f for f in corpus.files if f.name == unit.source)
    if layer == "shu":
        fields: list[tuple[str, str, ShuPart | None]] = [(f"shu.{i}.text", p.text, p) for i, p in enumerate(unit.shu) if p.text]
    else:
        text = getattr(unit, layer)
        fields = [(layer, text, None)] if text else []
    if not fields:
        raise ValueError(f"{unit_id} has no {layer}")
    if sentence is None:
        field, text, part = fields[0]
        offset, quote_text = 0, text if layer != "shu" else "".join(t for _, t, _ in fields)
    else:
        found = next(((f, t, p) for f, t, p in fields if sentence in t), None)
        if found is None:
            raise ValueError(f"{unit_id}: the {layer} does not hold 「{sentence}」")
        field, text, part = found
        offset, quote_text = text.index(sentence), sentence
    spans = _field_spans(corpus, unit, field)
    line = _line_at(spans, offset, unit.lines[0])

    clause = None
    if sentence is not None and layer == "zhu":
        head, sep, _ = sentence.partition("，")
        clause = _clause_with(unit.jing, [head]) if sep else None
    elif sentence is not None and layer == "shu":
        quoted = [q for q in _QUOTED.findall(sentence) if normalize(q) and normalize(q) in normalize(unit.jing)]
        clause = _clause_with(unit.jing, quoted) if quoted else None

    author = layer_author(seed.author, layer)
    juan, edition = _plain(seed.juan), _plain(seed.edition)
    rite = unit.rite + ("·記" if unit.section == "記" else "")
    quote = _abridge(quote_text)
    if layer == "jing":
        who = "經" if unit.work != "仪礼析疑" else ""
    elif layer == "zhu":
        who = f"{author}注"
    elif layer == "shu":
        who = f"{author}疏" + (f"（{part.quote}）" if part is not None and part.quote else "")
    else:
        who = f"{author}曰"
    lemma = f"「{unit.jing}」" if layer == "xiyi" and unit.jing else ""
    where = f"「{clause}」" if clause else ""
    short = unit.source.split("_", 1)[0]
    text = f"《{unit.work}》{juan}〈{rite}〉{lemma}{where}{who}「{quote}」（{edition}，{short}:{line}）"
    return Citation(
        text=text, unit=unit.id, layer=layer, work=unit.work, juan=juan, rite=unit.rite, author=author,
        edition=edition, jing_clause=clause, quote=quote, source=unit.source, line=line,
    )


__all__ = ["Citation", "cite", "layer_author"]
