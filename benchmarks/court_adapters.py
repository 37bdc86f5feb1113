"""An adapter per court (issue 33, part 3): does a LoRA adapter trained on a handful of one
court's corrected decisions raise that court's recall on its other decisions?

    python benchmarks/court_adapters.py [--min-decisions 14] [--adapt 10] [--seed 0] \
        [--out runs/court-adapters] --json reports/select/court_adapters.json \
        --markdown reports/select/court_adapters.md

The courts are those with at least ``--min-decisions`` exhaustively annotated decisions that
the shipped model never trained on (training rounds 4 to 9; ``adapter_runs``). For each,
a seeded shuffle puts ``--adapt`` decisions into the adapter's training file (what a court's
clerks would have corrected) and holds out the rest. The adapter is trained by ``train.py``
with ``configs/court_adapter.yaml``, the recipe a court would run, on the CPU; the held-out
decisions are scored by the shipped model without and with it (both with torch), the adapter
read with thresholds calibrated for it on the real validation split (as the shipped model's
were: ``hf-anon calibrate --adapter``) and with the shipped model's, and each difference gets
a paired interval over decisions (``metrics.paired_intervals``). The adapters
also run on the unseen-court test, to show what one court's adapter does to other courts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

from adapter_runs import (
    FIGURES,
    ROOT,
    calibrate_adapter,
    detector,
    fmt,
    per_document_scores,
    train_adapter,
    unseen_by_shipped,
    write_report,
)


def courts_with(documents, minimum: int) -> dict[str, list]:
    """Decisions grouped by court (one court whatever its spelling), the courts with at
    least ``minimum``, the largest first."""
    from hf_anon.corpora.courts import court_identity

    by_court: dict[str, list] = defaultdict(list)
    for doc in documents:
        court = court_identity(doc.meta.get("court"))
        if court:
            by_court[court].append(doc)
    kept = {c: docs for c, docs in by_court.items() if len(docs) >= minimum}
    return dict(sorted(kept.items(), key=lambda item: (-len(item[1]), item[0])))


def split_court(documents: list, adapt: int, seed: int) -> tuple[list, list]:
    """``adapt`` decisions to train on and the rest held out, by a seeded shuffle of ids."""
    ordered = sorted(documents, key=lambda d: d.id)
    random.Random(seed).shuffle(ordered)
    return ordered[:adapt], ordered[adapt:]


def slug(court: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", court.lower()).strip("-")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-decisions", type=int, default=14)
    parser.add_argument("--adapt", type=int, default=10, help="decisions to train on per court")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "court-adapters")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--markdown", type=Path, required=True)
    args = parser.parse_args(argv)
    from hf_anon.model.metrics import paired_intervals
    from hf_anon.text.data import load_jsonl, save_jsonl

    courts = courts_with(unseen_by_shipped(), args.min_decisions)
    if not courts:
        parser.error(f"no court has {args.min_decisions} decisions the shipped model never saw")
    unseen_test = load_jsonl(ROOT / "data" / "real" / "unseen_courts.jsonl")
    base = detector()
    base_unseen = per_document_scores(base, unseen_test)
    results = {}
    for court, documents in courts.items():
        adapt, held = split_court(documents, args.adapt, args.seed)
        if not held:
            print(f"{court}: no decision left to hold out, skipped", file=sys.stderr)
            continue
        folder = args.out / slug(court)
        save_jsonl(adapt, folder / "adapt.jsonl")
        save_jsonl(held, folder / "held_out.jsonl")
        run = train_adapter(folder / "adapt.jsonl", folder / "adapter", len(adapt))
        calibrate_adapter(run.folder)
        base_held = per_document_scores(base, held)
        results[court] = {
            "adapt_ids": [d.id for d in adapt],
            "held_out_ids": [d.id for d in held],
            "adapter": run.to_dict(),
        }
        adapted = detector(run.folder)  # merged once, read with either set of thresholds
        variants = {
            "calibrated": adapted.label_thresholds,  # its own, chosen on real validation
            "base thresholds": base.label_thresholds,  # the shipped model's
        }
        for variant, thresholds in variants.items():
            adapted.label_thresholds = dict(thresholds)
            results[court][variant] = {
                "held_out": paired_intervals(
                    base_held, per_document_scores(adapted, held), samples=args.samples
                ),
                "unseen_courts": paired_intervals(
                    base_unseen, per_document_scores(adapted, unseen_test), samples=args.samples
                ),
            }
        print(f"{court}: {json.dumps(results[court])}", file=sys.stderr)
    write_report(results, args.json, args.markdown, markdown(results))
    return 0


def markdown(results: dict) -> str:
    """Before and after on each court's held-out decisions (the adapter calibrated for
    itself, and read with the shipped model's thresholds), then on the unseen-court test."""
    lines = [
        "| court | adapted on / held out | figure | without adapter "
        "| with adapter, calibrated | difference (paired) "
        "| with adapter, shipped thresholds | difference (paired) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for court, r in results.items():
        sizes = f"{len(r['adapt_ids'])} / {len(r['held_out_ids'])}"
        for key, name in FIGURES.items():
            own, shipped = r["calibrated"]["held_out"][key], r["base thresholds"]["held_out"][key]
            lines.append(
                f"| {court} | {sizes} | {name} | {own['before']:.3f} | {own['after']:.3f} | "
                f"{signed(own)} | {shipped['after']:.3f} | {signed(shipped)} |"
            )
            court, sizes = "", ""
    lines += [
        "",
        "The same adapters (calibrated) on the unseen-court test (16 decisions of 12 other "
        "courts), difference to the shipped model:",
        "",
        "| adapter of | recall | high-risk recall | precision | strict F1 |",
        "|---|---|---|---|---|",
    ]
    for court, r in results.items():
        unseen = r["calibrated"]["unseen_courts"]
        lines.append(f"| {court} | " + " | ".join(signed(unseen[k]) for k in FIGURES) + " |")
    lines += [
        "",
        "| adapter of | size | training time (2 CPU cores) | decisions |",
        "|---|---|---|---|",
    ]
    for court, r in results.items():
        a = r["adapter"]
        lines.append(
            f"| {court} | {a['adapter_megabytes']} MB | {a['train_minutes']} min | "
            f"{a['train_documents']} |"
        )
    return "\n".join(lines) + "\n"


def signed(figure: dict) -> str:
    """A paired difference with its interval."""
    return fmt(figure["difference"], (figure["low"], figure["high"]), signed=True)


if __name__ == "__main__":
    raise SystemExit(main())
