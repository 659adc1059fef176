"""qa evaluate: not yet implemented."""

from __future__ import annotations

import argparse

from ..errors import QAError
from ..settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace, settings: Settings) -> int:
    raise QAError("qa evaluate is not implemented yet")
