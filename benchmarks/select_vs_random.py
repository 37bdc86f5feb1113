"""Does ``hf-anon select`` pay? N decisions it chooses against N drawn at random, each
annotated and trained on, scored on courts neither set has (issue 33, part 4).

    python benchmarks/select_vs_random.py [--budget 20] [--seed 0] [--out runs/select-vs-random] \
        --json reports/select/select_vs_random.json --markdown reports/select/select_vs_random.md

The pool stands in for the unannotated decisions a court has: the 341 decisions of training
rounds 4 to 9, which the shipped model never trained on (``adapter_runs``). They are already
annotated, so choosing costs no new annotation: the experiment only hides their labels from
the choice. ``hf-anon select``'s ranking (``hf_anon.apply.selection``: the shipped model's
doubt, plus novelty against the courts of what it trained on) takes ``--budget`` of them, a
seeded draw takes as many at random; each set trains a LoRA adapter by the same recipe
(``configs/court_adapter.yaml``), calibrated on the real validation split as the shipped
model was (``hf-anon calibrate --adapter``), and both are scored on the unseen-court test
and the test split, paired over decisions. One run each, as the issue asks: a tie says
selection did not show its worth at this budget, not that it has none.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from adapter_runs import (
    FIGURES,
    ROOT,
    calibrate_adapter,
    detector,
    fmt,
    per_document_scores,
    seen_by_shipped,
    train_adapter,
    unseen_by_shipped,
    write_report,
)

GOLD = {
    "unseen courts": ROOT / "data" / "real" / "unseen_courts.jsonl",
    "test": ROOT / "data" / "real" / "test.jsonl",
}


def kept_ranking(
    pool: list, ranking: Path, seen: frozenset[str], model: Path | None = None
) -> list:
    """``model``'s ranking of the pool (the shipped model where none is named), best first,
    kept in ``ranking`` so that a rerun reads it instead of running the model again."""
    from hf_anon.apply.selection import Ranked, rank_documents
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.model_folder import default_model

    if ranking.is_file():
        return [Ranked(**json.loads(line)) for line in ranking.read_text().splitlines()]
    ranked = rank_documents(
        SpanDetector.from_pretrained(model or default_model()), pool, seen, progress=True
    )
    ranking.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in ranked))
    return ranked


def choose(
    pool: list,
    budget: int,
    ranking: Path,
    seen: frozenset[str],
    model: Path | None = None,
    per_court: int | None = None,
) -> list[str]:
    """The ids ``hf-anon select`` takes from the kept ranking (:func:`kept_ranking`), with
    its cap of decisions per court unless ``per_court`` names another."""
    from hf_anon.apply.selection import PER_COURT, select

    cap = PER_COURT if per_court is None else per_court
    ranked = kept_ranking(pool, ranking, seen, model)
    return [item.id for item in select(ranked, budget, per_court=cap)]


def draw(pool: list, budget: int, seed: int) -> list[str]:
    """``budget`` ids drawn at random (seeded, from the ids in sorted order)."""
    return random.Random(seed).sample(sorted(d.id for d in pool), budget)


def describe(documents: list, seen: frozenset[str]) -> dict:
    """What a chosen set holds: decisions, characters, gold spans, courts new to the model
    (``hf-anon select``'s novelty: 1 for a new court, 0.5 for none named)."""
    from hf_anon.apply.selection import novelty

    novelties = [novelty(d.meta.get("court"), seen) for d in documents]
    return {
        "decisions": len(documents),
        "characters": sum(len(d.text) for d in documents),
        "gold_spans": sum(len(d.spans) for d in documents),
        "unseen_court_decisions": novelties.count(1.0),
        "no_court_named": novelties.count(0.5),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "select-vs-random")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument(
        "--train-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="passed to train.py for both sets, e.g. --train-arg=--num_train_epochs=5",
    )
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--markdown", type=Path, required=True)
    args = parser.parse_args(argv)
    from hf_anon.apply.selection import seen_courts
    from hf_anon.model.metrics import paired_intervals
    from hf_anon.text.data import load_jsonl, save_jsonl

    pool = unseen_by_shipped()
    if args.budget > len(pool):
        parser.error(f"--budget {args.budget}: the pool has {len(pool)} decisions")
    args.out.mkdir(parents=True, exist_ok=True)
    by_id = {d.id: d for d in pool}
    seen = seen_courts(d.meta.get("court") for d in seen_by_shipped())
    sets = {
        "selected": choose(pool, args.budget, args.out / "ranking.jsonl", seen),
        "random": draw(pool, args.budget, args.seed),
    }
    results: dict = {
        "budget": args.budget,
        "seed": args.seed,
        "train_args": args.train_arg,
        "sets": {},
        "scores": {},
    }
    detectors = {"shipped": detector()}
    for name, ids in sets.items():
        documents = [by_id[i] for i in ids]
        save_jsonl(documents, args.out / f"{name}.jsonl")
        run = train_adapter(
            args.out / f"{name}.jsonl", args.out / f"adapter-{name}", len(ids), *args.train_arg
        )
        calibrate_adapter(run.folder)
        results["sets"][name] = {
            "ids": ids,
            **describe(documents, seen),
            "adapter": run.to_dict(),
        }
        detectors[name] = detector(run.folder)
    overlap = set(sets["selected"]) & set(sets["random"])
    results["overlap"] = sorted(overlap)
    for gold_name, path in GOLD.items():
        gold = load_jsonl(path)
        scored = {name: per_document_scores(d, gold) for name, d in detectors.items()}
        results["scores"][gold_name] = {
            f"{a} -> {b}": paired_intervals(scored[a], scored[b], samples=args.samples)
            for a, b in (("shipped", "random"), ("shipped", "selected"), ("random", "selected"))
        }
        print(f"{gold_name}: done", file=sys.stderr)
    write_report(results, args.json, args.markdown, markdown(results))
    return 0


def markdown(results: dict) -> str:
    """The two sets, then each figure of the shipped model, random and selected, and the
    paired difference selected − random, on each gold set."""
    lines = [
        "| set | decisions | characters | gold spans | of courts new to the model "
        "| no court named | adapter training |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in results["sets"].items():
        lines.append(
            f"| {name} | {s['decisions']} | {s['characters']:,} | {s['gold_spans']:,} | "
            f"{s['unseen_court_decisions']} | {s['no_court_named']} | "
            f"{s['adapter']['train_minutes']} min |"
        )
    lines += [
        "",
        "| gold set | figure | shipped | + random | + selected | selected − random (paired) |",
        "|---|---|---|---|---|---|",
    ]
    for gold_name, pairs in results["scores"].items():
        for key, name in FIGURES.items():
            base = pairs["shipped -> random"][key]["before"]
            rand = pairs["shipped -> random"][key]["after"]
            chosen = pairs["random -> selected"][key]
            diff = fmt(chosen["difference"], (chosen["low"], chosen["high"]), signed=True)
            figures = f"{base:.3f} | {rand:.3f} | {chosen['after']:.3f}"
            lines.append(f"| {gold_name} | {name} | {figures} | {diff} |")
            gold_name = ""
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
