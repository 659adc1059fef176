"""qa serve: start the Gradio chat and the JSON API at /api (as `python app.py`), on 127.0.0.1:7860 by default."""

from __future__ import annotations

import argparse

from ..settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="bind address (QA_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port, 1–65535 (QA_PORT, default 7860); a bad or busy port is a one-line error")
    parser.add_argument("-k", type=int, dest="k", help="units per answer (QA_K, default 5)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..webapp import serve

    serve(settings)
    return 0
