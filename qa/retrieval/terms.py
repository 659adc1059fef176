"""Question terms: the normalized words of a question that answer sentences are matched on, and what it asks.

The question's own CJK words weigh most, quoted terms and corpus characters typed into an
English question more, glossary expansions and a follow-up's carried-over words less; the
kind of question (why, what it means, where, how many) and the rites it names steer which
sentence answers. ``_is_gloss_of`` recognizes a gloss of an asked term (「X，Y也」, 「X之言Y也」,
「Y曰X」). Nothing here knows any particular question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ..text.lexicon import commentators_table, rites_table, stem
from ..text.normalize import normalize
from ..text.tokens import WORD, bigrams, cjk_runs
from .query import _PRONOUNS_ZH

if TYPE_CHECKING:  # pragma: no cover
    from .query import Query

#: A query bigram counts this much more than a query character.
BIGRAM_WEIGHT = 1.5
#: Weight of a follow-up's carried-over terms, of glossary expansions, and of focus terms
#: (quoted, or corpus characters in an English question), relative to the question's own words.
CONTEXT_WEIGHT = 0.5
EXPANSION_WEIGHT = 0.6
FOCUS_WEIGHT = 2.0
#: Weight of terms the bridge (CC-CEDICT, the corpus's glosses) found: a guess at what the words mean.
BRIDGE_WEIGHT = 0.2
#: Weight of the rites a question contrasts (「鄉飲酒禮…，燕禮卻…」), relative to its own words.
RITE_WEIGHT = 0.7
#: Strength of a gloss of the first character of an asked compound (旅 of 旅酬), and of another part of it.
HEAD_GLOSS = 0.75
PART_GLOSS = 0.5
#: Function characters that carry no topic on their own (normalized forms).
_STOP_CHARS = frozenset("之乎者也而以其于为不所曰云亦则故此是的了吗呢吧么什怎样何谓义那")
_QUOTED = re.compile(r"[「『“\"《]([^」』”\"》]+)[」』”\"》]")
_WHY = ("为什么", "为何", "何以", "何故", "why", "所以", "怎么", "缘何", "何为", "reason", "为啥", "干嘛", "干吗",
        "凭什么", "how come", "what for", "purpose",
        # frames that ask a reason without a why word: the intention, the custom behind it, a guessed cause
        "用意", "用心", "讲究", "是不是因为", "是因为", "难道", "何意", "is it because", "point of", "idea behind", "significance",
        # the meaning taken from an act (「烹狗於堂東北，何所取義？」, 「何取」): its reason, not a place
        "取义", "何取",
        # the purpose or ground asked in so many words (「其義何在」, 「其故何也」, 「這是什麼規矩」)
        "义何在", "义安在", "理由", "其故", "何不", "说明什么", "什么规矩", "rationale",
        # what an act is for or stands for (「這個環節象徵什麼」, 「鄉飲酒禮的目的是什麼」)
        "目的", "意义", "象征", "寓意", "是为了", "为了什么",
        # Cantonese (normalized): 點解
        "点解")
_MEANING = ("什么意思", "何谓", "何义", "是什么", "mean", "what is", "谓何", "意思", "什么人", "何人", "who",
            "何官", "到底是谁", "是谁", "干什么的", "干嘛的", "干吗的", "做什么的", "做啥的", "啥意思", "指哪",
            "指什么", "指的是", "哪些官", "什么官", "何所指", "指谁", "何解", "何训", "训何", "何释",
            "何物", "什么叫", "怎么讲", "者谁", "whats a", "whats the", "what exactly is", "谓谁",
            "边个", "乜嘢", "名词解释",
            # the classical 「X之X，其義云何？」 asks what the word means (「其義何在」 asks the purpose: _WHY)
            "义云何", "义如何", "义何如",
            # which character a word should be (「苟字是哪個字寫錯了」, 「當作何字」): an emendation glosses it
            "写错", "错字", "误字", "字之误", "当作何", "讹", "typo", "miswritten", "miscopied", "scribal error")
#: A question opening with a quoted word of the text and guessing what it is (「“坐挩手”是把手上的東西脫掉？」,
#: 「「疑立」是猶猶豫豫地站著嗎？」, 「“宾厌介”这个厌是啥动作」) asks what it means; 「…是不是因為」 guesses a reason.
_QUOTED_IS = re.compile(r"^\s*[「『“\"]([^」』”\"]{1,12})[」』”\"]\s*(?:[這这][個个]?\S?)?是(?!不是因|因|在|什[么麼][時时]|何[時时]|哪|[幾几]|多少)")
#: The classical 「X者何？」 asks what X is (but 「…者何在」 where it is).
_WHAT_IS_END = re.compile(r"者何[也乎]?[？?。！!\s]*$")
#: 「…，何也？」 after a clause asks why (「主人退而賓又拜辱，何也？」); after a bare term or 者
#: (「旨何也」, 「旅者何也」) it asks what the term is. Group 1 is what the 何也 follows.
_HE_YE = re.compile(r"([^，,。；;：:？?！!「」『』“”\s]*)\s*([，,]?)\s*何(?:也|哉|歟|欤|與|与)")
#: A 何也 after this many characters or more of its own clause follows a statement, not a term.
HE_YE_CLAUSE = 5
#: A negation in a question (不 / 沒 / 無 / 未 …; n't, not, no, never), but not the 不 of words
#: that only compare or ask back (不同, 不一樣, 不是…嗎, 不行).
_NEGATION_ZH = re.compile(r"[不没沒无無未非莫勿弗唔冇](?![同一是行对對])")
_NEGATION_EN = re.compile(r"n['’]t\b|\bnot\b|\bno\b|\bnever\b|\bwithout\b", re.IGNORECASE)
#: A sentence whose topic is an omission: it opens with a negated act (「不嚌啐，下賓」, 「不洗者，
#: 以其賤，略之也」, 「無獻，因其舉觶而薦之」) and goes on to say why.
_NEGATED_TOPIC = re.compile(r"^[○\s]*(?:[^，,。；：]{0,4}?)[不無无未非][^，,。；：]{1,10}[，,：:]")
_WHERE = ("哪里", "哪儿", "何处", "何所", "何在", "何地", "何方", "哪边", "什么地方", "什么位置", "什么方向", "where", "which side",
          "何位", "安在", "哪个位置", "哪一边", "哪一侧", "哪个台阶", "which way", "which direction",
          "边度", "边处", "喺边", "边便")
_WHAT_FOR = re.compile(r"(?:干嘛|干吗)的")
#: 怎么 before a verb of doing asks how it is done, not why (「人一多排不下了怎么办」, 「座位怎么排的」, 「怎么回拜」, 「怎么读」,
#: 「怎么报名」); before a negation or a surprise (「怎么不回拜」, 「怎么反而」, 「怎么才四个」) it asks why (normalized).
_HOW_DONE = re.compile(r"怎么(?:办|排|安排|做|处理|进行|摆|放|坐|站|走|回拜|回答|通知|弄|个|参加|报名|学|买|找|唱|吹|读|念)")
#: Words that ask in what order or at what point (normalized; English lower-cased).
_ORDER_ASKED = ("顺序", "次序", "先后", "什么时候", "何时", "几时", "从谁开始", "谁先", "哪个先", "何者先",
                "in what order", "what order", "at what point", "how soon", "before or after", "which comes first")
#: An English question opening with when asks when ("When do the musicians come in?"); a when inside
#: a question is mostly a conjunction ("Why, when the host washes …").
_WHEN_OPENING = re.compile(r"when (?:do|does|did|is|are|was|were)\b")
#: A sentence that says an order: by age (以齒), in turn (以次), first … then, ends with (終於), after / before.
_ORDER = re.compile(r"以齿|以次|依次|从次|次序|次第|先后|先[^，。；]{1,8}后|终于|然后|而后|之后|之前|既[^，。；]{1,6}乃")
#: A bare 哪 asks where (「肉乾擺哪？」, 「坐哪」), unless a measure word makes it which (哪個, 哪些, 哪位).
_WHERE_NA = re.compile(r"哪(?![个些一位种样天年次首篇边几])")
#: What someone says or replies (normalized, lower-cased): 「國君說了什麼？」, 「大家怎麼回答？」, 「其辭云何」, "what does
#: he say", "how do they reply". A question that names a commentator asks his view instead (「方苞說了什麼」).
_SPEECH = re.compile(
    r"说了?(?:些)?(?:什么|啥|哪些)|讲了?什么|什么话|怎么回答|如何回答|回答(?:了)?(?:什么|啥)|怎么回(?![事拜敬礼来去到家酢])|回了?什么|"
    r"答(?:了)?(?:什么|啥)|怎么答|如何答|原话|何辞|辞(?:曰|云)何|曰何|何言|如何对|何以对|"
    r"\bwhat (?:does|do|did|would|will|should) (?!the (?:text|note|commentary|book|passage|record|sub-commentary)\b|it\b)"
    r"(?:[a-z'-]+ ){1,4}(?:say|reply|answer|announce|tell (?:him|them|the \w+)|call out)\b|"
    r"\bhow (?:does|do|did|would|should) (?:[a-z'-]+ ){1,4}(?:reply|respond|answer)\b|\bwhat (?:words|reply)\b|"
    r"\bwhat is said\b|\bwhat'?s the reply\b|"
    r"\bwhat (?:is|are|was|were) (?:[a-z'-]+ ){1,4}(?:supposed|meant|expected|allowed) to (?:say|reply|answer)\b"
)
#: What a section of the text is about (normalized, lower-cased): 「此節論何事？」, 「這一段講的是什麼？」, 「此節以下所論者何事」,
#: "what is this passage about": the 疏's statement of the section (「自此至…，論…之事」) answers it.
_SECTION_ASKED = re.compile(
    r"(?:此|这|本)一?(?:节|段|经|章)[^？?]{0,8}?(?:论|讲|说)(?:的是)?(?:何|什么|啥)|所论者?何事|论何事|讲(?:的)?(?:是)?什么事"
    r"|\bwhat (?:is|does) (?:this|that|the) (?:section|passage|paragraph|part)\b[^?]{0,30}?\b(?:about|cover|deal with)\b"
)
_COUNT = ("几", "多少", "how many", "how much", "若干", "多久", "多长", "how long", "how often", "几年", "多远", "多高", "多深", "多宽",
          "how far", "how tall", "how deep", "how wide", "多大", "how big", "how large", "多重", "how heavy", "几多")
#: 几 that counts nothing: those few (那几个吹笙的人, 这几首), several (好几个人), almost (几乎).
_NOT_COUNTING = re.compile(r"[那这]几|好几|几乎")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """The normalized pieces of a question that sentences are matched on, with weights."""

    chars: frozenset[str]  # content characters of the core and expansions
    bigrams: frozenset[str]  # adjacent pairs within the core and within each expansion
    phrases: tuple[str, ...]  # the core's CJK runs and each expansion, for gloss heads
    why: bool  # the question asks why
    meaning: bool  # the question asks what something means
    #: a follow-up's terms carried over from the previous question: they count, but less
    context: frozenset[str] = frozenset()
    #: term → weight: the question's own words 1, glossary expansions less, quoted terms
    #: and corpus characters typed into an English question more, carried-over context less
    weights: Mapping[str, float] = field(default_factory=dict)
    where: bool = False  # the question asks where (a place, a side, a facing)
    count: bool = False  # the question asks how many
    order: bool = False  # the question asks in what order, or at what point (顺序, 先后, "in what order")
    #: the question asks why something is *not* done (「何以不酢」, "why doesn't he …"): a
    #: commentary that names the omission as its topic (「不酢，辟君也」, 「不洗者，以其賤」) answers it
    negated: bool = False
    #: rite ids the question names: units of another rite answer it less well
    rites: frozenset[str] = frozenset()
    #: what a what-is question asks about: the question's own CJK runs (or, in an English
    #: question without any, its glossary terms)
    asked: tuple[str, ...] = ()
    #: the run written last before the question word (挎越之越 of 「挎越之越者何」, 肆 of
    #: 「經云『…東肆』，肆何謂也」): the asked term is its end (越), not its start (挎)
    tail: str = ""
    #: layers whose commentator the question names (賈疏 → shu): they answer it first
    layers: frozenset[str] = frozenset()
    #: of several commentators named, the one named last (「鄭注說…，賈疏怎麼說？」 asks the 疏;
    #: the 注 is what the question quotes); "" when one or none is named
    asked_layer: str = ""
    #: terms whose corpus gloss the question's own words spell out (相 for 「扶着樂工…的人」):
    #: in a what-is question, that gloss is the answer
    reached: tuple[str, ...] = ()
    #: the question asks what someone says or replies (「說了什麼」, 「怎麼回答」, 「何辭」, "what does he say"), not what
    #: a commentator says: the 經 that reports the words (「君曰無不醉」, 「對曰：諾」) answers it
    speech: bool = False
    #: the question asks what a section of the text is about (「此節論何事？」): the 疏's statement of the section answers
    section: bool = False


def _he_ye(text: str) -> tuple[bool, bool]:
    """(asks why, asks what) of the classical 何也 / 何哉 in ``text`` (see ``_HE_YE``)."""
    why = what = False
    for m in _HE_YE.finditer(text):
        before, comma = m.group(1), m.group(2)  # 「…，何也」: the comma says a statement came before
        if before.endswith("者") or (len(before) < HE_YE_CLAUSE and not comma):
            what = True
        else:
            why = True
    return why, what


def negated_topic(text: str) -> str:
    """The negated act a sentence (as written) opens with before saying why, normalized (「不嚌啐」
    of 「不嚌啐，下賓」; see ``_NEGATED_TOPIC``); "" when it opens otherwise."""
    m = _NEGATED_TOPIC.match(text)
    return normalize(m.group(0)) if m else ""


def _grams(runs: Sequence[str]) -> tuple[set[str], set[str]]:
    chars = {c for p in runs for c in p if c not in _STOP_CHARS}
    grams = {b for p in runs for b in bigrams(p)}
    return chars, grams


def question_asks(text: str) -> tuple[bool, bool, bool, bool, bool]:
    """What kind of answer a question asks for: (why, what it means, where, how many, in what order)."""
    return _asks(text, normalize(text).lower())


def _asks(text: str, asked: str) -> tuple[bool, bool, bool, bool, bool]:
    """:func:`question_asks` of ``text``, ``asked`` being its normalized, lower-cased form."""
    why_he, what_he = _he_ye(text)
    # 「…是干嘛的」 asks what a thing or person is for (a gloss), not why
    asked_why = _HOW_DONE.sub("", _WHAT_FOR.sub("", asked))
    return (why_he or any(w in asked_why for w in _WHY),
            what_he or any(w in asked for w in _MEANING) or bool(_WHAT_IS_END.search(text) or _QUOTED_IS.match(text)),
            any(w in asked.replace("何所取", "") for w in _WHERE) or bool(_WHERE_NA.search(asked)),
            any(w in _NOT_COUNTING.sub("", asked) for w in _COUNT),
            any(w in asked for w in _ORDER_ASKED) or bool(_WHEN_OPENING.match(asked)))


def quoted_runs(text: str) -> list[str]:
    """The normalized CJK runs of what ``text`` quotes (「疑立」, “媵”, 『樂正先升』)."""
    return [r for q in _QUOTED.findall(text) for r in cjk_runs(normalize(q))]


def query_terms(query: "Query") -> QueryTerms:
    """Terms of ``query`` for sentence matching and highlighting (CJK only: the corpus is CJK)."""
    own = cjk_runs(query.core)
    bridged_terms = set(getattr(query, "bridged", ()))
    expanded = [r for e in query.expansions if e not in bridged_terms for r in cjk_runs(e)]
    bridged = [r for e in getattr(query, "bridged", ()) for r in cjk_runs(e)]
    if not own and not expanded:  # scaffolding removal can leave nothing (e.g. 「何謂也」)
        own = cjk_runs(query.norm)
    quoted = quoted_runs(query.text)
    # corpus words typed into an English question, or quoted, are what the question is about
    focus = own if query.lang in ("en", "mixed") else [r for r in own if any(r in q or q in r for q in quoted)]
    carried = [r for t in getattr(query, "context", ()) for r in cjk_runs(t)]
    rites = tuple(getattr(query, "rites", ()))
    # a question that names two rites contrasts them: a sentence naming them is the contrast
    named = (_rite_words(query.norm) or _text_names(rites)) if len(set(rites)) > 1 else []
    weights: dict[str, float] = {}
    for runs, w in ((bridged, BRIDGE_WEIGHT), (named, RITE_WEIGHT), (carried, CONTEXT_WEIGHT), (expanded, EXPANSION_WEIGHT), (own, 1.0), (focus, FOCUS_WEIGHT)):
        chars, bigrams = _grams(runs)
        weights.update({c: w for c in chars})
        weights.update({b: w * BIGRAM_WEIGHT for b in bigrams})
    chars, bigrams = _grams(own + expanded + bridged)
    context = frozenset(_grams(carried)[0]) - chars
    asks = _asks(query.text, query.norm.lower())
    follows = getattr(query, "follows", "")
    if follows and not any(asks) and not query.layers:
        # 「那「無算樂」呢？」 after 「…「無算爵」是什麼意思？」 asks what it means (「方氏何說？」 asks a layer's view)
        asks = question_asks(follows)
    why, meaning, where, count, order = asks
    return QueryTerms(
        chars=frozenset(chars),
        bigrams=frozenset(bigrams),
        phrases=tuple(dict.fromkeys(own + expanded + bridged)),
        why=why,
        meaning=meaning,
        context=context,
        weights=weights,
        where=where,
        count=count,
        order=order,
        negated=bool(_NEGATION_EN.search(query.text) if query.lang in ("en", "mixed") else _NEGATION_ZH.search(query.text)),
        rites=frozenset(rites),
        asked=tuple(dict.fromkeys(own or expanded)),
        tail=(own or [""])[-1],
        layers=frozenset(getattr(query, "layers", ())),
        asked_layer=_asked_layer(tuple(getattr(query, "layers", ())), query.norm, query.text),
        reached=tuple(t for t in getattr(query, "bridged", ()) if t in query.expansions),
        speech=not getattr(query, "layers", ()) and bool(_SPEECH.search(query.norm.lower()) or _SPEECH.search(query.text.lower())),
        section=bool(_SECTION_ASKED.search(query.norm.lower()) or _SECTION_ASKED.search(query.text.lower())),
    )


#: What follows a commentator the question asks about (normalized): 「賈疏怎麼解釋鄭注…」, 「方苞認為…」.
_ASKS_OF = re.compile(r"(?:的疏|的注|又|到底|究竟|对此)?(?:怎么|怎样|如何|何以|认为|以为|说什么|有何|是否)")
#: What follows a commentator whose words the question reports (賈疏說…), or who judges another (方苞對鄭注…怎麼看),
#: when no question word follows any of those named (normalized).
_SAYS = re.compile(r"(?:的疏|的注|里|中)?(?:说|云|讲|曰|提到|指出|对(?:于)?(?!不对))")


#: In English, the commentator asked is the subject of a question's verb ("what does Fang Bao think of the
#: sub-commentary's claim", "how does the sub-commentary explain Zheng's note") or of a verb of judging
#: ("Fang Bao's view", "Jia Gongyan argues"); "Zheng's note says …" states what the other layer says.
_ASKS_EN_BEFORE = frozenset({"does", "did", "do", "would", "will"})
_ASKS_EN_AFTER = frozenset({"think", "thinks", "thought", "view", "views", "opinion", "take", "make", "makes", "argue",
                            "argues", "explain", "explains", "interpret", "interprets", "comment", "comments", "object",
                            "objects", "disagree", "disagrees", "agree", "agrees", "respond", "responds", "reply", "replies"})
_ASKS_EN_SKIP = frozenset({"s", "note", "notes", "commentary", "gongyan", "xuan"})


def _asked_in_english(text: str) -> set[str]:
    """The layers whose commentator an English question asks about (see ``_ASKS_EN_AFTER``)."""
    words = WORD.findall(text.lower())
    stems = [stem(w) for w in words]
    asked = set()
    for name, value in commentators_table().english.items():
        n = len(name)
        for i in range(len(stems) - n + 1):
            if tuple(stems[i : i + n]) != name:
                continue
            before = [w for w in words[max(0, i - 2) : i] if w != "the"][-1:]
            after = [w for w in words[i + n : i + n + 3] if w not in _ASKS_EN_SKIP][:1]
            if (before and before[0] in _ASKS_EN_BEFORE) or (after and after[0] in _ASKS_EN_AFTER):
                asked.add(value)
    return asked


def asked_commentator(layers: Sequence[str], norm: str, text: str = "") -> str:
    """Of two or more commentators named, the layer of the one the question asks about, when it says
    so: a question word follows it (the 疏 of 「賈疏怎麼解釋鄭注「…」？」, of 「鄭注說…，賈疏怎麼說？」),
    or, in English, it is the subject of the question's verb or of a verb of judging (Fang Bao of "what
    does Fang Bao think of the sub-commentary's claim"); "" when it does not say, or for one or none."""
    if len(set(layers)) < 2:
        return ""
    named = [(value, m.end()) for name, value in commentators_table().chinese for m in re.finditer(re.escape(name), norm)]
    asked = {value for value, end in named if _ASKS_OF.match(norm, end)}
    if not asked:  # 「賈疏說鄭玄注禮…，是怎麼回事？」: the one who says is the one asked
        asked = {value for value, end in named if _SAYS.match(norm, end)}
    if not asked and text:
        asked = _asked_in_english(text) & set(layers)
    return asked.pop() if len(asked) == 1 else ""


def _asked_layer(layers: tuple[str, ...], norm: str, text: str = "") -> str:
    """Of two or more commentators named, the one asked (:func:`asked_commentator`), else the one named
    last; "" for one or none."""
    if len(set(layers)) < 2:
        return ""
    return asked_commentator(layers, norm, text) or layers[-1]


def _text_names(rites: Sequence[str]) -> list[str]:
    """How the text names ``rites`` (ids), without 禮 (鄉飲酒, 燕): for a question that names them in English."""
    names: dict[str, str] = {}
    for name, rite in rites_table().chinese:
        if name.endswith("礼"):
            short = re.sub(r"之?礼$", "", name)
            if short and (rite not in names or len(short) < len(names[rite])):
                names[rite] = short
    return [names[r] for r in dict.fromkeys(rites) if r in names]


def _rite_words(norm: str) -> list[str]:
    """The rite names in a normalized question, without 禮 / 之禮 (a 注 says 「鄉飲酒」, 「燕」)."""

    found = []
    for name, _ in rites_table().chinese:  # longest first
        if name in norm:
            norm = norm.replace(name, " ")
            found.append(re.sub(r"之?礼$", "", name) or name)
    return found


def _asked(term: str, terms: QueryTerms) -> bool:
    # a modern pronoun (qa.retrieval.query's) stands for someone the question names elsewhere, not a word it asks about
    # (「是誰叫他們上堂入座的？」 does not ask 「他，謂眾士也」); the text's 其他, written whole, is a word
    if term in _PRONOUNS_ZH and not any("其" + term in p for p in terms.phrases):
        return False
    if term in terms.reached:  # 相 of 「扶着樂工的人」 through 「相，扶工也」
        return True
    if len(term) == 1 and not terms.meaning:
        # one character inside a longer phrase (序 of 「旅酬之序」) is rarely what is asked
        return term in terms.phrases
    return bool(term) and len(term) <= 4 and any(term in p for p in terms.phrases)


#: Longest Y (normalized characters) of a short gloss 「X，Y。」 that does not close with 也.
SHORT_GLOSS = 4
#: Longest Y of a gloss 「X，Y者」 (the one who …).
AGENT_GLOSS = 12
#: Place and facing words: 「賓，西面」 says where someone stands, not what 賓 is.
_MOVE = re.compile(r"[东西南北]面|[东西南北]上|[拜揖升降坐兴立]")


#: 「故謂之X也」, 「是以謂之X」: a conclusion that names the term just explained (normalized).
_NAMED_SO = re.compile(r"(?:故|是以)谓之[^谓之也]{1,3}也?$")


def _glossed_term(text: str, terms: QueryTerms) -> str:
    """The asked term a sentence glosses (normalized), or "": 「X，Y也」, 「X者，Y也」, 「X，猶Y」,
    「X，謂Y」, 「X之言Y也」, 「Y曰X」, or a reasoning that ends 「故謂之X也」."""
    return next((x for x in _gloss_candidates(text) if _asked(x, terms)), "")


@lru_cache(maxsize=65536)
def _gloss_candidates(text: str) -> tuple[str, ...]:
    """The terms (normalized) a sentence glosses, in the order :func:`_glossed_term` tries them: what the
    sentence says of its words does not depend on the question, only which of them it asks (a sentence is
    read for every question, so this is worked out once)."""
    out: list[str] = []
    m = re.match(r"(.{1,4}?)之言", normalize(text))
    if m:
        out.append(m.group(1))
    # an emendation says which word it should be (「苟当作耉」, 「X當為Y」); a reading (讀為) says only how it sounds
    out.extend(m.group(1) for m in re.finditer(r"([^，,。；当當]{1,2})(?:当作|当为)", normalize(text)))
    for clause in re.split(r"[，,。；]", text):
        m = re.search(r"[曰謂谓为為]之?([^曰謂谓为為之也]{1,3})也?$", clause)  # 推手曰揖
        # a short clause, or a conclusion naming the term however long the (unpunctuated) reasoning before
        # it: 「…故謂之旅食也」
        if m and (len(normalize(clause)) <= 8 or _NAMED_SO.search(normalize(clause))):
            out.append(normalize(m.group(1)))
    # a gloss the sentence quotes from a dictionary or another commentary: 「案爾雅云︰『酢，報也。』」
    out.extend(normalize(m.group(1)) for m in _QUOTED_GLOSS.finditer(text))
    head = re.split(r"[，,：:]", text, maxsplit=1)[0]
    if head == text:
        return tuple(out)
    rest = normalize(text[len(head) :])
    # 「相，扶工也，眾賓之少者為之」: the clause right after the term closes with 也
    first = normalize(next((p for p in re.split(r"[，,：:]", text[len(head) :]) if p.strip()), ""))
    glossy = rest.endswith("也") or first.endswith("也") or rest.startswith(("犹", "谓", "言")) or "谓" in rest[:3]
    # 「疑，正立自定之貌」: the manner the word describes
    glossy = glossy or (first == rest and rest.endswith("貌"))
    # a short 「X，Y。」 names what X is (「榮，屋翼」, 「冪，覆尊巾」): one clause of a few characters
    glossy = glossy or (first == rest and 2 <= len(rest) <= SHORT_GLOSS and not _MOVE.search(rest))
    # 「相，主人之吏，擯贊傳命者」: X is the one who …
    glossy = glossy or (rest.endswith("者") and len(rest) <= AGENT_GLOSS and not _MOVE.search(first))
    if glossy:
        out.append(normalize(re.sub(r"者$", "", head)))
    return tuple(out)


#: A quoted gloss of a word of one to three characters: 云︰「X，Y也」.
_QUOTED_GLOSS = re.compile(r"[云曰][︰：:]?[「『]([^，,「」『』]{1,3})[，,][^，,「」『』]{1,12}也。?[」』]")
#: Words that mark a sentence as giving a reason (normalized): 以其, 所以, 故 (not 故云 / 故知,
#: which only quote or infer), 示 / 明 (to show), 欲, 嫌, 不敢, 尊之 / 敬, 「X者，以Y」 (X is done for Y), and the 疏's reasons
#: for what the text leaves unsaid: 省文 (left out for brevity), 互文 / 互相見 (each passage says what the other omits); and
#: rank, the corpus's commonest reason: 賤 / 卑 (「凡工賤，不為之洗」, 「不升拜，賤也」).
_EXPLAIN = re.compile(r"以其|所以|是以|为其|者以|之义|故(?![云言知曰经注郑下上]|不与|与此)|示|明(?![日矣])|欲|嫌|不敢|尊之|敬"
                      r"|省文|互文|互相见|贱|卑")
#: A 注's closing purpose clause 「以全交也」 (in a 疏 「以…也」 more often restates the 經).
_PURPOSE = re.compile(r"以[^以]{1,8}也$")
#: A 注's 「[the act]者，[its reason]也」 (「不歌鹿鳴、魚麗者，辟國君也」): the act named as a topic, then why; and 「X取Y」,
#: what a thing is chosen for (「狗取擇人」: the dog, for choosing whom it lets in), not an act of taking (取爵).
_TOPIC_REASON = re.compile(r"^.{2,14}者.{2,16}也$|^.{1,2}取(?![爵觯俎觚肺脯篚矢瑟于])")
#: Place and number words, for questions asking where or how many.
#: A place said as a place (在…之南, 北面, 阶上, 堂下, 其位, 西方), not any 南 (of 南陔, a song's name).
_PLACE = re.compile(
    r"在[^，。；]{0,8}?[东西南北上下前后中间]|[东西南北]面|[东西南北]上|之[东西南北]|[东西南北][阶序楹堂房]"
    r"|[阶堂庭门楹序房室][上下前后东西南北间内外]|[荐席尊洗篚碑俎豆觯爵][东西南北]|位|[东西南北]方"
)
#: A number that counts or measures something (六者, 四人, 三年, 丈六尺, 一升之爵, 其挺有五, 再重, 凡…), not the
#: 一 of 「一歌則一吹」.
_NUMBER = re.compile(r"[二三四五六七八九十百][者篇人年尺丈寸拜爵终成等命日月番节首次种章重领条挺]|[一二三四五六七八九十百]{2,}|凡|丈|尺|年"
                     r"|[一二三四五六七八九十][升斗]|有[二三四五六七八九十][^十百]|再重")


def says_kind(norm: str, terms: QueryTerms) -> bool:
    """Whether a (normalized) sentence says the place a where question asks, the number a how-many one
    asks, or the order an in-what-order one asks."""
    return bool((terms.where and _PLACE.search(norm)) or (terms.count and _NUMBER.search(norm))
                or (terms.order and _ORDER.search(norm)))


def explains(norm: str, layer: str) -> bool:
    """Whether a (normalized) sentence of ``layer`` gives a reason (以其, 所以, 故, 示 …; a 注's 「以…也」 or
    「X者，Y也」)."""
    return bool(_EXPLAIN.search(norm) or (layer != "shu" and (_PURPOSE.search(norm) or _TOPIC_REASON.search(norm))))


def glosses_tail(text: str, terms: QueryTerms) -> bool:
    """The sentence glosses the term the question ends on (越 of 「挎越之越者何」, 肆 of 「東肆，肆何謂也」)."""
    x = _glossed_term(text, terms)
    # a gloss that opens with its term (「肆，陳也」), not one ending a clause (「從西向東為肆」)
    if not x or not normalize(text).startswith(x):
        return False
    return (bool(terms.tail) and terms.tail.endswith(x)) or x in terms.reached


def _is_gloss_of(text: str, terms: QueryTerms) -> bool:
    """A gloss of something the question names (see ``_glossed_term``)."""
    return bool(_glossed_term(text, terms))


def gloss_strength(text: str, terms: QueryTerms) -> float:
    """How fully a sentence glosses what the question asks: 1.0 for a whole asked term (「樂正，…也」
    for 樂正), its share of the asked term for a part of it (「正，長也」 for 樂正: 0.5); 0.0 for no gloss.

    The asked terms are the question's own runs (its expansions only when it has none, as in
    an English question): so a gloss of the whole word asked outranks one of its characters.
    """
    x = _glossed_term(text, terms)
    if not x:
        return 0.0
    asked = terms.asked or terms.phrases
    within = [p for p in asked if x in p]
    if not within:
        return PART_GLOSS
    whole = min(within, key=len)
    if x == whole:
        return 1.0
    # the first character names what kind of thing a compound is (旅 of 旅酬: 「旅，序也」)
    return HEAD_GLOSS if whole.startswith(x) else max(PART_GLOSS, len(x) / len(whole))


#: Particles a short 經 opens with before the act it names (乃設折俎, 遂獻…).
_JING_OPENING = "乃遂既则"
#: A 經 of at most this many characters (its opening particle dropped) can be the name of one act or thing.
TERM_JING_CHARS = 6
#: ... and it is the asked term's when the term covers at least this share of it.
TERM_JING_SHARE = 0.6


def jing_is_term(jing: str, terms: QueryTerms) -> bool:
    """Whether a short (normalized) 經 is little more than an asked term of two or more characters (「乃設折俎」 for
    折俎, 「羞庶羞」): its commentary then explains the very thing a what-is question asks about, even without the
    「X，Y也」 form (「牲體枝解節折在俎」)."""
    core = jing.lstrip(_JING_OPENING)
    if not core or len(core) > TERM_JING_CHARS:
        return False
    return any(len(t) >= 2 and t in core and len(t) / len(core) >= TERM_JING_SHARE for t in terms.asked)


__all__ = ["QueryTerms", "asked_commentator", "explains", "question_asks", "gloss_strength", "glosses_tail", "jing_is_term", "query_terms",
           "says_kind", "TERM_JING_CHARS", "TERM_JING_SHARE"]
