"""qa build: build (or check) the index directory: passages, dense and lexical indexes, manifest."""

from __future__ import annotations

import argparse
import json
import logging
import time

from ..settings import Settings

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="rebuild even when the index is current")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from ..indexing.store import build_index, expected_manifest, read_manifest, stale_reasons
    from ..retrieval.confidence import calibrate

    manifest = None if args.force else read_manifest(settings.index_dir)
    if manifest is not None:
        why = stale_reasons(manifest, expected_manifest(settings, calibrate=calibrate))
        if not why:
            print(f"index is current: {settings.index_dir} ({_summary(manifest)}); use --force to rebuild")
            return 0
        print(f"index needs a rebuild: {'; '.join(why)}")
    started = time.perf_counter()
    build_index(settings, calibrate=calibrate)
    manifest = read_manifest(settings.index_dir) or {}
    print(f"built {settings.index_dir} in {time.perf_counter() - started:.1f} s ({_summary(manifest)})")
    log.debug("manifest: %s", json.dumps(manifest, ensure_ascii=False))
    return 0


def _summary(manifest: dict) -> str:
    counts = manifest.get("counts", {})
    return (f"{counts.get('units', '?')} units, {counts.get('passages', '?')} passages, "
            f"encoder {manifest.get('encoder', '?')} ({manifest.get('encoder_dim', '?')} dims, {manifest.get('dense_kind', '?')})")
