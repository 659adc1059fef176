"""qa.present.reading: a unit in its chapter, neighbours, previous/next, stable links."""

from __future__ import annotations

from dataclasses import replace

from conftest import BU_GAOZHI, GAOZHI, XIYI

from qa.present.reading import Reader, chapter_of, contents_html, reading_html

A2 = replace(GAOZHI, id="zhushu.yan.a002", rite="燕禮")
A1 = replace(BU_GAOZHI, id="zhushu.yan.a001", rite="燕禮")
B1 = replace(BU_GAOZHI, id="zhushu.yan.b001", rite="燕禮", jing="公坐取賓所媵觶。")


def test_chapters_are_in_id_order_across_parts():
    r = Reader([B1, A2, A1, GAOZHI, XIYI])
    assert chapter_of("zhushu.yan.a002") == "zhushu.yan"
    assert [u.id for u in r.chapters["zhushu.yan"]] == ["zhushu.yan.a001", "zhushu.yan.a002", "zhushu.yan.b001"]
    p = r.place("zhushu.yan.a002")
    assert p.previous.id == "zhushu.yan.a001" and p.next.id == "zhushu.yan.b001"
    assert r.step("zhushu.yan.a002", 1) == "zhushu.yan.b001"
    assert r.step("zhushu.yan.b001", 1) == "zhushu.yan.b001"  # the end of the chapter stays put
    assert r.step("zhushu.yan.a001", -1) == "zhushu.yan.a001"
    assert r.place("nope") is None and r.step("nope", 1) == "nope"


def test_reading_view_shows_all_layers_neighbours_and_a_stable_link():
    r = Reader([A1, A2, B1])
    html = reading_html(r, "zhushu.yan.a002")
    assert "2 / 3" in html
    assert "<details class=\"qa-layer qa-shu\" open>" in html  # 疏 open when reading
    assert html.index("zhushu.yan.a001") < html.index(A2.jing[:4]) < html.index("公坐取賓所媵觶")
    assert 'href="?unit=zhushu.yan.a002"' in html


def test_reading_view_shows_the_aligned_unit_and_unknown_ids_plainly():
    linked = replace(GAOZHI, related=(XIYI.id,))
    r = Reader([linked, XIYI])
    html = reading_html(r, linked.id)
    assert '<aside class="qa-side">' in html and XIYI.xiyi in html
    missing = reading_html(r, "<script>")
    assert "no unit" in missing and "<script>" not in missing


def test_contents_link_each_chapter_from_its_first_unit():
    html = contents_html(Reader([B1, A2, A1, GAOZHI]))
    assert "燕禮（3 段）" in html and 'href="?unit=zhushu.yan.a001"' in html and 'href="?unit=zhushu.yan.b001"' in html
    assert html.index("zhushu.xiangyin") < html.index("zhushu.yan")
