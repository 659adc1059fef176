"""The encoder interface every dense backend implements, and helpers they share."""

from __future__ import annotations

from typing import Literal, Protocol, Sequence, runtime_checkable

import numpy as np

Kind = Literal["query", "passage"]


@runtime_checkable
class Encoder(Protocol):
    """Texts → float32 rows, L2-normalized (an all-zero row means "nothing this encoder knows")."""

    name: str  # stable id recorded in the index manifest
    dim: int
    # Optional: ``query_input = "text"`` makes the dense retriever embed the question as
    # typed instead of ``Query.dense_text`` (scaffolding removed, glossary terms added).

    def encode(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray: ...


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero (no NaN)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim != 2:
        vectors = vectors.reshape(len(vectors), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 1e-12).astype(np.float32, copy=False)


__all__ = ["Encoder", "Kind", "l2_normalize"]
