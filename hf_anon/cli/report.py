"""``hf-anon report``: the evaluation report of a model on a gold set."""

from __future__ import annotations

import argparse

from hf_anon.cli.arguments import (
    add_decoding_arguments,
    add_load_arguments,
    add_progress_argument,
    decoding_kwargs,
    load_options,
)
from hf_anon.text.readers import InputError


def cmd_report(args: argparse.Namespace) -> int:
    from hf_anon.apply.report import build_report, parse_gold_arg, write_report
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.model_folder import ModelFolder
    from hf_anon.model.training import load_documents

    model = ModelFolder(args.model)
    try:
        detector = SpanDetector.from_pretrained(
            model,
            options=load_options(args),
            **decoding_kwargs(args),
        )
    except ValueError as err:
        raise InputError(str(err)) from None
    gold_sets = []
    for value in args.gold:
        name, source = parse_gold_arg(value)
        try:
            docs = load_documents([source], detector.labels, split="test")
        except (OSError, ValueError) as err:
            raise InputError(f"{source}: {err}") from None
        if not docs:
            raise InputError(f"{source}: no documents")
        gold_sets.append((name, source, docs))
    report = build_report(
        detector,
        gold_sets,
        model_name=args.name or model.name,
        threshold=args.threshold,
        batch_size=args.batch_size,
        progress=args.progress,
    )
    markdown = write_report(report, args.output)
    for s in report.sets:
        lenient, high = s.scores["lenient"], s.scores["recall_by_risk"].get("high", 1.0)
        fidelity = s.fidelity
        print(
            f"{s.name}: lenient P/R/F1 {lenient['precision']:.3f}/{lenient['recall']:.3f}/"
            f"{lenient['f1']:.3f}, recall high {high:.3f}; anonymize hid "
            f"{s.protection.get('share', 1.0):.3f} of the gold spans whole, replaced "
            f"{fidelity['share']:.2%} of non-sensitive characters, "
            f"{sum(fidelity['stray'].values())} replacements touching no gold span, "
            f"{sum(fidelity['closed_class'].values())} closed-class words"
        )
    print(f"report written to {markdown}")
    return 0


def add_report_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon report``."""
    parser = commands.add_parser(
        "report",
        help="evaluation report of a model on gold sets (Markdown, JSON, figures)",
        description=(
            "Detect on each gold set and write report.md, report.json, a confusion heatmap "
            "and a precision/recall curve over the detection threshold per set, the "
            "protection of anonymize (gold spans its output still shows) and its fidelity "
            "(non-sensitive characters and closed-class words replaced)."
        ),
    )
    parser.add_argument(
        "--model", default=None, help="hf-anon model folder or hub id (default: bundled)"
    )
    parser.add_argument(
        "--gold",
        nargs="+",
        required=True,
        help="gold JSON Lines or corpus folders (DIR:split, default split test); NAME=PATH "
        "names a set",
    )
    parser.add_argument("--output", required=True, help="folder for the report")
    parser.add_argument("--name", default=None, help="model name in the report")
    parser.add_argument("--threshold", type=float, default=None, help="as for detect")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    add_load_arguments(parser)
    add_decoding_arguments(parser)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_report)
    return parser
