"""Hits → an extractive answer: the 注 / 疏 / 析疑 (or 經) sentences that answer, each cited.

Which sentences answer is decided in :mod:`qa.answering.sentences` (general signals only); this
module owns the typed results (:class:`Evidence`, :class:`Answer`), their batch/API rows,
the citation of a sentence by its own line (:class:`SourceLines`), and the plain "no
passage in the corpus answers this" when the retriever found nothing relevant. Displayed
and cited text is always the source's own characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..corpus.catalog import load_catalog
from ..corpus.load import read_seed
from ..corpus.renderings import rendering_of, sentence_renderings
from ..corpus.units import LAYER_LABELS, LemmaUnit
from ..retrieval.rerank import moved_first
from ..text.cedict import cedict
from ..text.lexicon import english_of_terms, other_rites_table
from ..text.normalize import normalize, normalize_with_map
from ..text.tokens import cjk_runs, longest_common_run
from .sentences import QueryTerms, query_terms, select_sentences, split_sentences

if TYPE_CHECKING:  # pragma: no cover
    from ..retrieval.query import Query
    from ..retrieval.retriever import Hit

#: What the corpus covers, said when a question is about a rite it does not hold ({rites}: their names).
_SCOPE = {
    "en": "The corpus does not contain {rites}. It holds two rites of the Yili only: the 鄉飲酒禮 "
    "(district drinking ceremony) whole, with Zheng Xuan's notes (注) and Jia Gongyan's subcommentary (疏), "
    "and the middle and end of the 燕禮 (banquet) with 注 and 疏, plus Fang Bao's 儀禮析疑 on the 燕禮. "
    "The nearest passages are listed below (often where the commentary compares that rite); they do not answer the question.",
    "zh-Hans": "本语料没有{rites}。语料只收《仪礼》两篇：乡饮酒礼全篇（经、郑注、贾疏），燕礼中段与末段（经、注、疏），"
    "以及方苞《仪礼析疑》的燕礼部分。下面列出最接近的段落（多是注疏提到{rites}之处），并不回答这个问题。",
    "zh-Hant": "本語料沒有{rites}。語料只收《儀禮》兩篇：鄉飲酒禮全篇（經、鄭注、賈疏），燕禮中段與末段（經、注、疏），"
    "以及方苞《儀禮析疑》的燕禮部分。下面列出最接近的段落（多是注疏提到{rites}之處），並不回答這個問題。",
}
#: Said above the answer to a question about this corpus that compares a rite it does not hold.
_COMPARE = {
    "en": "The corpus does not contain {rites} itself, only what its commentaries cite or compare of it; "
    "the passages below are the corpus's own.",
    "zh-Hans": "本语料没有{rites}本篇，只在注疏引及或比较时提到；下面是语料本身的段落。",
    "zh-Hant": "本語料沒有{rites}本篇，只在注疏引及或比較時提到；下面是語料本身的段落。",
}
#: Said when the question names a layer (賈疏, 鄭注, 方苞) that has nothing on the passages found.
_LAYER_EMPTY = {
    "en": "The {layer} has nothing on this; the sentences below are from the other layers.",
    "zh-Hans": "{layer}对此没有说明；以下是其他层次的说法。",
    "zh-Hant": "{layer}對此沒有說明；以下是其他層次的說法。",
}
_LAYER_NAMES = {
    "en": {"zhu": "Zheng Xuan's note (鄭注)", "shu": "Jia Gongyan's subcommentary (賈疏)", "xiyi": "Fang Bao's 儀禮析疑", "jing": "classic (經)"},
    "zh-Hans": {"zhu": "郑注", "shu": "贾疏", "xiyi": "方苞《仪礼析疑》", "jing": "经文"},
    "zh-Hant": {"zhu": "鄭注", "shu": "賈疏", "xiyi": "方苞《儀禮析疑》", "jing": "經文"},
}
#: English glosses shown with an answer to an English question, at most this many.
MAX_GLOSSES = 6

_NOT_FOUND = {
    "en": "No passage in the corpus answers this question. The nearest passages are listed below; they may not answer it.",
    "zh-Hans": "语料中没有能回答这个问题的段落。下面列出最接近的段落，仅供参考。",
    "zh-Hant": "語料中沒有能回答這個問題的段落。下面列出最接近的段落，僅供參考。",
}


@dataclass(frozen=True, slots=True)
class Evidence:
    """One answering sentence in the source's own characters, with where it stands."""

    text: str
    unit_id: str
    work: str
    rite: str
    layer: str  # jing / zhu / shu / xiyi
    source: str
    lines: tuple[int, int]  # the sentence's own line(s) when located, else the unit's span
    score: float
    #: the citation a scholar can paste (qa.corpus.cite), e.g. 《儀禮注疏》卷八–十〈鄉飲酒禮〉「告旨」
    #: 鄭玄注「旨，美也」（十三經注疏本，003:110）; set by the pipeline, "" where it cannot be made
    scholarly: str = ""

    @property
    def label(self) -> str:
        return LAYER_LABELS.get(self.layer, self.layer)

    def citation(self) -> str:
        """work·rite·layer·id（file:line）, the form shown after the sentence."""
        first, last = self.lines
        span = f"{first}" if first == last else f"{first}–{last}"
        return f"{self.work}·{self.rite}·{self.label}·{self.unit_id}（{self.source}:{span}）"

    def cited(self) -> str:
        """The sentence with its citation, as an answer's text writes it: 「旨，美也。〔…（003:110）〕」."""
        return f"{self.text}〔{self.citation()}〕"

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "unit_id": self.unit_id,
            "work": self.work,
            "rite": self.rite,
            "layer": self.layer,
            "source": self.source,
            "lines": list(self.lines),
            "citation": self.citation(),
            "cite": self.scholarly,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """What a user is shown: ``text`` first, then the hits (the lemma units) as evidence."""

    question: str
    text: str
    found: bool  # False: nothing relevant; ``hits`` are only the nearest units
    evidence: tuple[Evidence, ...]
    hits: tuple["Hit", ...]
    lang: str = "zh-Hant"
    #: the question's terms (normalized), for highlighting them in the evidence
    terms: QueryTerms | None = None
    #: units of another rite corresponding to the first answering unit (qa.corpus.parallels); for a
    #: compare question (「兩禮的獻賓有何不同？」) the two sides, one unit per rite
    parallels: tuple[str, ...] = ()
    #: the key (statement unit id) of the 賈疏 stage a sequence answer is about (qa.answering.sequence)
    stage: str | None = None
    #: for an answer the corpus does not hold: what the corpus covers, in the answer's language
    #: (the first line of Retriever.coverage_statement), for a link to the full statement
    coverage: str = ""
    #: the short 經 clauses the first answering unit matched (「告旨」 for 「賓為什麼說旨？」): the
    #: corpus's own words for what this turn was about, which a follow-up carries on
    grounded: tuple[str, ...] = ()
    #: a plain statement shown before the answer: the corpus does not hold the rite asked about
    #: (what it covers follows), or the layer the question names has nothing on it; "" when none
    notice: str = ""
    #: for an English question, the key ritual terms of the answer with an English gloss ((賓, guest), …)
    glosses: tuple[tuple[str, str], ...] = ()
    #: for an English question, the first cited sentence retold in plain English — a reading aid from the
    #: project's renderings (qa.corpus.renderings), never a source: (what it retells, the text); () when none
    plain: tuple[str, ...] = ()

    @property
    def as_history(self) -> str:
        """This answer as a later question's history: the question, then the words it was grounded in."""
        return " ".join((self.question, *self.grounded))

    def to_dict(self, id: str | None = None) -> dict[str, Any]:
        """The batch / API row: id, question, answer, citations, error, hits."""
        return {
            "id": id,
            "question": self.question,
            "answer": self.text,
            "found": self.found,
            "citations": [e.to_dict() for e in self.evidence],
            "error": None,
            "hits": [h.to_dict() for h in self.hits],
            "notice": self.notice,
            "glosses": [list(g) for g in self.glosses],
            "plain": list(self.plain),
        }

    def _lines(self) -> list[tuple[str, Evidence | None]]:
        """The answer text's lines, each with the evidence it cites (None for a lead or notice line)."""
        cited = {e.cited(): e for e in self.evidence}
        return [(line, cited.get(line)) for line in self.text.split("\n") if line.strip()]

    @property
    def lead(self) -> str:
        """The text's lines that cite nothing (a sequence answer's 「…之後，賈疏所分下一節為…」, a
        compare answer's heading), for a renderer that lists the evidence itself; "" for most answers."""
        return "\n".join(line for line, e in self._lines() if e is None) if self.found else ""

    def to_plain(self) -> str:
        """The answer as plain text with scholarly citations, for a copy button or a report."""
        out = []
        for line, e in self._lines():
            out.append(f"{e.text}（{e.scholarly}）" if e is not None and e.scholarly else line)
        if not self.found and self.coverage:
            out.append(self.coverage)
        return "\n".join(out)

    def to_markdown(self) -> str:
        """The answer as Markdown: the question as a heading, each cited sentence quoted with its scholarly citation."""
        out = [f"### {self.question}", ""]
        for line, e in self._lines():
            if e is None:
                out += [line, ""]
            else:
                out += [f"> {e.text}", f"> —— {e.scholarly or e.citation()}", ""]
        if not self.found and self.coverage:
            out += [f"*{self.coverage}*", ""]
        return "\n".join(out).rstrip() + "\n"


def error_row(id: str | None, question: str | None, error: str) -> dict[str, Any]:
    """A batch row for a question that could not be answered: same keys, ``error`` set."""
    return {"id": id, "question": question, "answer": "", "found": False, "citations": [], "error": error, "hits": [],
            "notice": "", "glosses": [], "plain": []}


# ---------------------------------------------------------------- lines


LineLocator = Callable[[LemmaUnit, str, str], "tuple[int, int] | None"]


@dataclass(frozen=True, slots=True)
class SourceLines:
    """Seed files' lines, to cite an answering sentence by its own line (pure once built)."""

    files: Mapping[str, tuple[str, ...]]

    @classmethod
    def from_seeds(cls, seeds_dir: Path) -> "SourceLines":

        return cls({s.name: tuple(read_seed(s).split("\n")) for s in load_catalog(seeds_dir)})

    def __call__(self, unit: LemmaUnit, layer: str, sentence: str) -> tuple[int, int] | None:
        lines = self.files.get(unit.source)
        if not lines:
            return None
        first, last = unit.lines
        span = lines[first - 1 : last]
        parts = [normalize_with_map(line)[0] for line in span]
        joined = "".join(parts)
        owner = [first + k for k, p in enumerate(parts) for _ in p]  # line number of each normalized char
        target = normalize(sentence)
        if not target:
            return None
        # 注 follows its 經, 疏 follows the 注: start looking after the layers before this one,
        # so a 疏 quoting the 注 is not cited for the 注 itself.
        after = 0
        for before in {"jing": (), "zhu": ("jing",), "xiyi": ("jing",), "shu": ("jing", "zhu")}.get(layer, ()):
            prior = normalize(getattr(unit, before))
            at = joined.find(prior, after) if prior else -1
            if at >= 0:
                after = at + len(prior)
        at = joined.find(target, after)
        if at < 0:
            at = joined.find(target)
        if at < 0:
            return None
        return owner[at], owner[at + len(target) - 1]


# ---------------------------------------------------------------- compose


def compose_answer(
    query: "Query",
    hits: Sequence["Hit"],
    *,
    max_sentences: int = 3,
    locate: LineLocator | None = None,
) -> Answer:
    """The answer to ``query`` from ``hits``: up to ``max_sentences`` cited sentences, or a
    plain "nothing answers this" when the retriever found nothing relevant."""
    hits = tuple(hits)
    if getattr(query, "explains_quote", False) and hits and not hits[0].unit.shu:
        # the 注 quoted has no 疏 to explain it (「注云「坐行之，若今坐相勸酒」，何謂也？」): its own words answer
        query = replace(query, layers=("zhu",))
    # a question naming a rite or a commentator of the corpus is about it, whatever else it names
    # (「鄭注引周禮何意？」); so is one quoting its 經 (below)
    layers = tuple(getattr(query, "layers", ()))
    named_here = getattr(query, "rites", ()) or layers
    outside = tuple(getattr(query, "other_rites", ()))
    # what it says of a rite the corpus lacks is then the commentary's comparison, and the answer says so
    compared: tuple[str, ...] = ()
    if outside and layers:
        outside = ()  # 「鄭注為什麼引周禮鍾師來解釋奏陔？」 asks about the commentator's citation
    elif outside and (named_here or getattr(query, "context", ()) or quotes_jing(query, hits) or compares_outside(query, hits)
                     or commentary_compares(query, hits)):
        # 「鄉飲酒禮告旨，鄉射禮也告旨嗎？」 names this corpus's rite beside another, 「鄉射禮也是這樣嗎？」 after a
        # question on it sets another beside what it asked (a follow-up carrying its terms); 「舉觶者降，鄉射於此有大夫之文，
        # 此何以不言？」 asks about its 經, comparing; 「賓酢主人時…辭洗？和鄉射禮順序一樣嗎？」 about its act
        compared, outside = outside, ()
    found = bool(hits) and not hits[0].low_confidence
    relevant = found or bool(outside and hits)
    chosen = select_sentences(query, hits, max_sentences) if relevant else []
    if outside:
        chosen = chosen[:2]  # the nearest passages, not an answer
    evidence = []
    for c, score in chosen:
        lines = (locate(c.unit, c.layer, c.text) if locate else None) or c.unit.lines
        u = c.unit
        evidence.append(Evidence(c.text, u.id, u.work, u.rite, c.layer, u.source, lines, round(score, 4)))
    found = found and bool(evidence) and not outside
    if found and bool(getattr(query, "context", ())) and (evidence[0].layer != "xiyi" or "xiyi" in layers or hits[0].unit.xiyi):
        # a follow-up is ranked without the learned re-ranker (it learnt questions of their own), and the sentence choice,
        # which reads what it asks, is the better guide: the passage it quotes first leads (Fang Bao's critique only
        # when he is asked about, or the first hit is his)
        hits = answer_first(hits, evidence[0].unit_id)
    notice = scope_notice(outside, query.lang) if outside else compare_notice(compared, query.lang) if compared and found else ""
    if found and layers and not any(e.layer in layers for e in evidence):
        notice = " ".join(p for p in (notice, layer_notice(layers[0], query.lang)) if p)
    cited = "\n".join(e.cited() for e in evidence)
    if found or outside:
        text = "\n".join(p for p in (notice, cited) if p)
    else:
        text = not_found_text(query.lang)
    terms = query_terms(query)
    english = query.lang in ("en", "mixed") and bool(evidence)
    glosses = english_glosses(query, evidence) if english else ()
    plain = plain_english(chosen[0][0].unit, evidence[0]) if english and found else ()
    answer = Answer(query.text, text, found, tuple(evidence), hits, query.lang, terms, notice=notice, glosses=glosses,
                    plain=plain)
    grounded = grounded_clauses(answer, terms)
    return replace(answer, grounded=grounded) if grounded else answer


def answer_first(hits: tuple["Hit", ...], unit_id: str) -> tuple["Hit", ...]:
    """``hits`` with the unit the answer's first sentence is cited from first and the others in their order (the
    scores stay in their places, so they still fall: :func:`qa.retrieval.rerank.moved_first`)."""
    i = next((j for j, h in enumerate(hits) if h.unit.id == unit_id), 0)
    if i == 0:
        return hits
    return tuple(replace(h, score=s) for h, s in moved_first([(h, h.score) for h in hits], i))


#: A question quoting this many characters of a found unit's 經 is about the corpus, whatever rite it compares.
QUOTE_RUN = 4


def quotes_jing(query: "Query", hits: Sequence["Hit"], depth: int = 3) -> bool:
    """The question writes a run of ``QUOTE_RUN`` characters of the 經 of one of the first hits."""

    runs = [r for seg in query.segments for r in cjk_runs(seg) if len(r) >= QUOTE_RUN]
    return any(longest_common_run(r, normalize(h.unit.jing)) >= QUOTE_RUN for h in hits[:depth] for r in runs)


#: Characters that set a rite beside another just before its name (「和鄉射禮…」, 「與大射同否」).
_COMPARE_BEFORE = frozenset("和与跟同比较像如似")
#: Words that do so just after it (「鄉射禮順序一樣嗎」, 「大射則異」, 「大射亦告旨乎」: also), within COMPARE_GAP characters.
_COMPARE_AFTER = ("一样", "相同", "同", "不同", "异", "相比", "比较", "有别", "区别", "也", "亦")
COMPARE_GAP = 4
#: English words that set a rite beside another before its name ("unlike the archery rite", "than in …").
_COMPARE_EN = frozenset({"unlike", "than", "compared", "versus", "vs", "whereas", "differ", "differs", "different",
                         "same", "reverse", "opposite", "also", "too"})
#: English phrases that do so ("… when the archery rite does it the other way round").
_COMPARE_EN_PHRASE = re.compile(r"\bthe other way\b", re.I)
#: Character pairs the question must share with the first hit's 經 (besides the compared rite's name).
COMPARE_PAIRS = 2


def compares_outside(query: "Query", hits: Sequence["Hit"]) -> bool:
    """The question asks about an act of this corpus's rite and only sets a rite the corpus lacks beside it: every
    such rite it names stands in a comparison (和鄉射禮一樣嗎, "unlike the archery rite"), and the rest of it shares
    COMPARE_PAIRS character pairs with the 經 of its confident first hit (辭洗, 主人 of 「…主人阼階東，南面辭洗」)."""
    if not hits or hits[0].low_confidence:
        return False
    norm = query.norm
    names = [name for name, value in other_rites_table().chinese if value in query.other_rites and name in norm]
    if names:
        for name in names:
            at = norm.find(name)
            before = norm[at - 1] if at > 0 else ""
            end = at + len(name)
            after = norm[end : end + COMPARE_GAP + 2]  # 「鄉射禮順序一樣」: the word may follow what is compared
            if before not in _COMPARE_BEFORE and not any(w in after for w in _COMPARE_AFTER):
                return False
    elif _COMPARE_EN.isdisjoint(w.lower() for w in re.findall(r"[A-Za-z]+", query.text)) and not _COMPARE_EN_PHRASE.search(
            query.text):
        return False
    # a 析疑 lemma quotes a few words of the 經; Fang Bao's note says what the lemma is about
    jing = normalize(hits[0].unit.jing + hits[0].unit.xiyi)
    return len({w for w in _compared_words(query, names) if w in jing}) >= COMPARE_PAIRS


def _compared_words(query: "Query", names: Sequence[str]) -> set[str]:
    """What a question comparing another rite says of the act compared: its character pairs outside the rites'
    ``names`` (normalized), and its words in the corpus's terms (洗, 尊 of "the basin for washing cups … the wine
    jars"; 介 of 副宾) unless they only spell the compared rite (射 of "archery")."""
    rest = query.norm
    for name in names:
        rest = rest.replace(name, " ")
    pairs = {r[i : i + 2] for seg in (*query.segments, *query.expansions) for r in cjk_runs(seg) for i in range(len(r) - 1)}
    spelled = set("".join(query.other_rites))
    return {p for p in pairs if p in rest} | {t for t in query.expansions if not set(t) <= spelled}


#: Where a commentary sentence ends, for :func:`commentary_compares`.
_COMMENTARY_SENTENCE = re.compile(r"[。；;！？!?]")


def commentary_compares(query: "Query", hits: Sequence["Hit"]) -> bool:
    """The question asks about a rite the corpus lacks on a point the commentary of its confident first hit
    compares: every such rite it names is written in one sentence of that unit's 注, 疏 or 析疑 that shares
    COMPARE_PAIRS character pairs or corpus terms with the rest of the question (「大射何以不告樂備？」 and the 疏's
    「大射不告樂備者，是禮主於射，略於樂故也」). The answer is then that comparison, not "nothing here"."""
    if not hits or hits[0].low_confidence or not query.other_rites:
        return False
    unit = hits[0].unit
    commentary = [normalize(piece) for text in (unit.zhu, *(part.text for part in unit.shu), unit.xiyi)
                  for piece in _COMMENTARY_SENTENCE.split(text)]
    table = other_rites_table().chinese
    words = _compared_words(query, [name for name, value in table if value in query.other_rites])
    for value in query.other_rites:
        names = [name for name, v in table if v == value]
        if not any(any(n in sentence for n in names) and len({w for w in words if w in sentence}) >= COMPARE_PAIRS
                   for sentence in commentary):
            return False
    return True


def _rites_notice(table: Mapping[str, str], rites: Sequence[str], lang: str) -> str:
    """``table``'s sentence in the question's language (traditional Chinese by default), naming ``rites``."""
    names = "、".join(rites) if lang != "en" else ", ".join(rites)
    return table.get(lang, table["zh-Hant"]).format(rites=names)


def compare_notice(rites: Sequence[str], lang: str) -> str:
    """Said above an answer about this corpus that sets a rite it lacks beside it."""
    return _rites_notice(_COMPARE, rites, lang)


def scope_notice(rites: Sequence[str], lang: str) -> str:
    """What the corpus covers, for a question about rites it does not hold."""
    return _rites_notice(_SCOPE, rites, lang)


def layer_notice(layer: str, lang: str) -> str:
    """The named layer has nothing on the passages found."""
    key = lang if lang in _LAYER_EMPTY else "zh-Hant"
    return _LAYER_EMPTY[key].format(layer=_LAYER_NAMES[key].get(layer, layer))


#: One-character terms not worth glossing on their own (directions, numbers, grammar).
_NO_GLOSS = frozenset("东西南北上下左右前后中内外间一二三四五六七八九十百两再者与所从即既他某之其而以于为不")


#: What a plain rendering retells, by the layer of the sentence it stands for ("shu:passage": a 疏
#: sentence without a rendering of its own, shown by the passage it explains).
PLAIN_LABELS: Mapping[str, str] = {
    "zhu": "Zheng Xuan's note in plain English",
    "shu": "Jia Gongyan's sub-commentary in plain English",
    "jing": "The passage in plain English",
    "xiyi": "Fang Bao's point in plain English",
    "shu:passage": "The passage this sub-commentary explains, in plain English",
}


def plain_english(unit: "LemmaUnit", evidence: Evidence) -> tuple[str, ...]:
    """The first cited sentence retold in plain English from the project's renderings (a reading aid,
    not a source): a 注 or 疏 sentence by its own rendering, a 經 sentence by its passage's, a 析疑 note
    by the line on Fang Bao's point, a 疏 sentence without a rendering by the passage it explains;
    () when there is none."""
    if evidence.layer in ("zhu", "shu"):
        table = sentence_renderings()
        parts = [table.get((unit.id, normalize(evidence.text[a:b]))) for a, b in split_sentences(evidence.text)]
        # every sentence of the cited run has its rendering, or none is shown (never half a retelling)
        if parts and None not in parts:
            return (PLAIN_LABELS[evidence.layer], " ".join(p.en for p in parts if p is not None))
        if evidence.layer == "zhu":
            return ()
    r = rendering_of(unit)
    if r is None:
        return ()
    text = r.note_en if evidence.layer == "xiyi" else r.en
    label = PLAIN_LABELS.get("shu:passage" if evidence.layer == "shu" else evidence.layer)
    return (label, text) if text and label else ()


def english_glosses(query: "Query", evidence: Sequence[Evidence]) -> tuple[tuple[str, str], ...]:
    """(term, English) for the key ritual terms of an answer: the terms the question was mapped to,
    then the glossary's terms in the first cited sentence; English from the glossary, else CC-CEDICT."""

    known = english_of_terms()
    first = evidence[0].text
    first_norm = normalize(first)
    wanted: list[str] = [t for t in query.expansions if t not in getattr(query, "bridged", ())]
    wanted += [t for t in sorted(known, key=len, reverse=True) if len(t) >= 2 and t in first_norm]
    wanted += [ch for ch in dict.fromkeys(first_norm) if ch in known and ch not in _NO_GLOSS]
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for t in wanted:
        if t in seen or any(t in s for s in seen if len(s) > len(t)) or t in _NO_GLOSS:
            continue
        if t in known:
            shown, english = _source_form(t, first) or known[t][0], known[t][1]
        else:
            senses = [x for x in cedict().senses(t) if not x.startswith(("cl:", "variant", "surname"))][:2]
            if not senses:
                continue
            shown, english = _source_form(t, first) or t, "; ".join(senses)
        seen.add(t)
        out.append((shown, english))
        if len(out) >= MAX_GLOSSES:
            break
    return tuple(out)


def _source_form(term: str, text: str) -> str:
    """``term`` (normalized) in ``text``'s own characters, or "" when it is not there."""
    norm, pos = normalize_with_map(text)
    at = norm.find(term)
    if at < 0:
        return ""
    return text[pos[at] : pos[at + len(term) - 1] + 1]


#: A 經 clause a turn is grounded in has this many characters (a term, not a sentence) ...
GROUND_MIN, GROUND_MAX = 2, 4
#: ... and at most this many clauses are carried.
GROUND_CLAUSES = 2


def grounded_clauses(answer: Answer, terms: QueryTerms) -> tuple[str, ...]:
    """Short clauses of the 經 of the unit the answer's first sentence comes from, holding a
    term of the question (normalized).

    A question often names an act in its own words (說旨) while the 經 has the term
    (告旨); a later 「那介呢？」 should carry the 經's term, not only the user's."""
    if not answer.found or not answer.evidence:
        return ()
    first = next(h.unit for h in answer.hits if h.unit.id == answer.evidence[0].unit_id)
    out = []
    for clause in _CLAUSE_BREAK.split(first.jing):
        norm = normalize(clause)
        if GROUND_MIN <= len(norm) <= GROUND_MAX and any(c in norm for c in terms.chars | terms.bigrams):
            out.append(norm)
    return tuple(dict.fromkeys(out))[:GROUND_CLAUSES]


_CLAUSE_BREAK = re.compile(r"[，。；：、？！,.;:?!\s]+")


def not_found_text(lang: str) -> str:
    """"No passage in the corpus answers this", in the question's language where easy."""
    return _NOT_FOUND.get(lang, _NOT_FOUND["zh-Hant"])


__all__ = [
    "Answer",
    "Evidence",
    "QueryTerms",
    "SourceLines",
    "compose_answer",
    "english_glosses",
    "plain_english",
    "PLAIN_LABELS",
    "error_row",
    "layer_notice",
    "scope_notice",
    "commentary_compares",
    "grounded_clauses",
    "not_found_text",
    "query_terms",
    "select_sentences",
    "split_sentences",
]
