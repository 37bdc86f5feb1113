"""Do the decoding rules earn their place? Each family on and off, fold by fold over courts.

    python benchmarks/rules_cv.py [--model models/hf-anon-de-e5-small] [--folds 5] \
        [--rounds annotation-train4 ... annotation-train9] [--json out.json]
    python benchmarks/rules_cv.py --gold data/identifiers/identifiers.jsonl --fold-by fold
    python benchmarks/rules_cv.py --verdicts REAL.json IDENTIFIERS.json   # what stays
    python benchmarks/rules_cv.py --verdicts REAL.json SECOND.json --new FAMILY ...  # what comes

Issue 31, part 3: a recognizer or decoding rule stays only if it helps on every fold of a
cross-validation over courts, not on the one split it was written from. The decisions are those
of the training rounds the model has *not* trained on (rounds 4 to 9 without fold 1,
``hf_anon.corpora.courts.TRAINED_BY_BUNDLED``: the default trained on rounds 1 to 3, juris's
Landgerichte and, since session 59, fold 1 of rounds 4 to 9): exhaustively annotated, from many
courts, and neither validation (where the rules were written) nor a test. They are grouped into
folds by court (``hf_anon.corpora.courts.folds_by_court``), so no court is in two folds; a fold
keeps its number when another is left out. The model runs once; each family is then switched
off in turn (each recognizer of the model's config, and ``snap_words``) and every fold scored
(lenient precision, recall, F2, high-risk recall). A family *earns its place* where switching
it off lowers F2 on every fold where it changes the scores (:func:`helps_where_it_acts`).
Switching a family off is also read as the gate reads a candidate model (:func:`removal_gate`):
recall and high-risk recall paired by document over all folds.

Published decisions hold no bank account, phone number or e-mail address (the courts removed
them), so the recognizers written for those never fire there. ``--gold`` with ``--fold-by``
measures the same way on another gold file whose documents carry their fold in a metadata
field: the passages of ``data/identifiers`` (unpublished originals, one author a fold).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS_4_TO_9 = [f"annotation-train{i}" for i in range(4, 10)]


def write_folds(out: Path, docs: Sequence, folds: Sequence[int]) -> list[Path]:
    """Each fold's decisions as gold JSON Lines, ``out/fold-K.jsonl`` with K counted from 1
    as the reports count folds; the paths written."""
    from hf_anon.text.data import save_jsonl

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in sorted(set(folds)):
        path = out / f"fold-{k + 1}.jsonl"
        save_jsonl([d for d, f in zip(docs, folds, strict=True) if f == k], path)
        print(f"{path}: {sum(f == k for f in folds)} decisions")
        paths.append(path)
    return paths


def fold_pool(
    folds: int = 5,
    rounds: Sequence[str] = ROUNDS_4_TO_9,
    leave_out: Sequence[int] | None = None,
) -> tuple[list, list[int]]:
    """The decisions of ``rounds`` (default 4 to 9) and the fold (by court, counted from 0,
    of ``folds``) of each, without the folds ``leave_out`` names (counted from 1, as the
    reports count them, so a fold keeps its number whatever is left out); a clear error where
    ``data/real/train.jsonl`` has none of them.

    By default (``leave_out=None``) the decisions the bundled model trained on are left out:
    ``hf_anon.corpora.courts.TRAINED_BY_BUNDLED`` counts them among the
    ``ROUND_FOLDS`` folds training was split by, so they go first and the rest is split into
    ``folds``; with ``folds == ROUND_FOLDS`` that is the same split, fold numbers kept."""
    from hf_anon.corpora.courts import ROUND_FOLDS, TRAINED_BY_BUNDLED, without_folds
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    ids = read_ids(ROOT / "data" / "real" / r / "selection.jsonl" for r in rounds)
    pool = [d for d in load_jsonl(ROOT / "data" / "real" / "train.jsonl") if d.id in ids]
    if not pool:
        raise SystemExit(f"no decision of {', '.join(rounds)} in data/real/train.jsonl")
    if leave_out is None:
        pool, _ = without_folds(pool, TRAINED_BY_BUNDLED, ROUND_FOLDS)
        leave_out = ()
    return without_folds(pool, leave_out, folds)


def scores(docs, predicted, labels) -> dict[str, float]:
    """Lenient P, R, F2 and high-risk recall, as the calibration's rule computes them."""
    from hf_anon.model.calibration import summary
    from hf_anon.model.metrics import SpanScorer

    scorer = SpanScorer(labels)
    for doc, spans in zip(docs, predicted, strict=True):
        scorer.add(doc.text, doc.spans, spans)
    figures = summary(scorer.result(), beta=2.0)
    return {
        "precision": figures["precision"],
        "recall": figures["recall"],
        "f2": figures["f_beta"],
        "recall_high": figures["recall_high"],
    }


def helps_where_it_acts(f2_gains: list[float], changed: list[bool]) -> bool:
    """F2 rises on every fold where the family changes the scores (and it changes some).

    (``on_off.earns_its_place`` asks more of a single new rule: F2 up on every fold.)

    A fold where the family changes no score (it finds no IBAN in a published decision, or
    only relabels what the model found) neither helps nor hurts; it cannot be asked to help
    there.
    """
    return any(changed) and all(g > 0 for g, c in zip(f2_gains, changed, strict=True) if c)


def removal_gate(with_all, docs, without, labels) -> dict:
    """The family switched off, as the gate of :mod:`hf_anon.model.gate` reads a candidate:
    recall and high-risk recall paired by document over all folds; ``lost`` when either
    interval lies wholly below zero (then the removal is refused, whatever the folds say)."""
    from hf_anon.model.gate import GUARDED
    from hf_anon.model.metrics import document_scorers, paired_intervals

    paired = paired_intervals(with_all, document_scorers(labels, docs, without))
    figures = {k: {x: paired[k][x] for x in ("difference", "low", "high")} for k in GUARDED}
    return figures | {"lost": any(f["high"] < 0 for f in figures.values())}


def verdicts(runs: list[dict], new: tuple[str, ...] = ()) -> dict[str, str]:
    """What becomes of each family, read over several runs of this script (their JSON) at once.

    - it changes no score on any fold of any run: it **stays**, nothing was measured (a rule
      for IBANs cannot be judged where there are none, nor where the model finds them all);
    - F2 rises on every fold where it changes the scores: it **stays**, it earns its place;
    - otherwise it **goes**, unless switching it off lowers recall or high-risk recall on some
      fold (the brake the choice of a new model has: no candidate that loses either on a fold).

    A family in ``new`` (not yet in the default) is **switched on** only if F2 rises on every
    fold where it changes the scores and high-risk recall falls on none; otherwise it stays
    off. Pass only runs it was not written from. A family is read on the runs that measured
    it (a run made with a default that no longer has it, or not yet, says nothing of it).
    """
    out = {}
    families = dict.fromkeys(family for run in runs for family in run["summary"])
    for family in families:
        folds = [
            (a, b)
            for run in runs
            if family in run["table"]
            for a, b in zip(run["table"]["all"], run["table"][family], strict=True)
        ]
        changed = [a != b for a, b in folds]
        earns = helps_where_it_acts([a["f2"] - b["f2"] for a, b in folds], changed)
        if family in new:
            keeps_high = all(a["recall_high"] >= b["recall_high"] for a, b in folds)
            out[family] = "switched on: earns its place" if earns and keeps_high else "stays off"
        elif not any(changed):
            out[family] = "stays: changes no score"
        elif earns:
            out[family] = "stays: earns its place"
        else:
            losses = sum(
                a["recall"] > b["recall"] or a["recall_high"] > b["recall_high"] for a, b in folds
            )
            out[family] = (
                f"stays: switched off it loses recall on {losses} fold{'s' * (losses > 1)}"
                if losses
                else "goes"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--rounds", nargs="+", default=ROUNDS_4_TO_9)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--gold", type=Path, help="another gold file (instead of --rounds)")
    parser.add_argument("--fold-by", help="with --gold: the metadata field naming the fold")
    parser.add_argument(
        "--verdicts",
        nargs="+",
        type=Path,
        metavar="JSON",
        help="runs of this script, read as one",
    )
    parser.add_argument(
        "--new", nargs="+", default=(), metavar="FAMILY", help="with --verdicts: families to adopt"
    )
    parser.add_argument(
        "--write-folds",
        type=Path,
        metavar="DIR",
        help="write the decisions of each fold to DIR/fold-K.jsonl (K from 1) and stop: "
        "a fold to train a candidate on, the others to choose it on",
    )
    args = parser.parse_args(argv)
    if args.write_folds:
        write_folds(args.write_folds, *fold_pool(args.folds, args.rounds, leave_out=()))
        return 0
    if args.verdicts:
        runs = [json.loads(p.read_text(encoding="utf-8")) for p in args.verdicts]
        for family, verdict in verdicts(runs, tuple(args.new)).items():
            print(f"{family:12} {verdict}")
        return 0
    if (args.gold is None) != (args.fold_by is None):
        parser.error("--gold and --fold-by go together")
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import document_scorers
    from hf_anon.text.data import load_jsonl

    if args.gold:
        docs = load_jsonl(args.gold)
        keys = [str(d.meta[args.fold_by]) for d in docs]
        names = sorted(set(keys))
        folds = [names.index(k) for k in keys]
        args.folds = len(names)
    else:
        from hf_anon.corpora.courts import court_key

        docs, folds = fold_pool(args.folds, args.rounds)
        keys = [court_key(d) for d in docs]
    detector = SpanDetector.from_pretrained(args.model)
    probabilities = detector.predict_probabilities(docs, progress=True)
    families = [*detector.recognizers, "snap_words"]
    full = detector.recognizers

    def decode_without(family: str | None):
        detector.recognizers = tuple(r for r in full if r != family)
        detector.snap_words = family != "snap_words"
        try:
            return detector.decode_all(probabilities)
        finally:
            detector.recognizers, detector.snap_words = full, True

    runs = {"all": decode_without(None)} | {f: decode_without(f) for f in families}
    table: dict[str, list[dict]] = {}
    for name, predicted in runs.items():
        table[name] = []
        for k in sorted(set(folds)):
            chosen = [i for i, f in enumerate(folds) if f == k]
            table[name].append(
                scores([docs[i] for i in chosen], [predicted[i] for i in chosen], detector.labels)
            )
    summary = {}
    with_all = document_scorers(detector.labels, docs, runs["all"])
    for family in families:
        deltas = [a["f2"] - b["f2"] for a, b in zip(table["all"], table[family], strict=True)]
        high = [
            a["recall_high"] - b["recall_high"]
            for a, b in zip(table["all"], table[family], strict=True)
        ]
        changed = [a != b for a, b in zip(table["all"], table[family], strict=True)]
        summary[family] = {
            "f2_gain_by_fold": deltas,
            "recall_high_gain_by_fold": high,
            "changed_by_fold": changed,
            "earns_its_place": helps_where_it_acts(deltas, changed),
            "removal": removal_gate(with_all, docs, runs[family], detector.labels)
            if runs[family] != runs["all"]
            else None,
        }
    source = args.gold or f"rounds {', '.join(args.rounds)}"
    print(
        f"{len(docs)} decisions of {source}; folds: "
        + ", ".join(f"{k + 1}: {folds.count(k)}" for k in sorted(set(folds)))
    )
    print("all rules, F2 by fold: " + " ".join(f"{s['f2']:.3f}" for s in table["all"]))
    print(f"{'family':12} F2 gain when on, by fold (and high-risk recall gain)   earns its place")
    for family, s in summary.items():
        gains = " ".join(
            f"{d:+.4f}" if c else "   .   "
            for d, c in zip(s["f2_gain_by_fold"], s["changed_by_fold"], strict=True)
        )
        highs = " ".join(f"{d:+.3f}" for d in s["recall_high_gain_by_fold"])
        gate = s["removal"]
        off = "" if gate is None else "   off: " + removal_line(gate)
        print(f"{family:12} {gains}   ({highs})   {'yes' if s['earns_its_place'] else 'NO'}{off}")
    if args.json:
        out = {"folds": folds, "keys": keys, "table": table, "summary": summary}
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


def removal_line(gate: dict) -> str:
    """Recall and high-risk recall of the removal, as the gate prints them."""
    cells = [
        f"{name} {gate[k]['difference']:+.4f} ({gate[k]['low']:+.4f}..{gate[k]['high']:+.4f})"
        for k, name in (("lenient_recall", "R"), ("recall_high", "high"))
    ]
    return ", ".join(cells) + (" refused" if gate["lost"] else " passes")


if __name__ == "__main__":
    sys.exit(main())
