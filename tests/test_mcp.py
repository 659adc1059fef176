"""qa.mcp: `python -m qa mcp` end to end with the official SDK's own client over stdio."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from qa.answering.compose import error_row
from qa.settings import PROJECT_ROOT

pytest.importorskip("mcp")


def run_session(settings, steps):
    """Spawn `python -m qa mcp` on the test index, initialize, and run ``steps(session)``."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    env = {
        "QA_SEEDS_DIR": str(settings.seeds_dir),
        "QA_INDEX_DIR": str(settings.index_dir),
        "QA_MODEL": settings.model,
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    params = StdioServerParameters(command=sys.executable, args=["-m", "qa", "-q", "mcp"], env=env, cwd=str(PROJECT_ROOT))

    async def main():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await steps(session)

    return asyncio.run(asyncio.wait_for(main(), timeout=120))


def test_tools_answer_with_the_same_rows(mini_retriever, mini_settings):
    async def steps(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        ask = await session.call_tool("ask", {"question": "賓拜告旨", "k": 2})
        follow = await session.call_tool("ask", {"question": "那介呢？", "history": ["賓拜告旨"], "k": 2})
        hans = await session.call_tool("ask", {"question": "賓拜告旨", "k": 2, "script": "hans"})
        search = await session.call_tool("search", {"question": "賓拜告旨", "k": 3, "rites": ["燕禮"]})
        unit = await session.call_tool("unit", {"id": "zhushu.xiangyin.005"})
        return tools, ask, follow, hans, search, unit

    tools, ask, follow, hans, search, unit = run_session(mini_settings, steps)
    assert set(tools) == {"ask", "search", "unit"}
    assert {"question", "k", "history", "rites", "layers", "script"} <= set(tools["ask"].input_schema["properties"])
    assert tools["ask"].output_schema["properties"].keys() == error_row(None, "", "").keys()

    assert not ask.is_error
    assert ask.structured_content == mini_retriever.ask("賓拜告旨", k=2).to_dict(id=None)
    assert ask.structured_content["citations"][0]["citation"] in ask.content[0].text  # the same row as text
    assert follow.structured_content == mini_retriever.ask("那介呢？", k=2, history=["賓拜告旨"]).to_dict()
    assert "执爵" in hans.structured_content["hits"][0]["jing"]
    hits = search.structured_content["hits"]
    assert len(hits) == 3 and all(h["id"].split(".")[1] == "yan" for h in hits)
    assert unit.structured_content["id"] == "zhushu.xiangyin.005"
    assert unit.structured_content["citation"] == next(u for u in mini_retriever.units if u.id == "zhushu.xiangyin.005").citation()


def test_bad_parameters_are_tool_errors_with_a_message(mini_settings):
    async def steps(session):
        return [
            await session.call_tool("ask", {"question": "賓拜告旨", "k": 0}),
            await session.call_tool("ask", {"question": "賓拜告旨", "k": 2.5}),
            await session.call_tool("ask", {"question": "   "}),
            await session.call_tool("ask", {"question": "賓拜告旨", "rites": ["foo"]}),
            await session.call_tool("search", {"question": "賓拜告旨", "layers": ["bar"]}),
            await session.call_tool("unit", {"id": "nothing.here.1"}),
        ]

    k0, k25, empty, rite, layer, unit = run_session(mini_settings, steps)
    assert all(r.is_error for r in (k0, k25, empty, rite, layer, unit))
    assert "k" in k0.content[0].text and "k" in k25.content[0].text
    assert "empty question" in empty.content[0].text
    assert "unknown rite 'foo'" in rite.content[0].text and "xiangyin" in rite.content[0].text
    assert "unknown layer 'bar'" in layer.content[0].text
    assert "no unit 'nothing.here.1'" in unit.content[0].text
