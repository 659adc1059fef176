"""Seed-file parsers, one module per source format; ``PARSERS`` maps catalog names to them.

Each parser is a pure function ``parse(seed: SeedFile, text: str) -> ParsedFile``.
"""

from __future__ import annotations

from typing import Callable

from ..units import ParsedFile

Parser = Callable[..., ParsedFile]


def _lazy(module: str) -> Parser:
    def call(seed, text):  # imported on first use so a broken parser cannot break the others' import
        from importlib import import_module

        return import_module(f"{__name__}.{module}").parse(seed, text)

    call.__name__ = f"parse_{module}"
    return call


#: catalog ``parser`` name → parse function
PARSERS: dict[str, Parser] = {
    "xiyi": _lazy("xiyi"),  # 000 仪礼析疑: lemma line, note line
    "zhushu_paren": _lazy("zhushu_paren"),  # 001 注疏: 注 in （）, [疏] headers
    "zhushu_inline": _lazy("zhushu_inline"),  # 002 注疏: 經 and 注 on one line
    "zhushu_lines": _lazy("zhushu_lines"),  # 003 注疏: 經 / 注 / 疏 lines
}
