"""The bridge from people's words to the corpus's terms, built once per open index.

Real lexical resources, in this order (the curated glossary has already run in
:func:`qa.retrieval.query.analyze`):

1. **CC-CEDICT, English → characters** (:mod:`qa.text.cedict`): an English content word the
   glossary does not know leads to the headwords one of whose senses it is, kept when the corpus
   uses them, the corpus's most frequent first (summon → 召; hall → 堂);
2. **CC-CEDICT, modern word → classical characters**: a modern word of the question that the
   corpus never writes (客人, 衣服, 清水) is read through its English senses back to characters
   the corpus does use (客人 → guest → 賓; 清水 → water → 水);
3. **CC-CEDICT, readings**: a word of an English question that is no English word but spells the
   reading of a ritual term (xuanjiu, lu chou, zhi) is read back to the term's characters
   (玄酒, 旅酬; 旨 觯 至), composed character by character from the dictionary's readings, since
   CC-CEDICT lists few of the corpus's compounds (the 經's recurring pairs and the names its lists
   give, 鹿鳴 of 「工歌鹿鳴、四牡」, are spellable too); a reader who writes pinyin names the term;
   the same readings, with their tones, catch a Chinese question's homophone slip of a pinyin keyboard
   (司政 for 司正, 旅筹 for 旅酬: :meth:`Bridge.slips`), which BM25 then matches as the term itself;
4. **the corpus's own glosses** (:mod:`qa.retrieval.glosses`, 「X，Y也」 in the 注 and 疏): a
   question whose words (or the terms of 1 and 2) reach a gloss Y reaches its term X
   (美 → 旨, 召 → 速, 扶 + 工 → 相).

What it finds is added to the query's expansions (so BM25 and the encoder see it) and listed
in ``Query.bridged`` (so sentence matching weighs it below the question's own words, and the
confidence rule never counts it as ritual vocabulary). It also knows the corpus's *ritual
terms* — the glossary's corpus terms and the mined gloss terms the corpus uses — for the rule
that a question naming one is never refused (:func:`names_ritual_term`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice, product
from typing import TYPE_CHECKING

from ..text.cedict import Cedict, cedict, pinyin_key, sense_words
from ..text.lexicon import (
    beyond_table,
    commentators_table,
    glossary,
    glossary_roles,
    modern_table,
    other_rites_table,
    rites_table,
    stem,
)
from ..text.normalize import normalize
from ..text.tokens import WORD, bigrams, cjk_runs, fold_latin
from .glosses import Gloss, mine_glosses
from .query import _MODERN_ONLY_CHARS, _english, analyze, english_names, glossary_matches, glossary_zh_matches, names_in
from .remarks import chinese_preface, sentences
from .terms import question_asks

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.units import LemmaUnit
    from .query import Query

#: A quotation this much of which is modern words the corpus never writes (「回到位置」) is the reader's own phrasing
#: in quotation marks, not another text.
MODERN_QUOTE_SHARE = 0.75
#: Corpus terms one English word or one modern word may lead to.
PER_WORD = 2
#: ... through CC-CEDICT from an English word (its senses are many: only the best one).
PER_ENGLISH_WORD = 1
#: An English word leads to a headword only when the headword's first sense is that one word ("summon"
#: → 召); a longer first sense ("wind round" of 缭, "bow again" of 再拜) is a stretch for one word.
ENGLISH_SENSE_WORDS = 1
#: A one-character gloss (美 of 「旨，美也」) is reached only when the corpus uses it rarely (idf at
#: least this, about the 20th percentile): 上 or 長 are in every other sentence and would reach anything.
SINGLE_GLOSS_MIN_IDF = 3.0
#: Longest mined term (characters) the gloss bridge leads to: a longer 「X」 is a phrase, not a term.
MAX_BRIDGED_TERM = 3
#: Gloss terms one question may reach through the corpus's glosses.
PER_QUESTION_GLOSSES = 3
#: Whether bridged terms join the expansions BM25 matches (else only the encoder and sentence choice see them).
BRIDGE_IN_EXPANSIONS = False
#: An English question names the corpus's topic with this many different glossary words.
ENGLISH_NAMED_WORDS = 2
#: So too a Chinese question: two different modern words the glossary maps to a ritual term (乐师 → 工,
#: 喝酒 → 飲酒, 站着 → 立) name the rite; one (音乐, 洗手) does not. Measured: real_dev4 false "no
#: passage" 6 → 5, off-topic flags of offtopic, offtopic_dev and offtopic4 unchanged (1 measured: 3
#: rescued, 14 off-topic flags lost).
CHINESE_NAMED_WORDS = 2
#: Longest run of words read as one term in pinyin (yue zheng, xiang yin jiu), and most readings
#: composed per term (characters with several readings: 乐 le / yue).
MAX_PINYIN_WORDS = 4
MAX_READINGS = 16
#: A pair of characters of the 經 a reader may spell in pinyin when it occurs at least this often there.
MIN_JING_PAIR = 2
#: A one-syllable reading (zhi) is ambiguous: it leads to at most this many one-character terms.
PER_SYLLABLE = 3
#: Lengths of the 經's runs a reader may quote in pinyin, one word per syllable (zuo xing zhi → 坐行之).
PHRASE_CHARS = (3, 4)
#: ... and within quotation marks, where two syllables will do: 'gou jing' → 苟敬 of 「賓為苟敬」, a word of the 經
#: that no glossary holds and that occurs there once (MIN_JING_PAIR asks twice of a pair read unquoted).
QUOTED_PHRASE_CHARS = (2, *PHRASE_CHARS)
#: An English word with a possessive ending (the jie's, the jie’s).
_POSSESSOR = re.compile(r"([A-Za-z]+)['’]s\b")
#: Kinds of ``beyond.tsv`` word: another work, a commentator's life, the classic's history (:meth:`Bridge.asks_beyond`).
BEYOND_WORK, BEYOND_LIFE, BEYOND_HISTORY, BEYOND_ERA, BEYOND_LEARNING = "work", "life", "history", "era", "learning"
#: ... and a sage whose life the text cannot tell either (孔子, "Confucius"): a word of a life beside him asks of it.
BEYOND_SAGE = "sage"
#: ... and what the text never measures or names, asked even of the rite by name: money, a drink's strength, a kind of
#: drink of later ages, a hangover, calories (「鄉飲酒禮大概要花多少錢？」, "How strong was the wine at the lord's banquet,
#: alcohol-wise?").
BEYOND_MATERIAL = "material"
#: How far (characters, or English words) after a commentator's name a word of his life still speaks of him.
LIFE_GAP = 6
#: ... and how many English words before it ("the biography of Fang Bao").
LIFE_BEFORE = 2
#: The commentary named as such: a question that writes it is about the corpus's notes (normalized).
_COMMENTARY_WORDS = ("注", "疏")
#: The classic's own titles (normalized).
_CLASSIC_TITLES = ("仪礼", "礼经")
#: What ends a clause of the 經 (a quoted phrase lies within one).
_CLAUSE_BREAK = re.compile(r"[，。、；：︰？！,.;:?!「」『』“”（）()\s]+")
#: Longest modern word looked up in CC-CEDICT.
MAX_MODERN = 4
#: Characters that are phrasing, never a topic (normalized): not worth a bridge.
_PHRASING = frozenset("的了吗呢么们这那哪吧呀啊是有在要就都也还又很把被给让去来说做个什么怎样为")


#: A short term quoted or put in brackets (「介」, 'he' (和), 案子（俎）): written on purpose.
_QUOTED = re.compile(r"[「『“\"'（(]([^」』”\"'）)]{1,4})[」』”\"'）)]")
#: A romanized word a reader marks as a term: 'yi', "zhi", (gong).
_MARKED_WORD = re.compile(r"""[\"'‘“(（]\s*([A-Za-z]+)\s*[\"'’”)）]""")
#: A quotation of at least QUOTE_CHARS characters, and the window a quotation shares with the corpus
#: when it quotes the corpus (a reader's quotation may differ in a character or two, never in four running).
_QUOTATION = re.compile(r"[「『“\"]([^」』”\"]+)[」』”\"]")
QUOTE_CHARS = 4
#: A quotation of the corpus this long names it (「坐行之」), however the question around it is phrased.
QUOTED_CORPUS_CHARS = 3
#: A work named in title marks (《史記》, 〈碩鼠〉, 《禮記·昏義》: each part between ·).
_TITLE = re.compile(r"[《〈]([^》〉]+)[》〉]")
_TITLE_PARTS = re.compile(r"[·・．.]")
#: The classic itself named as such, 經 opening a clause or after 的/此/本 (經云, 經或言, 此經, 經文), not the end
#: of another classic's name (詩經, 孝經, 《道德經》).
_THE_CLASSIC = re.compile(r"(?:^|[\s，。、；：？！「」『』“”（）,.;:?!的此本])(?:經|经)(?=[云言曰或文中所既上下不何])")
#: The kind of ``modern.tsv`` word that frames a question in the present (今人, 如今, nowadays).
TODAY = "time"
#: The kind of ``modern.tsv`` word that frames a question in the present only when it opens it (现在…).
NOW = "now"
#: What a question's sentence, or the question after a reader's preface, follows: a sentence end or a colon.
_SENTENCE_OPENING = re.compile(r"[。！？!?：:]")
#: The kind of ``modern.tsv`` word a reader may also use of the rite's own people (the lord as "the boss", 老闆).
WORK = "work"
#: One-character glossary terms that are directions, numbers or grammar: never a named topic alone.
_NOT_A_TOPIC = frozenset("东西南北上下左右前后中内外间一二三四五六七八九十百两再者与所从即既他某误之其而以于为不曰贰")
#: Characters a homophone slip never writes in place of a ritual term's (grammar, numbers, measure words,
#: Cantonese and colloquial particles): 几首 is "how many songs", not 稽首.
_NO_SLIP = _PHRASING | _NOT_A_TOPIC | frozenset("几只个些两") | _MODERN_ONLY_CHARS

#: A one-character ritual term that CC-CEDICT puts in at most this many words of two or more
#: characters (磬 2, 篚 0, 俎 3, 笙 8) is no modern word's character: written anywhere, it names the
#: term (「为什么要敲磬？」). 賓 (42), 酒 (226) are too common in modern words for that (宾馆, 红酒).
RARE_CHAR_WORDS = 8


#: A name in a list of the 經 (「工歌鹿鳴、四牡、皇皇者華」): an item between 、 (or after ︰), of
#: NAME_CHARS characters, a reader may spell in pinyin however rarely the 經 names it (lu ming → 鹿鳴).
NAME_CHARS = (2, 4)
#: the classic's own title: with the works of the units (儀禮注疏, 仪礼析疑) and what follows it in them
#: (注疏, 析疑), the names a reader writes in pinyin for the book, never a term (see ``Bridge.titles``)
TITLE = "儀禮"
_LIST_ITEM = re.compile(r"(?<=[、︰：:])[^、，。；︰：:？！「」]+|[^、，。；︰：:？！「」]+(?=、)")


#: "hold" of an occasion (to hold a banquet; where was it held?) is to convene it, not to grasp something (持):
#: the verb with an occasion for its object, or in the passive ("when was the rite held?"). The corpus says it with
#: 行 (三年正月而一行), a word too common to lead anywhere, so the verb leads nowhere. "How was the cup held?" loses
#: 持 to this; "holding on to them", "holds only plain water" keep it.
_OCCASION = (r"(?:ceremon(?:y|ies)|rites?|rituals?|banquets?|feasts?|part(?:y|ies)|drinking|archery|contests?|festivals?"
             r"|events?|meetings?|gatherings?|celebrations?|receptions?|dinners?)")
_EVENT_HOLD = re.compile(
    r"\bhold(?:s|ing)?\s+(?:(?:a|an|the|this|that|these|those|his|their|its|such|some|any|one|village|big|formal|"
    r"annual|state|ruler's|duke's|lord's|drinking|archery)\s+){0,4}" + _OCCASION + r"\b"
    r"|\b(?:is|was|are|were|be|been|being|get|gets|got)\s+(?:\w+ly\s+|actually\s+|usually\s+|still\s+|first\s+|ever\s+)?held\b"
    r"|\bheld\s+(?:once|every|each|annually|yearly|in|at|on|during)\b"
    r"|\b(?:is|was|are|were)\s+(?:[\w']+\s+){1,5}held\s*(?:[?.!,;]|$)",
    re.IGNORECASE,
)
_HOLD = frozenset(("hold", "holds", "held", "holding"))


def _jing_names(units: Sequence["LemmaUnit"]) -> set[str]:
    """The names the 經 lists (songs, vessels, dishes): the items of its 、-lists, normalized. The
    first item keeps the verb before it (工歌鹿鳴), so its last two characters count as well."""
    out: set[str] = set()
    for u in units:
        for m in _LIST_ITEM.finditer(u.jing):
            item = normalize(m.group(0))
            for name in (item, item[-2:]):
                if NAME_CHARS[0] <= len(name) <= NAME_CHARS[1] and len(cjk_runs(name)) == 1:
                    out.add(name)
    return out


def spellings(dictionary: Cedict, text: str, *, toned: bool = False) -> Iterator[str]:
    """The readings of ``text`` character by character, joined (旨酒 → zhijiu; with ``toned``, zhi3jiu3): every
    combination of its characters' CC-CEDICT readings, at most MAX_READINGS of them."""
    of = dictionary.toned if toned else dictionary.readings
    return ("".join(r) for r in islice(product(*(of(ch) for ch in text)), MAX_READINGS))


#: A rite's name this long (or one ending in 禮) is heard in other characters of its sound (:meth:`Bridge.heard_rites`).
_RITE_SOUND_CHARS = 3


def _rite_sounds(dictionary: Cedict) -> dict[tuple[int, str], str]:
    """(length, toneless reading) → rite id, for the corpus's rite names that end in 禮 or run _RITE_SOUND_CHARS
    characters or more (鄉飲酒禮, 鄉飲酒, 燕禮; not 鄉飲)."""
    out: dict[tuple[int, str], str] = {}
    for name, rite in rites_table().chinese:
        if len(name) >= _RITE_SOUND_CHARS or (len(name) >= 2 and name.endswith("礼")):
            for key in spellings(dictionary, name):
                out.setdefault((len(name), key), rite)
    return out


def _marked_words(query: "Query") -> set[str]:
    """The Latin words the reader marks as terms, quoted or in brackets ('yi', (gong)), lower-cased."""
    return {w.lower() for w in _MARKED_WORD.findall(fold_latin(query.text))}


#: A short Latin phrase the reader quotes or brackets ('he yue', "gong"): its words may be pinyin though English has them.
_MARKED_PHRASE = re.compile(r"""[\"'‘“(（]\s*([A-Za-z]+(?:[ -][A-Za-z]+){0,2})\s*[\"'’”)）]""")


def _marked_phrases(query: "Query") -> list[list[str]]:
    """The short Latin phrases the reader quotes or brackets, as lower-cased words."""
    return [[w.lower() for w in re.split(r"[ -]", p)] for p in _MARKED_PHRASE.findall(fold_latin(query.text))]


def _marked_phrase_words(query: "Query") -> set[str]:
    """The words of the short Latin phrases the reader quotes or brackets, lower-cased."""
    return {w for p in _marked_phrases(query) for w in p}


def chinese_glossary_keys(runs: Sequence[str]) -> set[str]:
    """The modern words of two or more characters that the glossary maps to a ritual term (樂師 → 工,
    喝酒 → 飲酒), read as the query's expansion reads them (:func:`qa.retrieval.query.glossary_zh_matches`), in ``runs``."""
    gl = glossary()
    return {word for run in runs for word, terms in glossary_zh_matches(run, gl.chinese, gl.max_zh)
            if len(word) > 1 and any(t not in _NOT_A_TOPIC for t in terms)}


@dataclass(frozen=True)
class Bridge:
    """Corpus-aware vocabulary bridges (see the module docstring). Build with :meth:`build`."""

    idf: Mapping[str, float]  # the lexical index's token → idf: a token is "in the corpus" when present
    glosses: tuple[Gloss, ...]
    by_gloss: Mapping[str, tuple[str, ...]]  # normalized gloss Y → terms X it glosses
    ritual_terms: frozenset[str]  # normalized multi-character terms of the corpus's ritual vocabulary
    ritual_chars: frozenset[str]  # one-character ritual terms (賓, 介, 旨): named only in a classical question
    dictionary: Cedict
    #: what CC-CEDICT may lead to: the corpus's ritual vocabulary (glossary terms, mined terms and
    #: their short glosses). A dictionary leads anywhere (如果 → 苟, 後來 → 後世); this keeps it on topic.
    targets: frozenset[str] = frozenset()
    #: toneless reading (pinyin_key) → the ritual terms (and one-character ritual terms) it spells
    by_reading: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the corpus's normalized text, units separated by newlines: what a quotation is looked up in
    text: str = ""
    #: one-character ritual terms modern Chinese hardly builds words with (see RARE_CHAR_WORDS)
    rare_chars: frozenset[str] = frozenset()
    #: toneless readings of the corpus's own titles (Yili, Yili Xiyi): a title, not a term spelt in pinyin
    titles: frozenset[str] = frozenset()
    #: toneless reading → the characters of the 經 that read so, most frequent first: what a syllable the
    #: reader marks as a term ('bian', (xian)) may spell when no ritual term reads so
    jing_syllables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: toneless reading → the runs of two to four characters of one clause of the 經 that read so: what a reader
    #: quoting the text in pinyin spells ("zuo xing zhi" → 坐行之 of 「乃就席，坐行之」; two only within quotation
    #: marks, 'gou jing' → 苟敬) when no term of the corpus reads so
    jing_phrases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: (length, toneless reading) → rite id: a rite's name heard in other characters (:meth:`heard_rites`)
    rite_sounds: Mapping[tuple[int, str], str] = field(default_factory=dict)

    @classmethod
    def build(cls, units: Sequence["LemmaUnit"], idf: Mapping[str, float], dictionary: Cedict | None = None) -> "Bridge":
        glosses = mine_glosses(units)
        by_gloss: dict[str, list[str]] = {}
        for g in glosses:
            if len(g.term) > MAX_BRIDGED_TERM or (len(g.gloss) == 1 and idf.get(g.gloss, 0.0) < SINGLE_GLOSS_MIN_IDF):
                continue
            if len(g.gloss) <= 6:
                by_gloss.setdefault(g.gloss, []).append(g.term)
        gl = glossary()
        corpus_terms = {t for terms in (*gl.chinese.values(), *gl.english.values()) for t in terms}
        corpus_terms |= {g.term for g in glosses if len(g.term) <= MAX_BRIDGED_TERM}
        # in the corpus: every bigram of it is an index token (the lexical index's vocabulary)
        ritual = frozenset(
            t for t in corpus_terms if len(t) >= 2 and all(t[i : i + 2] in idf for i in range(len(t) - 1))
        )
        # one-character terms of the curated glossary only (the mined ones include 者, 所, 他),
        # never a direction, a number or a function word: those name no topic on their own
        curated = {t for terms in (*gl.chinese.values(), *gl.english.values()) for t in terms}
        chars = frozenset(t for t in curated if len(t) == 1 and t in idf and t not in _NOT_A_TOPIC)
        targets = {t for t in curated | {g.term for g in glosses} | set(by_gloss) if len(t) <= 2}
        targets -= _NOT_A_TOPIC
        dictionary = dictionary if dictionary is not None else cedict()
        by_reading: dict[str, list[str]] = {}
        # what a reader may spell: the ritual terms, and the words of the 經 itself (every pair of
        # characters that recurs in it: 折俎 of 乃設折俎, 拜送)
        jing_runs = [r for u in units for r in cjk_runs(normalize(u.jing))]
        pairs = Counter(b for r in jing_runs for b in bigrams(r))
        spellable = ritual | chars | {b for b, n in pairs.items() if n >= MIN_JING_PAIR} | _jing_names(units)
        for term in sorted(spellable):
            for reading in spellings(dictionary, term):
                by_reading.setdefault(reading, []).append(term)
        # "the Yili" is the book (儀禮), not 疑立; Fang Bao's "Xiyi" is his 析疑, not 洗揖
        book = normalize(TITLE)
        works = {normalize(u.work) for u in units}
        titles = {book, *works, *(w.removeprefix(book) for w in works)} - {""}
        title_readings = frozenset(reading for t in titles for reading in spellings(dictionary, t))
        jing_chars = Counter(ch for r in jing_runs for ch in r)
        syllables: dict[str, list[str]] = {}
        for ch, _ in jing_chars.most_common():
            for syllable in dictionary.readings(ch):
                syllables.setdefault(syllable, []).append(ch)
        phrases: dict[str, list[str]] = {}
        # within a clause: 鹿鳴、四牡 is no phrase 鹿鳴四
        for run in (r for u in units for clause in _CLAUSE_BREAK.split(u.jing) for r in cjk_runs(normalize(clause))):
            for n in QUOTED_PHRASE_CHARS:
                for i in range(len(run) - n + 1):
                    for reading in spellings(dictionary, run[i : i + n]):
                        phrases.setdefault(reading, []).append(run[i : i + n])
        return cls(idf, glosses, {k: tuple(dict.fromkeys(v)) for k, v in by_gloss.items()}, ritual, chars,
                   dictionary, frozenset(targets), {k: tuple(v) for k, v in by_reading.items()},
                   "\n".join(normalize(u.full_text) for u in units),
                   frozenset(ch for ch in chars if dictionary.compounds(ch) <= RARE_CHAR_WORDS), title_readings,
                   {k: tuple(v[:PER_SYLLABLE]) for k, v in syllables.items()},
                   {k: tuple(dict.fromkeys(v))[:PER_SYLLABLE] for k, v in phrases.items()}, _rite_sounds(dictionary))

    # ── the three bridges ──────────────────────────────────────────────────────

    def _in_corpus(self, term: str) -> bool:
        return len(term) <= 2 and term in self.idf and term in self.targets

    def _best(self, candidates: dict[str, float]) -> list[str]:
        """The candidates by score, then by how common they are in the corpus (low idf first)."""
        ranked = sorted(candidates, key=lambda t: (-candidates[t], self.idf.get(t, 99.0)))
        return ranked[:PER_WORD]

    def english(self, word: str, per_word: int = PER_WORD) -> list[str]:
        """Corpus terms CC-CEDICT gives for one English word (summon → 召): headwords whose first
        sense is the word alone (a later sense is too often a stretch: "plain" is not 白's first meaning)."""

        cands: dict[str, float] = {}
        for h in self.dictionary.headwords(word):
            if not self._in_corpus(h) or _PHRASING.issuperset(h):
                continue
            senses = self.dictionary.senses(h)
            first = [stem(w) for w in sense_words(senses[0])] if senses else []
            if stem(word) in first and len(first) <= ENGLISH_SENSE_WORDS:
                cands[h] = 1.0 / len(first)  # "summon" outranks "fresh water" for water
        return self._best(cands)[:per_word]

    def modern(self, word: str) -> list[str]:
        """Corpus characters for a modern word the corpus never writes (客人 → 賓), via its English senses."""
        cands: dict[str, float] = {}
        for rank, sense in enumerate(self.dictionary.senses(word)[:2]):
            words = sense_words(sense)
            if len(words) != 1:  # "fresh water" is a description: only one-word senses translate
                continue
            for t in self.english(words[0]):
                cands[t] = cands.get(t, 0.0) + 1.0 / (1 + rank)
        return self._best(cands)

    def _modern_words(self, run: str) -> list[str]:
        """Modern words of a CJK run (every CC-CEDICT headword of 2–4 characters in it: segmentation
        is ambiguous, 去請客人 holds 請客 and 客人) that the corpus does not use."""
        out: list[str] = []
        for i in range(len(run)):
            for n in range(2, min(MAX_MODERN, len(run) - i) + 1):
                w = run[i : i + n]
                if w in self.dictionary and not (n == 2 and w in self.idf) and not _PHRASING.issuperset(w):
                    out.append(w)
        return out

    def pinyin_terms(self, query: "Query") -> tuple[str, ...]:
        """Every ritual term an English question writes in pinyin (see :meth:`pinyin_readings`)."""
        return tuple(dict.fromkeys(t for terms in self.pinyin_readings(query) for t in terms))

    def pinyin_readings(self, query: "Query") -> list[tuple[str, ...]]:
        """The ritual terms each pinyin word (or run) of an English question spells, one tuple per
        reading: xuanjiu → (玄酒,); lu chou → (旅酬,); zhi → (旨, 觯, 至), an ambiguous syllable. A
        run is up to MAX_PINYIN_WORDS words, none of them an English word, whose joined reading is a
        term's; the longest run first. A one-syllable word reads as the rarest one-character terms; three or four
        syllables that spell no term may spell a run of one clause of the 經 (:attr:`jing_phrases`)."""
        # "the jie's": a possessive ending is no part of the syllable
        possessed = {w.lower() + "s" for w in _POSSESSOR.findall(query.text)}
        words = [w[:-1] if w.lower() in possessed else w for w in query.segments if w.isascii() and w.isalpha()]
        marked = _marked_words(query)
        quoted = _marked_phrase_words(query)  # a quoted word is the reader's term even where English has it ('gong')
        out: list[tuple[str, ...]] = []
        # a quoted phrase of syllables spells its term whole, a word English drops as a stopword too ('he yue': 合樂)
        for phrase in _marked_phrases(query):
            key = pinyin_key("".join(phrase))
            terms = self.by_reading.get(key, ()) if len(phrase) > 1 else ()
            if not terms and len(phrase) in QUOTED_PHRASE_CHARS:  # a word of the 經 no glossary holds ('gou jing')
                terms = tuple(t for t in self.jing_phrases.get(key, ()) if len(t) == len(phrase))
            if len(terms) == 1:
                out.append(terms)
                words = [w for w in words if w.lower() not in phrase]
        i = 0
        while i < len(words):
            for n in range(min(MAX_PINYIN_WORDS, len(words) - i), 0, -1):
                run = words[i : i + n]
                key = pinyin_key("".join(run))
                if key in self.titles:  # the book's name (Yili, Yi li), read as a title
                    i += n
                    break
                english = [self.dictionary.is_english(w) and w.lower() not in quoted for w in run]
                terms = self.by_reading.get(key, ())
                # a run with an English-looking syllable ('si gong': a gong) spells its term when another of its
                # words is no English word and the run's reading is a ritual term's whole (司宫)
                if any(english) and not (n > 1 and not all(english) and terms):
                    continue
                if not terms and n == 1 and run[0] in marked:  # a syllable marked as a term: a character of the 經
                    terms = self.jing_syllables.get(key, ())
                elif not terms and n >= min(PHRASE_CHARS):  # three or four syllables: the 經 quoted in pinyin
                    terms = tuple(t for t in self.jing_phrases.get(key, ()) if len(t) == n)
                elif len(terms) > 1:  # one syllable, several characters: the most specific ones
                    # a person of the rite first (shi: 士, qing: 卿), then the rarest (zhi: 旨 觯 至)
                    roles = glossary_roles()
                    terms = tuple(sorted(terms, key=lambda t: (t not in roles, -self.idf.get(t, 0.0)))[:PER_SYLLABLE])
                    if run[0] in quoted:  # beside the English it glosses ('duke' (gong)): that word's term, 公
                        terms = tuple(t for t in terms if t in query.expansions) or terms
                if terms:
                    out.append(terms)
                    i += n
                    break
            else:
                i += 1
        return out

    def slips(self, query: "Query") -> tuple[str, ...]:
        """The ritual terms a Chinese question types with a pinyin keyboard's homophone slip (司政 for 司正, 旅筹 for
        旅酬): a run of two to four characters that is neither in the corpus nor a word of CC-CEDICT, reads as a
        ritual term of the corpus of its length, tones and all, and differs from it only where it writes no
        character that is grammar (几首 is not 稽首, 只酒 not 旨酒) or a ritual term itself (祭肺 is not 嚌肺)."""
        return tuple(term for _, term in self.slip_pairs(query))

    def heard_rites(self, query: "Query") -> tuple[tuple[str, str], ...]:
        """(what was typed, rite id) for a rite's name written in other characters of its sound (向饮酒礼, 香饮酒,
        宴礼: dictation and hurried typing), when the question names no rite of the corpus or outside it. Only names
        that end in 禮 or run three characters or more: their sound is no everyday word's."""
        if query.rites or query.other_rites:
            return ()
        names = self.rite_sounds
        out: list[tuple[str, str]] = []
        longest = max((m for m, _ in names), default=0)
        for run in (r for seg in query.segments if not seg.isascii() for r in cjk_runs(seg)):
            i = 0
            while i < len(run):
                for m in range(min(longest, len(run) - i), 1, -1):
                    typed = run[i : i + m]
                    if m < _RITE_SOUND_CHARS and not typed.endswith("礼"):
                        continue  # 研理 is no 燕禮: of a two-character name only the rite's own character may be misheard
                    rite = next((names[(m, key)] for key in spellings(self.dictionary, typed) if (m, key) in names), "")
                    if rite:
                        out.append((typed, rite))
                        i += m
                        break
                else:
                    i += 1
        return tuple(out)

    def slip_pairs(self, query: "Query") -> tuple[tuple[str, str], ...]:
        """(what was typed, the ritual term meant) for each of :meth:`slips`, in order."""
        out: list[tuple[str, str]] = []
        for run in (r for seg in query.segments if not seg.isascii() for r in cjk_runs(seg)):
            for n in range(min(4, len(run)), 1, -1):
                for i in range(len(run) - n + 1):
                    typed = run[i : i + n]
                    if typed in self.dictionary or typed in self.text or not _NO_SLIP.isdisjoint(typed):
                        continue
                    sounds: set[str] | None = None
                    for reading in spellings(self.dictionary, typed):
                        for term in self.by_reading.get(reading, ()):
                            if len(term) != n or term not in self.ritual_terms or any(term == t for _, t in out):
                                continue
                            changed = [b for a, b in zip(term, typed) if a != b]
                            if len(changed) == n or any(ch in self.ritual_chars for ch in changed):
                                continue
                            sounds = self._toned(typed) if sounds is None else sounds
                            if sounds & self._toned(term):
                                out.append((typed, term))
        return tuple(out)

    def _toned(self, text: str) -> set[str]:
        """The readings of ``text`` with tones (CC-CEDICT's, at most MAX_READINGS)."""
        return set(spellings(self.dictionary, text, toned=True))

    def reached_glosses(self, words: Sequence[str], min_gloss: int = 1) -> list[str]:
        """Terms whose corpus gloss the given words reach (美 → 旨; 扶…工 → 相), most specific gloss first;
        only glosses of at least ``min_gloss`` characters."""
        text = " ".join(words)
        chars = set(text)
        found: list[tuple[int, str]] = []
        for gloss, terms in self.by_gloss.items():
            if len(gloss) < min_gloss:
                continue
            hit = gloss in text if len(gloss) == 1 else set(gloss) <= chars
            if hit:
                found.extend((len(gloss), t) for t in terms)
        found.sort(key=lambda e: -e[0])
        return list(dict.fromkeys(t for _, t in found))

    def bridge(self, query: "Query") -> tuple[str, ...]:
        """The corpus terms the three bridges find for ``query`` (not those it already has)."""

        own = set(query.segments) | set(query.expansions)
        out: list[str] = []
        reach: list[str] = []  # what the gloss bridge reads: the question's CJK and what 1 and 2 found
        occasion = _EVENT_HOLD.search(query.text) is not None
        for seg in query.segments:
            if seg.isascii():
                if occasion and seg in _HOLD:
                    continue
                if not _english([seg], [], [])[1]:  # the glossary did not know it
                    out.extend(self.english(seg, PER_ENGLISH_WORD))
            else:
                reach.append(seg)
                for w in self._modern_words(seg):
                    out.extend(self.modern(w))
        reach.extend(out)
        reach.extend(query.expansions)
        glossed = [t for t in self.reached_glosses(reach) if t not in own and all(t not in s for s in query.segments)]
        out.extend(glossed[:PER_QUESTION_GLOSSES])
        return tuple(t for t in dict.fromkeys(out) if t not in own)

    def glossed_terms(self, query: "Query") -> tuple[str, ...]:
        """The terms whose corpus gloss the question's own words spell out (扶…工 → 相): precise enough
        for BM25 to match, unlike a dictionary's guesses."""
        runs = [r for seg in query.segments for r in cjk_runs(seg)]
        own = set(query.segments) | set(query.expansions)
        found = [t for t in self.reached_glosses(runs, min_gloss=2) if t not in own and all(t not in r for r in runs)]
        return tuple(found[:PER_QUESTION_GLOSSES])

    def understand(self, query: "Query") -> "Query":
        """``query`` with the bridged terms added (once: an understood query is returned as is)."""
        if query.understood:
            return query
        outside = self.outside_rites(query)
        if outside != query.other_rites:
            query = replace(query, other_rites=outside)
        readings = self.pinyin_readings(query)
        spelled = tuple(dict.fromkeys(t for r in readings for t in r if t not in query.expansions))
        # the reader wrote the term itself, in pinyin: BM25 matches it; an ambiguous syllable's
        # characters (zhi: 旨 觯 至) also count as guesses when sentences are chosen
        guessed = tuple(dict.fromkeys(t for r in readings if len(r) > 1 for t in r))
        if heard := self.heard_rites(query):
            # 「向饮酒礼」, 「宴礼」: a rite's name as a speech recognizer or a hurried reader writes it
            core = query.core
            for typed, _ in heard:
                core = core.replace(typed, " ")
            query = replace(query, core=" ".join(core.split()), rites=tuple(dict.fromkeys(r for _, r in heard)))
        # a term typed with a homophone slip (司政 → 司正) is the reader's own word, written as the term itself
        # (added as an expansion it weighed less than the rest of its run: 立 of 立个司政 matched 立飲)
        if slips := self.slip_pairs(query):
            core = query.core
            for typed, term in slips:
                core = core.replace(typed, term)
            query = replace(query, core=core)
        if spelled:
            query = replace(query, expansions=(*query.expansions, *spelled))
        if query.carried_words:  # the previous turn's terms in pinyin follow the conversation on
            own = {*query.segments, *query.expansions, *query.context}
            earlier = self.pinyin_terms(replace(query, core=" ".join(query.carried_words)))
            if earlier := tuple(t for t in earlier if t not in own):
                query = replace(query, context=(*query.context, *earlier))
        # the gloss bridge reads the question's firm terms, not an ambiguous syllable's guesses ('jie': 戒 介 阶):
        # a gloss of a guess (陔 of 「陔之言戒也」) is a guess of a guess
        firm = replace(query, expansions=tuple(e for e in query.expansions if e not in guessed)) if guessed else query
        extra = tuple(dict.fromkeys((*self.bridge(firm), *guessed)))
        if BRIDGE_IN_EXPANSIONS:
            return replace(query, expansions=(*query.expansions, *extra), bridged=extra, understood=True)
        # the glosses the question's own words spell out join what BM25 matches; the rest only
        # steer the encoder and the choice of sentences
        matched = tuple(t for t in self.glossed_terms(query) if t in extra)
        return replace(query, expansions=(*query.expansions, *matched), bridged=extra, understood=True)

    def quotes_elsewhere(self, query: "Query") -> bool:
        """The question quotes another text and not this corpus: it has a quotation of QUOTE_CHARS or more
        characters that shares no run of QUOTE_CHARS with the corpus (「學而時習之，不亦說乎」), and none that
        does. Readers who quote the corpus quote it closely, or loosely but with a term only the rite uses
        (「在堂廉鋪席」 for 「設席于堂廉」: 堂廉 is a ritual term CC-CEDICT does not know), which also counts as
        quoting it; measured on every answerable dev and held-out question with a quotation (22), none quotes
        anything else."""
        if not self.text:
            return False
        elsewhere = False
        for quoted in _QUOTATION.findall(query.text):
            run = "".join(cjk_runs(normalize(quoted)))
            if len(run) < QUOTE_CHARS or run in self.dictionary:
                continue  # too short to tell, or a set phrase of the everyday language (「不醉不归」), not a text
            if self._shares_run(run) or self._joins_corpus_phrases(run):
                return False  # it quotes the corpus (too), or sums it up in its own phrases (「三揖三讓」)
            if any(t not in self.dictionary for t in self._ritual_terms_in([run])):
                return False  # a loose quotation of the corpus: it writes a term only the rite uses (「在堂廉鋪席」)
            if any(ch in _MODERN_ONLY_CHARS for ch in run) or self._modern_share(run) >= MODERN_QUOTE_SHARE:
                # the reader's own words in quotation marks, not another text: no 文言 writes 了 or 喝 (「都坐好了」,
                # 「大家都要喝醉」), and 「回到位置」 is all modern words
                continue
            elsewhere = True
        return elsewhere

    def _modern_share(self, run: str) -> float:
        """The share of ``run``'s characters inside modern words the corpus never writes (回到, 位置: CC-CEDICT
        words of two or more characters; see :meth:`_modern_words`)."""
        words = set(self._modern_words(run))
        covered = {k for i in range(len(run)) for n in range(2, min(MAX_MODERN, len(run) - i) + 1)
                   if run[i : i + n] in words for k in range(i, i + n)}
        return len(covered) / len(run) if run else 0.0

    def quotes_corpus(self, query: "Query") -> bool:
        """The question quotes the corpus word for word: a quotation of QUOTED_CORPUS_CHARS or more characters that
        the corpus's text holds and that is no word of the everyday language (「坐行之」, 「疑立」 is too short)."""
        for quoted in _QUOTATION.findall(query.text):
            run = "".join(cjk_runs(normalize(quoted)))
            if len(run) >= QUOTED_CORPUS_CHARS and run not in self.dictionary and run in self.text:
                return True
        return False

    def about_other_text(self, query: "Query") -> bool:
        """The question is about another text than the corpus: it quotes one (:meth:`quotes_elsewhere`), names
        one in title marks (:meth:`names_other_work`), or asks what the corpus's text cannot say (:meth:`asks_beyond`).
        The confidence rule's ``elsewhere`` signal."""
        return self.quotes_elsewhere(query) or self.names_other_work(query) or self.asks_beyond(query)

    def asks_beyond(self, query: "Query") -> bool:
        """The question asks what the corpus's text cannot say (``qa/data/beyond.tsv``): another work by name (「詩經分為
        風雅頌，各指什麼？」, "the Analects"), a named commentator's life (「鄭玄的老師是誰？」), or the classic's own history
        (「儀禮十七篇是誰傳下來的？」), and names nothing of the corpus's own beyond that: no rite of it, no ritual term
        of its own, no term in pinyin, no run of four characters of its text (「周禮鍾師如何奏陔夏？」: the 注 cites
        「周禮‧鍾師」), not the 經, 注 or 疏 themselves. A later age (kind ``era``: 唐代, 明太祖, "the Qing dynasty") asks
        of its own practice even beside the rite's name, and a saying of ritual learning the text never writes (kind
        ``learning``: 禮不下庶人, 克己復禮) whatever ritual word it holds, unless a commentator or his layer is named; so
        does what the text never measures or names (kind ``material``: 多少錢, 酒精, 白酒, "hangover"), unless the question
        asks why (the asker's guess at a modern reason: 「…為什麼只掛一架磬？是預算不夠嗎」)."""
        # "Li Bai's poem": a possessive ending is no part of the name (bais is none)
        found = set(names_in(beyond_table(), query.norm, WORD.findall(normalize(_POSSESSOR.sub(r"\1", query.text)))))
        if found & {BEYOND_ERA, BEYOND_LEARNING} and not query.layers:
            # a later age's practice (「唐代的鄉飲酒禮也歌鹿鳴嗎？」) though the rite is named, not 「清代方苞…」; a saying the
            # text never writes (「刑不上大夫」) though it holds a ritual word
            return True
        if BEYOND_MATERIAL in found and not query.layers and not question_asks(query.text)[0]:
            # what the text never measures (「鄉飲酒禮的酒大概幾度？酒精多少？」), not a why question with the asker's guess at a
            # modern reason (「…為什麼只掛一架磬？是預算不夠嗎」)
            return True
        # a commentator's life names his commentary as one of his works (「除了儀禮疏他還寫過什麼書？」): no layer asked
        if not found or self._names_its_own(query, commentary=found != {BEYOND_LIFE}):
            return False
        if BEYOND_WORK in found and not query.layers:
            # a work set beside the rite's own people or acts (「宴饮开始时乐工演唱的三首诗出自《诗经》的哪一部分？」) is about them
            return not self.names_ritual_term(query)
        if BEYOND_LIFE in found and (query.layers or BEYOND_SAGE in found) and self._about_the_commentator(query):
            return True
        # the classic named in the same sentence as its history ("Who first translated the Yili?"), not in one about
        # the asker's reading before the question ("I'm reading the Yili for the first time. In the translation …?")
        return BEYOND_HISTORY in found and any(
            BEYOND_HISTORY in set(names_in(beyond_table(), n, WORD.findall(n))) and self._names_the_classic(n)
            for n in (normalize(sentence) for sentence in sentences(query.text)))

    def _about_the_commentator(self, query: "Query") -> bool:
        """A word of a life (``beyond.tsv`` kind ``life``) follows a commentator's name closely: 「鄭玄的老師」, 「方望溪何許人也」,
        "Zheng Xuan's teacher", "When was Fang Bao born?", or just precedes it ("the biography of Fang Bao", "Who taught
        Zheng Xuan?"); not the asker's own teacher before the question (「老師上課提到…方苞同意嗎？」, "My teacher asked me
        what Zheng Xuan says …")."""
        life = [normalize(name) for name, kind in beyond_table().chinese if kind == BEYOND_LIFE]
        names = [name for name, _ in commentators_table().chinese]
        sages = [name for name, kind in beyond_table().chinese if kind == BEYOND_SAGE]
        norm = query.norm
        for word in life:
            for m in re.finditer(re.escape(word), norm):
                before = norm[max(0, m.start() - LIFE_GAP - 4) : m.start()]
                if any(name in before and len(before) - (before.rfind(name) + len(name)) <= LIFE_GAP for name in names):
                    return True
                # a life may be told at more length: a sage's anywhere after his name (「孔子是在哪一年、哪個國家出生的？」),
                # a commentator's when the question ends with it (「方苞為什麼會因為那件案子入獄？」); the caller has found
                # no term of the corpus in the question
                if any(name in norm[: m.start()] for name in sages) or (
                        any(name in norm[: m.start()] for name in names) and _ends_question(norm, m.end())):
                    return True
        words = WORD.findall(norm)
        stems = [stem(w) for w in words]
        english_life = {key[0] for key, kind in beyond_table().english.items() if kind == BEYOND_LIFE and len(key) == 1}
        people = [*commentators_table().english, *(key for key, kind in beyond_table().english.items() if kind == BEYOND_SAGE)]
        named = [i for i, key in enumerate(stems) if any(key == k[0] for k in people)]
        for i, key in enumerate(stems):
            if key not in english_life:
                continue
            if any(0 < i - j <= LIFE_GAP or 0 < j - i <= LIFE_BEFORE for j in named):
                return True  # "Zheng Xuan's teacher", "When was Fang Bao born?", "the biography of Fang Bao"
        return False

    def _names_its_own(self, query: "Query", commentary: bool = True) -> bool:
        """The question names something of the corpus's own: a rite by a name of its own, a ritual term no everyday
        word is, a term in pinyin, a one-character term standing alone, a run of QUOTE_CHARS characters of its text,
        the 經 (經云) or, with ``commentary``, the commentary (注, 疏)."""
        runs = [r for seg in query.segments for r in cjk_runs(seg)]
        return (self._names_rite_itself(query) or self.refers_to_classic(query) or self.quotes_corpus(query)
                or any(len(t) > 1 for t in self.pinyin_terms(query))
                or any(t not in self.dictionary for t in self._ritual_terms_in(runs))
                or self._names_one_character_term(query, runs)
                or any(self._shares_run(r) for r in runs)  # 周禮鍾師 of the 注's 「周禮‧鍾師」: the text it cites
                or (commentary and any(w in query.norm for w in _COMMENTARY_WORDS)))

    @staticmethod
    def _names_the_classic(norm: str) -> bool:
        """The question (``norm``: normalized) names the 儀禮 as a book (儀禮, 禮經; Yili, "the Yi li")."""
        words = WORD.findall(norm)
        joined = " ".join(words)
        return any(t in norm for t in _CLASSIC_TITLES) or "yili" in words or "yi li" in joined

    def names_other_work(self, query: "Query") -> bool:
        """The question names a work in title marks that the corpus never mentions (《史記》, 《詩經》的〈碩鼠〉,
        《禮記·昏義》: a part absent from the corpus) and names no rite or commentator of the corpus: it is about
        that work. A title holding the classic's own name (《儀禮注疏》, 《仪礼析疑》) is the corpus."""
        if not self.text or query.rites or query.layers:
            return False
        # a title in the clauses about the asker (「孩子看了《典籍裡的中國》問了我一個問題，」) is where he met the question
        asked = query.text if query.lang == "en" else chinese_preface(query.text)[1]
        for title in _TITLE.findall(asked):
            for part in _TITLE_PARTS.split(title):
                norm = "".join(cjk_runs(normalize(part)))
                if norm and norm not in self.text and "仪礼" not in norm:
                    return True
        return False

    def refers_to_classic(self, query: "Query") -> bool:
        """The question speaks of the 經 itself (「經或言讓，或言辭」, 經云, 此經) and names no other work in title marks."""
        return bool(_THE_CLASSIC.search(query.text)) and not self.names_other_work(query)

    def _joins_corpus_phrases(self, run: str) -> bool:
        """Whether a short quotation is two phrases of the corpus, each of two characters or more, one writing a
        ritual character (「三揖三讓」: the 經 says 三揖 and 三讓 apart): a reader's summary of the text, not another text."""
        if len(run) > 2 * QUOTE_CHARS or not any(ch in self.ritual_chars for ch in run):
            return False
        return any(run[:i] in self.text and run[i:] in self.text for i in range(2, len(run) - 1))

    def _shares_run(self, text: str) -> bool:
        """Whether ``text`` (normalized) shares a run of QUOTE_CHARS characters with the corpus."""
        return any(text[i : i + QUOTE_CHARS] in self.text for i in range(len(text) - QUOTE_CHARS + 1))

    def outside_rites(self, query: "Query") -> tuple[str, ...]:
        """The question's rites outside the corpus, less those whose Chinese name it writes only inside
        a longer ritual term of the corpus (大射 of 大射正, the 燕禮's officer who directs its archery)."""
        if not query.other_rites:
            return query.other_rites
        terms = [t for t in self.ritual_terms if t in query.norm]
        inside: set[str] = set()  # rites written only inside a corpus term
        named: set[str] = set()  # rites written as themselves somewhere
        for name, value in other_rites_table().chinese:
            if name in query.norm:
                longer = [t for t in terms if name in t and t != name]
                (inside if _only_inside(query.norm, name, longer) else named).add(value)
        return tuple(v for v in query.other_rites if v not in inside or v in named)

    # ── ritual terms ───────────────────────────────────────────────────────────

    def names_ritual_term(self, query: "Query") -> bool:
        """The question itself writes a ritual term of the corpus (樂正, 玄酒, 旅酬; a one-character
        one standing alone in a classical question or quoted: 賓, 「介」), two words the glossary maps
        (guest and cup; 乐师 and 喝酒), or names a rite or commentator of the corpus."""
        if query.rites or query.layers or self.refers_to_classic(query):
            return True

        # in English: at least two different words the glossary knows as ritual vocabulary (guest,
        # cup, mat …): one alone ("a glass of red wine") is as often about something else; a word that
        # only gives a direction, a number or grammar (right → 右, two → 二) names no topic
        # (a phrase counts once: "keep order" → 司正)
        gl = glossary().english
        mapped = {key for key, _ in glossary_matches([w for w in query.segments if w.isascii()])
                  if any(t not in _NOT_A_TOPIC for t in gl[key])}
        spelled = self.pinyin_terms(query)
        if any(len(t) > 1 for t in spelled):  # a compound written in pinyin (xuanjiu) names its term
            return True
        # a lone syllable (ming, zhi) is as often a name or a word of another language: it counts
        # only when the reader marks it as a term, quoted or in brackets ('yi', (gong))
        marked = _marked_words(query)
        syllable = any(w in marked and (self.by_reading.get(pinyin_key(w)) or self.jing_syllables.get(pinyin_key(w)))
                       for w in query.segments if w.isascii())
        # a ritual word of the glossary the reader quotes ('gentleman', "pledge") is marked as the rite's
        # term: it counts twice
        quoted_word = any((stem(w),) in mapped for w in marked)
        if len(mapped) + syllable + quoted_word >= ENGLISH_NAMED_WORDS:
            return True
        runs = [r for seg in query.segments for r in cjk_runs(seg)]
        if CHINESE_NAMED_WORDS and len(chinese_glossary_keys(runs)) >= CHINESE_NAMED_WORDS:
            return True
        # a follow-up is about what the turn before it named (那卿的席呢？ after a question on 加席)
        carried = [r for seg in query.context for r in cjk_runs(seg)]
        if self._holds_ritual_term(runs + carried):
            return True
        # the question's own words spell out a gloss of the corpus (扶…樂工 of 「相，扶工也」)
        # (a term that is grammar, 所 or 者, names no topic however its gloss is spelled)
        if any(t not in _NOT_A_TOPIC for t in self.reached_glosses([r for r in runs if len(r) > 1], min_gloss=2)):
            return True
        return self._names_one_character_term(query, runs)

    def _names_one_character_term(self, query: "Query", runs: Sequence[str]) -> bool:
        """A one-character ritual term where it cannot be a modern word's character."""
        # standing alone in a classical question (問賓、介者何) or quoted (「旨」是什麼意思) — 「大海的詩」 names no rite
        quoted = {normalize(q) for q in _QUOTED.findall(query.text)}
        if any(len(r) == 1 and r in self.ritual_chars and (query.lang == "lzh" or r in quoted) for r in runs):
            return True
        # a ritual character modern Chinese hardly uses (磬, 篚, 俎) names its term wherever it stands,
        # unless it is a character of one of those few modern words here (果脯 of 「果脯怎么做」)
        return any(ch in self.rare_chars and not self._in_modern_word(r, i) for r in runs for i, ch in enumerate(r))

    def names_own_term(self, query: "Query") -> bool:
        """The question names something of the corpus that no everyday question says: the corpus itself beyond everyday
        words (:meth:`names_corpus_itself` with ``everyday=False``: 旅酬, 燕禮, 鄭玄) or a one-character term where it
        cannot be a modern word's character (「旨」 quoted, 胥 or 磬 anywhere). The topic classifier never overrules it."""
        if self.names_corpus_itself(query, everyday=False) or self.quotes_corpus(query):
            return True
        return self._names_one_character_term(query, [r for seg in query.segments for r in cjk_runs(seg)])

    def names_corpus_itself(self, query: "Query", *, everyday: bool = True) -> bool:
        """The question names the corpus beyond everyday words: a rite or commentator of it, a ritual
        term of two or more characters in its own words (旅酬, 樂正), or a compound in pinyin (xuanjiu).
        With ``everyday=False`` a ritual term that is also a modern word (主人, 飲酒: CC-CEDICT has it) does not count."""
        rites = bool(query.rites) if everyday else self._names_rite_itself(query)
        if rites or query.layers or self.refers_to_classic(query) or any(len(t) > 1 for t in self.pinyin_terms(query)):
            return True
        runs = [r for seg in query.segments for r in cjk_runs(seg)]
        if everyday:
            return self._holds_ritual_term(runs)
        return any(t not in self.dictionary for t in self._ritual_terms_in(runs))

    def _names_rite_itself(self, query: "Query") -> bool:
        """The question writes a rite of the corpus by a name of its own: in Chinese (燕禮, 鄉飲酒), in
        pinyin (yanli) or by a phrase (banquet rite), not by one everyday English word (a company banquet)."""
        if not query.rites:
            return False
        table = rites_table()
        if any(name in query.norm for name, _ in table.chinese):
            return True
        return any(len(key) > 1 or not self.dictionary.is_english(key[0]) for key in english_names(table, WORD.findall(query.norm)))

    def _holds_ritual_term(self, runs: Sequence[str]) -> bool:
        """Whether a CJK run writes a ritual term of the corpus of two to six characters (旅酬, 樂正)."""
        return any(True for _ in self._ritual_terms_in(runs))

    def _ritual_terms_in(self, runs: Sequence[str]) -> Iterator[str]:
        """The ritual terms of the corpus of two to six characters the CJK runs write (旅酬, 樂正), in order."""
        return (run[i : i + n] for run in runs for n in range(2, min(6, len(run)) + 1) for i in range(len(run) - n + 1)
                if run[i : i + n] in self.ritual_terms)

    def modern_setting(self, query: "Query") -> bool:
        """The question is set in today's world (``qa/data/modern.tsv``: 公司, 老闆, boss, podcast …) and
        names nothing of the corpus itself (:meth:`names_corpus_itself`): it asks how people behave now,
        however many of the rite's words it borrows (敬酒, host, guest, bow)."""
        return bool(self.modern_kinds(query))

    def modern_kinds(self, query: "Query") -> set[str]:
        """The kinds of ``modern.tsv`` word (work, time, place …) that set the question in today's world
        (:meth:`modern_setting`); empty when none does."""
        found = names_in(modern_table(), query.norm, WORD.findall(query.norm))
        if TODAY in found and not self._says_today(query):
            found.remove(TODAY)  # only inside a quotation of the corpus
        asked = query
        if NOW in found:
            tail = self._after_now(query)
            if tail is None:
                found.remove(NOW)  # 现在 that does not open the question (after 请问) is as often "still" (现在还能看到吗) as today's world
            elif tail:
                # 「我在看古代鄉飲酒禮的書，順便問一句：現在飯局上…」: the rite the preface names is no part of what is asked
                asked = analyze(tail)
        # today's world: a ritual term that is also an everyday word (主人, 飲酒, 賓客: a CC-CEDICT word; a
        # "banquet") does not make the question about the corpus, only a term the dictionary does not know
        return set(found) if found and not self.names_corpus_itself(asked, everyday=False) else set()

    def _after_now(self, query: "Query") -> str | None:
        """Where a `now` word of ``modern.tsv`` (现在) opens the question: "" (the whole question); where it opens a
        later sentence of it, or what follows a reader's preface and its colon (「…順便問一句：現在飯局上…」) or its
        clauses about the asker (:func:`qa.retrieval.remarks.chinese_preface`): the text from there on; None where it
        opens neither."""
        names = tuple(name for name, value in modern_table().chinese if value == NOW)
        if query.segments and query.segments[0].startswith(names):
            return ""
        openings = [m.end() for m in _SENTENCE_OPENING.finditer(query.text)]
        before = chinese_preface(query.text)[0]  # 「最近在讀《儀禮》，有個地方不明白，現在國宴上…」
        for at in [*openings, len(before)] if before else openings:
            tail = query.text[at:].strip()
            if normalize(tail).startswith(names):
                return tail
        return None

    def _says_today(self, query: "Query") -> bool:
        """Whether a present-day word of ``modern.tsv`` (今人, nowadays) stands in the question outside a
        quotation of the corpus (鄭云「若今之若」 quotes the 注; it places nothing in today's world)."""
        names = [name for name, value in modern_table().chinese if value == TODAY and name in query.norm]
        if not names:
            return True  # an English present-day word ("nowadays", "these days")
        for name in names:
            for m in re.finditer(re.escape(name), query.norm):
                if not self._shares_run(query.norm[max(0, m.start() - QUOTE_CHARS + len(name)) : m.end() + QUOTE_CHARS - len(name)]):
                    return True
        return False

    def _in_modern_word(self, run: str, i: int) -> bool:
        """Whether the character at ``i`` of ``run`` lies inside a CC-CEDICT word of two to four characters there."""
        return any(run[a:b] in self.dictionary for a in range(max(0, i - 3), i + 1) for b in range(max(a + 2, i + 1), min(len(run), a + 4) + 1))


#: What may close a question after its last content word (normalized): 的, 嗎, 了, 是怎麼一回事, 何如 …
_CLOSING_WORDS = re.compile(r"是怎么一回事|怎么回事|是真的|何如|[的吗呢了么吧啊呀乎也欤与哉耶]")


def _ends_question(norm: str, end: int) -> bool:
    """Whether what follows ``end`` in a normalized question is no more than its closing words and two characters."""
    return len(_CLOSING_WORDS.sub("", norm[end:])) <= 2


def _only_inside(text: str, name: str, terms: Sequence[str]) -> bool:
    """Whether every occurrence of ``name`` in ``text`` lies inside an occurrence of one of ``terms``."""
    if not terms:
        return False
    covered = [False] * len(text)
    for t in terms:
        for m in re.finditer(re.escape(t), text):
            covered[m.start() : m.end()] = [True] * len(t)
    return all(all(covered[m.start() : m.end()]) for m in re.finditer(re.escape(name), text))


__all__ = ["Bridge", "PER_WORD", "PER_QUESTION_GLOSSES"]
