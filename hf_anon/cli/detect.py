"""``hf-anon detect``: a trained model's spans for each document of a JSON Lines file."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from hf_anon.cli.arguments import (
    add_decoding_arguments,
    add_language_argument,
    add_load_arguments,
    add_progress_argument,
    decoding_kwargs,
    load_options,
)
from hf_anon.text.data import Document, save_jsonl
from hf_anon.text.readers import InputError, read_jsonl_texts


def cmd_detect(args: argparse.Namespace) -> int:
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.model_folder import default_model
    from hf_anon.text.languages import check_model_language, resolve_language

    rows = read_jsonl_texts(args.input)
    language = resolve_language(args.language, [r["text"] for r in rows[:50]])
    try:
        detector = SpanDetector.from_pretrained(
            args.model or default_model(language),
            options=load_options(args),
            **decoding_kwargs(args),
        )
        check_model_language(detector.language, args.language)
    except ValueError as err:
        raise InputError(str(err)) from None
    documents = [Document(r["id"], r["text"], domain=r.get("domain")) for r in rows]
    spans = detector.detect(
        documents, batch_size=args.batch_size, threshold=args.threshold, progress=args.progress
    )
    out = [
        Document(doc.id, doc.text, found, doc.domain)
        for doc, found in zip(documents, spans, strict=True)
    ]
    save_jsonl(out, args.output)
    counts = Counter(s.label for found in spans for s in found)
    print(
        f"{len(out)} documents, {sum(counts.values())} spans: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_detect_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon detect``."""
    parser = commands.add_parser(
        "detect",
        help="find sensitive spans with a trained model",
        description=(
            "Run a trained hf-anon model on documents of any length (windowed, never "
            "truncated) and write the spans in the gold format, each with label, risk "
            "and score."
        ),
    )
    parser.add_argument(
        "--model",
        default=None,
        help="hf-anon model folder or hub id (default: the bundled model of the language, "
        "hf-anon-de-e5-small or hf-anon-ja-e5-small)",
    )
    add_language_argument(parser, default="auto")
    parser.add_argument("--input", required=True, help="JSON Lines with id and text")
    parser.add_argument("--output", required=True, help="JSON Lines, gold format")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    add_load_arguments(parser)
    add_decoding_arguments(parser)
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="a token is inside a span when 1 - P(O) >= threshold (lower: more recall)",
    )
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_detect)
    return parser
