"""qa mcp: serve ask, search and unit to an MCP client (an assistant) over stdio."""

from __future__ import annotations

import argparse
import contextlib
import sys

from ..settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", type=int, dest="k", help="default units per answer, 1–50 (QA_K, default 5)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..answering.pipeline import Retriever, check_k
    from ..mcp import build_server

    check_k(settings.k, settings)
    # stdout is the protocol's channel: anything a build step might print goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        retriever = Retriever.load(settings=settings)
        server = build_server(retriever)
    server.run("stdio")
    return 0
