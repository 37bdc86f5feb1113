"""The ``hf-anon`` command line.

Sub-commands are a stable contract (external checks call them): add options, never
rename or remove them. Invalid input ends with exit code 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from hf_anon import __version__
from hf_anon.data import ValidationError, load_jsonl
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.metrics import FN, FP, SpanScores, score_documents

EXIT_INVALID_INPUT = 2


class InputError(Exception):
    """Bad input from the user: reported in one line with exit code 2."""


def _load_label_set(path: str | None) -> LabelSet:
    if path is None:
        return DEFAULT_LABELS
    try:
        return LabelSet.from_file(path)
    except (OSError, ValueError) as err:
        raise InputError(f"cannot load label set {path}: {err}") from None


def _load(path: str, labels: LabelSet, *, require_risk: bool):
    try:
        return load_jsonl(path, labels, require_risk=require_risk)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a JSON Lines file") from None
    except OSError as err:
        raise InputError(f"{path}: {err.strerror}") from None


def format_scores(scores: SpanScores) -> str:
    """Readable tables of a score result (what ``hf-anon evaluate`` prints)."""
    c = scores.counts
    lines = [
        f"documents {c['documents']}   gold spans {c['gold']}   predicted spans {c['pred']}",
        "",
        f"{'':14}{'precision':>10}{'recall':>10}{'f1':>10}",
    ]
    for name in ("strict", "strict_typed", "lenient"):
        prf = getattr(scores, name)
        lines.append(f"{name:14}{prf.precision:10.4f}{prf.recall:10.4f}{prf.f1:10.4f}")
    lines += ["", "lenient recall by risk"]
    for risk, recall in scores.recall_by_risk.items():
        lines.append(f"  {risk:8}{recall:8.4f}   ({scores.support_by_risk[risk]} gold spans)")
    lines += [
        "",
        "strict typed, per label",
        f"  {'label':14}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>9}{'pred':>7}",
    ]
    for name, s in scores.by_label.items():
        if s.support or s.predicted:
            lines.append(
                f"  {name:14}{s.precision:10.4f}{s.recall:10.4f}{s.f1:10.4f}"
                f"{s.support:9d}{s.predicted:7d}"
            )
    conf = scores.confusion
    rows = [i for i, row in enumerate(conf.matrix) if any(row)]
    cols = [j for j in range(len(conf.columns)) if any(conf.matrix[i][j] for i in rows)]
    if rows:
        width = max(6, *(len(conf.columns[j]) + 1 for j in cols))
        lines += [
            "",
            f"confusion over strictly matched spans (rows gold, columns predicted; "
            f"{FP}: no gold span, {FN}: not predicted)",
            "  " + " " * 14 + "".join(f"{conf.columns[j]:>{width}}" for j in cols),
        ]
        for i in rows:
            cells = "".join(f"{conf.matrix[i][j]:>{width}}" for j in cols)
            lines.append(f"  {conf.rows[i]:14}{cells}")
    return "\n".join(lines)


def cmd_evaluate(args: argparse.Namespace) -> int:
    labels = _load_label_set(args.label_set)
    gold = _load(args.gold, labels, require_risk=True)
    pred = _load(args.pred, labels, require_risk=False)
    scores = score_documents(gold, pred, labels)
    if args.json:
        print(json.dumps(scores.to_dict(), ensure_ascii=False))
    else:
        print(format_scores(scores))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hf-anon",
        description="Build, evaluate and apply models that anonymize German court decisions.",
    )
    parser.add_argument("--version", action="version", version=f"hf-anon {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    evaluate = commands.add_parser(
        "evaluate",
        help="score predicted spans against gold spans",
        description=(
            "Score predicted spans against gold spans (both JSON Lines in the "
            "ANNOTATION.md format, matched by document id): strict, strict typed and "
            "lenient precision/recall/F1, lenient recall by risk, per-label scores and "
            "a confusion matrix."
        ),
    )
    evaluate.add_argument("--gold", required=True, help="gold JSON Lines file")
    evaluate.add_argument("--pred", required=True, help="predicted JSON Lines file")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object")
    evaluate.add_argument(
        "--label-set", help="JSON/YAML label set to use instead of the built-in one"
    )
    evaluate.set_defaults(func=cmd_evaluate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (InputError, ValidationError) as err:
        message = " ".join(str(err).split())
        print(f"hf-anon {args.command}: error: {message}", file=sys.stderr)
        return EXIT_INVALID_INPUT


if __name__ == "__main__":
    sys.exit(main())
