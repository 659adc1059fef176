"""qa.retrieval.shadow: the units' English shadow (document translation through the glossary and CC-CEDICT)."""

from __future__ import annotations

import pytest

from qa.corpus.units import LemmaUnit, ShuPart
from qa.retrieval import fusion
from qa.retrieval.query import analyze
from qa.retrieval.shadow import LAYER_WEIGHTS, EnglishShadow, english_key, stopwords, translate
from qa.text.cedict import parse

DICT = parse([
    "狗 狗 [gou3] /dog/CL:隻|只[zhi1],條|条[tiao2]/",
    "烹 烹 [peng1] /cooking method/to boil/to cook/",
    "鐘 钟 [zhong1] /bell/clock/",
    "鼓 鼓 [gu3] /drum/to drum/to strike/to rouse/to beat/",
    "行 行 [xing2] /to walk/to go/to travel/a visit/temporary/makeshift/current/in circulation/to do/to perform/capable/competent/OK!/",
    "走 走 [zou3] /to walk/",
    "杯子 杯子 [bei1 zi5] /cup/glass/",
])


def unit(uid: str, jing: str, zhu: str = "", shu: str = "") -> LemmaUnit:
    return LemmaUnit(id=uid, work="儀禮注疏", rite="鄉飲酒禮", source="t.txt", lines=(1, 1), section="經",
                     jing=jing, zhu=zhu, shu=(ShuPart("經", None, shu),) if shu else ())


def test_layers_weigh_the_jing_above_the_zhu_above_the_shu():
    assert LAYER_WEIGHTS["jing"] > LAYER_WEIGHTS["zhu"] > LAYER_WEIGHTS["shu"] > 0
    units = [unit("t.x.1", "狗。", "鼓。", "鐘。"), unit("t.x.2", "鐘。", "狗。", "鼓。"), unit("t.x.3", "鼓。", "鐘。", "狗。")]
    s = EnglishShadow.build(units, DICT)
    # the same word read in the 經, the 注, the 疏 (each unit as long as the others)
    assert [u for u, _ in s.rank({"dog": 1.0}, 3)] == [0, 1, 2]
    assert [u for u, _ in s.rank({"drum": 1.0}, 3)] == [2, 0, 1]


def test_function_characters_are_not_translated_and_unknown_words_score_nothing():
    s = EnglishShadow.build([unit("t.x.1", "狗也。"), unit("t.x.2", "之而也。")], DICT)
    assert s.rank({"dog": 1.0}, 5) == [(0, pytest.approx(s.scores({"dog": 1.0})[0]))]
    assert s.words_of(1) == {}  # 之, 而, 也 carry no topic
    assert s.rank({"unicorn": 1.0}, 5) == [] and s.rank({}, 5) == []


def test_later_senses_and_many_sense_words_weigh_less():
    stop = stopwords()
    walk = translate(DICT, "行", stop)
    assert walk["walk"] > walk["travel"] > walk["perform"]  # by sense rank
    assert translate(DICT, "走", stop)["walk"] == 1.0 > walk["walk"]  # one sense holds all the weight
    assert "cl" not in translate(DICT, "狗", stop)  # classifier notes are no sense


def test_english_key_meets_the_stemmers_forms():
    assert english_key("named") == english_key("name") == english_key("names")
    assert english_key("pledged") == english_key("pledge") and english_key("tasting") == english_key("taste")


# ---------------------------------------------------------------- the real corpus


def _index(r, uid: str) -> int:
    return next(i for i, u in enumerate(r.units) if u.id == uid)


def test_real_shadow_holds_the_units_words(real_retriever):
    s = real_retriever.shadow
    dog = s.words_of(_index(real_retriever, "zhushu.xiangyin.145"))  # 其牲，狗也。 (注: 狗取擇人)
    assert english_key("dog") in dog and max(dog, key=lambda w: dog[w]) == english_key("dog")
    exit_ = s.words_of(_index(real_retriever, "zhushu.xiangyin.124"))  # 賓出，奏陔。 (注: 鍾鼓)
    assert {english_key(w) for w in ("bell", "drum", "play", "guest")} <= set(exit_)


def test_english_lay_question_reaches_the_unit_through_the_channel(real_retriever):
    q = real_retriever.understand(analyze("Where is the dog cooked?"))
    assert q.lang == "en" and fusion.shadow_weight(q) > 0
    ranked = [u for u, _ in real_retriever.shadow_ranking(q)]
    assert "zhushu.xiangyin.145" in ranked[:2]  # 其牲，狗也 — its 注 says where the dog is boiled
    # a question of only lay words the glossary does not know still gets the channel's ranking
    assert real_retriever.shadow_ranking(real_retriever.understand(analyze("Who sweeps the floor?")))


def test_modern_chinese_question_pivots_through_english(real_retriever):
    q = real_retriever.understand(analyze("狗肉在哪里煮？"))
    assert q.lang == "zh-Hans"
    assert {english_key("dog"), english_key("cook")} <= set(real_retriever.shadow.words(q))
    assert real_retriever.shadow_ranking(q)[0][0] == "zhushu.xiangyin.145"
    assert "zhushu.xiangyin.145" in [h.unit.id for h in real_retriever.search(q, 3)]


def test_classical_questions_do_not_use_the_channel(real_retriever):
    q = real_retriever.understand(analyze("其牲狗者何也？"))
    assert q.lang == "lzh" and real_retriever.shadow_ranking(q) == []
    assert "shadow" not in fusion.weights_for(q) or fusion.weights_for(q)["shadow"] == 0.0


def test_a_sentence_read_in_english_for_an_english_question():
    """english_of reads one sentence as the shadow reads a unit; question_words keeps a question's content words."""
    from qa.retrieval.query import analyze
    from qa.retrieval.shadow import english_of, question_words
    from qa.text.normalize import normalize

    assert {"cloth", "cover", "jar"} <= english_of(normalize("冪，覆尊巾。"))
    assert {"cloth", "jar"} <= question_words(analyze("What is the cloth over the wine jar made of?"))
    assert question_words(analyze("冪是什麼？")) == frozenset()  # a Chinese question has none
