"""``hf-anon export``: the model as a plain token-classification folder, or synthetic
decisions as JSON Lines."""

from __future__ import annotations

import argparse
import sys

from hf_anon.text.readers import InputError


def cmd_export(args: argparse.Namespace) -> int:
    from hf_anon.corpora.synthetic import generate_documents
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.modeling import export_token_classification

    try:
        detector = SpanDetector.from_pretrained(args.model)
    except ValueError as err:
        raise InputError(str(err)) from None
    texts = [doc.text[:2000] for doc in generate_documents(8, seed=12345)]
    calibration = detector.tokenizer(
        texts, truncation=True, max_length=detector.max_length, padding=True, return_tensors="pt"
    )
    calibration.pop("token_type_ids", None)
    export_token_classification(detector.model, args.out, detector.tokenizer, calibration)
    print(f"token-classification checkpoint written to {args.out}", file=sys.stderr)
    return 0


def add_export_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon export``."""
    parser = commands.add_parser(
        "export",
        help="save a plain token-classification checkpoint for transformers pipelines",
        description=(
            "Save the model as AutoModelForTokenClassification with BIO-with-category "
            "labels (O, B-nat-name, I-nat-name, …), usable by "
            'pipeline("token-classification") without remote code. The risk head is not '
            "exported; see hf_anon.model.modeling.export_token_classification for how the O "
            "score is approximated."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder or hub id")
    parser.add_argument("--out", required=True, help="output folder")
    parser.set_defaults(func=cmd_export)
    return parser
