"""``hf-anon evaluate``: predicted spans scored against gold spans (strict, strict typed,
lenient; recall by risk)."""

from __future__ import annotations

import argparse
import json

from hf_anon.cli.inputs import load_label_set, read_documents
from hf_anon.model.metrics import score_documents
from hf_anon.text.readers import InputError


def cmd_evaluate(args: argparse.Namespace) -> int:
    labels = load_label_set(args.label_set)
    gold = read_documents(args.gold, labels, require_risk=True)
    pred = read_documents(args.pred, labels, require_risk=False)
    if args.labels:
        unknown = sorted(set(args.labels) - set(labels.names))
        if unknown:
            raise InputError(f"--labels: unknown labels {unknown}")
        for doc in (*gold, *pred):
            doc.spans = [s for s in doc.spans if s.label in args.labels]
    scores = score_documents(gold, pred, labels)
    if args.json:
        print(json.dumps(scores.to_dict(), ensure_ascii=False))
    else:
        print(scores.format())
    return 0


def add_evaluate_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon evaluate``."""
    parser = commands.add_parser(
        "evaluate",
        help="score predicted spans against gold spans",
        description=(
            "Score predicted spans against gold spans (both JSON Lines in the gold format "
            "of the annotation guidelines, matched by document id): strict, strict typed "
            "and lenient precision/recall/F1, lenient recall by risk, per-label scores and "
            "a confusion matrix."
        ),
    )
    parser.add_argument("--gold", required=True, help="gold JSON Lines file")
    parser.add_argument("--pred", required=True, help="predicted JSON Lines file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--label-set", help="JSON/YAML label set to use instead of the built-in one"
    )
    parser.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help="score these labels only: gold and predicted spans of other labels are left out "
        "(e.g. --labels nat-name nat-jur: how well names are found)",
    )
    parser.set_defaults(func=cmd_evaluate)
    return parser
