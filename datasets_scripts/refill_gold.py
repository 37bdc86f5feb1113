"""Write copies of gold decisions with fresh names, companies and places for training.

    python datasets_scripts/refill_gold.py corpora/real_train123/train123.jsonl \
        --copies 7 --seed 1 --output corpora/refill/train123.refill.jsonl

Each copy keeps the decision's words and spans and draws new surrogates for the labels of
:data:`hf_anon.corpora.surrogates.refill.REFILL_LABELS` (why: that module). The output is
gold JSON Lines (``text``, ``spans``), one line per copy, ids ``ID#refillK``; the decision
itself is not written, so a config lists the original file beside the copies. ``--keep
jur-name`` keeps companies as written too (the drawn ones are narrower than real
organisations: ``reports/capacity/README.md``, "Fresh names in every copy");
``--organizations-from FILE …`` draws them instead from the organisation names annotated in
those gold files, each copy from decisions other than its own.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", type=Path, help="gold JSON Lines (text and spans)")
    parser.add_argument("--copies", type=int, default=7, help="copies per decision")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same copies")
    parser.add_argument("--output", type=Path, required=True, help="JSON Lines to write")
    parser.add_argument(
        "--keep",
        nargs="+",
        default=[],
        metavar="LABEL",
        help="labels of REFILL_LABELS to keep as written too (e.g. jur-name)",
    )
    parser.add_argument(
        "--organizations-from",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="gold JSON Lines whose jur-name spans companies are drawn from (other decisions)",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    for path in [args.input, *args.organizations_from]:
        if not path.is_file():
            parser.error(f"no such file: {path}")
    if args.organizations_from and "jur-name" in args.keep:
        parser.error("--organizations-from draws companies, --keep jur-name keeps them: not both")
    from tqdm.auto import tqdm

    from hf_anon.corpora.surrogates.organization_pool import OrganizationPool
    from hf_anon.corpora.surrogates.refill import REFILL_LABELS, refilled_copies
    from hf_anon.text.data import load_jsonl, save_jsonl

    unknown = sorted(set(args.keep) - REFILL_LABELS)
    if unknown:
        parser.error(f"--keep: not refilled anyway: {', '.join(unknown)}")
    docs = load_jsonl(args.input)
    labels = REFILL_LABELS - set(args.keep)
    pool = None
    if args.organizations_from:
        pool = OrganizationPool.from_documents(
            d for path in args.organizations_from for d in load_jsonl(path)
        )
        if not pool:
            parser.error("--organizations-from: no unmasked jur-name span in those files")
        print(f"{len(pool)} organisation names to draw from")
    copies = refilled_copies(docs, args.copies, seed=args.seed, labels=labels, organizations=pool)
    total = len(docs) * args.copies
    save_jsonl(tqdm(copies, total=total, desc="copies", disable=args.no_progress), args.output)
    print(f"{total} copies of {len(docs)} decisions -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
