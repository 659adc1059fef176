"""Corpus loading over the whole seed set: catalog, units, hashes, errors, and the no-loss proof."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from qa.corpus.catalog import load_catalog
from qa.corpus.load import corpus_hash, load_corpus, read_seed
from qa.corpus.units import field_text, lossless_problems, unit_fields
from qa.errors import CorpusError

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
MINI = ROOT / "tests" / "data" / "mini"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(SEEDS)


def test_catalog_describes_the_four_seeds():
    files = load_catalog(SEEDS)
    assert [f.name[:3] for f in files] == ["000", "001", "002", "003"]
    assert {f.parser for f in files} == {"xiyi", "zhushu_paren", "zhushu_inline", "zhushu_lines"}
    assert all(f.path.is_file() and f.script in ("繁", "简") and f.work and f.author and f.juan for f in files)


@pytest.mark.skipif(not SHARED_SEEDS.is_dir(), reason="no ../shared/seeds to compare with")
def test_seeds_are_byte_for_byte_copies():
    for seed in load_catalog(SEEDS):
        assert seed.path.read_bytes() == (SHARED_SEEDS / seed.name).read_bytes()


def test_every_file_yields_units_with_unique_citable_ids(corpus):
    counts = {f.name[:3]: sum(u.source == f.name for u in corpus.units) for f in corpus.files}
    assert counts == {"000": 84, "001": 22, "002": 17, "003": 174}
    ids = [u.id for u in corpus.units]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(xiyi|zhushu)\.(yan|xiangyin)\.[a-z]?\d{3}[a-z]?", i) for i in ids)
    for u in corpus.units:
        assert u.section in ("經", "記") and u.boundary in ("marked", "inferred", "recovered")
        assert 1 <= u.lines[0] <= u.lines[1]


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003"])
def test_nothing_lost(corpus, prefix):
    """Every character outside consumed markup is in exactly one field of one unit, in order."""
    index = next(i for i, f in enumerate(corpus.files) if f.name.startswith(prefix))
    seed, parsed = corpus.files[index], corpus.parsed[index]
    text = read_seed(seed)
    assert parsed.spans, "parser reports no source spans"
    assert lossless_problems(parsed, text) == ()
    # and the fields really are the source's own characters: every non-empty field has spans
    fields_with_spans = {(s.unit, s.field) for s in parsed.spans if not s.is_markup}
    for u in parsed.units:
        for name in unit_fields(u):
            assert bool(field_text(u, name)) == ((u.id, name) in fields_with_spans)
    markup = sum(s.end - s.start for s in parsed.spans if s.is_markup)
    assert markup < len(text) * 0.05  # markup is brackets, titles, blank lines: a small share


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003"])
def test_crlf_line_ends_parse_like_lf(prefix):
    """A seed saved with Windows line ends gives the same units, still losslessly."""
    from qa.corpus.parsers import PARSERS

    seed = next(s for s in load_catalog(SEEDS) if s.name.startswith(prefix))
    text = read_seed(seed)
    crlf = text.replace("\n", "\r\n")
    lf, again = PARSERS[seed.parser](seed, text), PARSERS[seed.parser](seed, crlf)
    assert again.units == lf.units
    assert lossless_problems(again, crlf) == ()


def test_lossless_check_catches_a_dropped_character(corpus):
    parsed, seed = corpus.parsed[2], corpus.files[2]
    broken = dataclasses.replace(parsed, spans=parsed.spans[1:])
    assert lossless_problems(broken, read_seed(seed))


def test_warnings_name_file_and_line(corpus):
    assert corpus.warnings
    for w in corpus.warnings:
        assert re.match(r"^\d{3}_[0-9a-f]+\.txt:\d+: ", str(w))


def test_corpus_hash_is_stable_and_tracks_content(tmp_path):
    assert corpus_hash(SEEDS) == corpus_hash(SEEDS) == load_corpus(SEEDS).corpus_hash
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    assert corpus_hash(copy) == corpus_hash(SEEDS)
    path = next(copy.glob("002_*.txt"))
    path.write_bytes(path.read_bytes() + "\n卒。".encode())
    assert corpus_hash(copy) != corpus_hash(SEEDS)


def test_non_utf8_seed_is_a_clear_error(tmp_path):
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    path = next(copy.glob("001_*.txt"))
    path.write_bytes("賓反入。\n".encode() + "升就席。".encode("gb18030"))
    with pytest.raises(CorpusError) as err:
        load_corpus(copy)
    assert path.name in str(err.value) and "UTF-8" in str(err.value) and ":2:" in str(err.value)


def test_missing_seed_is_a_clear_error(tmp_path):
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    path = next(copy.glob("003_*.txt"))
    path.unlink()
    with pytest.raises(CorpusError) as err:
        load_corpus(copy)
    assert path.name in str(err.value)


def test_fifth_file_needs_only_a_catalog_entry(tmp_path):
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    (copy / "004_extra.txt").write_text(
        "卒，射人乃升大夫，大夫皆升，就席。\n席工於西階上，少東。工，瞽矇歌諷誦詩者也。\n[疏]“席工”至“少東”。注“工瞽”至“者也”。釋曰：作樂之事。\n",
        encoding="utf-8",
    )
    with (copy / "catalog.toml").open("a", encoding="utf-8") as f:
        f.write(
            '\n[[file]]\nname = "004_extra.txt"\nwork = "儀禮注疏"\nwork_id = "zhushu"\nauthor = "鄭玄注 賈公彥疏"\n'
            'rite = "燕禮"\nrite_id = "yan"\njuan = "卷十五"\nscript = "繁"\nedition = "另本"\nparser = "zhushu_inline"\npart = "c"\n'
        )
    corpus = load_corpus(copy)
    extra = [u for u in corpus.units if u.source == "004_extra.txt"]
    assert [u.id for u in extra] == ["zhushu.yan.c001", "zhushu.yan.c002"]
    assert extra[1].jing == "席工於西階上，少東。" and extra[1].boundary == "marked"
    # the same 經 in 002 is now linked across the two editions
    assert any(r.startswith("zhushu.yan.a") for r in extra[0].related + extra[1].related)


def test_mini_corpus_in_all_four_formats():
    corpus = load_corpus(MINI)
    assert {f.parser for f in corpus.files} == {"xiyi", "zhushu_paren", "zhushu_inline", "zhushu_lines"}
    for seed, parsed in zip(corpus.files, corpus.parsed):
        assert parsed.units, seed.name
        assert lossless_problems(parsed, read_seed(seed)) == ()
