"""Does ``hf-anon select`` find a source the model has never seen? (issue 33, part 4)

    python benchmarks/select_new_source.py --plan-only      # the ranking and the four sets
    python benchmarks/select_new_source.py --json reports/select/select_new_source.json \
        --markdown reports/select/select_new_source.md      # ~85 min on 2 CPU cores

``select_vs_random_full.py`` found that no set of twenty decisions of rounds 4-9 moves the
unseen-court figures of stage 10, chosen or drawn: they come from the sources the model
already knows. What did move them was a new source: stage 10 gained +0.052 recall on the
pooled unseen-court tests from 14 decisions of juris's LG Köln, whose conventions (head,
masks of companies) 8 of the 24 test decisions share. So here the moment before stage 10 is
played again, with that source in the pool:

- the model in use is stage 5, which never saw a juris decision; the pool is the 341
  decisions of rounds 4-9 and the 14 of ``juris_train.jsonl``, 355 in all, whose labels the
  choice never reads;
- ``hf-anon select``'s ranking by stage 5 (its doubt, plus novelty against the courts it
  trained or was chosen on and the juris validation courts that every model here is
  calibrated on) takes the budget; three seeded draws take as many at random;
- the sets are fixed in ``plan.json`` before anything is trained or scored;
- each trains from the stage-5 weights by stage 10's recipe *without* juris (rounds 1-3 and
  the synthetic decisions) with the set added 8 times, is released at step 400 and
  calibrated by stage 10's rule on the same gold (``select_vs_random_full``); ``none`` is
  that recipe with no set;
- every model is scored on both unseen-court tests pooled (24 decisions of 18 courts),
  paired over decisions.

The pool was built knowing that the juris decisions teach the model: what is tested is
whether the ranking, unchanged, finds what teaches without being told. The verdict, fixed
with the plan: selection beats random if the selected set's recall is above each random
draw's with the paired interval above zero, and its high-risk recall is below no draw's
outside the interval.

``--per-court N`` takes the selected set from the same kept ranking with at most ``N``
decisions of one court in the first round instead of ``hf-anon select``'s 3, and compares it
with the same draws and ``none`` (their runs are read back, not repeated). It was added after
the plan had shown that the cap left 11 of the new source's 14 decisions out: an exploratory
run, not the recorded one.

``--thresholds-of NAME`` scores every model with the thresholds calibrated for ``NAME``
instead of its own: the recorded run showed two draws whose calibration set the `nat-idx`
threshold to 0.05-0.1 (the others 0.7-0.8), so this separates what a set taught from where
calibration put its thresholds. Exploratory too.

    python benchmarks/select_new_source.py --thresholds-of none \
        --json reports/select/select_new_source_none_thresholds.json \
        --markdown reports/select/select_new_source_none_thresholds.md   # ~6 min

    python benchmarks/select_new_source.py --per-court 20 \
        --json reports/select/select_new_source_per_court20.json \
        --markdown reports/select/select_new_source_per_court20.md   # ~20 min more

``--with-juris-validation`` puts juris's six validation decisions (three more Landgerichte)
into the pool, so that the new source comes as four courts; they are then no calibration
gold, and every model is calibrated on the validation split alone (its own run folder,
``runs/select-new-source-4courts``). Its plan (session 50) holds 3 juris decisions in the
chosen twenty again, so it was not trained. ``--sets`` trains and compares only the named
models, in that order (about 25 minutes each here).

    python benchmarks/select_new_source.py --with-juris-validation --plan-only   # ~6 min
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adapter_runs import ROOT, write_report
from adapter_runs import unseen_by_shipped as rounds_4_to_9
from select_vs_random import choose, describe, kept_ranking
from select_vs_random_full import (
    CALIBRATION_GOLD,
    RANDOM_SEEDS,
    compare,
    make_plan,
    markdown,
    recipe_files,
    release_and_calibrate,
    seen_courts_now,
    stage5_weights,
    train,
)

from hf_anon.apply.selection import PER_COURT

#: The new source: juris's LG Köln, which stage 10 trained on and stage 5 never saw.
NEW_SOURCE = "data/real/juris_train.jsonl"
#: juris's LG Berlin, Frankfurt and München I: stage 10's calibration gold beside the
#: validation split, and a second, three-court part of the new source with
#: ``--with-juris-validation``.
JURIS_VALIDATION = "data/real/juris_train_validation.jsonl"
#: The models of a run: the chosen set, the draws, and the recipe without a set.
SETS = ("selected", *(f"random-{s}" for s in RANDOM_SEEDS), "none")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument(
        "--out",
        type=Path,
        help="run folder (runs/select-new-source, or …-4courts with --with-juris-validation)",
    )
    parser.add_argument(
        "--with-juris-validation",
        action="store_true",
        help="the new source as four courts: juris's six validation decisions (LG Berlin, "
        "Frankfurt, München I) join the pool, and calibration is on the validation split alone",
    )
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--plan-only", action="store_true", help="fix the four sets and stop")
    parser.add_argument(
        "--per-court",
        type=int,
        default=PER_COURT,
        help=f"decisions of one court in select's first round (hf-anon select: {PER_COURT})",
    )
    parser.add_argument(
        "--thresholds-of",
        choices=SETS,
        help="score every model with this one's calibrated thresholds (exploratory)",
    )
    parser.add_argument(
        "--sets",
        nargs="+",
        choices=SETS,
        default=list(SETS),
        help="the models to train and compare, in this order (default: all; each is about "
        "25 minutes on 2 CPU cores)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    if not args.plan_only and not (args.json and args.markdown):
        parser.error("--json and --markdown are needed unless --plan-only")
    if "selected" not in args.sets or len(args.sets) < 2:
        parser.error("--sets: selected and at least one other, to compare it with")
    if args.thresholds_of and args.thresholds_of not in args.sets:
        parser.error(f"--thresholds-of {args.thresholds_of}: not among --sets")
    from hf_anon.text.data import load_jsonl, save_jsonl

    sources, gold = [NEW_SOURCE], CALIBRATION_GOLD
    if args.with_juris_validation:  # no longer calibration gold: it may be chosen
        sources, gold = [NEW_SOURCE, JURIS_VALIDATION], CALIBRATION_GOLD[:1]
    args.out = args.out or ROOT / "runs" / (
        "select-new-source-4courts" if args.with_juris_validation else "select-new-source"
    )
    new_source = [d for source in sources for d in load_jsonl(ROOT / source)]
    pool = rounds_4_to_9() + new_source  # whose labels the choice never reads
    if args.budget > len(pool):
        parser.error(f"--budget {args.budget}: the pool has {len(pool)} decisions")
    args.out.mkdir(parents=True, exist_ok=True)
    leave_out = (NEW_SOURCE,)
    if not args.plan_only:  # the corpora are built, before minutes of ranking
        recipe_files(leave_out)
    seen = seen_courts_now(leave_out, gold)  # stage 5's courts and the calibration gold's
    base = stage5_weights(args.out)
    plan = make_plan(pool, args.budget, args.out, seen, RANDOM_SEEDS, model=base)
    ranking = args.out / "ranking.jsonl"
    if args.per_court != PER_COURT:  # exploratory: the same ranking, another cap
        selected = choose(pool, args.budget, ranking, seen, base, per_court=args.per_court)
        plan = {**plan, "selected": selected}
    juris = {d.id for d in new_source}
    ranked = kept_ranking(pool, ranking, seen, base)
    places = [place for place, r in enumerate(ranked, 1) if r.id in juris]
    taken = {name: sum(i in juris for i in ids) for name, ids in plan.items() if name != "budget"}
    if args.plan_only:
        print(json.dumps({"plan": plan, "new_source_places": places, "new_source": taken}))
        return 0
    by_id = {d.id: d for d in pool}
    results: dict = {
        "budget": args.budget,
        "per_court": args.per_court,
        "pool": {"decisions": len(pool), "new_source": len(juris)},
        "calibration_gold": [str(g.relative_to(ROOT)) for g in gold],
        "new_source_places_in_ranking": places,
        "sets": {},
    }
    folders = {}
    for name in (n for n in args.sets if n != "none"):
        documents = [by_id[i] for i in plan[name]]
        if name == "selected" and args.per_court != PER_COURT:
            run = f"selected-per-court-{args.per_court}"
        else:
            run = name
        set_file = args.out / f"{run}.jsonl"
        save_jsonl(documents, set_file)
        step, seconds = train(run, set_file, base, args.out, leave_out)
        folders[name] = release_and_calibrate(step, args.out / f"{run}-release", gold)
        results["sets"][name] = {
            "ids": plan[name],
            **describe(documents, seen),
            "new_source_decisions": taken[name],
            "train_minutes": round(seconds / 60, 1),
        }
    if "none" in args.sets:
        step, _ = train("none", None, base, args.out, leave_out)
        none = release_and_calibrate(step, args.out / "none-release", gold)
        folders = {"none": none, **folders}
    thresholds = None
    if args.thresholds_of:
        record = folders[args.thresholds_of] / "calibration.json"
        thresholds = json.loads(record.read_text())["thresholds"]
        results["thresholds_of"] = args.thresholds_of
    results["scores"] = compare(folders, args.samples, thresholds)
    write_report(results, args.json, args.markdown, report(results))
    return 0


def report(results: dict) -> str:
    """Where the new source ranked, then ``select_vs_random_full``'s tables."""
    head = (
        f"The new source's {results['pool']['new_source']} decisions ranked "
        f"{', '.join(map(str, results['new_source_places_in_ranking']))} of "
        f"{results['pool']['decisions']}. New-source decisions in each set: "
        + ", ".join(f"{n} {s['new_source_decisions']}" for n, s in results["sets"].items())
        + ".\n\n"
    )
    if results["per_court"] != PER_COURT:
        cap = results["per_court"]
        head += f"Exploratory: `selected` took at most {cap} of one court first.\n\n"
    if results.get("thresholds_of"):
        head += f"Exploratory: every model read with `{results['thresholds_of']}`'s thresholds.\n\n"
    return head + markdown(results, reference="none (recipe without juris)")


if __name__ == "__main__":
    raise SystemExit(main())
