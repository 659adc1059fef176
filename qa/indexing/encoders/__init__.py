"""Dense encoders behind one interface: the offline default static-corpus, any sentence-transformers model, and a test hasher."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import EncoderError
from .base import Encoder, l2_normalize

if TYPE_CHECKING:
    from ...corpus.load import Corpus
    from ...settings import Settings


def encoder_id(model: str) -> str:
    """The id an index built with ``model`` records in its manifest (known without loading the model)."""
    from .hashing import HASHING_NAME
    from .static import STATIC_ID, STATIC_NAME

    if model == STATIC_NAME:
        return STATIC_ID
    if model == HASHING_NAME:
        return HASHING_NAME
    path = Path(model).expanduser()
    return str(path.resolve()) if path.is_dir() else model


def load_encoder(model: str, *, settings: "Settings", corpus: "Corpus | None" = None,
                 cache_dir: Path | None = None) -> Encoder:
    """The encoder named ``model``.

    ``static-corpus`` loads the model trained into ``cache_dir``; when there is none and
    ``corpus`` is given, it trains one there first. ``hashing`` is the test encoder.
    Anything else is a sentence-transformers name (from the local cache) or directory.
    """
    from .hashing import HASHING_NAME, HashingEncoder
    from .static import STATIC_NAME, StaticCorpusEncoder, train_static

    if not model:
        raise EncoderError("no encoder model given")
    if model == HASHING_NAME:
        return HashingEncoder()
    if model == STATIC_NAME:
        if cache_dir is None:
            raise EncoderError("static-corpus needs a model directory (the index's encoder/ folder)")
        cache_dir = Path(cache_dir)
        if not (cache_dir / "modules.json").exists():
            if corpus is None:
                raise EncoderError(f"{cache_dir}: no trained static-corpus model; run `qa build`")
            from ..passages import make_passages

            train_static(make_passages(corpus.units), cache_dir)
        return StaticCorpusEncoder(cache_dir)
    from .sentence_transformer import SentenceTransformerEncoder

    return SentenceTransformerEncoder(
        model, device=settings.device, batch_size=settings.batch_size, progress=settings.progress, name=encoder_id(model)
    )


__all__ = ["Encoder", "load_encoder", "encoder_id", "l2_normalize"]
