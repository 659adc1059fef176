"""The 經 reference text (``qa/data/jing_reference.txt``) from which the 析疑 parser learns what 經 reads like.

方苞's lemmas are short quotations of the 經; too few to train a model on by
themselves. The reference is the header-marked 經 of the catalogued 注疏 seeds, one
unit a line, in matching form (``qa.text.normalize``). It is a data file, not computed at
parse time, so that each parser stays a pure function of its own seed; rebuild it
after a 注疏 seed or parser changes with ``python -m qa.corpus.parsers.jingref`` (a test
checks it is current).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from ...text.normalize import normalize
from ...text.tables import data_dir, per_directory, read_table, table_path

log = logging.getLogger(__name__)

REFERENCE_FILE = "jing_reference.txt"
#: Parsers whose output is not 經 with a marked boundary and so cannot teach the model.
_SKIP_PARSERS = ("xiyi",)


def jing_reference() -> tuple[str, ...]:
    """The shipped reference: normalized 經 texts, one per 注疏 unit (data directory: qa.text.tables)."""
    return _jing_reference(data_dir())


@per_directory
def _jing_reference(directory: Path) -> tuple[str, ...]:
    return tuple(row.fields[0] for row in read_table(REFERENCE_FILE, directory))


def build_reference(seeds_dir: Path) -> str:
    """The reference file's content, from the 注疏 seeds in ``seeds_dir`` (marked units only)."""
    from ..catalog import load_catalog
    from ..load import read_seed
    from . import PARSERS

    out = [
        "# 經 of the header-marked 注疏 units, normalized; rebuilt by `python -m qa.corpus.parsers.jingref`.",
    ]
    for seed in load_catalog(seeds_dir):
        if seed.parser in _SKIP_PARSERS:
            continue
        parsed = PARSERS[seed.parser](seed, read_seed(seed))
        out += [normalize(u.jing) for u in parsed.units if u.boundary == "marked" and normalize(u.jing)]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Rebuild the shipped reference from ``seeds/`` (or the directory given)."""
    from ...settings import Settings

    args = sys.argv[1:] if argv is None else argv
    seeds_dir = Path(args[0]) if args else Settings.from_env().seeds_dir
    target = table_path(REFERENCE_FILE)
    target.write_text(build_reference(seeds_dir), encoding="utf-8")
    log.info("wrote %s", target)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
