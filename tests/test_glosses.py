"""qa.retrieval.glosses: the corpus's own glosses, mined from the 注 and 疏 (real corpus and hand-made units)."""

from __future__ import annotations

import pytest

from qa.corpus.units import LemmaUnit, ShuPart
from qa.retrieval.glosses import mine_glosses


def unit(jing: str, zhu: str = "", shu: str = "") -> LemmaUnit:
    parts = (ShuPart("注", "", shu, header=""),) if shu else ()
    return LemmaUnit(id="zhushu.xiangyin.t01", work="儀禮注疏", rite="鄉飲酒禮", source="t.txt", lines=(1, 1),
                     section="經", jing=jing, zhu=zhu, shu=parts)


def pairs(*units: LemmaUnit) -> set[tuple[str, str]]:
    return {(g.term, g.gloss) for g in mine_glosses(units)}


def test_forms_of_a_gloss():
    u = unit("降席，坐奠爵，拜，告旨。", "降席，席西也。旨，美也。")
    assert pairs(u) >= {("旨", "美"), ("降席", "席西")}
    assert ("酬", "周") in pairs(unit("主人實觶酬賓。", "酬之言周，忠信為周。"))  # 「X之言Y也」
    assert ("主人", "诸侯之乡大夫") in pairs(unit("主人就先生。", "主人，謂諸侯之鄉大夫也。"))  # 「X，謂Y」
    assert ("缭", "紾") in pairs(unit("弗繚。", "繚猶紾也。"))  # 「X猶Y也」
    assert ("还", "退") in pairs(unit("還，賓拜辱。", "還，猶退也。"))  # 「X，猶Y」
    assert ("廉", "侧边") in pairs(unit("設席于堂廉。", "為工布席也。側邊曰廉。"))  # 「Y曰X」


def test_only_terms_of_the_jing_are_glossed():
    # a 疏's remark 「此不言，文略也」 has the shape of a gloss but 「此不言」 is no 經 term
    assert not pairs(unit("主人答拜。", shu="釋曰︰此不言，文略也。"))
    # a 疏 may gloss a term of the 注 it comments on
    assert ("拜辱", "出拜其自屈辱至己门") in pairs(unit("賓拜辱。", "拜辱，出拜其自屈辱至己門也。"))


@pytest.mark.parametrize("term,gloss", [("旨", "美"), ("速", "召"), ("序", "次"), ("哜", "尝"), ("酬", "劝酒"),
                                        ("相", "扶工"), ("楣", "前梁"), ("胥", "膳宰之吏"), ("幂", "覆尊巾")])
def test_real_corpus_glosses(real_retriever, term, gloss):
    """On the real corpus: 旨，美也 (鄉飲酒禮 注) and other glosses of the 注 are mined."""
    assert (term, gloss) in {(g.term, g.gloss) for g in real_retriever.bridge.glosses}


def test_real_corpus_gloss_knows_its_unit_and_layer(real_retriever):
    g = next(g for g in real_retriever.bridge.glosses if (g.term, g.gloss) == ("旨", "美"))
    assert g.layer == "zhu" and g.unit_id.startswith("zhushu.xiangyin.") and "旨，美也" in g.text
