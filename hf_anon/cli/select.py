"""``hf-anon select``: the unannotated decisions to annotate next (most doubt, unseen courts)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hf_anon.cli.arguments import add_progress_argument
from hf_anon.text.data import Document
from hf_anon.text.readers import InputError, read_jsonl_texts


def _court(row: dict) -> str | None:
    return row.get("court") or (row.get("meta") or {}).get("court")


def cmd_select(args: argparse.Namespace) -> int:
    from hf_anon.apply.selection import rank_documents, select
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.model_folder import default_model

    rows = read_jsonl_texts(args.input)
    if args.budget < 1:
        raise InputError(f"--budget must be at least 1, got {args.budget}")
    training_courts = {
        c for path in args.training for c in map(_court, read_jsonl_texts(path)) if c
    }
    documents = [Document(r["id"], r["text"], meta={"court": _court(r)}) for r in rows]
    try:
        detector = SpanDetector.from_pretrained(args.model or default_model())
    except ValueError as err:
        raise InputError(str(err)) from None
    ranked = rank_documents(
        detector,
        documents,
        training_courts,
        novelty_weight=args.novelty_weight,
        progress=args.progress,
    )
    chosen = select(ranked, args.budget, per_court=args.per_court)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text("".join(f"{item.id}\n" for item in chosen), encoding="utf-8")
    if args.scores:
        lines = (json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in ranked)
        Path(args.scores).write_text("".join(lines), encoding="utf-8")
    unseen = sum(item.novelty == 1.0 for item in chosen)
    print(
        f"{len(chosen)} of {len(ranked)} decisions chosen ({unseen} of courts the training "
        f"data lacks) → {args.output}",
        file=sys.stderr,
    )
    return 0


def add_select_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon select``."""
    from hf_anon.apply.selection import NOVELTY_WEIGHT, PER_COURT

    parser = commands.add_parser(
        "select",
        help="rank unannotated decisions: which to annotate next",
        description=(
            "Rank the decisions of a corpus by the model's doubt (tag entropy, spans near "
            "their threshold) and by whether their court is missing from the training data, "
            "and write the ids of the best BUDGET, one a line (at most --per-court of one "
            "court first)."
        ),
    )
    parser.add_argument("--input", required=True, help="JSON Lines corpus (id, text, court)")
    parser.add_argument("--budget", type=int, required=True, help="decisions to choose")
    parser.add_argument("--output", required=True, help="file of chosen ids")
    parser.add_argument("--model", default=None, help="hf-anon model (default: bundled)")
    parser.add_argument(
        "--training",
        nargs="*",
        default=[],
        metavar="FILE",
        help="JSON Lines files of the training data: their courts count as seen",
    )
    parser.add_argument("--scores", help="also write every decision's doubt, novelty, score")
    parser.add_argument("--per-court", type=int, default=PER_COURT)
    parser.add_argument("--novelty-weight", type=float, default=NOVELTY_WEIGHT)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_select)
    return parser
