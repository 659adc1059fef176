"""Tests for qa.corpus.cite: conventional citations from the catalog, the units and their source lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.corpus.cite import cite, layer_author
from qa.corpus.load import load_corpus

ROOT = Path(__file__).resolve().parent.parent
GAOZHI = "zhushu.xiangyin.038"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "seeds")


def test_zhu_gloss_with_its_jing_clause(corpus):
    c = cite(corpus, GAOZHI, "zhu", "旨，美也。")
    assert c.text == "《儀禮注疏》卷八–十〈鄉飲酒禮〉「告旨」鄭玄注「旨，美也」（十三經注疏本，003:110）"
    assert (c.jing_clause, c.author, c.line, c.source) == ("告旨", "鄭玄", 110, "003_c949fed6c9cacba9.txt")
    assert "c949fed6" not in c.text and str(c) == c.text  # no file hash in the human part


def test_jing_whole_layer(corpus):
    assert cite(corpus, GAOZHI).text == (
        "《儀禮注疏》卷八–十〈鄉飲酒禮〉經「降席，坐奠爵，拜，告旨，執爵，興。主人阼階上答拜」（十三經注疏本，003:109）"
    )


def test_shu_sentence_with_its_header_and_line(corpus):
    c = cite(corpus, GAOZHI, "shu", "賓言旨，甘主人之位，啐則拜之。")
    assert c.text == "《儀禮注疏》卷八–十〈鄉飲酒禮〉賈公彥疏（「降席」至「美也」）「賓言旨，甘主人之位，啐則拜之」（十三經注疏本，003:111）"
    assert c.jing_clause is None  # it quotes no 經 clause in 「」


def test_shu_sentence_quoting_the_jing_names_the_clause(corpus):
    u = corpus.by_id()["zhushu.xiangyin.028"]
    sentence = "言「揖讓」升，不言一揖一讓，從上可知。"
    assert sentence in u.shu_text
    c = cite(corpus, u.id, "shu", sentence)
    assert c.jing_clause == "揖讓升" and "〈鄉飲酒禮〉「揖讓升」賈公彥疏（「疑讀」至「之貌」）" in c.text


def test_xiyi_with_its_lemma_and_the_ji_section(corpus):
    c = cite(corpus, "xiyi.yan.019", "xiyi", "故主人不敢啐")
    assert c.text == "《仪礼析疑》卷六〈燕禮〉「主人坐祭不啐酒」方苞曰「故主人不敢啐」（欽定四庫全書本，000:42）"
    assert cite(corpus, "zhushu.xiangyin.150").text.startswith("《儀禮注疏》卷八–十〈鄉飲酒禮·記〉經「")


def test_recovered_unit_cites_the_line_it_was_found_on(corpus):
    assert cite(corpus, "zhushu.xiangyin.029a", "zhu").text == "《儀禮注疏》卷八–十〈鄉飲酒禮〉鄭玄注「少退，少辟」（十三經注疏本，003:84）"


def test_zhu_interrupting_the_jing_in_001_is_cited_on_its_line(corpus):
    u = corpus.by_id()["zhushu.yan.b001"]
    c = cite(corpus, u.id, "zhu", "屨賤，不在堂也。")
    assert c.line == 1 and c.juan == "卷十五" and c.text.endswith("鄭玄注「屨賤，不在堂也」（十三經注疏本，001:1）")


def test_errors(corpus):
    with pytest.raises(KeyError):
        cite(corpus, "zhushu.xiangyin.999")
    with pytest.raises(ValueError, match="unknown layer"):
        cite(corpus, GAOZHI, "notes")
    with pytest.raises(ValueError, match="does not hold"):
        cite(corpus, GAOZHI, "zhu", "酒，己物也。")
    with pytest.raises(ValueError, match="has no xiyi"):
        cite(corpus, GAOZHI, "xiyi")


def test_layer_author_from_the_catalog_field():
    assert [layer_author("鄭玄注 賈公彥疏", k) for k in ("jing", "zhu", "shu")] == ["", "鄭玄", "賈公彥"]
    assert layer_author("方苞", "xiyi") == "方苞"
