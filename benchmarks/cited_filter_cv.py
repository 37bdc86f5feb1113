"""Does the learned citation filter earn its place? Fitted on the other folds of courts, scored
on each; then the model folder's filter once on the sets nothing was chosen on.

    python benchmarks/cited_filter_cv.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/cited_filter.json] [--markdown reports/capacity/cited_filter.md]

Issue 31, part 3: a decoding rule stays only if it helps on every fold of a cross-validation
over the training courts. The decisions are those of training rounds 4 to 9 that the shipped
model never trained on (folds 2 to 5 of ``rules_cv.py``'s five folds by court, 192 decisions,
since session 59; all 341 before). The model runs once, its spans decoded with the filter off;
for each fold a filter (:class:`~hf_anon.model.recognizers.cited_filter.CitedFilter`, the
default config) is fitted on the spans of the other folds and applied to the fold's, so no
court it is scored on taught it. Each fold is scored with and without it (lenient precision,
recall, F2, high-risk recall), and the decisions together, each by the filter of its fold, with
paired intervals over decisions. It earns its place where F2 rises on every fold and high-risk
recall falls on none.

Then the filter saved in the model folder (``datasets_scripts/train_cited_filter.py``, fitted
on the same decisions) is read once on validation (where the other rules and the thresholds
were chosen, not the filter), test, the unseen-court test and the ordinary-prose paragraphs,
against the same decoding without it (``--no-sets``: the folds only).

``--sentence`` (session 55) asks another question on the folds only: today's filter (out of
fold, as "without") against one that also reads every word of the span's sentence
(``CitedFilterConfig.sentence``, out of fold, as "with"); with ``--nested-threshold`` the
variant's threshold is chosen without the fold it is scored on (:func:`nested_out_of_fold`).
``--nested-threshold`` alone (session 60) asks it of today's filter against no filter: each
fold's threshold is chosen without it, among :data:`NESTED_THRESHOLDS`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from on_off import (
    ROOT,
    change_cell,
    earns_its_place,
    fold_pool,
    fold_scores,
    prose_counts,
    prose_line,
    sets_read_afterwards,
    verdict_line,
    write,
)
from rules_cv import ROUNDS_4_TO_9, scores

FIGURES = ("lenient_precision", "lenient_recall", "recall_high", "strict_f1")


def fitted_on(docs, predicted, indices: list[int], **config):
    """A filter fitted on the decisions ``indices`` (``config``: settings of
    :class:`CitedFilterConfig` other than the defaults)."""
    from hf_anon.model.recognizers.cited_filter import CitedFilter, CitedFilterConfig

    return CitedFilter.fit(
        [docs[i].text for i in indices],
        [predicted[i] for i in indices],
        [docs[i].spans for i in indices],
        CitedFilterConfig(**config),
    )


def out_of_fold(docs, predicted, folds: list[int], **config) -> list[list]:
    """Every decision's spans with a filter fitted on the other folds' decisions (``config``:
    settings of :class:`CitedFilterConfig` other than the defaults)."""
    pooled: list = [None] * len(docs)
    for k in sorted(set(folds)):
        fitted = fitted_on(docs, predicted, [i for i, f in enumerate(folds) if f != k], **config)
        for i, f in enumerate(folds):
            if f == k:
                pooled[i] = fitted.drop(docs[i].text, predicted[i])
    return pooled


#: The thresholds a nested choice picks among (session 55).
NESTED_THRESHOLDS = (0.9, 0.95, 0.97, 0.98, 0.99)


def nested_out_of_fold(docs, predicted, folds: list[int], labels, **config):
    """Every decision's spans with a filter fitted on the other folds and a threshold chosen
    without its fold: among :data:`NESTED_THRESHOLDS`, the one with the highest F2 over the
    other folds, each scored by a filter fitted on the rest of them. Returns the spans and
    the threshold each fold got."""
    pooled: list = [None] * len(docs)
    chosen: dict[str, float] = {}
    present = sorted(set(folds))
    for k in present:
        inner = [j for j in present if j != k]
        held, probabilities = [], []
        for j in inner:
            rest = [i for i, f in enumerate(folds) if f in inner and f != j]
            fitted = fitted_on(docs, predicted, rest, **config)
            for i, f in enumerate(folds):
                if f == j:
                    held.append(i)
                    probabilities.append(fitted.probabilities(docs[i].text, predicted[i]))

        def f2_at(threshold: float, held=held, probabilities=probabilities) -> float:
            kept = [
                [s for s, p in zip(predicted[i], ps, strict=True) if p is None or p < threshold]
                for i, ps in zip(held, probabilities, strict=True)
            ]
            return scores([docs[i] for i in held], kept, labels)["f2"]

        threshold = max(NESTED_THRESHOLDS, key=f2_at)
        chosen[str(k + 1)] = threshold
        fitted = fitted_on(docs, predicted, [i for i, f in enumerate(folds) if f != k], **config)
        fitted.config.threshold = threshold
        for i, f in enumerate(folds):
            if f == k:
                pooled[i] = fitted.drop(docs[i].text, predicted[i])
    return pooled, chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--rounds", nargs="+", default=ROUNDS_4_TO_9)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--no-sets", action="store_true", help="the folds only")
    parser.add_argument(
        "--sentence",
        action="store_true",
        help="the folds only: today's filter (without) against one that also reads the "
        "span's sentence (with), both out of fold (session 55)",
    )
    parser.add_argument(
        "--nested-threshold",
        action="store_true",
        help="the filter's threshold chosen without the fold it is scored on (with --sentence: "
        "the variant's)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import document_scorers, paired_intervals
    from hf_anon.model.recognizers.cited_filter import CitedFilter

    args.no_sets = args.no_sets or args.sentence
    shipped = None if args.no_sets else CitedFilter.from_folder(args.model)
    if not args.no_sets and shipped is None:
        parser.error(
            f"{args.model} has no cited_filter.*: fit one with "
            "datasets_scripts/train_cited_filter.py, or give --no-sets"
        )
    detector = SpanDetector.from_pretrained(args.model, cited_filter=False)
    pool, folds = fold_pool(args.folds, args.rounds)
    predicted = detector.decode_all(detector.predict_probabilities(pool, progress=True))
    labels = detector.labels
    chosen = None
    variant = {"sentence": True} if args.sentence else {}
    if args.nested_threshold:
        pooled, chosen = nested_out_of_fold(pool, predicted, folds, labels, **variant)
    else:
        pooled = out_of_fold(pool, predicted, folds, **variant)
    if args.sentence:  # the baseline is today's filter, not the unfiltered spans
        predicted = out_of_fold(pool, predicted, folds)
    results: dict = {"folds": fold_scores(pool, folds, pooled, predicted, labels)}
    if chosen is not None:
        results["nested_thresholds"] = chosen
    for k, fold in results["folds"].items():
        held = [i for i, f in enumerate(folds) if f == int(k) - 1]
        fold["dropped"] = sum(len(predicted[i]) - len(pooled[i]) for i in held)
    results["pooled"] = paired_intervals(
        document_scorers(detector.labels, pool, predicted),
        document_scorers(detector.labels, pool, pooled),
        samples=args.samples,
    )
    results["pooled"]["decisions"] = len(pool)
    results["earns_its_place"] = earns_its_place(results["folds"])
    results["sets"] = {}
    if shipped is not None:
        results["shipped_filter"] = {
            "threshold": shipped.config.threshold,
            "trained_on": shipped.config.trained_on,
            "examples": shipped.config.examples,
        }

        def decode_both(docs) -> tuple[list, list]:
            without = detector.decode_all(detector.predict_probabilities(docs))
            return [shipped.drop(d.text, s) for d, s in zip(docs, without, strict=True)], without

        results["sets"] = sets_read_afterwards(decode_both, detector.labels, args.samples)
        results["prose"] = prose_counts(decode_both)
    write(results, markdown(results), args.json, args.markdown)
    return 0


def markdown(results: dict) -> str:
    """The folds, the 341 pooled, the sets read afterwards (paired differences) and the
    prose paragraphs' spans."""
    lines = [
        "| fold | decisions | spans dropped | F2 without → with | precision without → with "
        "| recall without → with | high-risk recall |",
        "|---|---|---|---|---|---|---|",
    ]
    for k, f in results["folds"].items():
        a, b = f["without"], f["with"]
        lines.append(
            f"| {k} | {f['decisions']} | {f['dropped']} | {a['f2']:.4f} → {b['f2']:.4f} | "
            f"{a['precision']:.4f} → {b['precision']:.4f} | "
            f"{a['recall']:.4f} → {b['recall']:.4f} | "
            f"{a['recall_high']:.3f} → {b['recall_high']:.3f} |"
        )
    p = results["pooled"]
    lines += [
        "",
        verdict_line(results),
        "",
        "| set | decisions | precision | recall | high-risk recall | strict F1 |",
        "|---|---|---|---|---|---|",
        f"| rounds 4–9, each fold by a filter fitted on the others | {p['decisions']} | "
        + " | ".join(change_cell(p[key]) for key in FIGURES)
        + " |",
    ]
    for name, figures in results["sets"].items():
        lines.append(
            f"| {name} (read afterwards) | {figures['decisions']} | "
            + " | ".join(change_cell(figures[key]) for key in FIGURES)
            + " |"
        )
    if "nested_thresholds" in results:
        lines += [
            "",
            "Threshold each fold got, chosen without it: "
            + ", ".join(f"fold {k}: {t:g}" for k, t in results["nested_thresholds"].items()),
        ]
    if "prose" in results:
        lines += ["", prose_line(results["prose"], "filter")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
