"""Tuning the placeholder tagger's encoder: a LoRA adapter, two token heads, an accelerate loop.

Why: a head on the frozen span model (:mod:`hf_anon.model.placeholder_tagger`) can only
reuse what the span model's states already say; a convention no training text showed
(``vom G.``, ``X.-straße/T2.-weg``) is as new to it as to the rules. Tuning the encoder
itself on text where every kind of reference is masked in every convention, with the label
it hides, lets the states say "something was removed here, and it was a person". The
adapter is small (LoRA, PEFT: about 2.6 MB), so it ships in the model folder beside the
span model it was made from (``placeholder_adapter/``), and the span model is untouched.

The loop is the transformers ``run_ner_no_trainer.py`` shape: windows, batches, one
optimizer, :class:`accelerate.Accelerator`, checkpoints every ``save_every`` steps that
``resume=True`` goes on from. What the windows are made of is the caller's choice
(``datasets_scripts/tune_placeholder_tagger.py``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from hf_anon.model.alignment import IGNORE_INDEX, encode_documents
from hf_anon.model.detection import pad_windows
from hf_anon.model.placeholder_tagger import (
    ADAPTER_FOLDER,
    PlaceholderTagger,
    build_head,
    tagger_view,
)
from hf_anon.text.data import Document
from hf_anon.text.labels import LabelSet


@dataclass
class TuningConfig:
    """How the adapter is trained (saved in the tuning record beside it)."""

    epochs: int = 1
    batch_size: int = 16
    lr: float = 5e-4
    lora_r: int = 16
    save_every: int = 50
    seed: int = 30


@dataclass(frozen=True)
class TrainingWindow:
    """One model input with its targets: ``O``/``B``/``I`` and the label hidden there."""

    input_ids: list[int]
    tags: list[int]
    label_ids: list[int]

    @property
    def has_placeholder(self) -> bool:
        return any(t > 0 for t in self.tags)


def training_windows(
    docs: Sequence[Document],
    tokenizer,
    labels: LabelSet,
    *,
    keep_empty: float,
    rng: random.Random,
    max_length: int = 256,
    stride: int = 32,
    language: str = "de",
    unwrap_lines: bool = False,
) -> list[TrainingWindow]:
    """The windows of ``docs`` (their spans are placeholders), read through the view the
    tagger reads (:func:`~hf_anon.model.placeholder_tagger.tagger_view`; the spans moved
    onto that view); a window with no placeholder is kept with chance ``keep_empty`` (it
    teaches what is not one)."""
    viewed = [_viewed(d, language, unwrap_lines) for d in docs]
    out = []
    encoded = encode_documents(viewed, tokenizer, labels, max_length=max_length, stride=stride)
    for enc in encoded:
        for w in enc.windows:
            window = TrainingWindow(w.input_ids, w.span_tags, w.label_ids)
            if window.has_placeholder or rng.random() < keep_empty:
                out.append(window)
    return out


def _viewed(doc: Document, language: str, unwrap_lines: bool) -> Document:
    from hf_anon.text.spacing import spans_to_view

    view, index = tagger_view(doc.text, language, unwrap_lines)
    return Document(doc.id, view, spans_to_view(doc.spans, index))


class TunedTagger(nn.Module):
    """The encoder with its LoRA adapter, the ``O``/``B``/``I`` head and the label head."""

    def __init__(self, encoder: nn.Module, tagger: PlaceholderTagger):
        super().__init__()
        self.encoder = encoder
        self.head = build_head(tagger.config)
        self.token_labels = nn.Linear(tagger.config.hidden_size, len(tagger.labels))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask)
        return self.head(hidden.last_hidden_state), self.token_labels(hidden.last_hidden_state)


def new_tuned(tagger: PlaceholderTagger, config: TuningConfig, resume_from: Path | None = None):
    """A :class:`TunedTagger` on a copy of the tagger's encoder: a fresh adapter, or the one
    (and the heads) saved at ``resume_from``. Only the adapter and the heads train. The new
    weights are drawn from ``config.seed``: a tuning run made again gives the same tagger
    (session 59 found two runs of one recipe 0.10 apart in precision on the validation key)."""
    from peft import LoraConfig, PeftModel, get_peft_model

    torch.manual_seed(config.seed)
    encoder = copy.deepcopy(tagger.model.encoder)
    if resume_from is not None:
        encoder = PeftModel.from_pretrained(
            encoder, str(resume_from / ADAPTER_FOLDER), is_trainable=True
        )
    else:
        lora = LoraConfig(
            r=config.lora_r, lora_alpha=2 * config.lora_r, lora_dropout=0.05,
            target_modules=["query", "key", "value", "dense"],
        )  # fmt: skip
        encoder = get_peft_model(encoder, lora)
    tuned = TunedTagger(encoder, tagger)
    if resume_from is not None:
        heads = torch.load(resume_from / "heads.pt")
        tuned.head.load_state_dict(heads["head"])
        tuned.token_labels.load_state_dict(heads["token_labels"])
    return tuned


def batches(
    windows: Sequence[TrainingWindow], batch_size: int, pad: int, rng: random.Random
) -> Iterator[tuple[torch.Tensor, ...]]:
    """Shuffled, padded batches: input ids, attention mask, tags, label ids."""
    order = list(range(len(windows)))
    rng.shuffle(order)
    for k in range(0, len(order), batch_size):
        chunk = [windows[i] for i in order[k : k + batch_size]]
        ids, mask = pad_windows([w.input_ids for w in chunk], pad)
        tags = _padded([w.tags for w in chunk], ids.shape[1])
        yield ids, mask, tags, _padded([w.label_ids for w in chunk], ids.shape[1])


def _padded(rows: list[list[int]], width: int) -> torch.Tensor:
    """Targets padded with :data:`IGNORE_INDEX` to the batch's width."""
    filled = [list(row) + [IGNORE_INDEX] * (width - len(row)) for row in rows]
    return torch.tensor(filled, dtype=torch.long)


def save_checkpoint(folder: Path, tuned: TunedTagger, optimizer, epoch: int, step: int) -> None:
    """Adapter, heads, optimizer and where the loop stands: all ``resume`` needs."""
    folder.mkdir(parents=True, exist_ok=True)
    tuned.encoder.save_pretrained(str(folder / ADAPTER_FOLDER))
    heads = {"head": tuned.head.state_dict(), "token_labels": tuned.token_labels.state_dict()}
    torch.save({**heads, "state": {"epoch": epoch, "step": step}}, folder / "heads.pt")
    torch.save(optimizer.state_dict(), folder / "optimizer.pt")


def tune(
    tagger: PlaceholderTagger,
    windows: Sequence[TrainingWindow],
    config: TuningConfig,
    checkpoint: Path,
    *,
    resume: bool = False,
    progress: bool = True,
) -> TunedTagger:
    """Train the adapter and heads on ``windows``; checkpoints go to ``checkpoint``, which
    ``resume=True`` starts from (at the step it reached)."""
    from accelerate import Accelerator
    from tqdm.auto import tqdm

    resume_from = checkpoint if resume and (checkpoint / "heads.pt").exists() else None
    tuned = new_tuned(tagger, config, resume_from)
    state = {"epoch": 0, "step": 0}
    if resume_from is not None:
        state = torch.load(resume_from / "heads.pt")["state"]
    trainable = [p for p in tuned.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=config.lr, weight_decay=0.01)
    if resume_from is not None:
        optimizer.load_state_dict(torch.load(resume_from / "optimizer.pt"))
    accelerator = Accelerator()
    tuned, optimizer = accelerator.prepare(tuned, optimizer)
    loss_fn = nn.CrossEntropyLoss(ignore_index=IGNORE_INDEX)
    pad = tagger.tokenizer.pad_token_id or 0
    total = (len(windows) + config.batch_size - 1) // config.batch_size
    for epoch in range(state["epoch"], config.epochs):
        tuned.train()
        torch.manual_seed(config.seed + epoch)  # dropout: an epoch reads alike, resumed or not
        stream = batches(windows, config.batch_size, pad, random.Random(config.seed + epoch))
        bar = tqdm(stream, total=total, desc=f"epoch {epoch}", unit="batch", disable=not progress)
        for k, (ids, mask, tags, label_ids) in enumerate(bar):
            if epoch == state["epoch"] and k < state["step"]:
                continue  # done before the resume
            device = accelerator.device
            tag_logits, label_logits = tuned(ids.to(device), mask.to(device))
            loss = loss_fn(tag_logits.flatten(0, 1), tags.to(device).flatten())
            if (label_ids != IGNORE_INDEX).any():
                loss = loss + loss_fn(label_logits.flatten(0, 1), label_ids.to(device).flatten())
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            bar.set_postfix(loss=f"{loss.item():.4f}")
            if (k + 1) % config.save_every == 0:
                unwrapped = accelerator.unwrap_model(tuned)
                save_checkpoint(checkpoint, unwrapped, optimizer, epoch, k + 1)
        state = {"epoch": epoch + 1, "step": 0}
        save_checkpoint(checkpoint, accelerator.unwrap_model(tuned), optimizer, epoch + 1, 0)
    return accelerator.unwrap_model(tuned).eval()


def save_tuned(folder: Path, tuned: TunedTagger, tagger: PlaceholderTagger) -> None:
    """The adapter and heads into a model folder, where
    :meth:`PlaceholderTagger.from_pretrained` reads them; ``tagger`` takes them too."""
    tuned.encoder.save_pretrained(str(Path(folder) / ADAPTER_FOLDER))
    tagger.head = tuned.head.eval()
    tagger.token_label_head = tuned.token_labels.eval()
    tagger.label_head = None
    tagger.config.label_head_units, tagger.config.label_names = 0, ()
    tagger.config.adapter = True
    tagger.save_head(folder)


__all__ = [
    "TrainingWindow",
    "TunedTagger",
    "TuningConfig",
    "batches",
    "new_tuned",
    "save_checkpoint",
    "save_tuned",
    "training_windows",
    "tune",
]
