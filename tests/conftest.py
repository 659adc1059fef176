"""Shared fixtures and helpers: settings and retrievers over the fixture corpora and the real corpus.

Fixture corpora (``tests/data``):

- ``retrieval/`` (RETRIEVAL_SEEDS): excerpts of two real seed files (鄉飲酒禮 around 告旨, the
  opening of 仪礼析疑·燕禮); ``mini_retriever`` is built over it with the hashing encoder.
- ``mini/`` (MINI_SEEDS): a hand-made file in each of the four seed formats, for the parsers;
  ``mini_corpus_retriever`` is built over it.
- ``copy_real_seeds(dir, names)``: some of the real seed files with their catalog entries.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import tomllib
from contextlib import contextmanager
from pathlib import Path

import pytest

# Tests never reach a model hub (and must not hang trying).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from qa.settings import PROJECT_ROOT, Settings  # noqa: E402

DATA = Path(__file__).parent / "data"
#: Excerpts of two real seed files (鄉飲酒禮 around 告旨, the opening of 仪礼析疑·燕禮) with a catalog.
RETRIEVAL_SEEDS = DATA / "retrieval"
REAL_SEEDS = PROJECT_ROOT / "seeds"
#: A hand-made file in each of the four seed formats.
MINI_SEEDS = DATA / "mini"
#: Two small real seed files (燕禮), so a rebuild takes a second or two.
SMALL_REAL_SEED_NAMES = ("001_5405e21dc12de2db.txt", "002_3cbadc02700f2718.txt")


def copy_real_seeds(directory: Path, names: tuple[str, ...] = SMALL_REAL_SEED_NAMES) -> Path:
    """Copy ``names`` from seeds/ with their own catalog entries into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    catalog = tomllib.loads((REAL_SEEDS / "catalog.toml").read_text(encoding="utf-8"))
    lines: list[str] = []
    for e in (e for e in catalog["file"] if e["name"] in names):
        shutil.copy(REAL_SEEDS / e["name"], directory / e["name"])
        lines += ["[[file]]", *(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in e.items()), ""]
    (directory / "catalog.toml").write_text("\n".join(lines), encoding="utf-8")
    return directory


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(retriever):
    """The real server (chat + /api, ``qa.webapp.serve``) around ``retriever``, in this process, on
    a free port: yields (base URL without the trailing slash, the Gradio app), closed afterwards."""
    from qa.webapp import serve

    settings = retriever.settings.replace(host="127.0.0.1", port=free_port())
    demo = serve(settings, retriever=retriever, block=False)
    try:
        yield f"http://127.0.0.1:{settings.port}", demo
    finally:
        demo.close()


def assert_rows_name_every_unit(rows, units) -> None:
    """A table keyed by unit id that quotes each unit's opening (renderings, unit questions) names every unit of
    ``units`` (id → unit) and no other, and every row quotes its own unit's opening: a parser change that moves
    a unit's text must come with the table."""
    from qa.corpus.renderings import OPENING_CHARS, opening

    assert set(rows) == set(units), (sorted(set(units) - set(rows))[:5], sorted(set(rows) - set(units))[:5])
    moved = [uid for uid, row in rows.items() if row.opening != opening(units[uid])]
    assert not moved, moved[:5]
    assert all(len(row.opening) <= OPENING_CHARS for row in rows.values())


def evaluation_question_keys() -> set[str]:
    """Every question of every evaluation file (tests/data/questions, tests/data/*_questions.jsonl, the shared dev
    set), lower-cased without punctuation or spaces: what a table written for the project must never repeat."""
    here = Path(__file__).parent
    files = [*here.glob("data/questions/*.jsonl"), *here.glob("data/*_questions.jsonl"),
             *here.parent.parent.glob("shared/eval/dev_questions.jsonl")]
    return {question_key(json.loads(line)["question"]) for f in files
            for line in f.read_text(encoding="utf-8").splitlines() if line.strip()}


def question_key(text: str) -> str:
    """``text`` lower-cased without punctuation, symbols or spaces (how two questions are compared)."""
    return re.sub(r"[\W_]+", "", text.lower())


def make_settings(index_dir: Path, *, seeds_dir: Path = RETRIEVAL_SEEDS, model: str = "hashing", **more) -> Settings:
    """Settings for a test index (ignores QA_* variables of the developer's shell)."""
    return Settings.from_env(env={}, seeds_dir=seeds_dir, index_dir=index_dir, model=model, **more)


@pytest.fixture(scope="session")
def mini_settings(tmp_path_factory) -> Settings:
    return make_settings(tmp_path_factory.mktemp("mini") / "index")


@pytest.fixture(scope="session")
def mini_retriever(mini_settings):
    """Hybrid retriever over the excerpt with the hashing encoder (fast, deterministic)."""
    from qa import Retriever

    return Retriever.load(settings=mini_settings)


@pytest.fixture(scope="session")
def mini_corpus_retriever(tmp_path_factory):
    """Hybrid retriever over the hand-made mini corpus (all four formats) with the hashing encoder."""
    from qa import Retriever

    return Retriever.load(settings=make_settings(tmp_path_factory.mktemp("minicorpus") / "index", seeds_dir=MINI_SEEDS))


@pytest.fixture(scope="session")
def static_mini_retriever(tmp_path_factory):
    """Hybrid retriever over the excerpt with the trained static-corpus encoder."""
    from qa import Retriever

    return Retriever.load(settings=make_settings(tmp_path_factory.mktemp("static") / "index", model="static-corpus"))


@pytest.fixture(scope="session")
def real_retriever(tmp_path_factory):
    """The product configuration: the real seeds, the default static-corpus encoder (builds in seconds)."""
    from qa import Retriever

    settings = make_settings(tmp_path_factory.mktemp("real") / "index", seeds_dir=REAL_SEEDS, model="static-corpus")
    return Retriever.load(settings=settings)


# ---------------------------------------------------------------- hand-made units (the seed's own text)
# 鄉飲酒禮 at 告旨 (003, lines 109–111) and the 介 who does not 告旨, and a 析疑 unit linked to the first;
# shared by the answer, render, display, plain-text and reading tests.
from qa.corpus.units import LemmaUnit, ShuPart  # noqa: E402

SRC = "003_c949fed6c9cacba9.txt"

GAOZHI = LemmaUnit(
    id="zhushu.xiangyin.t02",
    work="儀禮注疏",
    rite="鄉飲酒禮",
    source=SRC,
    lines=(109, 111),
    section="經",
    jing="降席，坐奠爵，拜，告旨，執爵，興。主人阼階上答拜。",
    zhu="降席，席西也。旨，美也。",
    shu=(
        ShuPart(
            "經",
            "「降席」至「答拜」",
            "釋曰︰賓拜告旨，主人拜崇酒，其節同，義即異矣。賓言旨，甘主人之位，啐則拜之。主人云崇者，崇，充也，謝賓以酒惡相充實，飲訖，乃崇酒。先後亦同也。",
            header="疏「降席」至「答拜」。○注「降席」至「美也」。○",
        ),
    ),
)


BU_GAOZHI = LemmaUnit(
    id="zhushu.xiangyin.t03",
    work="儀禮注疏",
    rite="鄉飲酒禮",
    source=SRC,
    lines=(127, 128),
    section="經",
    jing="不告旨。",
    zhu="酒，己物也。",
)


XIYI = LemmaUnit(
    id="xiyi.xiangyin.t01",
    work="仪礼析疑",
    rite="鄉飲酒禮",
    source="000_test.txt",
    lines=(5, 5),
    section="經",
    jing="降席坐奠爵拜告旨",
    xiyi="告旨者美主人之酒",
    related=(GAOZHI.id,),
)
