"""A two-class character bigram model (經 vs commentary) that parsers use to infer unmarked boundaries.

Where a seed does not mark where the 經 ends and the commentary begins, the parsers
decide with this model: interpolated character unigram/bigram naive Bayes over the
matching form of the text (``qa.text.normalize``), so simplified and traditional text,
and 002's mis-conversions, score alike. It is deliberately small and transparent:
the per-character log-odds it returns are what the parsers sum to find a split,
and :meth:`CharModel.cut_scores` adds the evidence of the seam itself (how class-a
texts end, how class-b texts begin).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...text.normalize import normalize, normalize_with_map

#: Dirichlet prior strengths: a class's unigram estimate backs off to the pooled
#: distribution of both classes (so a character merely unseen in a small class is not
#: taken as evidence against it), and its bigram estimate backs off to its unigram one.
_MU_UNIGRAM = 200.0
_MU_BIGRAM = 5.0
_START = "^"
#: Prior strength of a text-end estimate: P(end | last char) backs off to the class's
#: overall rate of text ends per character.
_MU_END = 5.0


@dataclass(frozen=True, slots=True)
class _ClassCounts:
    unigrams: Counter[str]
    bigrams: Counter[tuple[str, str]]
    total: int
    #: how many texts end in each character (kept apart from the bigrams, so that
    #: the per-character scores are those of a model without an end symbol)
    ends: Counter[str] = field(default_factory=Counter)
    texts: int = 0

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> "_ClassCounts":
        uni: Counter[str] = Counter()
        bi: Counter[tuple[str, str]] = Counter()
        ends: Counter[str] = Counter()
        n = 0
        for text in texts:
            norm = normalize(text)
            uni.update(norm)
            bi.update(zip(_START + norm, norm))
            if norm:
                ends[norm[-1]] += 1
                n += 1
        uni[_START] = 0  # the start symbol is a context, never an outcome
        return cls(unigrams=uni, bigrams=bi, total=sum(uni.values()), ends=ends, texts=n)


@dataclass(frozen=True, slots=True)
class CharModel:
    """log P(text | a) − log P(text | b), per character; a = 經 (or lemma), b = commentary."""

    a: _ClassCounts
    b: _ClassCounts
    pooled: Counter[str] = field(default_factory=Counter)
    pooled_total: int = 0

    @classmethod
    def train(cls, a_texts: Iterable[str], b_texts: Iterable[str]) -> "CharModel":
        a = _ClassCounts.from_texts(a_texts)
        b = _ClassCounts.from_texts(b_texts)
        pooled = a.unigrams + b.unigrams
        return cls(a=a, b=b, pooled=pooled, pooled_total=a.total + b.total)

    @property
    def trained(self) -> bool:
        return self.a.total > 0 and self.b.total > 0

    def _p_pool(self, ch: str, minus: Counter[str] | None = None) -> float:
        vocab = len(self.pooled) + 1
        own = minus[ch] if minus else 0
        own_total = sum(minus.values()) if minus else 0
        return (self.pooled[ch] - own + 0.5) / (self.pooled_total - own_total + 0.5 * vocab)

    def _logp(self, c: _ClassCounts, prev: str, ch: str, minus: _ClassCounts | None = None) -> float:
        m_uni = minus.unigrams if minus else None
        own = m_uni[ch] if m_uni else 0
        own_total = minus.total if minus else 0
        p_uni = (c.unigrams[ch] - own + _MU_UNIGRAM * self._p_pool(ch, m_uni)) / (c.total - own_total + _MU_UNIGRAM)
        if prev == _START:
            return math.log(p_uni)
        own_bi = minus.bigrams[(prev, ch)] if minus else 0
        own_ctx = m_uni[prev] if m_uni else 0
        p_bi = (c.bigrams[(prev, ch)] - own_bi + _MU_BIGRAM * p_uni) / (c.unigrams[prev] - own_ctx + _MU_BIGRAM)
        return math.log(p_bi)

    def char_scores(self, text: str, held_out: str | None = None) -> list[float]:
        """Per character of ``text`` (original positions): its log-odds of being class a.

        Characters dropped by normalization (punctuation, spaces) score 0. ``held_out``
        ("a" or "b") says ``text`` was among that class's training texts: its own counts
        are left out while scoring it (leave-one-out), so it cannot vouch for itself.
        """
        norm, pos = normalize_with_map(text)
        own = _ClassCounts.from_texts([text]) if held_out else None
        minus_a = own if held_out == "a" else None
        minus_b = own if held_out == "b" else None
        scores = [0.0] * len(text)
        prev = _START
        for ch, i in zip(norm, pos):
            scores[i] += self._logp(self.a, prev, ch, minus_a) - self._logp(self.b, prev, ch, minus_b)
            prev = ch
        return scores

    def _log_end(self, c: _ClassCounts, last: str, minus: _ClassCounts | None = None) -> float:
        """log P(a text of class ``c`` ends | its last character is ``last``)."""
        texts = c.texts - (minus.texts if minus else 0)
        total = c.total - (minus.total if minus else 0)
        rate = (texts + 0.5) / (total + texts + 1.0)
        ends = c.ends[last] - (minus.ends[last] if minus else 0)
        seen = c.unigrams[last] - (minus.unigrams[last] if minus else 0)
        return math.log((ends + _MU_END * rate) / (seen + _MU_END))

    def cut_scores(self, text: str, held_out: str | None = None) -> list[float]:
        """Per cut point ``i`` of ``text`` (0..len): the seam's own log-evidence for a class-a
        text ending at ``i`` and a class-b text beginning there.

        That is log P_a(end | last char before i) + log P_b(first char from i | start)
        − log P_b(that char | the char before it): added to the summed
        :meth:`char_scores` of ``text[:i]``, it turns the split objective into a
        two-segment model in which a 經 quotation must end the way 經 clauses end and
        the commentary must open the way commentaries open. Cuts with no character on
        one side score 0. ``held_out`` is as in :meth:`char_scores`.
        """
        norm, pos = normalize_with_map(text)
        own = _ClassCounts.from_texts([text]) if held_out else None
        minus_a = own if held_out == "a" else None
        minus_b = own if held_out == "b" else None
        out = [0.0] * (len(text) + 1)
        j = 0  # index in norm of the first character at or after cut i
        for i in range(len(text) + 1):
            while j < len(pos) and pos[j] < i:
                j += 1
            if 0 < j < len(norm):
                last, first = norm[j - 1], norm[j]
                out[i] = (
                    self._log_end(self.a, last, minus_a)
                    + self._logp(self.b, _START, first, minus_b)
                    - self._logp(self.b, last, first, minus_b)
                )
        return out

    def score(self, text: str) -> float:
        """Total log-odds that ``text`` is class a (positive) rather than b (negative)."""
        return sum(self.char_scores(text))


__all__ = ["CharModel"]
