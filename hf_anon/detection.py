"""Detection: a trained model applied to documents of any length → character spans.

The analyzer half of hf-anon (Presidio's split): it says *what* is sensitive; the
anonymizer decides what to do about it. Documents are windowed (never truncated),
windows are batched sorted by length, and per-token probabilities from overlapping
windows are averaged before decoding (hf_anon.alignment).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm.auto import tqdm

from hf_anon.alignment import EncodedDocument, decode_spans, encode_documents, merge_windows
from hf_anon.data import Document, Span
from hf_anon.labels import DEFAULT_LABELS, LabelSet


def label_set_of(model) -> LabelSet:
    """The label set a model was trained with (its config carries it)."""
    config = model.config
    if getattr(config, "label_set", None):
        return LabelSet.from_dict(config.label_set)
    if list(config.labels) == DEFAULT_LABELS.names:
        return DEFAULT_LABELS
    raise ValueError("the model config has no label_set and non-default labels")


@dataclass
class WindowBatch:
    input_ids: torch.Tensor
    attention_mask: torch.Tensor
    keys: list[tuple[int, int]]  # (document index, window index)


def pad_windows(windows: Sequence[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad token id lists into ``input_ids`` and ``attention_mask`` tensors."""
    width = max(len(w) for w in windows)
    ids = torch.full((len(windows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(windows), width), dtype=torch.long)
    for row, window in enumerate(windows):
        ids[row, : len(window)] = torch.tensor(window, dtype=torch.long)
        mask[row, : len(window)] = 1
    return ids, mask


def batches_by_length(encoded: Sequence[EncodedDocument], batch_size: int, pad_id: int):
    """Windows of all documents, sorted by length so that batches waste little padding."""
    keys = [(d, w) for d, doc in enumerate(encoded) for w in range(len(doc.windows))]
    keys.sort(key=lambda k: len(encoded[k[0]].windows[k[1]].input_ids))
    for start in range(0, len(keys), batch_size):
        chunk = keys[start : start + batch_size]
        ids, mask = pad_windows([encoded[d].windows[w].input_ids for d, w in chunk], pad_id)
        yield WindowBatch(ids, mask, chunk)


class SpanDetector:
    """A trained :class:`~hf_anon.modeling.AnonModel` with its tokenizer."""

    def __init__(self, model, tokenizer, *, max_length: int = 512, stride: int = 64):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.labels = label_set_of(model)
        positions = getattr(model.encoder.config, "max_position_embeddings", max_length)
        # XLM-R style models reserve two positions for the padding offset.
        self.max_length = min(max_length, positions - 2 if positions > 512 else positions)
        self.stride = stride

    @classmethod
    def from_pretrained(cls, path: str | Path, *, device: str | None = None, **kwargs):
        """Load model and tokenizer from a folder or hub id; a clear error if neither is."""
        from transformers import AutoTokenizer

        from hf_anon.modeling import AnonModel

        try:
            model = AnonModel.from_pretrained(str(path))
            tokenizer = AutoTokenizer.from_pretrained(str(path))
        except (OSError, ValueError) as err:
            raise ValueError(f"cannot load an hf-anon model from {path!s}: {err}") from None
        if device:
            model.to(device)
        return cls(model, tokenizer, **kwargs)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    @torch.inference_mode()
    def predict_probabilities(
        self, documents: Sequence[Document], *, batch_size: int = 16, progress: bool = False
    ) -> list[tuple[EncodedDocument, np.ndarray, np.ndarray, np.ndarray]]:
        """Per document: its encoding and averaged tag, label and risk probabilities."""
        encoded = encode_documents(
            documents, self.tokenizer, self.labels, max_length=self.max_length, stride=self.stride
        )
        outputs: list[list] = [[None] * len(doc.windows) for doc in encoded]
        n_windows = sum(len(doc.windows) for doc in encoded)
        bar = tqdm(total=n_windows, desc="detect", unit="window", disable=not progress)
        pad_id = self.tokenizer.pad_token_id or 0
        for batch in batches_by_length(encoded, batch_size, pad_id):
            out = self.model(
                input_ids=batch.input_ids.to(self.device),
                attention_mask=batch.attention_mask.to(self.device),
            )
            heads = [
                torch.softmax(logits.float(), dim=-1).cpu().numpy()
                for logits in (out.span_logits, out.label_logits, out.risk_logits)
            ]
            for row, (d, w) in enumerate(batch.keys):
                outputs[d][w] = tuple(head[row] for head in heads)
            bar.update(len(batch.keys))
        bar.close()
        results = []
        for doc, window_outputs in zip(encoded, outputs, strict=True):
            per_head = [
                merge_windows(doc, [o[h] for o in window_outputs]) if window_outputs else None
                for h in range(3)
            ]
            results.append((doc, *per_head))
        return results

    def detect(
        self,
        texts: Sequence[str] | Sequence[Document],
        *,
        batch_size: int = 16,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[list[Span]]:
        """Spans (label, risk, score) for each text; ``threshold`` on 1 - P(O) trades
        precision for recall (None: the argmax tag)."""
        documents = [
            t if isinstance(t, Document) else Document(str(i), t) for i, t in enumerate(texts)
        ]
        for doc in documents:
            if not isinstance(doc.text, str):
                raise TypeError(f"document {doc.id!r}: text must be a string")
        spans = []
        for doc, tags, labels, risks in self.predict_probabilities(
            documents, batch_size=batch_size, progress=progress
        ):
            if tags is None:
                spans.append([])
                continue
            spans.append(
                decode_spans(
                    doc.text, doc.offsets, tags, labels, risks, self.labels, threshold=threshold
                )
            )
        return spans
