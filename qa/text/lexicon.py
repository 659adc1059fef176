"""The query vocabularies, read from the data directory: glossary, question scaffolding, rite and commentator names.

All tables are read by :func:`qa.text.tables.read_table` from ``qa/data`` (or ``QA_DATA_DIR``),
normalized at load (繁/简 alike) and cached per directory; English keys are stemmed with
:func:`stem`, so "guests", "bowed" and "offerings" meet "guest", "bow" and "offer".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .normalize import normalize
from .tables import Row, data_dir, per_directory, read_table
from .tokens import WORD

_WORD = WORD  # English words (qa.text.tokens)
#: English words skipped when matching glossary phrases, so "take off his shoes" matches "take off shoes".
DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "one", "ones", "my", "your", "our", "s"})


#: Irregular English forms lay questions use for the rite's acts (sat → sit, rose → rise, drank → drink):
#: the light stemmer below cannot reach them. ("drunk" and "left" are words of their own in the glossary.)
IRREGULAR: dict[str, str] = {
    "sat": "sit", "stood": "stand", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "went": "go", "gone": "go", "came": "come", "brought": "bring", "laid": "lay", "rose": "rise",
    "risen": "rise", "drank": "drink", "ate": "eat", "eaten": "eat", "led": "lead", "sang": "sing",
    "sung": "sing", "knelt": "kneel", "held": "hold", "fed": "feed", "began": "begin", "begun": "begin",
    "sent": "send", "met": "meet", "told": "tell", "hung": "hang", "blew": "blow", "blown": "blow",
    "fell": "fall", "chose": "choose", "chosen": "choose", "bade": "bid", "sought": "seek",
    "feet": "foot", "men": "man", "women": "woman", "teeth": "tooth", "thought": "think",
}


def stem(word: str) -> str:
    """A light English stemmer, the same for glossary keys and queries (guests → guest, offerings → offer)."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if len(w) <= 3:
        return w
    if w.endswith("ses") and not w.endswith("sses"):
        return w[:-1]  # rises → rise, causes → cause (passes → pass below)
    if w.endswith(("ies", "ied")) and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith("es") and (w[-3] in "sxz" or w.endswith(("ches", "shes"))):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]  # then -ing / -ed below: offerings → offering → offer
    for suffix, min_len in (("ing", 6), ("ed", 5)):
        if w.endswith(suffix) and len(w) >= min_len:
            w = w[: -len(suffix)]
            return w[:-1] if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "lsz" else w
    return w


def _stem_phrase(phrase: str) -> tuple[str, ...]:
    words = _WORD.findall(normalize(phrase))
    kept = [w for w in words if w not in DETERMINERS] or words
    return tuple(stem(w) for w in kept)


@dataclass(frozen=True, slots=True)
class _Glossary:
    english: dict[tuple[str, ...], tuple[str, ...]]  # stemmed word sequence → corpus terms
    chinese: dict[str, tuple[str, ...]]  # normalized modern word → corpus terms
    max_zh: int
    #: keys of rows marked ``no`` in the train column: they expand queries but are no training pair of
    #: the static encoder (a general word, "again" → 再, pairs with any 經 and teaches it nothing)
    untrained: frozenset[object] = frozenset()


#: The glossary's first section (its header line opens so), the people of the rites (賓, 介, 士, 卿, 工 …).
ROLES_SECTION = "# ── roles"


def glossary_roles() -> frozenset[str]:
    """The normalized corpus terms of the glossary's roles section (賓, 介, 士, 卿, 公, 工 …): what a bare syllable
    a student writes ('shi', 'qing') most often names."""
    return _glossary_roles(data_dir())


@per_directory
def _glossary_roles(directory: Path) -> frozenset[str]:
    lines = (directory / "glossary.tsv").read_text(encoding="utf-8").splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.startswith(ROLES_SECTION)), None)
    if start is None:
        return frozenset()
    end = next((i + 1 for i, line in enumerate(lines) if i + 1 > start and line.startswith("# ──")), len(lines) + 1)
    return frozenset(normalize(t) for r in read_table("glossary.tsv", directory) if start < r.line < end
                     for t in r.fields[1].split() if t != NO_TERM)


def glossary() -> _Glossary:
    """The bilingual glossary from ``glossary.tsv``, normalized."""
    return _glossary(data_dir())


#: A glossary row's corpus terms written so: the word names the rites' vocabulary but leads to no term.
NO_TERM = "-"


@per_directory
def _glossary(directory: Path) -> _Glossary:
    english: dict[tuple[str, ...], tuple[str, ...]] = {}
    chinese: dict[str, tuple[str, ...]] = {}
    untrained: set[object] = set()
    trained: set[object] = set()  # a key any row trains stays a training pair
    for row in read_table("glossary.tsv", directory):
        train = len(row.fields) < 4 or row.fields[3].lower() != "no"
        # 「-」: a word of the rites' vocabulary that leads to no term (第二天: the corpus's 明日 would lead every
        # next-day question to the one 經 that says it); it still counts as ritual vocabulary for the confidence rule
        terms = () if row.fields[1] == NO_TERM else tuple(
            dict.fromkeys(t for t in (normalize(x) for x in row.fields[1].split()) if t))
        if not terms and row.fields[1] != NO_TERM:
            raise row.error(f"no corpus term survives normalization in {row.fields[1]!r}")
        key = row.fields[0]
        if _WORD.fullmatch(key.replace(" ", "").lower()):
            target = english.setdefault(_stem_phrase(key), ())
            english[_stem_phrase(key)] = tuple(dict.fromkeys(target + terms))
            (trained if train else untrained).add(_stem_phrase(key))
        else:
            nk = normalize(key)
            chinese[nk] = tuple(dict.fromkeys(chinese.get(nk, ()) + terms))
            (trained if train else untrained).add(nk)
    return _Glossary(english, chinese, max((len(k) for k in chinese), default=1), frozenset(untrained - trained))


@dataclass(frozen=True, slots=True)
class _Scaffolding:
    zh: frozenset[str]  # normalized modern-Chinese phrases
    lzh: frozenset[str]  # normalized classical phrases
    en: frozenset[tuple[str, ...]]  # stemmed English word sequences
    all_zh: tuple[tuple[str, bool], ...]  # (phrase, remove?) for zh, lzh, name and keep phrases, longest first


#: The kinds of scaffolding.tsv's second column (zh when absent).
SCAFFOLDING_KINDS = ("zh", "lzh", "keep", "en", "name")


def scaffolding() -> _Scaffolding:
    """Question scaffolding from ``scaffolding.tsv``, normalized."""
    return _scaffolding(data_dir())


@per_directory
def _scaffolding(directory: Path) -> _Scaffolding:
    zh: set[str] = set()
    lzh: set[str] = set()
    names: set[str] = set()  # the classic's own name (儀禮): removed, but says nothing of the register
    keep: set[str] = set()
    en: set[tuple[str, ...]] = set()
    for row in read_table("scaffolding.tsv", directory):
        phrase, kind = row.fields[0], row.get(1, "zh")
        if kind not in SCAFFOLDING_KINDS:
            raise row.error(f"unknown kind {kind!r} (one of {', '.join(SCAFFOLDING_KINDS)})")
        if kind == "en":
            en.add(_stem_phrase(phrase))
            en.add(tuple(_WORD.findall(phrase.lower())))
        elif kind == "lzh":
            lzh.add(normalize(phrase))
        elif kind == "keep":
            keep.add(normalize(phrase))
        elif kind == "name":
            names.add(normalize(phrase))
        else:
            zh.add(normalize(phrase))
    ordered = sorted([(p, False) for p in keep] + [(p, True) for p in zh | lzh | names], key=lambda e: (-len(e[0]), e[1], e[0]))
    return _Scaffolding(frozenset(zh), frozenset(lzh), frozenset(en), tuple(ordered))


@dataclass(frozen=True, slots=True)
class _Names:
    """Names that are hints rather than words to match: rites, commentators."""

    chinese: tuple[tuple[str, str], ...]  # (normalized name, value), longest first
    english: dict[tuple[str, ...], str]  # stemmed words → value
    canonical: dict[str, str]  # value → the first Chinese name listed for it, normalized


def _read_names(rows: tuple[Row, ...]) -> _Names:
    chinese: dict[str, str] = {}
    english: dict[tuple[str, ...], str] = {}
    canonical: dict[str, str] = {}
    for row in rows:
        name, value = row.fields[0], row.fields[1]
        if _WORD.fullmatch(name.replace(" ", "").lower()):
            english[_stem_phrase(name)] = value
        else:
            chinese[normalize(name)] = value
            canonical.setdefault(value, normalize(name))
    # a rite's name is also written with 之 (士相見禮 as 士相見之禮, as the 鄉飲酒之禮 of the 經)
    for name, value in list(chinese.items()):
        if len(name) >= 3 and name.endswith("礼") and not name.endswith("之礼"):
            chinese.setdefault(name[:-1] + "之礼", value)
    return _Names(tuple(sorted(chinese.items(), key=lambda kv: (-len(kv[0]), kv[0]))), english, canonical)


def rites_table() -> _Names:
    """Rite names from ``rites.tsv``."""
    return _names("rites.tsv", data_dir())


def commentators_table() -> _Names:
    """Commentator names from ``commentators.tsv``."""
    return _names("commentators.tsv", data_dir())


@per_directory
def _names(table: str, directory: Path) -> _Names:
    return _read_names(read_table(table, directory))


def other_rites_table() -> _Names:
    """Names of rites the corpus does not hold, from ``other_rites.tsv`` (士冠禮, 聘禮, "wedding" …)."""
    return _names("other_rites.tsv", data_dir())


def modern_table() -> _Names:
    """Words that place a question in today's world, from ``modern.tsv`` (公司, 老闆, "boss", "podcast" …)."""
    return _names("modern.tsv", data_dir())


def beyond_table() -> _Names:
    """What the corpus's text cannot say, from ``beyond.tsv``: other works by name (論語, "the Analects"), words asking
    about a commentator's life (生平, "teacher") or about the classic's history (作者, "translated")."""
    return _names("beyond.tsv", data_dir())


def english_of_terms() -> dict[str, tuple[str, str]]:
    """Normalized corpus term → (the term as the glossary writes it, its first English name there).

    Read from ``qa/data/glossary.tsv`` in file order, so a term's most general English name
    (guest, not "principal guest") is the one kept: what an English answer shows beside 賓.
    """
    return _english_of_terms(data_dir())


@per_directory
def _english_of_terms(directory: Path) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for r in read_table("glossary.tsv", directory):
        row = r.fields
        if row[1] == NO_TERM:
            continue
        key = row[0].strip()
        if not _WORD.fullmatch(key.replace(" ", "").replace("'", "").replace("-", "").lower()):
            continue
        for term in row[1].split():
            out.setdefault(normalize(term), (term, key))
    return out


def rite_names() -> dict[str, str]:
    """rite id → its canonical name, normalized: what the dense encoder sees for a named rite."""
    return rites_table().canonical


#: Names that end a longer name after one of these characters: 方氏 (方苞) in the 周禮's offices 職方氏, 懷方氏, 合方氏,
#: 訓方氏, 形方氏 (normalized, simplified).
INSIDE_LONGER: dict[str, str] = {"方氏": "职怀合训形"}


def split_names(run: str, table: _Names, found: list[str]) -> list[str]:
    """Split a CJK run at the names of ``table`` (longest first), appending their values to ``found`` in text order;
    a name closing a longer one (職方氏: :data:`INSIDE_LONGER`) is no name."""
    hits: list[tuple[int, int, str]] = []
    mask = [False] * len(run)
    for name, rite in table.chinese:
        start = run.find(name)
        while start != -1:
            end = start + len(name)
            inside = start > 0 and run[start - 1] in INSIDE_LONGER.get(name, "")
            if not inside and not any(mask[start:end]):
                mask[start:end] = [True] * len(name)
                hits.append((start, end, rite))
            start = run.find(name, start + 1)
    if not hits:
        return [run]
    hits.sort()
    found.extend(rite for _, _, rite in hits)
    parts, pos = [], 0
    for start, end, _ in hits:
        if start > pos:
            parts.append(run[pos:start])
        pos = end
    if pos < len(run):
        parts.append(run[pos:])
    return parts


__all__ = [
    "DETERMINERS",
    "commentators_table",
    "english_of_terms",
    "glossary",
    "other_rites_table",
    "beyond_table",
    "rite_names",
    "rites_table",
    "scaffolding",
    "split_names",
    "stem",
]
