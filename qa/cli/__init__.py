"""The ``qa`` command: one module per sub-command; library errors become one-line messages here."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib import import_module
from types import ModuleType

from ..errors import QAError
from ..settings import Settings

#: sub-command name → module under qa.cli that defines ``add_arguments(parser)`` and ``run(args, settings)``
COMMANDS: dict[str, str] = {
    "units": "units",  # list / inspect lemma units
    "build": "build",  # build the index
    "eval": "evaluate",  # score a question file
    "ask": "ask",  # answer one question
    "batch": "batch",  # answer a file of questions
    "serve": "serve",  # start the Gradio app (and the JSON API at /api)
    "mcp": "mcp",  # serve ask / search / unit to an MCP client over stdio
}

log = logging.getLogger("qa")


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(prog="qa", description="Yili QA: question answering over 儀禮 and its commentaries.")
    parser.add_argument("--seeds-dir", help="seed directory with catalog.toml (QA_SEEDS_DIR)")
    parser.add_argument("--index-dir", help="index directory (QA_INDEX_DIR)")
    parser.add_argument("--model", help="encoder: static-corpus, or a sentence-transformers name/path (QA_MODEL)")
    parser.add_argument("--progress", action="store_true", default=None, help="show progress bars (QA_PROGRESS)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    parser.add_argument("-q", "--quiet", action="store_true", help="only errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name, module_name in COMMANDS.items():
        module = import_module(f"{__name__}.{module_name}")
        p = sub.add_parser(name, help=(module.__doc__ or "").strip().splitlines()[0])
        module.add_arguments(p)
        modules[name] = module
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    level = logging.ERROR if args.quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_env(
            seeds_dir=args.seeds_dir,
            index_dir=args.index_dir,
            model=args.model,
            progress=args.progress,
            **{k: getattr(args, k) for k in ("k", "host", "port") if getattr(args, k, None) is not None},
        )
        return int(modules[args.command].run(args, settings) or 0)
    except QAError as exc:
        _error(args.command, str(exc))
        return 2
    except BrokenPipeError:  # e.g. `qa units --json | head`: stop quietly
        # Python would flush stdout again at exit and print a second error; point it at devnull.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        # a full disk, an output under a file, an unreadable input: one line, never a traceback
        where = f"{exc.filename}: " if exc.filename else ""
        _error(args.command, f"{where}{exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        print(f"qa {args.command}: interrupted", file=sys.stderr)
        return 130


def _error(command: str, message: str) -> None:
    """One line on stderr; text that cannot be encoded (lone surrogates) is replaced, not raised."""
    line = f"qa {command}: error: {' '.join(message.split())}\n"
    enc = getattr(sys.stderr, "encoding", None) or "utf-8"
    sys.stderr.write(line.encode(enc, "replace").decode(enc, "replace"))
    sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
