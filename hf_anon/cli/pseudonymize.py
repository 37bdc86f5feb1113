"""``hf-anon pseudonymize``: placeholders (or gold spans) replaced by consistent,
realistic surrogates, written in the gold format."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tqdm.auto import tqdm

from hf_anon.cli.arguments import (
    add_language_argument,
    add_progress_argument,
)
from hf_anon.corpora.placeholders import (
    UNKNOWN,
    placeholder_spans,
)
from hf_anon.text.data import Document, parse_document, save_jsonl
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.readers import read_jsonl_texts


def _spans_to_replace(row: dict, language: str = "de") -> Document:
    """A document whose spans are to be replaced: its placeholders, its gold spans, or
    (for plain published decisions) the placeholders the detector finds."""
    if "placeholders" in row:
        return parse_document(
            row, spans_key="placeholders", require_risk=False, extra_labels=(UNKNOWN,)
        )
    if "spans" in row:
        return parse_document(row, require_risk=False)
    doc = parse_document(row)
    doc.spans = placeholder_spans(doc.text, language)
    return doc


def cmd_pseudonymize(args: argparse.Namespace) -> int:
    from hf_anon.corpora.corpus import without_offset_fields
    from hf_anon.corpora.japanese.surrogates import pseudonymize_japanese
    from hf_anon.corpora.surrogates import Pseudonymizer
    from hf_anon.text.languages import resolve_language

    rows = read_jsonl_texts(args.input)
    languages = [resolve_language(args.language, [row["text"]]) for row in rows]
    documents = [_spans_to_replace(row, lang) for row, lang in zip(rows, languages, strict=True)]
    pseudonymizer = Pseudonymizer(seed=args.seed, unknown_label=args.unknown_label)
    out = [
        without_offset_fields(
            pseudonymize_japanese(doc, args.seed, args.unknown_label)
            if lang == "ja"
            else pseudonymizer.pseudonymize(doc)
        )
        for doc, lang in tqdm(
            list(zip(documents, languages, strict=True)),
            desc="pseudonymize",
            unit="doc",
            disable=not args.progress,
        )
    ]
    save_jsonl(out, args.output)
    counts = Counter(s.label for doc in out for s in doc.spans)
    print(
        f"{len(out)} documents, {sum(counts.values())} spans replaced: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_pseudonymize_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon pseudonymize``."""
    parser = commands.add_parser(
        "pseudonymize",
        help="replace placeholders or gold spans with realistic surrogates",
        description=(
            "Replace each placeholder (input in the placeholder format), each span (input "
            "with spans) or each placeholder the detector finds (input with only id and "
            "text) with a realistic, consistent surrogate of its label. The output is in "
            "the gold format: the new text with the surrogates' exact spans."
        ),
    )
    parser.add_argument("--input", required=True, help="JSON Lines")
    parser.add_argument("--output", required=True, help="JSON Lines, gold format")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same output")
    parser.add_argument(
        "--unknown-label",
        default="nat-name",
        choices=DEFAULT_LABELS.names,
        help="label for placeholders labelled unknown (default: nat-name)",
    )
    add_language_argument(parser, default="auto")
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_pseudonymize)
    return parser
