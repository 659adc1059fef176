"""Shared fixtures: settings and retrievers over a small real-text excerpt and over the real corpus."""

from __future__ import annotations

import os
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
