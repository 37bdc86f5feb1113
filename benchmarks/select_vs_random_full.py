"""Does ``hf-anon select`` pay when what it chose is trained on the way that did teach the
model new courts? (issue 33, part 4, the run planned in session 47).

    python benchmarks/select_vs_random_full.py --json reports/select/select_vs_random_full.json \
        --markdown reports/select/select_vs_random_full.md          # ~70 min on 2 CPU cores

The adapter runs of ``select_vs_random.py`` found every set of twenty moving the adapted
model along its precision-recall curve by more than any set differed from another. Stage 10
(``configs/e5_small_real_gold10.yaml``: full fine-tuning of the stage-5 weights on rounds 1-3
and 14 juris decisions, each 8 times) did teach new courts: +0.076 recall on juris courts.
So here each set of twenty is added to that recipe, 8 times as the others:

- the pool is the 341 decisions of rounds 4-9, which the shipped model never trained on;
- ``hf-anon select``'s ranking by the shipped model (stage 10: its doubt, plus novelty
  against every court it trained or was chosen on, juris's included) takes the budget;
- three seeded draws (seeds 0, 1, 2) take as many at random;
- all four sets are fixed in ``plan.json`` before anything is trained or scored;
- each trains from the stage-5 weights by the stage-10 recipe with the same seed, is released
  at step 400 (fixed in advance, no choice of step), and calibrated by stage 10's rule on the
  same gold (validation and the juris validation decisions, ``--high-risk-slack-se 1``);
- stage 10's own step 400 (the recipe with no set added) is calibrated the same way as the
  reference ``none``;
- every model is scored on both unseen-court tests pooled (24 decisions of 18 courts), paired
  over decisions.

The verdict, fixed with the plan: selection beats random if the selected set's recall on the
pooled unseen-court tests is above each random draw's with the paired interval above zero,
and its high-risk recall is below none outside the interval.

No model here has a learned citation filter (the shipped one is fitted on the pool, and
fitting one per model costs 6 minutes each): all five are read alike, so the comparison
holds, but their figures are not the shipped model's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

from adapter_runs import (
    FIGURES,
    ROOT,
    fmt,
    per_document_scores,
    run_train,
    seen_by_shipped,
    write_report,
)
from adapter_runs import unseen_by_shipped as pool_documents
from select_vs_random import choose, describe, draw

RECIPE = ROOT / "configs" / "e5_small_real_gold10.yaml"
#: The commit whose default model is stage 5, the weights stage 10 started from.
STAGE5_COMMIT = "f637260"
STAGE10_STEP = ROOT / "outputs" / "e5-small-real-gold10" / "step-400"
REAL = ROOT / "data" / "real"
CALIBRATION_GOLD = [REAL / "validation.jsonl", REAL / "juris_train_validation.jsonl"]
UNSEEN = [REAL / "unseen_courts.jsonl", REAL / "unseen_courts_juris.jsonl"]
RANDOM_SEEDS = (0, 1, 2)


def stage5_weights(out: Path) -> Path:
    """The stage-5 default model folder, taken from git (``STAGE5_COMMIT``)."""
    folder = out / "stage5"
    if not (folder / "config.json").is_file():
        prefix = "models/hf-anon-de-e5-small"
        archive = subprocess.run(
            ["git", "archive", "--format=tar", STAGE5_COMMIT, prefix],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            for member in tar.getmembers():
                if member.isfile():
                    target = folder / Path(member.name).relative_to(prefix)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(tar.extractfile(member).read())
    return folder


def seen_courts_now(
    leave_out: tuple[str, ...] = (), gold: list[Path] = CALIBRATION_GOLD
) -> frozenset[str]:
    """Every court stage 10 trained or was chosen on: rounds 1-3, validation, and juris's;
    less the courts of the recipe's files in ``leave_out`` (as :func:`recipe_files`), with
    those of the calibration ``gold``."""
    from hf_anon.apply.selection import seen_courts
    from hf_anon.text.data import load_jsonl

    juris = [p for p in (REAL / "juris_train.jsonl",) if str(p.relative_to(ROOT)) not in leave_out]
    documents = seen_by_shipped() + [d for p in (*juris, *gold) for d in load_jsonl(p)]
    return seen_courts(d.meta.get("court") for d in documents)


def make_plan(
    pool: list,
    budget: int,
    out: Path,
    seen: frozenset[str],
    seeds: tuple[int, ...] = RANDOM_SEEDS,
    model: Path | None = None,
) -> dict:
    """The sets, written to ``plan.json`` once and read back on every rerun, so that nothing
    trained or scored can change them. ``model``'s ranking of the pool (the shipped model's
    where none is named) is kept in ``ranking.jsonl`` (``select_vs_random.choose``): it takes
    minutes."""
    path = out / "plan.json"
    if path.is_file():
        return json.loads(path.read_text())
    ranking = out / "ranking.jsonl"
    plan = {"budget": budget, "selected": choose(pool, budget, ranking, seen, model)}
    for seed in seeds:  # the draws of select_vs_random.py's seeds
        plan[f"random-{seed}"] = draw(pool, budget, seed)
    path.write_text(json.dumps(plan, indent=1) + "\n")
    return plan


def recipe_files(leave_out: tuple[str, ...] = ()) -> list[str]:
    """Stage 10's training files, without those named in ``leave_out``. The corpora among
    them are built, not committed: on a fresh clone this stops at once with the commands
    that build them (the recipe's header), not after the minutes of ranking before the
    first training would fail on them."""
    import yaml

    files = [f for f in yaml.safe_load(RECIPE.read_text())["train_files"] if f not in leave_out]
    from hf_anon.model.training import build_commands, missing_data_files

    missing = sorted(missing_data_files(files, ROOT))
    if missing:
        raise SystemExit(
            f"not there: {', '.join(missing)}. Build the recipe's corpora first; "
            f"{RECIPE.relative_to(ROOT)} says how:\n" + "\n".join(build_commands(RECIPE))
        )
    return files


def train(
    name: str, set_file: Path | None, base: Path, out: Path, leave_out: tuple[str, ...] = ()
) -> tuple[Path, float]:
    """Stage 10's recipe (less the files in ``leave_out``) with ``set_file`` added 8 times
    (none where it is None); resumes an interrupted run and skips a finished one. Returns
    step 400's folder and the training seconds."""
    run = out / name
    step = run / "step-400"
    if not (step / "config.json").is_file():
        files = recipe_files(leave_out) + ([str(set_file)] * 8 if set_file else [])
        run_train(
            run,
            "--config",
            str(RECIPE),
            "--model_name_or_path",
            str(base),
            "--eval_steps",
            "200",  # a checkpoint to resume from; evaluation changes no weight
            "--train_files",
            *files,
        )
    state = json.loads((run / "trainer_state.json").read_text())
    return step, float(state.get("train_seconds", 0.0))


def release_and_calibrate(step: Path, folder: Path, gold: list[Path] = CALIBRATION_GOLD) -> Path:
    """``hf-anon release`` in float16, then ``hf-anon calibrate`` by stage 10's rule (on
    ``gold``: stage 10's calibration gold unless said otherwise)."""
    if not (folder / "calibration.json").is_file():
        hf_anon = [sys.executable, "-m", "hf_anon.cli"]
        subprocess.run(
            [*hf_anon, "release", "--model", str(step), "--out", str(folder)], check=True, cwd=ROOT
        )
        subprocess.run(
            [*hf_anon, "calibrate", "--model", str(folder), "--gold"]
            + [str(p) for p in gold]
            + ["--high-risk-slack-se", "1", "--write"],
            check=True,
            cwd=ROOT,
        )
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "select-vs-random-full")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=list(RANDOM_SEEDS), help="the random draws"
    )
    parser.add_argument("--plan-only", action="store_true", help="fix the four sets and stop")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--markdown", type=Path, required=True)
    args = parser.parse_args(argv)
    from hf_anon.text.data import save_jsonl

    pool = pool_documents()
    if args.budget > len(pool):
        parser.error(f"--budget {args.budget}: the pool has {len(pool)} decisions")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.plan_only:  # what training needs is there, before minutes of ranking
        recipe_files()
        if not (STAGE10_STEP / "config.json").is_file():
            parser.error(f"{STAGE10_STEP}: stage 10's step 400 is needed as the reference")
    seen = seen_courts_now()
    plan = make_plan(pool, args.budget, args.out, seen, tuple(args.seeds))
    if args.plan_only:
        print(json.dumps(plan, indent=1))
        return 0
    by_id = {d.id: d for d in pool}
    base = stage5_weights(args.out)
    results: dict = {"budget": args.budget, "recipe": str(RECIPE.relative_to(ROOT)), "sets": {}}
    folders = {"none": release_and_calibrate(STAGE10_STEP, args.out / "none-release")}
    for name in ("selected", *(f"random-{s}" for s in args.seeds)):
        documents = [by_id[i] for i in plan[name]]
        set_file = args.out / f"{name}.jsonl"
        save_jsonl(documents, set_file)
        step, seconds = train(name, set_file, base, args.out)
        folders[name] = release_and_calibrate(step, args.out / f"{name}-release")
        results["sets"][name] = {
            "ids": plan[name],
            **describe(documents, seen),
            "train_minutes": round(seconds / 60, 1),
        }
    results["scores"] = compare(folders, args.samples)
    write_report(results, args.json, args.markdown, markdown(results))
    return 0


def compare(folders: dict[str, Path], samples: int, thresholds: dict | None = None) -> dict:
    """Every model scored on the pooled unseen-court tests, and paired over decisions:
    selected against each random draw, and ``none`` against every other. ``thresholds``
    (label to minimum score) replaces every model's calibrated ones where given."""
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import paired_intervals
    from hf_anon.text.data import load_jsonl

    gold = [d for p in UNSEEN for d in load_jsonl(p)]
    scored = {
        name: per_document_scores(
            SpanDetector.from_pretrained(folder, backend="torch", label_thresholds=thresholds),
            gold,
        )
        for name, folder in folders.items()
    }
    pairs = [(n, "selected") for n in folders if n.startswith("random")]
    pairs += [("none", n) for n in folders if n != "none"]
    return {
        f"{a} -> {b}": paired_intervals(scored[a], scored[b], samples=samples) for a, b in pairs
    }


def markdown(results: dict, reference: str = "none (stage 10)") -> str:
    """The sets, each model's figures on the pooled unseen-court tests, and selected minus
    each random draw, paired."""
    lines = [
        "| set | decisions | characters | gold spans | of courts new to the model "
        "| no court named | training |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in results["sets"].items():
        lines.append(
            f"| {name} | {s['decisions']} | {s['characters']:,} | {s['gold_spans']:,} | "
            f"{s['unseen_court_decisions']} | {s['no_court_named']} | {s['train_minutes']} min |"
        )
    scores = results["scores"]
    figures: dict[str, dict] = {}  # each model's own figures, read off any pair it is in
    for pair, by_figure in scores.items():
        before, after = pair.split(" -> ")
        for name, side in ((before, "before"), (after, "after")):
            figures.setdefault(name, {k: v[side] for k, v in by_figure.items()})
    # none first where it was run, then selected, then the draws
    shown = sorted(figures, key=lambda n: (n != "none", n != "selected", n))
    columns = [reference if n == "none" else f"+ {n}" for n in shown]
    lines += [
        "",
        "| figure | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for key, figure in FIGURES.items():
        row = [f"{figures[n][key]:.3f}" for n in shown]
        lines.append(f"| {figure} | " + " | ".join(row) + " |")
    randoms = [n for n in shown if n.startswith("random")]
    lines += [
        "",
        "| figure | " + " | ".join(f"selected − {n} (paired)" for n in randoms) + " |",
        "|---|" + "---|" * len(randoms),
    ]
    for key, figure in FIGURES.items():
        row = []
        for n in randoms:
            d = scores[f"{n} -> selected"][key]
            row.append(fmt(d["difference"], (d["low"], d["high"]), signed=True))
        lines.append(f"| {figure} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
