"""The package's tokenizer in ``tokenizers`` terms.

The package's tokenizer (``tok_content`` in ``e5.c``) maps each codepoint through the
table (SentencePiece's nmt-NFKC, one codepoint at a time), collapses runs of spaces,
prepends "▁" unless the text starts with a space, turns spaces into "▁" and runs a
Viterbi search over the Unigram pieces. :func:`build_tokenizer` expresses the same
steps in ``tokenizers`` terms: a ``Precompiled`` normalizer whose character map is
rebuilt from the table, ``Replace(" {2,}", " ")``, ``Metaspace`` and ``Unigram``.
"""

from __future__ import annotations

import json
import struct
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hf_anon.model.encoders.checkpoint import BaseModelError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

METASPACE = "▁"
SPECIAL_TOKENS = ("<s>", "<pad>", "</s>", "<unk>")  # ids 0..3, as in XLM-R
MASK_TOKEN = "<mask>"  # the last id


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
