"""A tiny deterministic encoder (hashed character uni- and bigrams) that keeps unit tests fast and offline."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Sequence

import numpy as np

from ...text.normalize import normalize
from ...text.tokens import char_ngrams
from .base import Kind, l2_normalize

HASHING_NAME = "hashing"


@lru_cache(maxsize=200_000)
def _bucket(gram: str, dim: int) -> tuple[int, float]:
    # blake2b, not hash(): Python's str hash is salted per process and would make vectors unstable.
    digest = hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, (1.0 if (value >> 63) & 1 else -1.0)


def grams(norm: str) -> list[str]:
    """Character unigrams and bigrams of normalized text (spaces separate English words)."""
    return char_ngrams("".join(c for c in norm if not c.isspace()))


class HashingEncoder:
    """Feature hashing of character n-grams: similar text gives similar vectors, nothing more."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = HASHING_NAME if dim == 256 else f"{HASHING_NAME}-{dim}"

    def encode(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for gram in grams(normalize(text)):
                col, sign = _bucket(gram, self.dim)
                out[row, col] += sign
        return l2_normalize(out)


__all__ = ["HashingEncoder", "HASHING_NAME", "grams"]
