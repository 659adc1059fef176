"""qa.indexing.passages: units are cut into sentence-sized pieces of their own characters."""

from __future__ import annotations

from conftest import REAL_SEEDS

from qa.corpus.load import load_corpus
from qa.corpus.units import LemmaUnit, ShuPart
from qa.indexing.passages import CHUNK_CHARS, WHOLE_CHARS, Passage, make_passages, split_text, unit_passages
from qa.text.normalize import normalize

SHU = (
    "釋曰：凡在堂立行禮，不說屨，安坐則說屨，故鄭云“凡燕坐必說屨”。以其屨在足，賤，不宜在堂，陳於尊者之側也。"
    "云“禮者尚敬，敬多則不親。燕安坐，相親之心”者，《左氏傳》云“饗以訓恭儉”，設幾而不倚，爵盈而不飲，"
    "“燕以示慈惠”，饗在廟立行禮，是敬多則不親者也。燕在寢，以醉為度，是相親之心者也。"
)


def unit(**kw) -> LemmaUnit:
    base = dict(id="t.x.001", work="儀禮注疏", rite="燕禮", source="t.txt", lines=(1, 3), section="經",
                jing="賓反入，及卿大夫皆說屨，升就席。", zhu="凡燕坐必說屨，屨賤，不在堂也。")
    base.update(kw)
    return LemmaUnit(**base)


def test_split_keeps_original_characters_and_sentence_ends():
    pieces = split_text(SHU)
    assert len(pieces) > 1
    assert "".join(pieces) == SHU  # only cut, never altered
    assert all(len(p) <= CHUNK_CHARS for p in pieces)
    assert all(p.endswith(("。", "；", "？", "！")) for p in pieces)  # cut after a sentence end


def test_unpunctuated_text_is_still_cut():
    text = "燕礼" * 200  # 仪礼析疑 has no punctuation at all
    pieces = split_text(text)
    assert len(pieces) > 1 and "".join(pieces) == text


def test_unit_layers_in_order_with_parts():
    u = unit(shu=(ShuPart(on="經", quote="賓反至就席", text=SHU), ShuPart(on="注", quote=None, text="釋曰：注意。")),
             notes=("一說",))
    ps = unit_passages(u)
    assert [p.layer for p in ps][:2] == ["jing", "zhu"]
    assert ps[0].text == u.jing and ps[1].text == u.zhu  # short 經 and 注 stay whole
    shu = [p for p in ps if p.layer == "shu"]
    assert [p.part for p in shu] == list(range(len(shu)))
    assert "".join(p.text for p in shu) == SHU + "釋曰：注意。"
    assert ps[-1] == Passage(u.id, "notes", 0, "一說", normalize("一說"))
    assert all(p.unit_id == u.id and p.norm == normalize(p.text) for p in ps)


def test_long_zhu_is_cut_short_zhu_is_whole():
    long_zhu = "鄭注。" * (WHOLE_CHARS // 3 + 5)
    assert [p.layer for p in unit_passages(unit(zhu=long_zhu))].count("zhu") > 1
    assert [p.layer for p in unit_passages(unit())].count("zhu") == 1


def test_empty_layers_and_punctuation_only_pieces_are_skipped():
    ps = unit_passages(unit(zhu="", notes=("。",)))
    assert [p.layer for p in ps] == ["jing"]


def test_passage_dict_roundtrip():
    p = unit_passages(unit())[1]
    assert Passage.from_dict(p.to_dict()) == p


def test_real_corpus_passages_cover_every_unit_and_all_text():
    units = load_corpus(REAL_SEEDS).units
    passages = make_passages(units)
    by_unit: dict[str, list[Passage]] = {}
    for p in passages:
        by_unit.setdefault(p.unit_id, []).append(p)
    assert set(by_unit) == {u.id for u in units if normalize(u.full_text)}
    for u in units:
        ps = by_unit.get(u.id, [])
        # nothing lost: the pieces of each layer carry all of that layer's matchable text
        for layer, text in u.layer_texts.items():
            joined = "".join(p.text for p in ps if p.layer == layer)
            assert normalize(joined) == normalize(text), (u.id, layer)
        assert all(p.text in u.full_text for p in ps)
    # the 告旨 經 of 鄉飲酒禮 is one passage of its own
    assert any(p.layer == "jing" and p.text.startswith("降席，坐奠爵，拜，告旨") for p in passages)
