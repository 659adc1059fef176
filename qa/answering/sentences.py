"""Choosing the sentences that answer: sentence windows of the top units and their scores.

Sentence selection uses general signals only: overlap of the question's terms
(:mod:`qa.retrieval.terms`) with a sentence's normalized text, weighted by how rare each term
is among the candidates; a gloss of an asked term (「X，Y也」, 「X之言Y也」, 「Y曰X」); for a
why question a reason (以其, 所以, 故, 示 …; for why-not, the note that opens with the
omission: 「不酢，辟君也」) and the 注 on the 經 asked about rather than the 經 itself; for where /
how many / in what order, place, number and order words (以齒, 先…後, 終於) and the 經; a
注 > 析疑 > 疏 > 經 layer prior; the unit's rank and how much of the question its 經 covers; the
rite the question names; the passages the retriever says matched; for a lay question, the words it shares with
a 注 sentence's plain rendering and with the closest of the questions each sentence was written to answer
(``sentence_questions.tsv``); and sentences of readable length. These weigh into a hand score
(:meth:`Parts.hand`); the one shown first is then chosen by a linear model learnt over the same evidence and that
score (:mod:`qa.answering.sentence_model`, :func:`ordered`).
Nothing here knows any particular question. Candidates keep the source's own characters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ..corpus.units import LemmaUnit, rite_id
from ..retrieval.query import quoting_layers
from ..retrieval.renderings import chinese_bag, sentence_question_words, sentence_words
from ..retrieval.shadow import english_of, question_words
from ..retrieval.terms import QueryTerms, gloss_strength, glosses_tail, negated_topic, query_terms, quoted_runs
from ..retrieval.terms import explains as _explains
from ..retrieval.terms import says_kind as _says_kind
from ..text.normalize import normalize
from ..text.tokens import bigrams, cjk_runs
from . import sentence_model as _sentence_model

if TYPE_CHECKING:  # pragma: no cover
    from ..retrieval.query import Query
    from ..retrieval.retriever import Hit

#: Prior weight of each layer as the place an answer is found (注 glosses are the most direct).
LAYER_PRIOR: dict[str, float] = {"zhu": 1.0, "xiyi": 0.9, "shu": 0.8, "jing": 0.55}
#: Weight of the answer candidates by the rank of their unit among the hits. (1.0, 0.7, 0.5) until the learned
#: re-ranker made the first unit surer (twelfth round): (1.0, 0.6, 0.4) puts the evidence first in 704 → 714 of
#: 1,021 development answers (8 of 11 sets up, 1 down; 0.5 / 0.35: 713, but evidence in the answer 814 → 806).
RANK_PRIOR: tuple[float, ...] = (1.0, 0.6, 0.4)
#: Weight of a top unit whose 經 covers none of the question (1.0 for the best-covered 經).
UNIT_FLOOR = 0.6
#: Hits scoring at least this share of the first one count as tied with it.
TIE = 0.97
#: A sentence of a 析疑 note that poses Fang Bao's own question (「為大夫舉旅不於獻後而介於獻工獻笙之閒何也」, normalized):
#: his answer follows it, so alone it is no candidate while a sentence follows; a run of sentences may still hold it,
#: since what it sets out to explain is often what was asked (「燕義曰宰夫為獻主何也」 says who the 獻主 is). Twenty-second
#: round, development: evidence first 1,762 → 1,771 (one lost), evidence in the answer +7 (dropping the runs that end
#: with it too: the same evidence first, and the 獻主 question lost its answer). Not 為疑也 (「為了避嫌」, a statement),
#: nor 乎, which ends as many statements (不亦…乎) as questions; the 疏's questions add nothing.
_POSES = re.compile(r"(?:何也|何欤|何与|何哉)$")
#: A sentence must score at least this share of the best one to be shown beside it.
RELATIVE_CUTOFF = 0.4
#: Sentences longer than this (normalized characters) are gently penalized.
READABLE_CHARS = 40
#: Bonus for a gloss 「X，Y也」 whose X the question asks about (more when it asks a meaning).
GLOSS_BONUS = 0.35
MEANING_GLOSS_BONUS = 0.6
#: A why question asks a reason: a gloss of its term counts this share of the gloss bonus.
WHY_GLOSS = 0.5
#: A gloss of the very term a what-is question ends on (越 of 「挎越之越者何」) is the answer: its
#: score is multiplied by this, so a 疏 sentence that merely quotes more of the question stays below it.
TAIL_GLOSS_FACTOR = 1.5
TAIL_GLOSS_BONUS = 0.5
#: Weight of a sentence from another layer than the one whose commentator the question names
#: (「賈疏怎麼說」 is answered from the 疏 first; the others follow).
OTHER_LAYER = 0.45
#: Weight of a layer the question names before the one it asks about (the 注 of 「鄭注說…，賈疏怎麼說？」).
EARLIER_LAYER = 0.7
#: Share of its 經's coverage a 注 / 析疑 sentence inherits (more when the question asks why:
#: the 經 says what was done, its 注 why).
JING_INHERIT = 0.3
WHY_JING_INHERIT = 0.6
#: ... and for a where / how-many question (not also a why or what-is one), what a 注 / 析疑 sentence that says no place
#: or number inherits (「爵尊，不褻用之」 under 「獻用爵，其他用觶」 asked how much each cup holds: the 疏's 「一升之爵…
#: 三升之觶」 answers). Measured on the fifteen development sets: evidence first 980 → 984 (0.5: 981), nothing lost.
KIND_INHERIT = 0.0
#: Bonus for a sentence giving a reason when the question asks why, and for place / number
#: words when it asks where / how many.
EXPLAIN_BONUS = 0.25
KIND_BONUS = 0.15
#: Layer prior of 經 for a why question (the 經 states the act, not its reason) and for a
#: where / how-many question (the 經 itself says where and how many).
WHY_JING_PRIOR = 0.3
PLACE_JING_PRIOR = 0.9
#: An English question: the share of its words that a sentence's dictionary reading holds (the English
#: shadow's translation, qa.retrieval.shadow) adds this much to the sentence's coverage.
ENGLISH_SHARE = 0.5
#: A lay question (English or modern Chinese): the share of its words that a 注 sentence's plain
#: rendering holds (qa.retrieval.renderings, ``note_renderings.tsv``) adds this much to its coverage.
PLAIN_SHARE = 0.5
#: A lay question (English or modern Chinese): the share of its words that the closest of the questions a 注, 疏 or
#: 析疑 sentence was written to answer (qa.corpus.renderings.sentence_questions) holds adds this much to its coverage.
#: Measured on the eight development sets (747 questions): evidence first 507 → 531 (0.5: 517, 1.5: 532, 2.0: 526),
#: shared dev unchanged at 0.822 (0.800 at 0.5, 1.5 and 2.0); the order of the hits does not change.
ASKED_SHARE = 1.0
#: The layers whose sentences' renderings the scorer reads. The 疏's are rendered too (for the English
#: reader's aid), but counting them measured worse: evidence first shared dev 0.800 → 0.778, real_dev4
#: 0.54 → 0.51 (the 注 answers most questions, and a long 疏 sentence retold shares words with many).
PLAIN_LAYERS = frozenset({"zhu"})
#: The layers whose sentences' written questions the scorer reads (every layer of commentary: with the 注 alone,
#: its sentences gained on the 疏's wherever a question was asked in lay words, and shared dev evidence first fell
#: 0.822 → 0.733).
ASKED_LAYERS = frozenset({"zhu", "xiyi", "shu"})
#: Languages whose questions meet the 注 sentences' modern-Chinese renderings.
PLAIN_CHINESE_LANGS = frozenset({"zh-Hans", "zh-Hant", "mixed"})
#: Weight of a unit of a rite other than the one the question names.
OTHER_RITE = 0.4
#: An answer item may join up to WINDOW adjacent sentences of one layer when together
#: they stay within WINDOW_CHARS; each extra sentence must earn its place (WINDOW_DECAY).
WINDOW = 3
WINDOW_CHARS = 60
WINDOW_DECAY = 0.9
SHORT_RUN = 16
SHORT_RUN_DECAY = 0.98
#: Two answer items of one layer this close (normalized characters between) are shown as one run.
GAP_CHARS = 20
#: Two overlapping runs of one layer are shown as their union up to this many normalized characters.
UNION_CHARS = 70
#: A quotation in the question this long (normalized characters) or longer is text it already has (see ``echo``).
QUOTED_ECHO_CHARS = 4
#: Weight of a sentence that is mostly a quotation of another text.
QUOTE_PENALTY = 0.6
#: Bonus for a sentence inside a passage the retriever matched.
PASSAGE_BONUS = 0.2
#: A 經 sentence much of whose character pairs the question itself already says restates the
#: question (「請安于賓」 asked about): its weight falls by ECHO_WEIGHT times that share, so the
#: 注 that explains it leads.
ECHO_WEIGHT = 0.8

_ENDS = "。；？！?!;"
_CLOSERS = "」』）)”’"
_PUNCT = re.compile(r"[，,、：:。；？！?!;]")
#: Shortest piece an unpunctuated note is cut into.
PIECE_CHARS = 6
#: Text that opens a 疏 sentence but is no part of its content.
_LEAD = re.compile(r"(?:[○\s]|釋曰[︰：:]?|释曰[︰：:]?)+")
#: A 疏 sentence that names a section (「自此至「…」，論…之事」).
_SECTION_NOTE = re.compile(r"自此(?:已下|以下|以上|已上)?至")
#: A 疏's statement of what a section is about (normalized): 「…論賓主燕坐爵樂無數之事」, 「論一人致爵於公之事」.
_SECTION_STATEMENT = re.compile(r"论[^，。；]{1,30}之(?:事|节|法|义)")
# ---------------------------------------------------------------- sentences


@dataclass(frozen=True, slots=True)
class Candidate:
    """One sentence, or a run of up to WINDOW short adjacent sentences, of one layer."""

    rank: int  # the unit's rank among the hits
    unit: LemmaUnit
    layer: str
    part: int  # which 疏 part (0 elsewhere)
    start: int  # span in the layer text
    end: int
    text: str
    norm: str
    sentences: tuple[str, ...] = ()  # the sentences it is made of


#: Quotation marks: a sentence is never cut inside a quotation (「諾。敢不醉！」 is one answer) ...
_QUOTE_PAIRS = {"「": "」", "『": "』", "“": "”"}
#: ... unless the quotation is longer than this (a whole passage of another book quoted in a 疏).
QUOTE_MAX = 60


def _inside_quotes(text: str) -> list[bool]:
    """For each character, whether it lies inside a (closed, not too long) quotation."""
    inside = [False] * len(text)
    stack: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        if ch in _QUOTE_PAIRS:
            stack.append((_QUOTE_PAIRS[ch], i))
        elif stack and ch == stack[-1][0]:
            _, start = stack.pop()
            if not stack and i - start <= QUOTE_MAX:
                for k in range(start + 1, i):
                    inside[k] = True
        elif ch in "」』”":  # a stray closer: forget what is open (unbalanced quoting)
            stack.clear()
    return inside


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` (cut after 。；？！ and any closing quote, never inside a
    short quotation), without a leading ○ / 釋曰 and surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    start = 0
    i = 0
    n = len(text)
    quoted = _inside_quotes(text) if any(q in text for q in _QUOTE_PAIRS) else None
    while i < n:
        ends_quote = quoted is not None and text[i] in _CLOSERS and i > 0 and text[i - 1] in _ENDS and quoted[i - 1]
        if (text[i] in _ENDS and not (quoted and quoted[i])) or ends_quote:
            j = i + 1
            while j < n and text[j] in _CLOSERS:
                j += 1
            spans.append((start, j))
            start = i = j
            continue
        i += 1
    if start < n:
        spans.append((start, n))
    if len(spans) == 1 and not _PUNCT.search(text):
        spans = _particle_spans(text)
    out = []
    for s, e in spans:
        m = _LEAD.match(text, s, e)
        s = m.end() if m else s
        while e > s and text[e - 1].isspace():
            e -= 1
        if normalize(text[s:e]):
            out.append((s, e))
    return out


def _particle_spans(text: str) -> list[tuple[int, int]]:
    """An unpunctuated note (仪礼析疑's transcription) cut after sentence-final 也 / 矣 / 耳 / 哉,
    so that one idea, not a whole note, is an answer; pieces shorter than PIECE_CHARS stay joined."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in re.finditer(r"[也矣耳哉](?!者|[矣哉])", text):
        end = m.end()
        if end - start >= PIECE_CHARS and len(text) - end >= PIECE_CHARS:
            spans.append((start, end))
            start = end
    spans.append((start, len(text)))
    return spans


def _layer_texts(unit: LemmaUnit) -> list[tuple[str, int, str]]:
    texts = [("zhu", 0, unit.zhu), ("xiyi", 0, unit.xiyi), ("jing", 0, unit.jing)]
    texts += [("shu", i, p.text) for i, p in enumerate(unit.shu)]
    return [t for t in texts if t[2]]


@lru_cache(maxsize=1024)
def _unit_runs(unit: LemmaUnit) -> tuple[tuple[str, int, int, int, str, str, tuple[str, ...]], ...]:
    """Every candidate run of ``unit`` (layer, part, start, end, text, normalized text, sentences): the same for
    every question, so cut once per unit."""
    out = []
    for layer, part, text in _layer_texts(unit):
        spans = split_sentences(text)
        poses = [layer == "xiyi" and bool(_POSES.search(normalize(text[a:b]))) for a, b in spans]
        for i in range(len(spans)):
            for j in range(i, min(i + WINDOW, len(spans))):
                s, e = spans[i][0], spans[j][1]
                norm = normalize(text[s:e])
                if j > i and len(norm) > WINDOW_CHARS:
                    break
                if j == i and poses[i] and i + 1 < len(spans):
                    continue  # Fang Bao's question alone answers nothing while his answer follows
                out.append((layer, part, s, e, text[s:e], norm, tuple(text[a:b] for a, b in spans[i : j + 1])))
    return tuple(out)


def _candidates(hits: Sequence["Hit"]) -> list[Candidate]:
    out = []
    top = hits[0].score if hits else 0.0
    for rank, hit in enumerate(hits[: len(RANK_PRIOR)]):
        if top > 0 and hit.score >= TIE * top:
            rank = 0  # as good as the first: ranked together
        out += [Candidate(rank, hit.unit, *run) for run in _unit_runs(hit.unit)]
    return out


#: A sentence of Fang Bao's (normalized: his notes have no punctuation) that opens by citing another text (「燕义曰不以公卿为宾
#: …为疑也」) or by setting out the 注's view to reject it (「注谓士旅食庶人在官者非也」): his own answer follows it.
#: Unless the question names what is cited (「燕義說…，方苞認為只有這個原因嗎？」, 「鄭以為…，方苞以為何人？」): then the
#: sentence that takes it up is the answer.
_XIYI_CITES = re.compile(r"^(燕义|乡饮酒义|射义|聘义|冠义|昏义|礼记|记|周官|周礼|传|诗|书|易|左传|论语|孟子)曰")
_XIYI_REJECTS = re.compile(r"^注(?:谓|以|云)[^。]*(?:非也|误也|非是)")
#: Characters by which a question names the 注 it sets beside Fang Bao (鄭以為, 注說).
_NAMES_ZHU = frozenset("郑注")


def _cites_or_rejects(c: "Candidate", terms: QueryTerms, question: frozenset[str]) -> bool:
    """A 析疑 sentence that cites another text, or sets out the 注 to reject it, which the question (its character
    pairs) does not name."""
    if c.layer != "xiyi" or not c.sentences:
        return False
    first = _norm(c.sentences[0])
    if (m := _XIYI_CITES.match(first)) is not None:
        book = m.group(1)  # a one-character title (記, 詩, 傳) is named by no pair of the question
        return len(book) < 2 or not set(bigrams(book)) <= question
    named = "zhu" in terms.layers or any(ch in _NAMES_ZHU for pair in question for ch in pair)
    return not named and bool(_XIYI_REJECTS.match(first))


def _quoted_share(text: str) -> float:
    """How much of a sentence is a quotation 「…」 of another text."""
    inside = sum(len(m) for m in re.findall(r"「([^」]*)」", text))
    return inside / max(1, len(text))


@lru_cache(maxsize=4096)
def _norm(text: str) -> str:
    return normalize(text)


def _coverage(norm: str, weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in norm) / total if total else 0.0


def echo(norm: str, question: frozenset[str]) -> float:
    """The share of a sentence's character pairs that the question's own words already hold."""
    grams = {b for r in cjk_runs(norm) for b in bigrams(r)}
    return len(grams & question) / len(grams) if grams else 0.0


@dataclass(frozen=True, slots=True)
class Parts:
    """What the sentence scorer sees of one candidate; :meth:`hand` combines them into its score."""

    coverage: float  # share of the (rarity-weighted) question terms the sentence holds
    english: float  # share of an English question's words in the sentence's English reading
    plain: float  # share of a lay question's words in the plain rendering of a 注 sentence
    asked: float  # share of a lay question's words in the closest question the sentence was written to answer
    inherit: float  # for a 注 / 析疑 sentence, how much of the question its 經 covers
    gloss: float  # strength of the sentence as a gloss of an asked term (0 when not counted)
    tail: bool  # it glosses the very term a what-is question ends on
    passage: bool  # inside a passage the retriever matched
    explain: bool  # a why question, and the sentence gives a reason
    omission: bool  # a why-not question, and the sentence opens with the omission asked (「不酢，…」)
    kind: bool  # a where / how-many / in-what-order question, and the sentence says a place / number / order
    jing_says: bool  # ... and the 經 of the sentence's unit says one itself
    length: int  # normalized characters
    sentences: int  # sentences in the run
    quoted: bool  # mostly a quotation of another book
    off_context: bool  # a follow-up's new subject is not in the unit
    section: bool  # a 疏 line naming a section (自此至…)
    echo: float  # for a 經 sentence, the share of its pairs the question already says
    other_rite: bool
    other_layer: bool  # another layer than the named commentator's
    earlier_layer: bool  # the layer the question quotes, not the one it asks
    layer_prior: float
    rank_prior: float
    unit_weight: float

    def hand(self, terms: QueryTerms) -> float:
        """The hand-weighted score: (coverage + bonuses) × readability × priors."""
        # the 經 says what was done, its 注 why (or where / how many, when the 經 does not say it)
        inherit = (WHY_JING_INHERIT if terms.why or (self.kind and not self.jing_says) else JING_INHERIT) * self.inherit
        if (terms.where or terms.count) and not (terms.why or terms.meaning) and not self.kind:
            inherit *= KIND_INHERIT  # a where / how-many question: a note that says no place or number answers less
        coverage = self.coverage + self.english + self.plain + self.asked + inherit
        bonus = 0.0
        if self.gloss:
            bonus += (MEANING_GLOSS_BONUS if terms.meaning else GLOSS_BONUS) * self.gloss * (WHY_GLOSS if terms.why else 1.0)
            if self.tail:
                bonus += TAIL_GLOSS_BONUS
        bonus += PASSAGE_BONUS * self.passage + EXPLAIN_BONUS * (self.explain + self.omission) + KIND_BONUS * self.kind
        readable = 1.0 if self.length <= READABLE_CHARS else (READABLE_CHARS / self.length) ** 0.35
        if self.length <= 2:  # 「是也」 and the like answer nothing alone
            readable *= 0.3
        # a run of a few short 注 sentences reads as one: only a slight cost, so it wins when it
        # covers more of the question and the single sentence wins a tie
        readable *= (SHORT_RUN_DECAY if self.length <= SHORT_RUN else WINDOW_DECAY) ** (self.sentences - 1)
        for flag in (self.quoted, self.off_context, self.section and not terms.section):
            readable *= QUOTE_PENALTY if flag else 1.0
        readable *= 1.0 - ECHO_WEIGHT * self.echo
        readable *= OTHER_RITE if self.other_rite else 1.0
        readable *= OTHER_LAYER if self.other_layer else EARLIER_LAYER if self.earlier_layer else 1.0
        tail = TAIL_GLOSS_FACTOR if self.tail else 1.0
        return (coverage + bonus) * tail * readable * self.layer_prior * self.rank_prior * self.unit_weight


def _parts(
    c: Candidate,
    terms: QueryTerms,
    weights: Mapping[str, float],
    matched: Sequence[str],
    unit_weight: float = 1.0,
    question: frozenset[str] = frozenset(),
    english: frozenset[str] = frozenset(),
    glosses: dict[str, float] | None = None,
    modern: frozenset[str] = frozenset(),
    asked_cache: dict[tuple[str, str], float] | None = None,
    quoted: frozenset[str] = frozenset(),
) -> Parts:
    """What the scorer sees of ``c``; ``glosses`` caches each sentence's gloss strength for this question
    (a sentence stands in up to WINDOW candidates)."""
    coverage = _coverage(c.norm, weights)
    # an English question: its own words against the sentence's English (the shadow's reading)
    eng = ENGLISH_SHARE * len(english & english_of(c.norm)) / len(english) if english else 0.0
    plain = _plain(c, english, modern) if c.layer in PLAIN_LAYERS and (english or modern) else 0.0
    asked = _asked(c, english, modern, asked_cache) if ASKED_SHARE and c.layer in ASKED_LAYERS and (english or modern) else 0.0
    # a 注 (or 析疑 note) comments on its 經: when the question is about that 經, its
    # commentary answers it even in other words
    inherit = _coverage(_norm(c.unit.jing), weights) if c.layer in ("zhu", "xiyi") else 0.0
    covered = coverage + eng + inherit
    cache: dict[str, float] = {} if glosses is None else glosses
    gloss = max((cache[t] if t in cache else cache.setdefault(t, gloss_strength(t, terms)) for t in c.sentences),
                default=0.0) if covered else 0.0
    # the words someone says or replies, which the 經 reports (「君曰無不醉」) and its commentary explains
    says = _says_kind(c.norm, terms) or (terms.speech and c.layer == "jing" and "曰" in c.norm)
    # a gloss of the whole word asked (樂正) counts fully, one of one of its characters (正) less;
    # a where / how-many question wants a place or a number, not what a word means, unless the
    # gloss is the place (「所，薦西也」 for 「其所者何處」)
    if (terms.where or terms.count) and not terms.meaning and not says:
        gloss = 0.0
    # a why-not question: the omission each sentence opens with (「不酢」 of 「不酢，辟君也」), if any
    omitted = [negated_topic(t) for t in c.sentences] if terms.why and terms.negated and c.layer != "jing" else []
    # the gloss of the very word asked: what it means, or, for 「其所，所者何處」, the place it names
    tail = bool(gloss and (terms.meaning or (terms.where and says)) and not terms.why and c.sentences
                and glosses_tail(c.sentences[0], terms))
    return Parts(
        coverage=coverage,
        english=eng,
        plain=plain,
        asked=asked,
        inherit=inherit,
        gloss=gloss,
        tail=tail,
        passage=any(c.norm in m or (len(c.norm) >= 4 and m and c.norm[:4] in m) for m in matched),
        explain=bool(covered and terms.why and c.layer != "jing" and (
            any(omitted) or any(_explains(_norm(t), c.layer) for t in c.sentences))),
        omission=any(_coverage(t, weights) > 0 for t in omitted),
        kind=bool(covered and says),
        jing_says=bool(says and c.layer != "jing" and _says_kind(_norm(c.unit.jing), terms)),
        length=len(c.norm),
        sentences=len(c.sentences),
        # mostly a quotation of another book, or Fang Bao citing one or setting out the view he rejects: context, not an answer
        quoted=_quoted_share(c.text) > 0.5 or _cites_or_rejects(c, terms, question),
        off_context=bool(terms.context and not any(ch in _norm(c.unit.full_text) for ch in terms.chars)),
        section=bool(_SECTION_NOTE.match(c.text)),  # 疏's 「自此至「…」，論…之事」 names a section
        # a 經 the question quotes tells it little
        # so does a sentence of the layer the question quotes before asking another (鄭注說「…」，賈疏怎麼說？)
        echo=echo(c.norm, question) if question and not says and (
            c.layer == "jing" or (terms.asked_layer and c.layer != terms.asked_layer))
        # a sentence of the commentary the question quotes and asks about (注云「屨賤，不空居堂」，何謂也？) is what it
        # already has: the sentence that explains it leads
        else echo(c.norm, quoted) if quoted and not says else 0.0,
        other_rite=bool(terms.rites and rite_id(c.unit.id) not in terms.rites),
        other_layer=bool(terms.layers and c.layer not in terms.layers),
        earlier_layer=bool(terms.asked_layer and c.layer != terms.asked_layer),
        layer_prior=_layer_prior(c.layer, terms, says),
        rank_prior=RANK_PRIOR[c.rank],
        unit_weight=unit_weight,
    )


def _layer_prior(layer: str, terms: QueryTerms, says: bool = False) -> float:
    if layer == "jing":
        if terms.where or terms.count or (terms.order and not terms.why) or (terms.speech and not terms.why):
            # the 經 that says the place, number or order asked (則既一人舉觶，乃入) answers; one that does not only
            # restates the act
            return PLACE_JING_PRIOR if says else WHY_JING_PRIOR
        if terms.why or terms.meaning:  # the 經 states the act; its reason or meaning is in the commentary
            return WHY_JING_PRIOR
    return LAYER_PRIOR.get(layer, 0.5)


def _term_weights(cands: Sequence[Candidate], terms: QueryTerms) -> dict[str, float]:
    """Each query term's weight times its rarity among the candidate sentences (absent terms weigh nothing)."""
    n = len(cands)
    out: dict[str, float] = {}
    for t, w in terms.weights.items():
        df = sum(1 for c in cands if t in c.norm)
        if df:
            out[t] = w * math.log(1.0 + n / df)
    return out


@dataclass(frozen=True, slots=True)
class Scoring:
    """What scoring a question's candidates needs besides the candidates themselves."""

    terms: QueryTerms
    weights: Mapping[str, float]
    matched: Mapping[str, Sequence[str]]  # unit id → the normalized passages the retriever matched
    units: Mapping[str, float]  # unit id → its weight (how much of the question its 經 covers)
    question: frozenset[str]  # the question's character pairs
    english: frozenset[str]  # an English question's words
    modern: frozenset[str] = frozenset()  # a modern-Chinese question's characters and bigrams
    glosses: dict[str, float] = field(default_factory=dict)  # sentence → its gloss strength (a cache)
    asked: dict[tuple[str, str], float] = field(default_factory=dict)  # (unit id, sentence) → its asked share (a cache)
    quoted: frozenset[str] = frozenset()  # the character pairs of what the question quotes (QUOTED_ECHO_CHARS or more)
    #: the layers the question asks, besides one it quotes (賈疏 of 「鄭注引「…」，賈疏怎樣…」): what they say of the
    #: quotation is the answer, not an echo of it
    asks_of_quote: frozenset[str] = frozenset()

    def parts(self, c: Candidate) -> Parts:
        return _parts(c, self.terms, self.weights, self.matched.get(c.unit.id, ()), self.units.get(c.unit.id, UNIT_FLOOR),
                      self.question, self.english, self.glosses, self.modern, self.asked,
                      self.quoted if c.layer not in self.asks_of_quote else frozenset())


def scoring(query: "Query", hits: Sequence["Hit"], cands: Sequence[Candidate]) -> Scoring:
    """The scoring context of ``query``'s candidates from ``hits``."""
    terms = query_terms(query)
    weights = _term_weights(cands, terms)
    matched = {hit.unit.id: [normalize(p.text) for p in hit.passages] for hit in hits[: len(RANK_PRIOR)]}
    units = _unit_weights(hits[: len(RANK_PRIOR)], weights)
    question = frozenset(b for r in cjk_runs(query.norm) for b in bigrams(r))
    english = question_words(query) if query.lang in ("en", "mixed") and (ENGLISH_SHARE or PLAIN_SHARE) else frozenset()
    modern = (frozenset(chinese_bag([(s, 1.0) for s in query.segments if not s.isascii()]))
              if query.lang in PLAIN_CHINESE_LANGS and PLAIN_SHARE else frozenset())
    # what the question quotes is echoed only where a 疏 can explain it (the first unit has one): a 注 or 析疑 with no
    # 疏 beside it is the only text there is on its words
    explained = bool(hits) and bool(hits[0].unit.shu)
    quoted = frozenset(b for r in quoted_runs(query.text) if len(r) >= QUOTED_ECHO_CHARS for b in bigrams(r)) if explained \
        else frozenset()
    asks_of_quote = frozenset(getattr(query, "layers", ())) - quoting_layers(query.text)
    return Scoring(terms, weights, matched, units, question, english, modern, quoted=quoted, asks_of_quote=asks_of_quote)


def _plain(c: Candidate, english: frozenset[str], modern: frozenset[str]) -> float:
    """PLAIN_SHARE × the share of the question's English words (or modern-Chinese characters and bigrams)
    that the renderings of the 注 sentences of ``c`` hold (0.0 for a sentence without one)."""
    table = sentence_words()
    found = [w for w in (table.get((c.unit.id, _norm(t))) for t in c.sentences) if w is not None]
    if not found:
        return 0.0
    share = 0.0
    if english:
        share = max(share, len(english & frozenset().union(*(w.english for w in found))) / len(english))
    if modern:
        share = max(share, len(modern & frozenset().union(*(w.chinese for w in found))) / len(modern))
    return PLAIN_SHARE * share


def _asked(c: Candidate, english: frozenset[str], modern: frozenset[str], cache: dict[tuple[str, str], float] | None = None) -> float:
    """ASKED_SHARE × the largest share of the question's English words (or modern-Chinese characters and bigrams)
    that one of the questions written for a sentence of ``c`` holds (0.0 for sentences without any); ``cache``
    keeps each sentence's share for this question (a sentence stands in up to WINDOW candidates)."""
    table = sentence_question_words()
    share = 0.0
    for t in c.sentences:
        key = (c.unit.id, _norm(t))
        if cache is not None and key in cache:
            share = max(share, cache[key])
            continue
        best = 0.0
        for w in table.get(key, ()):
            if english and w.english:
                best = max(best, w.weight * len(english & w.english) / len(english))
            if modern and w.chinese:
                best = max(best, w.weight * len(modern & w.chinese) / len(modern))
        if cache is not None:
            cache[key] = best
        share = max(share, best)
    return ASKED_SHARE * share


def select_sentences(query: "Query", hits: Sequence["Hit"], max_sentences: int = 3,
                     learned: bool | None = None) -> list[tuple[Candidate, float]]:
    """The best answering sentences of the top hits, best first, merged where adjacent (``learned``: see
    :func:`ordered`)."""
    cands = _candidates(hits)
    if not cands:
        return []
    ctx = scoring(query, hits, cands)
    terms, weights = ctx.terms, ctx.weights
    scored = ordered(query, cands, ctx, learned)
    best = scored[0][1]
    if best <= 0:
        return []
    chosen: list[tuple[Candidate, float]] = []
    for c, s in scored:
        if s < RELATIVE_CUTOFF * best or len(chosen) >= max_sentences:
            break
        at = next((i for i, (o, _) in enumerate(chosen) if _overlaps(c, o)), None)
        if at is not None:
            # an overlapping run that brings in terms the chosen one lacks (the second half of
            # a parallel 「…，…也。…，…也」) widens it, while it stays readable
            o, so = chosen[at]
            wider = _union(o, c)
            if at == 0 and wider.start < o.start:
                continue  # the best answer stays the first words shown (越 of 「挎越之越者何」, not 挎 before it)
            if _coverage(wider.norm, weights) > _coverage(o.norm, weights) and len(wider.norm) <= UNION_CHARS:
                chosen[at] = (wider, so)
            continue
        if any(c.norm in o.norm or o.norm in c.norm for o, _ in chosen):
            continue  # the same sentence again, or a 疏 quoting the 注, adds nothing
        chosen.append((c, s))
    first = chosen[0][0] if chosen else None
    keep_first = terms.meaning and first is not None and bool(first.sentences) and glosses_tail(first.sentences[0], terms)
    return _merge_adjacent(chosen, keep_first=keep_first)


def ordered(query: "Query", cands: Sequence[Candidate], ctx: Scoring,
            learned: bool | None = None) -> list[tuple[Candidate, float]]:
    """``cands`` with their scores, best first: by the hand score; with ``learned`` (default
    :data:`qa.answering.sentence_model.LEARNED_SENTENCES`) the learned model's best first, then the others in the hand
    order (the model learnt which sentence answers, not what should follow it), the n-th taking the n-th best hand
    score."""
    parts = [ctx.parts(c) for c in cands]
    hands = [p.hand(ctx.terms) for p in parts]
    by_hand = sorted(range(len(cands)), key=lambda i: -hands[i])
    if not (_sentence_model.LEARNED_SENTENCES if learned is None else learned) or len(cands) < 2:
        return [(cands[i], hands[i]) for i in by_hand]
    x = _sentence_model.candidate_features(ctx.terms, query.lang, [cands[i].layer for i in by_hand], [parts[i] for i in by_hand],
                           [hands[i] for i in by_hand])
    ranked = [cands[i] for i in by_hand]
    best = _kind_first(ctx.terms, ranked, [parts[i] for i in by_hand], _sentence_model.sentence_model().first(x))
    best = _past_echo(query.norm, ranked, best)
    best = _commentators_own(ctx.terms, cands[0].unit.id, ranked, best)
    order = [best, *(j for j in range(len(by_hand)) if j != best)]
    return [(cands[by_hand[j]], hands[by_hand[n]]) for n, j in enumerate(order)]


def _kind_first(terms: QueryTerms, cands: Sequence[Candidate], parts: Sequence[Parts], best: int) -> int:
    """The candidate (index into ``cands``, in the hand order) that a kind of question takes first whatever the model
    chose (``best``): what someone says or replies, the run of the 經 that reports the most of the words (「君曰無不醉」 …
    「對曰：諾。敢不醉」; its 注 explains them); what a section is about, the 疏's statement of it (「自此至…，論…之事」)."""
    if terms.speech and not terms.why:
        speech = [j for j, (c, p) in enumerate(zip(cands, parts)) if c.layer == "jing" and p.kind]
        best = max(speech, key=lambda j: (cands[j].norm.count("曰"), -j)) if speech else best
    if terms.section:
        best = next((j for j, c in enumerate(cands) if c.layer == "shu" and _SECTION_STATEMENT.search(c.norm)), best)
    return best


def _commentators_own(terms: QueryTerms, top: str, cands: Sequence[Candidate], best: int) -> int:
    """Asked what Fang Bao says (and no other commentator), his note on the passage ranked first answers, not his
    sentence on another passage that ``best`` took (the best of his sentences on ``top`` in the hand order); ``best``
    when it is of ``top`` already or his note on ``top`` has none."""
    if terms.layers != frozenset({"xiyi"}) or cands[best].unit.id == top:
        return best
    return next((j for j, c in enumerate(cands) if c.unit.id == top and c.layer == "xiyi"), best)


#: A 經 sentence of at least this many characters that the question holds whole is what it quotes.
ECHO_CHARS = 3


def _past_echo(question: str, cands: Sequence[Candidate], best: int) -> int:
    """The candidate to show first instead of ``best`` when that is a 經 sentence the question quotes whole
    (「『司正降，復位』，所復者何位？」 quotes 「司正降，復位」; its 注 「觶南之位」 answers): the best of the rest in the hand
    order that the question does not hold; ``best`` when it is no such echo or nothing else is left."""
    asked = "".join(cjk_runs(question))

    def echoed(c: Candidate) -> bool:
        said = "".join(cjk_runs(c.norm))
        return c.layer == "jing" and len(said) >= ECHO_CHARS and said in asked

    if not echoed(cands[best]):
        return best
    return next((j for j, c in enumerate(cands) if j != best and not echoed(c)), best)


def _union(a: Candidate, b: Candidate) -> Candidate:
    """The run of one layer from the start of the earlier of two overlapping candidates to the end of the later."""
    full = _layer_text(a.unit, a.layer, a.part)
    start, end = min(a.start, b.start), max(a.end, b.end)
    text = full[start:end]
    sentences = tuple(text[s:e] for s, e in split_sentences(text))
    return Candidate(min(a.rank, b.rank), a.unit, a.layer, a.part, start, end, text, normalize(text), sentences)


def _unit_weights(hits: Sequence["Hit"], weights: Mapping[str, float]) -> dict[str, float]:
    """Each top unit's weight by how much of the question its 經 covers, relative to the best
    covered 經: the commentary on the act asked about answers, even when ranked second."""
    cover = {h.unit.id: _coverage(_norm(h.unit.jing), weights) for h in hits}
    top = max(cover.values(), default=0.0)
    if top <= 0:
        return {u: 1.0 for u in cover}
    return {u: UNIT_FLOOR + (1.0 - UNIT_FLOOR) * c / top for u, c in cover.items()}


def _overlaps(a: Candidate, b: Candidate) -> bool:
    return (a.unit.id, a.layer, a.part) == (b.unit.id, b.layer, b.part) and a.start < b.end and b.start < a.end


def _merge_adjacent(chosen: list[tuple[Candidate, float]], keep_first: bool = False) -> list[tuple[Candidate, float]]:
    """Join sentences that follow each other in one layer, so a two-sentence answer reads whole.

    With ``keep_first`` (a what-is question) the best item is never joined to a sentence before
    it: the gloss asked for is the first thing shown."""
    out = list(chosen)
    merged = True
    while merged:
        merged = False
        for i, (a, sa) in enumerate(out):
            for j, (b, sb) in enumerate(out):
                if i == j or (a.unit.id, a.layer, a.part) != (b.unit.id, b.layer, b.part):
                    continue
                if keep_first and out and b is out[0][0]:
                    continue
                full = _layer_text(a.unit, a.layer, a.part)
                gap = full[a.end : b.start] if a.end <= b.start else None
                # adjacent, or one short sentence apart: show the run whole rather than in pieces
                if gap is not None and len(split_sentences(gap)) <= 1 and len(normalize(gap)) <= GAP_CHARS:
                    text = full[a.start : b.end]
                    joined = Candidate(a.rank, a.unit, a.layer, a.part, a.start, b.end, text, normalize(text), a.sentences + b.sentences)
                    keep = min(i, j)
                    out[keep] = (joined, max(sa, sb))
                    del out[max(i, j)]
                    merged = True
                    break
            if merged:
                break
    # a run may now hold an item chosen on its own: keep the run only
    return [(c, sc) for i, (c, sc) in enumerate(out) if not any(j != i and _overlaps(c, o) and (o.end - o.start) > (c.end - c.start) for j, (o, _) in enumerate(out))]


def _layer_text(unit: LemmaUnit, layer: str, part: int) -> str:
    return unit.shu[part].text if layer == "shu" else getattr(unit, layer)


__all__ = ["Candidate", "QueryTerms", "query_terms", "select_sentences", "split_sentences"]
