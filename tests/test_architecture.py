"""The package's shape: imports flow one way through the pipeline's layers, and the public API is whole and cheap."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import qa

QA = Path(qa.__file__).parent

#: Layers, lowest first. A module may import from its own layer and the layers below it, never above.
#: The doors (CLI, batch, web app, HTTP/MCP servers, LangChain adapter, evaluation) sit on top; the
#: CLI is above the other doors because it dispatches to them.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("qa.errors", "qa.settings"),
    ("qa.text",),
    ("qa.corpus",),
    ("qa.indexing",),
    ("qa.retrieval",),
    ("qa.answering",),
    ("qa.present",),
    ("qa.batch", "qa.evaluate", "qa.langchain", "qa.webapp", "qa.api", "qa.mcp"),
    ("qa.cli", "qa.__main__"),
)


def layer_of(module: str) -> int:
    if module == "qa":
        return len(LAYERS)  # the package's lazy public API may name anything
    for level, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {__file__}")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(QA.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every qa import in ``path``, top-level and function-level alike."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target == "qa" or target.startswith("qa."):
                # `from qa.x import y` may import a submodule y: judge the deepest real module
                for alias in node.names:
                    if target == "qa" and alias.name == "__version__":
                        continue  # the version string: a constant, not a layer
                    sub = f"{target}.{alias.name}"
                    deep = (QA.parent / sub.replace(".", "/")).with_suffix(".py").exists() or (QA.parent / sub.replace(".", "/")).is_dir()
                    out.append((node.lineno, sub if deep else target))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names if a.name == "qa" or a.name.startswith("qa."))
    return out


def test_every_module_has_a_layer_and_imports_only_downward():
    wrong = []
    for path in sorted(QA.rglob("*.py")):
        name = module_name(path)
        if name == "qa":
            continue
        mine = layer_of(name)
        for line, target in imported_modules(path):
            if layer_of(target) > mine:
                wrong.append(f"{path.relative_to(QA.parent)}:{line}: {name} (layer {mine}) imports {target} (layer {layer_of(target)})")
    assert not wrong, "imports against the pipeline's direction:\n" + "\n".join(wrong)


def test_the_check_catches_an_upward_import(tmp_path):
    """The rule itself: a module of a lower layer importing a higher one is reported."""
    assert layer_of("qa.text.normalize") < layer_of("qa.retrieval.query") < layer_of("qa.webapp") < layer_of("qa.cli.ask")
    bad = QA / "text" / "_probe_upward.py"
    bad.write_text("from ..retrieval.query import analyze\n", encoding="utf-8")
    try:
        assert imported_modules(bad) == [(1, "qa.retrieval.query")]
        assert layer_of("qa.retrieval.query") > layer_of(module_name(bad))
    finally:
        bad.unlink()


def test_public_names_all_resolve():
    missing = [name for name in qa.__all__ if not hasattr(qa, name)]
    assert not missing
    assert {"Retriever", "Answer", "Hit", "LemmaUnit", "Settings", "QAError", "evaluate"} <= set(qa.__all__)


def test_import_qa_is_cheap():
    """`import qa` loads no numpy, torch, FAISS, gradio or OpenCC, and configures no logging."""
    code = (
        "import sys, logging, qa\n"
        "heavy = sorted(m for m in ('numpy', 'torch', 'faiss', 'gradio', 'opencc', 'sentence_transformers') if m in sys.modules)\n"
        "print(','.join(heavy)); print(len(logging.getLogger().handlers))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "" and out[1] == "0", out


def test_cli_help_is_cheap():
    code = (
        "import sys, contextlib, io\n"
        "from qa.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['--help'])\n"
        "    except SystemExit: pass\n"
        "print(','.join(m for m in ('numpy', 'torch', 'faiss', 'gradio') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
