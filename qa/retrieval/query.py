"""Query understanding: clean and cut the question, strip its scaffolding, expand it with the ritual glossary.

``analyze(text)`` turns what a user typed into a :class:`Query`:

- ``text``: the question with control characters removed, cut to ``max_chars`` (with a warning);
- ``norm``: :func:`qa.text.normalize.normalize` of it (the matching form);
- ``core``: ``norm`` without question scaffolding (為什麼, 何謂, 何義, why, what does … mean,
  see ``qa/data/scaffolding.tsv``), as space-separated segments: a segment never spans
  punctuation or removed scaffolding, so no bigram is formed across them;
- ``expansions``: corpus terms the bilingual glossary (``qa/data/glossary.tsv``) gives for the
  English and modern-Chinese words in the question (guest → 賓, 脫鞋 → 說屨);
- ``context``: for an elliptical follow-up (「那介呢？」, "and the 介?"), the previous
  question's terms, which the lexical index weighs lower (see :func:`is_follow_up`);
- ``rites``: the rites the question names (鄉飲酒禮, 燕禮, "the banquet"), taken out of the
  words to match and used as a preference (``qa/data/rites.tsv``);
- ``layers``: the layers whose commentator the question names (方苞 → 析疑, 鄭玄 → 注), taken out
  of the words to match and used as a preference (``qa/data/commentators.tsv``);
- ``other_rites``: rites the question names that the corpus does not hold (士冠禮, 聘禮, "wedding";
  ``qa/data/other_rites.tsv``): the answer then says what the corpus covers;
- ``bridged``: corpus terms reached through CC-CEDICT and the corpus's own glosses (added by
  :mod:`qa.retrieval.bridge` once an index is open; also part of ``expansions``);
- ``lang``: a best guess (zh-Hant, zh-Hans, lzh, en, mixed), for reporting only.

A question that names a rite (鄉飲酒禮和燕禮有什麼不同？) stands on its own: it is a follow-up
only with an explicit marker (那燕禮呢？). A classical 「問X者何」 loses its 問.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

from ..errors import QueryError
from ..settings import DEFAULTS
from ..text.lexicon import (
    DETERMINERS,
    commentators_table,
    glossary,
    other_rites_table,
    rite_names,
    rites_table,
    scaffolding,
    split_names,
    stem,
)
from ..text.normalize import fold_char, normalize
from ..text.tokens import CJK_CLASS, WORD, is_cjk, pieces, split_segments
from .remarks import chinese_preface, without_remarks

if TYPE_CHECKING:  # pragma: no cover
    from ..text.lexicon import _Names

log = logging.getLogger(__name__)

#: Longest glossary / scaffolding phrase tried, in English words.
MAX_PHRASE_WORDS = 5
#: A follow-up marker only makes a question elliptical when what is left is this short.
FOLLOW_UP_MAX_CJK = 6
FOLLOW_UP_MAX_WORDS = 3
#: Openings (normalized) that mark a follow-up: 那介呢 / 然則介何如 / and the 介? / what about …
FOLLOW_UP_OPENINGS_ZH: tuple[str, ...] = ("那么", "那", "然则", "则", "又", "还有", "至于", "那如果")
FOLLOW_UP_OPENINGS_EN: tuple[tuple[str, ...], ...] = (("and",), ("what", "about"), ("how", "about"), ("then",))
#: A reply's opening that says nothing yet ("ok, and the 介?", 「好，那介呢？」): a follow-up marker may come after it.
ACKNOWLEDGEMENTS_EN = frozenset({"ok", "okay", "oh", "ah", "hmm", "um", "right", "alright", "yes", "yeah", "well",
                                 "thanks", "thank", "you", "great", "cool", "got", "it", "i", "see"})
ACKNOWLEDGEMENTS_ZH = frozenset({"好", "好的", "嗯", "哦", "噢", "喔", "哦哦", "嗯嗯", "明白", "明白了", "了解", "懂了",
                                 "谢谢", "原来如此", "原来是这样"})
#: Endings that mark an elliptical question in modern Chinese (「介呢？」).
FOLLOW_UP_ENDINGS_ZH: tuple[str, ...] = ("呢",)

_MODERN_ONLY_CHARS = frozenset("的了吗呢么们这哪吧呀啊"
                               # colloquial Mandarin and Cantonese (點解、邊個 questions: 嘅, 喺, 佢哋, 唔, 冇, 嗰 …),
                               # in their matching forms too (嗰 → 𠮶, 囉 → 啰), and 喝 (文言 drinks 飲): no 文言 question writes them
                               "啥咋嘛咱您她它俺喝" "嘅咩喺佢哋唔冇嗰𠮶咗啲嚟嘢噉乜嘞囉啰")
#: Words of modern Chinese only (normalized; none occurs in the corpus, tests/test_query.py): a question without
#: particles or scaffolding that writes one is modern all the same (「朋友来家里喝茶，主人倒茶倒几分满才算礼貌？」).
_MODERN_WORDS = ("大概", "一共", "比较", "多久", "几分", "几岁", "才算", "要是", "难道", "最后", "出去", "家里", "一下",
                 "跟谁", "跟着", "时候", "为啥", "干嘛", "哪些", "一点", "有点", "应该", "是不是")
#: Question words 文言 writes as well as modern Chinese (「此言『如初』，如何節也？」): no sign of a modern question.
_CLASSICAL_TOO = frozenset({"如何"})
#: An A-not-A question (算不算, 要不要, 能不能): modern Chinese asks yes-or-no so, 文言 with 否 or 乎.
_A_NOT_A = re.compile(r"([\u3400-\u9fff])不\1")
#: A follow-up marker with a pronoun (他們) refers back even in a longer question, up to this size.
PRONOUN_FOLLOW_UP_MAX_CJK = 16
PRONOUN_FOLLOW_UP_MAX_WORDS = 0
_PRONOUNS_ZH = ("他们", "她们", "他", "她", "它")
#: ... and in English ("it" too: "So which occasions is it talking about?"), where a question without a marker that is
#: about "he" or "they" is one when it has at most
#: ENGLISH_BARE_PRONOUN_MAX_WORDS content words ("Where exactly does he put the goblet down?"; a longer one names
#: its subject, and the turn before's terms then cost more than they help: measured with 8, h1 -2).
_PRONOUNS_EN = frozenset("he him his hes she her they them their theyre it its".split())
ENGLISH_BARE_PRONOUN_MAX_WORDS = 4
#: "these" and "those" point back as they do when they stand alone or before a word that names nobody in particular
#: ("Who are these people anyway?"); "those helpers" names its subject.
_DEMONSTRATIVES_EN = frozenset({"these", "those"})
_GENERIC_EN = frozenset("people men ones guys folks persons fellows two three four".split())


#: A demonstrative of manner or degree (這麼, 這樣) or of a thing, place or time (這個, 這種, 這裡, 這時) points back at
#: what the turn before described (「為什麼是這個方向？」 after 「狗在哪裡煮？」).
_DEMONSTRATIVES_ZH = ("这么", "这样", "这般", "如此", "这个", "这种", "这一", "这些", "那些", "这里", "这时")


def _has_demonstrative(pieces: list[tuple[str, str]]) -> bool:
    """A Chinese demonstrative (see ``_DEMONSTRATIVES_ZH``) in the question."""
    return any(k == "cjk" and any(d in normalize(s) for d in _DEMONSTRATIVES_ZH) for k, s in pieces)


#: An English question pointing back at the turn before and setting something beside it ("is it the same …",
#: "do they also …", "… as well?").
_BACK_EN = re.compile(r"\b(?:it|this|that|they|there)\b", re.IGNORECASE)
_ALSO_EN = re.compile(r"\b(?:same|also|too|as well|likewise|similar)\b", re.IGNORECASE)


def _refers_back(pieces: list[tuple[str, str]], text: str) -> bool:
    """The question points back at the turn before: a Chinese demonstrative (這樣, 這個) or an English pronoun with
    same / also / too."""
    return _has_demonstrative(pieces) or bool(_BACK_EN.search(text) and _ALSO_EN.search(text))


def _has_english_pronoun(pieces: list[tuple[str, str]]) -> bool:
    """An English third-person pronoun (he, him, they, them …; these or those of no one named, "these people"):
    someone the turn before named."""
    words = [s.lower().replace("'", "").replace("\u2019", "") for k, s in pieces if k == "word"]
    return any(w in _PRONOUNS_EN or (w in _DEMONSTRATIVES_EN and (i + 1 == len(words) or words[i + 1] in _GENERIC_EN))
               for i, w in enumerate(words))


#: The classical 其 opening a question is his or its (「其筵長幾何？」: the mat the turn before named) unless it opens
#: one of these words (normalized).
_NOT_CLASSICAL_QI = ("其他", "其它", "其实", "其中", "其余", "其次")


def _has_pronoun(pieces: list[tuple[str, str]]) -> bool:
    """A Chinese third-person pronoun, or the classical 其 opening the question (an English question restates its
    subject: "the guest … him")."""
    first = normalize(next((s for k, s in pieces if k == "cjk"), ""))
    if first.startswith("其") and not first.startswith(_NOT_CLASSICAL_QI):
        return True
    return any(k == "cjk" and any(p in s for p in _PRONOUNS_ZH) for k, s in pieces)


#: A bare 燕 (not 燕子, 燕窩, 燕京, 海燕 …): classical writers name the 燕禮 so when they set it beside another rite
#: (「燕之賓無加席，而大射之賓有之」; 「樂正於燕先升，於大射則後工而升」).
_BARE_YAN = re.compile(r"(?<![海家春飞飛雨紫])燕(?![子窝窩京麦麥尾国國赵趙山雀禮礼])")
#: ... and when the question opens with it, or sets something 於燕 (「燕，諸侯之禮也，工何以四人？」, 「燕則卿無脀」, 「於燕亦然乎」):
#: the rite, not the state of 燕 (燕國, 燕昭王) or the bird (燕子).
_OPENING_YAN = re.compile(r"(?:^|[於于在])燕(?=[，,、：:；時时則则亦的也？?])")
#: So is "the feast" of an English question that sets it against another rite ("before the musicians at the feast, but
#: after them in the great archery"); alone, or "the feast of the archery rite", it is anyone's feast.
_FEAST = re.compile(r"\bfeasts?\b", re.IGNORECASE)
_CONTRAST = re.compile(r"\b(?:but|unlike|whereas|than|compared|differ(?:s|ent|ence)?|same|reverse|opposite)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Query:
    """A question, ready for the lexical and dense retrievers."""

    text: str  # what the user typed (after truncation to the limit), original characters
    norm: str  # normalize(hanzi_numbers(text)): the text as matched (第2天 as 第二天)
    core: str  # normalized text without question scaffolding, segments separated by spaces
    expansions: tuple[str, ...]  # normalized corpus terms from the glossary, de-duplicated
    lang: str  # "zh-Hant" | "zh-Hans" | "lzh" | "en" | "mixed" (best guess)
    truncated: bool
    context: tuple[str, ...] = ()  # terms carried over from the previous question (follow-ups only)
    rites: tuple[str, ...] = ()  # rite ids the question names (qa/data/rites.tsv), first named first
    layers: tuple[str, ...] = ()  # layers whose commentator the question names (qa/data/commentators.tsv)
    other_rites: tuple[str, ...] = ()  # rites not in the corpus that the question names (qa/data/other_rites.tsv)
    bridged: tuple[str, ...] = ()  # the expansions that came from CC-CEDICT or the corpus's glosses
    carried_words: tuple[str, ...] = ()  # a follow-up's: the previous turn's Latin words, for the bridge's pinyin
    #: a follow-up's: the question it follows, whose kind (why, what is, where, how many, in what order) an elliptical
    #: one that asks none of its own asks again (「…是什麼意思？」 → 「那「無算樂」呢？」)
    follows: str = ""
    #: the question quotes the 注 and asks what its words mean: the 疏 is asked (``layers``), where there is one
    explains_quote: bool = False
    understood: bool = False  # the bridge has been applied (qa.retrieval.bridge)

    @property
    def segments(self) -> tuple[str, ...]:
        """The core's segments (CJK runs and English words)."""
        return tuple(self.core.split())

    @property
    def lexical_text(self) -> str:
        """Core + expansions (+ carried-over context): what BM25 matches."""
        return " ".join(p for p in (self.core, *self.expansions, *self.context) if p)

    @property
    def dense_text(self) -> str:
        """What the dense encoder embeds: the core, the named rites, then glossary terms and context."""
        names = tuple(rite_names().get(r, "") for r in self.rites)
        extra = tuple(b for b in self.bridged if b not in self.expansions)
        return " ".join(p for p in (self.core, *names, *self.expansions, *extra, *self.context) if p)

    @property
    def is_empty(self) -> bool:
        """True when nothing is left to match (e.g. only emoji or punctuation)."""
        return not self.lexical_text


# ── cleaning ───────────────────────────────────────────────────────────────────


def clean(text: str) -> str:
    """Drop control, format and surrogate characters (NUL included); tabs and newlines become spaces."""
    out = []
    for ch in text:
        if ch in "\t\n\r\v\f":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
            continue
        else:
            out.append(ch)
    return "".join(out)


def _strip_scaffolding(run: str, phrases: Sequence[tuple[str, bool]]) -> list[str]:
    """Split a CJK run at scaffolding phrases, longest phrases first; returns the kept parts.

    Longest first over the whole run (not left to right), so 「是什麼樣的」 goes as one phrase
    rather than leaving 樣 behind after 「是什麼」; a protected corpus term (說屨) claims its
    characters first, so the 說 in it is not taken for the modern 說 "say".
    """
    mask: list[int] = [0] * len(run)  # 0 free, 1 removed, 2 protected
    for phrase, remove in phrases:  # longest first
        start = run.find(phrase)
        while start != -1:
            end = start + len(phrase)
            if not any(mask[start:end]):
                mask[start:end] = [1 if remove else 2] * len(phrase)
            start = run.find(phrase, start + 1)
    parts: list[str] = []
    cur: list[str] = []
    for ch, state in zip(run, mask):
        if state == 1:
            if cur:
                parts.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return parts


#: Modern aspect particles a verb-object word is split by (洗过手, 喝了酒, 坐着喝): read without them,
#: the run holds the glossary word (洗手 → 盥).
_ASPECT = re.compile(r"(?<=[\u4e00-\u9fff])[过了着](?=[\u4e00-\u9fff])")


#: 「四個人」, 「兩個人」, 「幾個人」: the corpus counts people without a measure word (工四人, 二人舉觶), so a number of people is
#: matched as it writes them (四人, 二人, 幾人).
_PEOPLE_COUNTED = re.compile(r"(?<=[二三四五六七八九十几幾])[個个](?=人)")
_TWO_PEOPLE = re.compile(r"[兩两][個个]?(?=人)")
#: The classical 嘗 "once, ever" (未嘗, 何嘗, 嘗與友人論此, 嘗讀): matched as 曾, not as the modern 嚐 "to taste"
#: (嚐一口, 不嚐肺) that the glossary maps to 啐 and 嚌.
_ONCE = re.compile(r"(?<=[未何])[嘗尝]|[嘗尝](?=[與与讀读聞闻見见問问謂谓言論论試试從从遊游觀观學学])")


#: 「X坐哪兒」, 「X坐在什麼位置」, "where does X sit": where X's mat is spread (經 「乃席賓、主人、介」), matched as
#: 座位 / seat (the glossary's 席 位), not as the 坐 "kneel" of every 坐取爵.
_SITS_WHERE = re.compile(r"坐(?=[在於于]?(?:哪|何[處处方所]|什[么麼](?:位置|地方)))")
_SITS_WHERE_EN = re.compile(r"(?i)(\bwhere\b[^?.!]{0,40}?\b)sit(?:s|ting)?\b")


def _glossary_zh(run: str, table: dict[str, tuple[str, ...]], max_len: int) -> list[str]:
    """Corpus terms for modern-Chinese glossary words in a CJK run (longest match, no overlaps), and
    for those the run splits with an aspect particle (洗过手 → 洗手)."""
    out = _glossary_run(run, table, max_len)
    joined = _ASPECT.sub("", run)
    if joined != run:
        out += [t for t in _glossary_run(joined, table, max_len) if t not in out]
    return out


def _glossary_run(run: str, table: dict[str, tuple[str, ...]], max_len: int) -> list[str]:
    return [t for _, terms in glossary_zh_matches(run, table, max_len) for t in terms]


def glossary_zh_matches(run: str, table: Mapping[str, tuple[str, ...]], max_len: int) -> list[tuple[str, tuple[str, ...]]]:
    """(modern word, its corpus terms) for each glossary word in a CJK run, read as the query's
    expansion reads them: longest first from each position, no overlaps."""
    out: list[tuple[str, tuple[str, ...]]] = []
    i = 0
    while i < len(run):
        for n in range(min(max_len, len(run) - i), 0, -1):
            terms = table.get(run[i : i + n])
            if terms:
                out.append((run[i : i + n], terms))
                i += n
                break
        else:
            i += 1
    return out


def _english(words: list[str], rites: list[str], layers: list[str]) -> tuple[list[str], list[str]]:
    """(kept content words, corpus terms) for English words; named rites and commentators go to ``rites``/``layers``."""
    gl = glossary().english
    sc = scaffolding().en
    rt = rites_table().english
    ct = commentators_table().english
    # the word after each kept word, determiners included (a noun or a verb: see VERB_READINGS)
    after = [words[j + 1] if j + 1 < len(words) else "" for j, w in enumerate(words) if w not in DETERMINERS]
    words = [w for w in words if w not in DETERMINERS]  # scaffolding anyway; skipping them lets phrases match
    stems = [stem(w) for w in words]
    kept: list[str] = []
    terms: list[str] = []
    particles = _separated_particles(stems, gl)
    verbs = {v: p for p, v in particles.items()}
    i = 0
    while i < len(words):
        if i in particles:  # the particle of a verb matched before it ("set … down")
            i += 1
            continue
        for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            key = tuple(stems[i : i + n])
            if key in rt or key in ct:
                (rites if key in rt else layers).append(rt.get(key) or ct[key])
                if key in rt:  # "the ruler's feast" names the 燕禮 and its host, the 公 of the text
                    for j in range(i, i + n):
                        host = gl.get((stems[j],), ())
                        if HOST_TERMS & set(host):
                            terms.extend(host)
                            kept.append(words[j])
                i += n
                break
            # a lone verb whose particle comes later is the phrasal verb ("set … down" → set down)
            found = gl.get((stems[i], stems[verbs[i]]) if n == 1 and i in verbs else key)
            if n == 1 and stems[i] in VERB_READINGS and (after[i] in _OBJECT_START or words[i].endswith(("ing", "ed"))):
                found = gl.get(VERB_READINGS[stems[i]], found)
            if found:
                terms.extend(found)
                kept.extend(words[i : i + n])
                i += n
                break
        else:
            if (stems[i],) not in sc and (words[i],) not in sc:
                kept.append(words[i])
            i += 1
    return kept, terms


#: The ruler's terms: a rite named by its host ("the ruler's feast", "the duke's banquet") keeps the host as a
#: word of the question (only the rest of the name is taken out as the rite's name).
HOST_TERMS = frozenset({"公", "君"})


#: A word that is a noun or a verb by what follows it: the verb takes an object ("hand him a cup",
#: "hand his dried meat to …") and is read as this glossary phrase (hand over → 授); the noun ends its
#: phrase ("by the hand", "the guest's hand") and keeps its own entry (手). Its -ing / -ed forms are the verb.
#: So too "cook the dog" (boil → 亨) and "the cook" (亨 and the officer 膳宰).
VERB_READINGS: dict[str, tuple[str, ...]] = {"hand": ("hand", "over"), "cook": ("boil",)}
_OBJECT_START = frozenset({"him", "her", "them", "it", "me", "us", "you", "the", "a", "an", "his", "their", "its",
                           "my", "your", "our", "this", "that", "these", "those", "each", "every", "one", "two",
                           "over", "out", "back", "down", "up", "round", "around"})


#: English particles that may stand apart from their verb ("set the cup down", "hand it over").
PARTICLES = frozenset({"down", "up", "off", "out", "back", "over", "away", "round", "around", "on"})
#: At most this many words between a verb and its particle.
PARTICLE_GAP = 3


def _separated_particles(stems: Sequence[str], gl: Mapping[tuple[str, ...], object]) -> dict[int, int]:
    """Particle index → verb index, for each glossary phrasal verb written apart ("set the goblet
    down" for *set down*), where the verb is no glossary phrase with the words that follow it."""
    out: dict[int, int] = {}
    for i, verb in enumerate(stems):
        if any(tuple(stems[i : i + n]) in gl for n in range(2, MAX_PHRASE_WORDS + 1)):
            continue  # written together, or part of a longer phrase: matched as it is
        for j in range(i + 2, min(len(stems), i + 2 + PARTICLE_GAP)):
            if stems[j] in PARTICLES and (verb, stems[j]) in gl and j not in out:
                out[j] = i
                break
    return out


def glossary_words(words: Sequence[str]) -> set[str]:
    """The English words of ``words`` (a question's segments, in order) that a glossary entry covers,
    phrases included ("keep order" → both words; a lone "keep" is no ritual word)."""
    return {w for _, covered in glossary_matches(words) for w in covered}


def glossary_matches(words: Sequence[str]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(glossary key, the words of ``words`` it covers) for each English glossary entry the words
    hold, longest phrase first, phrasal verbs written apart included ("set the goblet down")."""
    gl = glossary().english
    stems = [stem(w) for w in words]
    particles = _separated_particles(stems, gl)
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((stems[v], stems[p]), (words[v], words[p])) for p, v in particles.items()]
    i = 0
    while i < len(words):
        if i in particles or i in particles.values():
            i += 1
            continue
        for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            key = tuple(stems[i : i + n])
            if key in gl:
                out.append((key, tuple(words[i : i + n])))
                i += n
                break
        else:
            i += 1
    return out


# ── language guess (reporting only) ────────────────────────────────────────────


@lru_cache(maxsize=1)
def _opencc_pair():
    import opencc

    return opencc.OpenCC("t2s"), opencc.OpenCC("s2t")


#: Chinese numerals for the digits a modern question types inside Chinese (第2天, 4個樂工).
_NUMERALS = "〇一二三四五六七八九"
_DIGITS_IN_CHINESE = re.compile(rf"(?<=[{CJK_CLASS}])[0-9０-９]{{1,2}}(?![0-9０-９])|(?<![0-9０-９])[0-9０-９]{{1,2}}(?=[{CJK_CLASS}])")


def hanzi_numbers(text: str) -> str:
    """``text`` with each number of one or two digits written against a Chinese character in Chinese
    numerals (第2天 → 第二天, 12首 → 十二首): the corpus writes no digits. Digits among English words stay."""

    def numeral(m: re.Match[str]) -> str:
        n = int(unicodedata.normalize("NFKC", m.group(0)))
        tens, ones = divmod(n, 10)
        if not tens:
            return _NUMERALS[ones]
        return ("" if tens == 1 else _NUMERALS[tens]) + "十" + (_NUMERALS[ones] if ones else "")

    return _DIGITS_IN_CHINESE.sub(numeral, text)


def detect_lang(text: str) -> str:
    """zh-Hant, zh-Hans, lzh (classical), en or mixed: a heuristic guess for reports."""
    text = unicodedata.normalize("NFKC", text)  # full-width letters (ＧＵＥＳＴ) are letters
    cjk = [ch for ch in text if is_cjk(ch)]
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    if not cjk and not latin:
        return "mixed"
    if latin > 2 * len(cjk):
        return "en"
    if latin and len(WORD.findall(text.lower())) >= 3 and latin > len(cjk):
        return "mixed"
    t2s, s2t = _opencc_pair()
    trad = sum(1 for ch in cjk if t2s.convert(ch) != ch)
    simp = sum(1 for ch in cjk if s2t.convert(ch) != ch)
    norm = normalize(text)
    sc = scaffolding()
    modern = (any(p in norm for p in sc.zh if len(p) > 1 and p not in _CLASSICAL_TOO) or any(ch in _MODERN_ONLY_CHARS for ch in norm)
              or any(w in norm for w in _MODERN_WORDS) or bool(_A_NOT_A.search(norm)) or "裡" in text)
    if not modern:
        return "lzh"
    return "zh-Hans" if simp > trad else "zh-Hant"


# ── follow-ups ─────────────────────────────────────────────────────────────────


def is_follow_up(pieces: list[tuple[str, str]], content_cjk: int, content_words: int) -> bool:
    """The rule for elliptical follow-ups (「那介呢？」, "and the 介?", "what about the 介?").

    A question draws on the previous turn when nothing is left after its scaffolding
    (「為什麼？」, "why?"), when it holds a pronoun, with a follow-up marker or without (那他們…, 喝完以後他…;
    up to PRONOUN_FOLLOW_UP_MAX_CJK characters), or when it opens with a follow-up marker (那, 那麼, 然則, 則, 又,
    還有, 至於; and, what about, how about, then) or ends with 呢, and what is left is short
    (at most FOLLOW_UP_MAX_CJK characters and FOLLOW_UP_MAX_WORDS English content words). An acknowledgement
    the reply opens with ("ok, and …", "thanks! what about …", 「明白了，那…」) is passed over to find the marker.
    The previous question's terms are then carried over as ``context``, which the lexical
    index weighs lower than the question's own terms, so the new subject (介) leads.
    """
    if content_cjk == 0 and content_words == 0:
        return True
    if not has_follow_up_marker(pieces):
        if _has_pronoun(pieces) and content_cjk <= PRONOUN_FOLLOW_UP_MAX_CJK and content_words <= PRONOUN_FOLLOW_UP_MAX_WORDS:
            return True  # 「他喝完那杯酒以後站在哪兒？」, 「喝完以後他站在哪兒？」: who 他 is, the turn before says
        if _has_english_pronoun(pieces) and content_cjk == 0 and content_words <= ENGLISH_BARE_PRONOUN_MAX_WORDS:
            return True  # "Where exactly does he put the goblet down?"
        # 「為什麼要分得這麼細？」: what is "this" fine, the turn before says
        return content_cjk <= FOLLOW_UP_MAX_CJK and content_words == 0 and _has_demonstrative(pieces)
    if _has_pronoun(pieces) and content_cjk <= PRONOUN_FOLLOW_UP_MAX_CJK and content_words <= PRONOUN_FOLLOW_UP_MAX_WORDS:
        return True  # 「那他們最後什麼時候才能喝上？」: who 他們 are, the turn before says
    return content_cjk <= FOLLOW_UP_MAX_CJK and content_words <= FOLLOW_UP_MAX_WORDS


def _asks_anew(pieces: list[tuple[str, str]], text: str, previous: str) -> bool:
    """A follow-up that names something of its own (the caller checks), asks another kind of question than the turn
    before (where after what, why after where: :func:`qa.retrieval.terms.question_asks`) and points back at nothing
    (no pronoun, no demonstrative): it keeps the conversation's rite, but the turn before's terms only pull it back to
    the old subject (「那狗肉在哪兒煮？」 after 「鄉飲酒禮上吃的是什麼肉？」)."""
    from .terms import question_asks  # terms reads queries: imported here, not at the top

    if _has_pronoun(pieces) or _has_english_pronoun(pieces) or _has_demonstrative(pieces) or _BACK_EN.search(text):
        return False
    mine = question_asks(text)
    return any(mine) and mine != question_asks(previous)


def points_back(text: str) -> bool:
    """The question points back at someone or something the conversation named: a third-person pronoun (他, 它; he,
    it, they), a demonstrative (這個, 這樣; these, those of no one named)."""
    parts = pieces(_HYPHEN.sub(" ", text))
    return _has_pronoun(parts) or _has_english_pronoun(parts) or _has_demonstrative(parts)


def _after_acknowledgement(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``pieces`` less the acknowledgements they open with ("ok", "thanks", 「好」, 「明白了」), unless that is all."""
    i = 0
    while i < len(pieces) and (pieces[i][1] in ACKNOWLEDGEMENTS_ZH if pieces[i][0] == "cjk" else pieces[i][1] in ACKNOWLEDGEMENTS_EN):
        i += 1
    return pieces[i:] if i < len(pieces) else pieces


def has_follow_up_marker(pieces: list[tuple[str, str]]) -> bool:
    """The question opens with a follow-up marker (那, 然則, and, what about …; after an acknowledgement, "ok, and …",
    「好，那…」) or ends with 呢."""
    pieces = _after_acknowledgement(pieces)
    if not pieces:
        return False
    first_cjk = next((s for k, s in pieces if k == "cjk"), "")
    last_cjk = next((s for k, s in reversed(pieces) if k == "cjk"), "")
    words = [s for k, s in pieces if k == "word"]
    if pieces[0][0] == "cjk" and first_cjk.startswith(FOLLOW_UP_OPENINGS_ZH):
        return True
    if pieces[-1][0] == "cjk" and last_cjk.endswith(FOLLOW_UP_ENDINGS_ZH):
        return True
    return pieces[0][0] == "word" and any(tuple(words[: len(o)]) == o for o in FOLLOW_UP_OPENINGS_EN)


def names_in(table: "_Names", norm: str, words: Sequence[str],
             within: Mapping[tuple[str, ...], object] | None = None) -> list[str]:
    """The values of ``table``'s names a question writes: a Chinese name inside its normalized text, an
    English one as a run of its (lower-cased) words (:func:`english_names`, ``within`` as there); in order, once each."""
    found = [value for name, value in table.chinese if name in norm]
    found += [table.english[key] for key in english_names(table, words, within)]
    return list(dict.fromkeys(found))


def english_names(table: "_Names", words: Sequence[str],
                  within: Mapping[tuple[str, ...], object] | None = None) -> list[tuple[str, ...]]:
    """The English names of ``table`` (their stemmed words) that run in ``words``, stemmed, determiners
    skipped; shortest first, then in order. With ``within`` (stemmed phrases, such as the glossary's), a name
    written there only inside a longer one of those phrases is skipped ("archery" of "an archery officer")."""
    stems = [stem(w) for w in words if w not in DETERMINERS]
    return [tuple(stems[i : i + n]) for n in range(1, MAX_PHRASE_WORDS + 1) for i in range(len(stems) - n + 1)
            if tuple(stems[i : i + n]) in table.english
            and not (within is not None and _inside_longer(stems, i, n, within))]


def _inside_longer(stems: Sequence[str], i: int, n: int, phrases: Mapping[tuple[str, ...], object]) -> bool:
    """Whether the words ``stems[i:i+n]`` lie inside one of ``phrases`` longer than they are."""
    for m in range(n + 1, MAX_PHRASE_WORDS + 1):
        for start in range(max(0, i + n - m), min(i, len(stems) - m) + 1):
            if tuple(stems[start : start + m]) in phrases:
                return True
    return False


def other_rites(norm: str, words: Sequence[str]) -> list[str]:
    """Display names of the rites outside the corpus that a question names (normalized text, its English words).

    An English name written only inside a longer phrase of the ritual glossary is no rite's name ("archery" of "an
    archery officer", the 燕禮's 射人), as 大射 inside 大射正 is not (:meth:`qa.retrieval.bridge.Bridge.outside_rites`).
    A name that leaves two rites open ("archery": 鄉射禮 / 大射儀) goes when the question names one of them ("the great
    archery": 大射儀)."""
    named = names_in(other_rites_table(), norm, words, within=glossary().english)
    named += [v for v in _respaced_rites(words) if v not in named]
    return [v for v in named if not any(w != v and w in v.split(" / ") for w in named)]


def _respaced_rites(words: Sequence[str]) -> list[str]:
    """Rites outside the corpus named in pinyin spaced otherwise than the table writes them ("Gongshi dafu li",
    "xiangsheli" for gong shi da fu li, xiang she li): a run of the question's words that, joined, is a name joined."""
    joined = {"".join(key): value for key, value in other_rites_table().english.items() if len(key) > 1}
    stems = [stem(w) for w in words if w not in DETERMINERS]
    found = (joined.get("".join(stems[i : i + n])) for i in range(len(stems)) for n in range(1, MAX_PHRASE_WORDS + 1)
             if i + n <= len(stems))
    return list(dict.fromkeys(v for v in found if v))


#: Words for a layer or a view that name no topic once a commentator is named (賈公彥的「疏」, 方苞的「看法」).
LAYER_WORDS = frozenset({"注", "疏", "注疏", "说法", "看法", "观点", "意见", "解释", "见解"})
_HYPHEN = re.compile(r"(?<=[A-Za-z])[-‐‑–—―/](?=[A-Za-z])")
#: An English possessive ending ("the Liji's", "Zheng Xuan's", "the guest’s"): the name is the word before it.
_POSSESSIVE = re.compile(r"(?<=[A-Za-z])['’]s\b")
#: A bare 疏 or 注 asked to explain (「疏何以釋之？」, 「疏怎麼說明？」, 「注云何？」) names its layer as 賈疏 or 鄭注 do; one
#: written before a quotation (注云「…」, 鄭注「…」) only says where the quoted words are.
_ASKED_LAYER = re.compile(
    r"(?<![賈贾鄭郑])(疏|注)(?:文|裡|里|中)?(?:又|則|则)?(?:是)?(?:何以|怎麼|怎么|如何)(?:釋|释|解|說|说|講|讲|看)"
    r"|(?<![賈贾鄭郑])(疏|注)(?:云何|何說|何说|謂何|谓何)")
_QUOTED_LAYER = re.compile(r"(疏|注)(?:(?:云|曰|說|说)[^「『“，,。？?！!\s]{0,6}?)?[：:︰]?[「『“]")  # 注云遵者入「…」 too
_LAYER_OF = {"疏": "shu", "注": "zhu"}
#: What a question asks after quoting the 注 (「…」，何謂也 / 是什麼意思 / 為什麼這樣說): what the words mean, or why.
_ASKS_OF_QUOTE = re.compile(r"何謂|何谓|何意|何解|何也|何以|何故|意思|怎麼理解|怎么理解|如何理解|為什麼|为什么|為何|为何|何所指|指什麼|指什么")
#: What follows a commentator's name when his words are quoted (鄭玄說「…」, 方氏曰：「…」), in simplified characters.
_QUOTING_VERB = r"(?:云|曰|说|言|谓|引|认为|以为)?[：:︰]?[「『“]"


def quoting_layers(text: str) -> frozenset[str]:
    """The layers named just before the words ``text`` quotes of them (注云「…」, 鄭注說「…」, 鄭玄說「…」, 方氏曰「…」,
    鄭注引「…」)."""
    found = {_LAYER_OF[m.group(1)] for m in _QUOTED_LAYER.finditer(text)}
    folded = "".join(fold_char(ch) or ch for ch in text)  # simplified, punctuation kept
    for name, layer in commentators_table().chinese:
        if re.search(re.escape(name) + _QUOTING_VERB, folded):
            found.add(layer)
    return frozenset(found)


def _asked_layers(text: str) -> list[str]:
    """The layers the first question of ``text`` asks to explain by their bare name (see ``_ASKED_LAYER``), in text
    order. A later question's (「燕礼的乐正相当于天子的什么官？乡饮酒礼的疏又怎么说？」) asks for more, not instead."""
    first = re.split(r"(?<=[？?])", text, maxsplit=1)[0]
    return list(dict.fromkeys(_LAYER_OF[m.group(1) or m.group(2)] for m in _ASKED_LAYER.finditer(first)))


#: A classical prompt's opening 「問」 (問玄酒在西者何): scaffolding only at the very start.
_ASK_OPENING = ("問", "问")


# ── analyze ────────────────────────────────────────────────────────────────────


def analyze(text: str, *, max_chars: int | None = None, history: Sequence[str] = (), follow_up: bool = False) -> Query:
    """Understand one question; ``history`` is the earlier user turns, oldest first. ``follow_up`` reads a question
    that names no rite of its own as following on from the turn before whatever its length (the caller's second
    reading of a question that points back and finds nothing alone: :func:`points_back`).

    Raises QueryError when the question is empty or only whitespace/control characters.
    """
    if not isinstance(text, str):
        raise QueryError(f"the question must be text, not {type(text).__name__}")
    max_chars = DEFAULTS.max_query_chars if max_chars is None else max_chars
    cleaned = clean(text)
    if not cleaned.strip():
        raise QueryError("empty question: type a question about 儀禮 (e.g. 「賓為什麼告旨？」)")
    truncated = False
    cleaned = cleaned.strip()
    if len(cleaned) > max_chars:
        log.warning("question of %d characters cut to the first %d (max_query_chars)", len(cleaned), max_chars)
        cleaned = cleaned[:max_chars]
        truncated = True

    # what is matched: digits inside Chinese read as its numerals (第2天 → 第二天; the text shown stays as typed),
    # without the thanks that end it (「…？謝謝！」: qa.retrieval.remarks)
    matched = _ONCE.sub("曾", hanzi_numbers(without_remarks(cleaned)))
    matched = _TWO_PEOPLE.sub("二", _PEOPLE_COUNTED.sub("", matched))
    matched = _SITS_WHERE_EN.sub(r"\1seat", _SITS_WHERE.sub("座位", matched))
    lang = detect_lang(cleaned)
    if lang != "en" and not history:
        # a question of its own is matched without its clauses about the asker (「老師上課講到這個，我沒聽懂，想請教：」)
        matched = chinese_preface(matched)[1]
    elif lang == "en":
        from .preface import without_asker  # the preface reads this module's glossary: imported here

        # … and in English, without what says who the asker is and names nothing of the rite ("Hello, I'm a retired
        # teacher who reads Chinese classics in translation."): qa.retrieval.preface
        matched = without_asker(matched)
    # "mouth-organ", "day-after": a hyphen joins two English words, it does not glue them into one
    parts = pieces(_HYPHEN.sub(" ", matched))
    # in an English question a Chinese word is a corpus term typed on purpose (the 'he' (和)):
    # modern-Chinese scaffolding (和 "and") is not stripped from it
    english = lang == "en"
    if parts and parts[0][0] == "cjk" and parts[0][1].startswith(_ASK_OPENING) and len(parts[0][1]) >= 2:
        parts = [("cjk", parts[0][1][1:]), *parts[1:]]
    sc = scaffolding()
    gl = glossary()
    core_parts: list[str] = []
    expansions: list[str] = []
    content_cjk = 0
    content_words = 0
    words: list[str] = []
    rites: list[str] = []
    asked_layers = _asked_layers(matched)
    layers: list[str] = list(asked_layers)

    def flush_words() -> None:
        nonlocal content_words
        if words:
            kept, terms = _english(words, rites, layers)
            core_parts.extend(kept)
            expansions.extend(terms)
            content_words += len(kept)
            words.clear()

    for kind, s in parts:
        if kind == "word":
            words.append(s)
            continue
        flush_words()
        kept = [
            k
            for named in split_names(s, rites_table(), rites)
            for part in split_names(named, commentators_table(), layers)
            for k in ([part] if english else _strip_scaffolding(part, sc.all_zh))
        ]
        if layers:  # 「那賈公彥的疏怎麼說？」: once the commentator is named, 疏 is the layer, not a topic
            kept = [k for k in kept if k not in LAYER_WORDS]  # (the pieces are normalized already)
        # the glossary reads what the scaffolding left (接 of 接下來 is no 受)
        for k in kept:
            expansions.extend(_glossary_zh(k, gl.chinese, gl.max_zh))
        core_parts.extend(kept)
        content_cjk += sum(len(k) for k in kept)
    flush_words()
    # 「鄭注「禮者尚敬」，疏怎麼解釋？」, 「試據賈疏解釋鄭注“燕乃祭薦”」: the 疏 is asked; the 注 written before the words it
    # quotes only says whose they are (named alone, 「鄭注「…」何謂？」, it is the layer asked)
    quoting = quoting_layers(matched) - set(asked_layers)
    explains_quote = False
    if quoting and set(layers) - quoting:
        layers = [x for x in dict.fromkeys(layers) if x not in quoting]
    elif quoting == {"zhu"} and set(layers) <= quoting and _ASKS_OF_QUOTE.search(matched.rsplit("」", 1)[-1]):
        # 「注云「屨賤，不空居堂」，何謂也？」: the 注's own words are what the asker has; the 疏 explains them
        layers = ["shu"]
        explains_quote = True

    core = " ".join(core_parts)
    core_cjk = "".join(p for p in core_parts if not p.isascii())
    # An expansion the question already says is dropped; but a one-character term (工) inside a
    # longer modern word (樂工) is not "said": as its own word it matches the corpus's 工.
    expansions_t = tuple(
        t for t in dict.fromkeys(expansions) if t not in core_parts and not (len(t) > 1 and t in core_cjk)
    )

    context: tuple[str, ...] = ()
    carried_words: tuple[str, ...] = ()
    follows = ""
    recent = [h for h in history if isinstance(h, str) and clean(h).strip()]  # the caller bounds it (Settings.history_turns)
    norm = normalize(matched)
    # "the Liji's Monthly Ordinances": a possessive ending is no part of the work's name (lijis is none)
    outside = other_rites(norm, [s.lower() for k, s in pieces(_POSSESSIVE.sub("", _HYPHEN.sub(" ", matched))) if k == "word"])
    if outside and not rites and (_BARE_YAN.search(norm) or (_FEAST.search(matched) and _CONTRAST.search(matched))):
        rites = ["yan"]  # 「燕洗而鄉射不洗」, "at the feast, but … in the great archery": set beside another rite
    elif not outside and not rites and _OPENING_YAN.search(matched.strip()):
        rites = ["yan"]
    # a question that names a rite is about it, unless it says it follows on (那燕禮呢？)
    # 「鄉射禮也是這樣嗎？」, "Is it the same in the archery rite?": another rite set beside what the turn before asked
    earlier: list[Query | None] = []

    def previous() -> Query | None:
        """The turn before, analysed once (it analyses its own turns before: doing it twice doubles per turn)."""
        if not earlier:
            try:
                earlier.append(analyze(recent[-1], max_chars=max_chars, history=recent[:-1]))
            except QueryError:  # pragma: no cover - recent holds only non-empty turns
                earlier.append(None)
        return earlier[0]

    compares_back = bool(recent and outside and not rites and _refers_back(parts, matched))
    if recent and rites and not outside and _refers_back(parts, matched) and content_cjk <= FOLLOW_UP_MAX_CJK \
            and content_words <= FOLLOW_UP_MAX_WORDS:
        # "Is it the same at the lord's banquet, the Yan li?", 「燕禮也是這樣嗎？」: the point the turn before asked, in the
        # other rite of the corpus
        prior = previous()
        compares_back = prior is not None and bool(set(prior.rites) - set(rites))
    standalone = bool(rites or outside) and not has_follow_up_marker(parts) and not compares_back
    if recent and not standalone and (compares_back or follow_up or is_follow_up(parts, content_cjk, content_words)):
        prev = previous()
        if prev is not None:
            carried = [*prev.segments, *prev.expansions, *prev.context]
            own = set(core_parts) | set(expansions_t)
            context = tuple(t for t in dict.fromkeys(carried) if t not in own and not t.isascii())
            if content_cjk + content_words and _asks_anew(parts, matched, recent[-1]):
                context = ()  # 「那狗肉在哪兒煮？」 after 「吃的是什麼肉？」: its own subject, its own kind of question
            # a term the previous turn spelt in pinyin ('jie') is read by the bridge, which knows readings
            carried_words = tuple(t for t in (*prev.segments, *prev.carried_words) if t.isascii() and t.isalpha())
            if content_cjk <= FOLLOW_UP_MAX_CJK and content_words <= FOLLOW_UP_MAX_WORDS:
                follows = recent[-1]  # elliptical (那「無算樂」呢？): it may ask again what the turn before asked
            # the rite the conversation is about stays its rite (燕禮宾的席… → 那卿的席呢？)
            rites = rites or list(prev.rites)
    elif recent and not standalone and has_follow_up_marker(parts):
        # a longer question that still says it follows on ("And the next day, …", 「那獻笙的時候呢，…」)
        # stands on its own words, in the rite it names or else the one the conversation is about
        if not rites and (prior := previous()) is not None:
            rites = list(prior.rites)

    return Query(
        text=cleaned,
        norm=norm,
        core=core,
        expansions=expansions_t,
        lang=lang,
        truncated=truncated,
        context=context,
        rites=tuple(dict.fromkeys(rites)),
        layers=tuple(dict.fromkeys(layers)),
        other_rites=tuple(outside),
        carried_words=carried_words,
        follows=follows,
        explains_quote=explains_quote,
    )


__all__ = ["Query", "analyze", "quoting_layers", "clean", "detect_lang", "english_names", "glossary", "glossary_zh_matches", "is_follow_up", "has_follow_up_marker", "points_back", "other_rites", "commentators_table", "rite_names", "rites_table", "scaffolding", "split_segments", "stem"]
