"""Displaced text: a 經 sentence and its 鄭注 gloss that a seed line carries at the end of a 疏.

Some seed lines hide a step of the rite: 003's 疏 line 84 ends
「…故西北面向其席故也。賓西階上拜，主人少退。少退，少辟。」 — after the 疏's own
closing come the 經 「賓西階上拜，主人少退。」 and its 注 「少退，少辟。」, which belong
between this unit and the next. The rule (documented decision, applied to the last 疏
part of every unit, i.e. the text right before the next 經 in file order):

* cut the 疏 text into sentences at 。 outside quotation brackets;
* the last sentence Z is a 鄭注 gloss: short (≤ ``MAX_GLOSS`` characters, matching form),
  shaped 「A，B。」 with the glossed term A found in the sentence before it;
* that sentence J reads as 經: under the file's own 經/注 character model
  (:class:`.charmodel.CharModel`) its mean per-character log-odds is above
  ``MIN_JING_ODDS`` (it reads more as 經 than as 注); it holds no quotation brackets
  (a 疏 quoting the 經 uses 「」 and 云…者); and it is not part of the 經 the 疏
  belongs to (a 疏 restating its own 經 is not displaced);
* the 疏 keeps at least one sentence of its own before J.

Nothing is moved or altered: the parser gives J and Z a unit of their own (boundary
"recovered") built from the same source characters, so the file stays lossless.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...text.normalize import normalize
from .charmodel import CharModel

#: The longest 注 gloss (matching-form characters) taken for a displaced 注.
MAX_GLOSS = 14
#: J must read as 經 rather than 注: mean log-odds per character above this (the class boundary).
MIN_JING_ODDS = 0.0
_OPEN, _CLOSE = "「“『‘", "」”』’"


@dataclass(frozen=True, slots=True)
class Displaced:
    """Offsets into the 疏 text: where the displaced 經 starts, and where its 注 starts."""

    jing_start: int
    zhu_start: int


def sentence_ends(text: str) -> list[int]:
    """End offsets of the sentences of ``text``, cut at 。 outside quotation brackets."""
    ends: list[int] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif ch == "。" and depth == 0:
            ends.append(i + 1)
    if not ends or ends[-1] != len(text):
        ends.append(len(text))
    return ends


def _is_gloss(zhu: str, jing: str) -> bool:
    head, sep, _ = zhu.partition("，")
    term = normalize(head)
    return bool(sep) and bool(term) and len(normalize(zhu)) <= MAX_GLOSS and term in normalize(jing)


def find_displaced(text: str, model: CharModel, own_jing: str = "") -> Displaced | None:
    """The displaced 經 + 注 at the end of 疏 text ``text``, or None (see the module doc)."""
    if not model.trained:
        return None
    ends = sentence_ends(text.rstrip())
    if len(ends) < 3:  # the 疏's own text, then J, then Z
        return None
    j_start, z_start = ends[-3], ends[-2]
    jing, zhu = text[j_start:z_start], text[z_start:]
    if any(ch in _OPEN + _CLOSE for ch in jing + zhu) or not _is_gloss(zhu.strip(), jing):
        return None
    n = len(normalize(jing))
    if not n or model.score(jing) / n <= MIN_JING_ODDS:
        return None
    if normalize(jing) in normalize(own_jing):
        return None
    return Displaced(jing_start=j_start, zhu_start=z_start)


__all__ = ["Displaced", "find_displaced", "sentence_ends"]
