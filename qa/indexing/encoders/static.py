"""The offline default encoder "static-corpus": a StaticEmbedding the project trains from its own corpus.

No hub is reachable, and the one sentence-transformers model on PyPI is English-only, so
the default dense encoder is learned here, at build time, in seconds:

* tokens are the characters and character bigrams of *normalized* text (so 繁/简 and
  variant forms share tokens); the tokenizer is a ``tokenizers`` WordLevel vocabulary
  over the corpus's characters and its repeated bigrams, split on spaces; this module
  turns text into that space-separated token string (:func:`model_input`);
* the embedding table (random, seeded) is trained with an in-batch-negatives ranking loss (MultipleNegativesRankingLoss, written as
  a plain torch loop so the default install needs neither ``datasets`` nor ``accelerate``)
  on corpus-derived pairs: every 注 / 疏 / 析疑 / note passage → its unit's 經 (or
  lemma), and → another passage of the same unit; every glossary word → 經 passages holding its term;
  and every plain retelling of a unit (``renderings.tsv``, qa.retrieval.renderings) → the unit's 經
  (its one-line notes → the unit's 注), so the lay words of a question (a jar of plain water, 清水)
  have vectors near the passages they describe. Measured over nine seeds (the encoder's luck moves dev
  hit@1 by about ±0.02): 511 development questions, hit@1 361.1 → 366.8 correct on average, hit@5
  463.0 → 466.4, evidence first 320.9 → 327.4;
* ENSEMBLE (3) tables are trained from consecutive seeds and stand side by side (a text's vector is each table's
  mean, concatenated, then normalized): the encoder's luck averages out. Measured on the 1,639 development questions:
  three single seeds hit@1 1359 / 1354 / 1360, hit@5 1591 / 1585 / 1589, evidence first 1181 / 1165 / 1173; the three
  together 1366 / 1587 / 1187 (five together: 1360 / 1586 / 1183); the lay probe's 1,188 unit hit@1 967 → 971. The
  shared dev set's 45 are too few to choose by: single seeds 43 / 40 / 41 hit@1, the three together 42;
* everything is seeded, so the same corpus gives the same model.

The result is a standard sentence-transformers model (StaticEmbedding + Normalize) saved
in the index directory; ``SentenceTransformer(path)`` loads it (feed it
:func:`model_input` strings), and :class:`StaticCorpusEncoder` reads it with numpy so a
query never waits for torch to import. (A low-rank co-occurrence initialization was
tried and measured no better on the dev set than random initialization.)
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ...errors import EncoderError
from ...text.normalize import normalize
from ...text.tokens import char_ngrams
from .base import Kind, l2_normalize

log = logging.getLogger(__name__)

STATIC_NAME = "static-corpus"
#: Bump when tokenization or training changes: manifests record it and the index rebuilds.
STATIC_VERSION = 4
STATIC_ID = f"{STATIC_NAME}/v{STATIC_VERSION}"

DIM = 256
SEED = 20241129
UNK = "[UNK]"
#: A bigram enters the vocabulary when it occurs in at least this many passages.
MIN_BIGRAM_DF = 2
EPOCHS = 5
#: Embedding tables trained from this many seeds (SEED, SEED + 1, …) and concatenated, each DIM wide.
ENSEMBLE = 3
#: Glossary pairs: each modern/English word → at most this many 經 passages holding its corpus term.
GLOSSARY_PASSAGES = 4
BATCH = 256
LEARNING_RATE = 0.02
#: Cosine similarities are multiplied by this before the softmax (the MNRL default).
SCALE = 20.0
_META = "yili_static.json"


def tokens(text: str) -> list[str]:
    """Model tokens of any text: CJK characters and adjacent-character bigrams; ASCII words whole."""
    norm = normalize(text)
    out: list[str] = []
    run: list[str] = []  # a run of non-ASCII characters, for bigrams

    def flush() -> None:
        out.extend(char_ngrams("".join(run)))
        run.clear()

    for word in norm.split(" "):
        ascii_word = ""
        for ch in word:
            if ch.isascii():
                if run:
                    flush()
                ascii_word += ch
            else:
                if ascii_word:
                    out.append(ascii_word)
                    ascii_word = ""
                run.append(ch)
        if ascii_word:
            out.append(ascii_word)
        flush()
    return out


def model_input(text: str, vocab: dict[str, int] | None = None) -> str:
    """The space-separated token string the saved model's tokenizer reads (unknown tokens dropped)."""
    toks = tokens(text)
    if vocab is not None:
        toks = [t for t in toks if t in vocab]
    return " ".join(toks)


def build_vocab(texts: Sequence[str]) -> dict[str, int]:
    """Every character, and bigrams seen in ≥ MIN_BIGRAM_DF texts; id 0 is [UNK]. Sorted, so deterministic."""
    df: Counter[str] = Counter()
    for text in texts:
        df.update(set(tokens(text)))
    keep = sorted(t for t, n in df.items() if len(t) == 1 or n >= MIN_BIGRAM_DF or t.isascii())
    vocab = {UNK: 0}
    for t in keep:
        vocab.setdefault(t, len(vocab))
    return vocab


def _ids(text: str, vocab: dict[str, int]) -> list[int]:
    return [vocab[t] for t in tokens(text) if t in vocab]


def training_pairs(passages: Sequence, rng: np.random.Generator) -> tuple[list[str], list[str], list[int]]:
    """(anchor, positive, group) triples from passages: commentary → its 經, and → a sibling passage."""
    by_unit: dict[str, list] = {}
    for p in passages:
        by_unit.setdefault(p.unit_id, []).append(p)
    anchors: list[str] = []
    positives: list[str] = []
    groups: list[int] = []
    for g, (_, ps) in enumerate(by_unit.items()):
        jing = [p for p in ps if p.layer == "jing"]
        rest = [p for p in ps if p.layer != "jing"]
        for p in rest:
            if jing:
                anchors.append(p.norm)
                positives.append(jing[0].norm)
                groups.append(g)
            others = [q for q in rest if q is not p]
            if others:
                anchors.append(p.norm)
                positives.append(others[int(rng.integers(len(others)))].norm)
                groups.append(g)
    return anchors, positives, groups


def glossary_pairs(passages: Sequence, rng: np.random.Generator) -> tuple[list[str], list[str]]:
    """(word, 經) pairs from the bilingual glossary: a modern or English word → 經 passages that use its corpus term.

    So the dense side learns the question's own words (guest, 喝, 脫鞋), not only the
    glossary terms the query adds for them.
    """
    from ...text.lexicon import glossary

    g = glossary()
    jing = [p for p in passages if p.layer == "jing"]
    entries = [(" ".join(words), terms) for words, terms in g.english.items() if words not in g.untrained]
    entries += [(word, terms) for word, terms in g.chinese.items() if word not in g.untrained]
    anchors: list[str] = []
    positives: list[str] = []
    for key, terms in sorted(entries):
        holding = [p.norm for p in jing if any(t in p.norm for t in terms)]
        if not holding:
            continue
        picks = rng.choice(len(holding), size=min(GLOSSARY_PASSAGES, len(holding)), replace=False)
        for i in sorted(int(x) for x in picks):
            anchors.append(key)
            positives.append(holding[i])
    return anchors, positives


#: Train on the units' plain renderings too (qa.retrieval.renderings): each English / modern-Chinese
#: retelling → its unit's 經, each one-line note → the unit's first 注 (or 析疑) passage.
RENDERING_PAIRS = True
#: Whether the questions each unit answers (qa.corpus.renderings.unit_questions) are training pairs too.
QUESTION_PAIRS = True


def _first_passages(passages: Sequence) -> dict[tuple[str, str], str]:
    """(unit id, layer) → the normalized text of that layer's first passage."""
    first: dict[tuple[str, str], str] = {}
    for p in passages:
        first.setdefault((p.unit_id, p.layer), p.norm)
    return first


def _opens(first: Mapping[tuple[str, str], str], uid: str, opening: str) -> bool:
    """Whether a table row quoting ``opening`` names unit ``uid``: its 經 (else 析疑, else 注) starts so, as
    :func:`qa.corpus.renderings.opening` reads a unit (a parser change that moved the unit fails it)."""
    from ...corpus.renderings import OPENING_CHARS

    start = first.get((uid, "jing")) or first.get((uid, "xiyi")) or first.get((uid, "zhu")) or ""
    return start[:OPENING_CHARS] == opening


def rendering_pairs(passages: Sequence, group_of: dict[str, int]) -> tuple[list[str], list[str], list[int]]:
    """(retelling, passage, group) triples from the renderings table: the lay words a question uses → the
    unit they retell (in the unit's group: its other passages are no negatives for it). A row that quotes
    another opening than its unit's (a parser change moved the unit) is skipped, as
    :func:`qa.corpus.renderings.rendering_of` skips it."""
    from ...corpus.renderings import renderings

    table = renderings()
    first = _first_passages(passages)
    anchors: list[str] = []
    positives: list[str] = []
    groups: list[int] = []
    for uid, r in sorted(table.items()):
        if uid not in group_of:
            continue
        if not _opens(first, uid, r.opening):
            continue
        jing = first.get((uid, "jing"))
        note = first.get((uid, "zhu")) or first.get((uid, "xiyi"))
        for text, target in ((r.en, jing), (r.zh, jing), (r.note_en, note), (r.note_zh, note)):
            if text and target:
                anchors.append(normalize(text))
                positives.append(target)
                groups.append(group_of[uid])
    return anchors, positives, groups


def question_pairs(passages: Sequence, group_of: dict[str, int]) -> tuple[list[str], list[str], list[int]]:
    """(question, passage, group) triples from the questions each unit answers (``unit_questions.tsv``): a lay
    question → its unit's 經 (or, without one, its note); a table row quoting another opening is skipped."""
    from ...corpus.renderings import unit_questions

    first = _first_passages(passages)
    anchors: list[str] = []
    positives: list[str] = []
    groups: list[int] = []
    for uid, q in sorted(unit_questions().items()):
        if uid not in group_of:
            continue
        target = first.get((uid, "jing")) or first.get((uid, "xiyi")) or first.get((uid, "zhu"))
        if not target or not _opens(first, uid, q.opening):
            continue
        for text in q.trained():
            anchors.append(normalize(text))
            positives.append(target)
            groups.append(group_of[uid])
    return anchors, positives, groups


def train_static(passages: Sequence, out_dir: Path, *, dim: int = DIM, epochs: int = EPOCHS, seed: int = SEED) -> Path:
    """Train the static-corpus model on ``passages`` (qa.indexing.passages.Passage) and save it to ``out_dir``."""
    import torch

    started = time.perf_counter()
    if not passages:
        raise EncoderError("cannot train static-corpus: the corpus has no passages")
    rng = np.random.default_rng(seed)
    anchors, positives, groups = training_pairs(passages, rng)
    g_anchors, g_positives = glossary_pairs(passages, rng)
    # glossary pairs form their own groups: each is a negative only for the others
    groups += list(range(max(groups, default=0) + 1, max(groups, default=0) + 1 + len(g_anchors)))
    anchors += g_anchors
    positives += g_positives
    extra = list(g_anchors)
    group_of = {uid: g for g, uid in enumerate(dict.fromkeys(p.unit_id for p in passages))}
    for wanted, make in ((RENDERING_PAIRS, rendering_pairs), (QUESTION_PAIRS, question_pairs)):
        if wanted:
            t_anchors, t_positives, t_groups = make(passages, group_of)
            anchors += t_anchors
            positives += t_positives
            groups += t_groups
            extra += t_anchors
    vocab = build_vocab([p.norm for p in passages] + extra)
    a_ids = [_ids(t, vocab) for t in anchors]
    p_ids = [_ids(t, vocab) for t in positives]

    # One intra-op thread: the batches are small, and on a busy 2-core machine torch's
    # thread pool spin-waits (measured: 33 s with the default, 2.5 s with one thread).
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        # ENSEMBLE tables from as many seeds side by side: a text's vector is each table's mean, concatenated
        parts = [_train(a_ids, p_ids, np.asarray(groups), len(vocab), dim, epochs, seed + k) for k in range(ENSEMBLE)]
        weights, n = np.concatenate([w for w, _ in parts], axis=1), parts[0][1]
    finally:
        torch.set_num_threads(threads)
    meta = {"id": STATIC_ID, "dim": dim, "vocab": len(vocab), "pairs": n, "epochs": epochs, "seed": seed,
            "input": "qa.indexing.encoders.static.model_input(text): normalized characters and bigrams, space-separated"}
    save_model(Path(out_dir), vocab, weights, meta)
    log.info("trained %s: %d tokens, %d pairs, %.1f s", STATIC_ID, len(vocab), n, time.perf_counter() - started)
    return Path(out_dir)


def _train(a_ids: list[list[int]], p_ids: list[list[int]], group_arr: np.ndarray, vocab_size: int,
           dim: int, epochs: int, seed: int) -> tuple[np.ndarray, int]:
    """The training loop: in-batch-negatives ranking loss, both directions; returns (weights, pairs)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    bag = torch.nn.EmbeddingBag(vocab_size, dim, mode="mean")
    with torch.no_grad():
        bag.weight.copy_(torch.randn(vocab_size, dim, generator=gen) * 0.1)
        bag.weight[0].zero_()  # [UNK] contributes nothing
    optimizer = torch.optim.Adam(bag.parameters(), lr=LEARNING_RATE)

    def embed(batch: list[list[int]]) -> "torch.Tensor":
        flat = torch.tensor([i for ids in batch for i in ids], dtype=torch.long)
        offsets = torch.tensor(np.cumsum([0] + [len(ids) for ids in batch[:-1]]), dtype=torch.long)
        return torch.nn.functional.normalize(bag(flat, offsets), dim=-1)

    n = len(a_ids)
    for epoch in range(epochs if n > 1 else 0):
        order = torch.randperm(n, generator=gen).numpy()
        total = 0.0
        for start in range(0, n, BATCH):
            idx = order[start : start + BATCH]
            if len(idx) < 2:
                continue
            sim = embed([a_ids[i] for i in idx]) @ embed([p_ids[i] for i in idx]).T * SCALE
            g = torch.from_numpy(group_arr[idx])
            # another pair of the same unit is not a negative: mask it out
            same = (g[:, None] == g[None, :]) & ~torch.eye(len(idx), dtype=torch.bool)
            sim = sim.masked_fill(same, -1e4)
            target = torch.arange(len(idx))
            loss = (torch.nn.functional.cross_entropy(sim, target) + torch.nn.functional.cross_entropy(sim.T, target)) / 2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                bag.weight[0].zero_()
            total += float(loss.detach()) * len(idx)
        log.debug("static-corpus epoch %d: loss %.4f", epoch + 1, total / max(n, 1))

    return bag.weight.detach().numpy().astype(np.float32), n


def save_model(out_dir: Path, vocab: dict[str, int], weights: np.ndarray, meta: dict) -> None:
    """Write a sentence-transformers model directory (StaticEmbedding → Normalize) without importing the library.

    The files are what ``SentenceTransformer.save`` writes for these two modules (the
    module type names are the ones every sentence-transformers ≥ 3 resolves), so
    ``SentenceTransformer(out_dir)`` loads it; :class:`StaticCorpusEncoder` reads it with numpy.
    """
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, pre_tokenizers
    from tokenizers.models import WordLevel

    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer(WordLevel(vocab=vocab, unk_token=UNK))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.save(str(out_dir / "tokenizer.json"))
    save_file({"embedding.weight": np.ascontiguousarray(weights)}, str(out_dir / "model.safetensors"))
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.StaticEmbedding"},
        {"idx": 1, "name": "1", "path": "1_Normalize", "type": "sentence_transformers.models.Normalize"},
    ]
    (out_dir / "modules.json").write_text(json.dumps(modules, indent=2), encoding="utf-8")
    config = {"prompts": {"query": "", "document": ""}, "default_prompt_name": None, "similarity_fn_name": "cosine"}
    (out_dir / "config_sentence_transformers.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    (out_dir / "1_Normalize").mkdir(exist_ok=True)
    (out_dir / "1_Normalize" / "config.json").write_text("{}", encoding="utf-8")
    (out_dir / _META).write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")


class StaticCorpusEncoder:
    """Reads a trained static-corpus directory with numpy (no torch at query time): mean of token vectors."""

    def __init__(self, model_dir: Path) -> None:
        model_dir = Path(model_dir)
        meta_path = model_dir / _META
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EncoderError(f"{meta_path}: not a trained static-corpus model ({exc.__class__.__name__})") from None
        if meta.get("id") != STATIC_ID:
            raise EncoderError(f"{model_dir}: static-corpus model {meta.get('id')!r}, this code needs {STATIC_ID!r}")
        try:
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer

            self.vocab: dict[str, int] = Tokenizer.from_file(str(model_dir / "tokenizer.json")).get_vocab()
            self.weights = load_file(str(model_dir / "model.safetensors"))["embedding.weight"].astype(np.float32)
        except Exception as exc:  # noqa: BLE001 - a damaged file raises many kinds
            raise EncoderError(f"{model_dir}: static-corpus model unreadable: {exc.__class__.__name__}: {exc}") from None
        if self.weights.shape[0] != len(self.vocab):
            raise EncoderError(f"{model_dir}: {self.weights.shape[0]} vectors for {len(self.vocab)} tokens")
        self.name = STATIC_ID
        self.dim = int(self.weights.shape[1])

    def encode(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = _ids(text, self.vocab)
            if ids:
                out[row] = self.weights[ids].mean(axis=0)
        return l2_normalize(out)


__all__ = ["StaticCorpusEncoder", "train_static", "tokens", "model_input", "build_vocab", "STATIC_NAME", "STATIC_ID", "DIM", "ENSEMBLE"]
