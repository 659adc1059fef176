"""The corpus's own glosses, mined from the 注 and 疏 when an index is opened: 「旨，美也」 → 旨 is 美.

Every sentence of a 注 or 疏 of the forms

- 「X，Y也」 / 「X者，Y也」 (旨，美也; 胥，膳宰之吏也), or a short 「X，Y。」 (冪，覆尊巾),
- 「X，謂Y」 / 「X者，謂Y」 / 「X，猶Y」 / 「X猶Y也」 (主人，謂諸侯之鄉大夫也; 繚猶紾也),
- 「X之言Y也」 (酬之言周),
- 「Y曰X」 (側邊曰廉; 事同曰讓),

where X is a short term (one to four characters) that the unit's 經 (for a 疏 also its 注)
uses, is a :class:`Gloss`. The requirement that the 經 uses X is what separates a gloss from
a 疏's 「此不言，文略也」-style remark. Nothing here knows any particular term: the list is
whatever the corpus says, and it changes when the corpus does.

Uses: the question's words reaching a gloss Y reach its term X (「說酒很美」 reaches 旨), and a
unit whose commentary glosses the asked term is where a definition question is answered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..text.normalize import normalize

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit

#: Longest term X (characters) and longest gloss Y kept.
MAX_TERM = 4
MAX_GLOSS = 12
#: A gloss without 也 (「冪，覆尊巾」) is a whole sentence of at most this many characters after the term.
SHORT_GLOSS = 5
_SENTENCES = re.compile(r"[^。；]+[。；]?")
_LEAD = re.compile(r"^(?:[○\s]|釋曰[︰：:]?|释曰[︰：:]?|云[「“]?)+")
_HEAD = re.compile(r"^([^，,︰：「」“”『』]{1,%d}?)(者)?[，,](謂|谓|猶|犹|言)?(.+)$" % MAX_TERM)
_SAYS = re.compile(r"^([^，,]{1,%d}?)之言([^，,。；]{1,%d}?)也?(?:[，,]|$)" % (MAX_TERM, MAX_GLOSS))
_LIKE = re.compile(r"^([^，,]{1,%d}?)[猶犹]([^，,。；]{1,%d}?)也" % (MAX_TERM, MAX_GLOSS))
_CALLED = re.compile(r"([^，,。；曰]{1,6})曰([^，,。；曰之]{1,2})$")
_QUOTES = "「」『』“”‘’"


@dataclass(frozen=True, slots=True)
class Gloss:
    """One gloss the commentary gives: ``term`` is ``gloss`` (both normalized), and where it is said."""

    term: str
    gloss: str
    unit_id: str
    layer: str  # zhu / shu
    text: str  # the glossing sentence, source characters


def _clauses(text: str) -> Iterable[str]:
    for m in _SENTENCES.finditer(text):
        s = _LEAD.sub("", m.group(0).strip())
        s = s.strip(_QUOTES + "。； ")
        if s:
            yield s


def _gloss_of(sentence: str) -> tuple[str, str] | None:
    """(X, Y) when ``sentence`` glosses a short term X by Y (source characters), else None."""
    m = _SAYS.match(sentence) or _LIKE.match(sentence)
    if m:
        return m.group(1), m.group(2)
    m = _HEAD.match(sentence)
    if m:
        term, marker, rest = m.group(1), m.group(3), m.group(4)
        first = re.split(r"[，,]", rest, maxsplit=1)[0]
        if marker in ("謂", "谓") and len(first) <= MAX_GLOSS:
            return term, first.rstrip("也")
        if marker in ("猶", "犹") and len(first) <= MAX_GLOSS:
            return term, first.rstrip("也")
        if first.endswith("也") and 1 <= len(first) - 1 <= MAX_GLOSS:
            return term, first[:-1]
        if not marker and first == rest and len(first) <= SHORT_GLOSS:  # 「冪，覆尊巾」「脀，俎實」
            return term, first
    first_clause = re.split(r"[，,]", sentence)[0]
    m = _CALLED.search(first_clause)
    if m and len(first_clause) <= 8:
        return m.group(2), m.group(1)
    return None


def mine_glosses(units: Sequence["LemmaUnit"]) -> tuple[Gloss, ...]:
    """Every gloss of a 經 term in the 注 and 疏 of ``units`` (first occurrence of each (term, gloss) per unit)."""
    out: list[Gloss] = []
    for u in units:
        jing = normalize(u.jing)
        zhu = normalize(u.zhu)
        seen: set[tuple[str, str]] = set()
        for layer, text, scope in (("zhu", u.zhu, jing), *(("shu", p.text, jing + zhu) for p in u.shu)):
            if not text:
                continue
            for sentence in _clauses(text):
                found = _gloss_of(sentence)
                if not found:
                    continue
                term, gloss = normalize(found[0]), normalize(found[1])
                if not term or not gloss or term == gloss or term not in scope or len(term) > MAX_TERM:
                    continue
                if (term, gloss) in seen:
                    continue
                seen.add((term, gloss))
                out.append(Gloss(term, gloss, u.id, layer, sentence))
    return tuple(out)


__all__ = ["Gloss", "mine_glosses", "MAX_TERM", "MAX_GLOSS"]
