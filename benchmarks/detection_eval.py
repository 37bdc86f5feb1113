"""Detection scores of several models on several gold sets, with per-document intervals.

    python benchmarks/detection_eval.py \
        --models shipped=models/hf-anon-de-e5-small 12l=outputs/gpu-e5-12l/best \
        --gold validation=data/real/validation.jsonl test=data/real/test.jsonl \
        [--json results.json] [--markdown results.md] [--samples 1000]

A gold set may keep only the documents whose metadata field has a value, after ``#``:
``unseen=data/real/unseen_courts.jsonl#court_group=unseen``; it may pool several files with
``+``: ``unseen-all=data/real/unseen_courts.jsonl+data/real/unseen_courts_juris.jsonl``.
A model may name its backend after ``@``: ``int8=models/hf-anon-de-e5-small@onnx-int8``
(``torch``, ``onnx``, ``onnx-int8``, ``torch-int8``; default: what every entry point picks).
``--pairs NEW:OLD`` adds, per gold set, the differences of two models with paired intervals
(both scored on the same decisions in every draw, ``metrics.paired_intervals``).
``--threshold NAME:LABEL=VALUE`` reads the model named NAME with one label's threshold moved
(the others as calibrated): one folder under several names shows what a threshold alone
does, paired (``--models a=M b=M --threshold b:nat-idx=0.7 --pairs b:a``).

Each model is loaded as every entry point loads it (its calibrated thresholds and
recognizers), runs once over each gold set, and is scored per document; the headline
figures (lenient precision and recall, high-risk recall, strict F1) get 95 % percentile
intervals over decisions drawn with replacement (``hf_anon.model.metrics.bootstrap_intervals``).
Differences inside the intervals are ties. Per label (strict typed) and per risk (lenient
recall) figures go to the JSON file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def named(values: list[str]) -> list[tuple[str, str]]:
    """``NAME=PATH`` pairs (a bare path is named after itself)."""
    pairs = []
    for value in values:
        name, _, path = value.partition("=") if "=" in value else (value, "", value)
        pairs.append((name, path))
    return pairs


VARIANTS = {
    "torch": {"backend": "torch"},
    "onnx": {"backend": "onnx"},
    "onnx-int8": {"backend": "onnx", "quantize": True},
    "torch-int8": {"backend": "torch", "quantize": True},
}


def evaluate(
    model: str,
    gold_sets: list[tuple[str, str]],
    samples: int,
    keep: dict | None = None,
    thresholds: dict[str, float] | None = None,
) -> dict:
    """Scores of one model on each gold set: headline, intervals, per risk and label
    (``keep``: gold set name → the per-document scorers, for paired comparisons;
    ``thresholds``: labels whose calibrated threshold is replaced)."""
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import document_scorers
    from hf_anon.model.training import load_documents

    folder, _, variant = model.partition("@")
    if variant and variant not in VARIANTS:
        raise SystemExit(f"{model}: unknown backend {variant!r} (one of {', '.join(VARIANTS)})")
    detector = SpanDetector.from_pretrained(folder, **VARIANTS.get(variant, {}))
    unknown = set(thresholds or {}) - set(detector.labels.names)
    if unknown:
        raise SystemExit(f"{model}: no label {', '.join(sorted(unknown))}")
    detector.label_thresholds.update(thresholds or {})
    results = {}
    for name, spec in gold_sets:
        path, _, where = spec.partition("#")
        docs = load_documents(path.split("+"), detector.labels, split="test")
        if where:
            field, _, value = where.partition("=")
            docs = [doc for doc in docs if str(doc.meta.get(field)) == value]
            if not docs:
                raise SystemExit(f"{spec}: no document has {field}={value}")
        start = time.perf_counter()
        predicted = detector.detect([doc.text for doc in docs])
        seconds = time.perf_counter() - start
        per_document = document_scorers(detector.labels, docs, predicted)
        if keep is not None:
            keep[name] = per_document
        results[name] = {
            "documents": len(docs),
            **figures(per_document, samples),
            "seconds": round(seconds, 1),
        }
    return results


def figures(per_document, samples: int) -> dict:
    """Span counts, headline figures with their intervals, recall by risk and the strict
    typed figures per label of one detector on one gold set (one scorer per document)."""
    from hf_anon.model.metrics import bootstrap_intervals, headline, merge_scorers

    scores = merge_scorers(per_document).result()
    return {
        "gold_spans": scores.counts["gold"],
        "predicted_spans": scores.counts["pred"],
        "headline": headline(scores),
        "intervals": bootstrap_intervals(per_document, samples=samples),
        "recall_by_risk": scores.recall_by_risk,
        "support_by_risk": scores.support_by_risk,
        "by_label": {
            label: {"precision": s.precision, "recall": s.recall, "support": s.support}
            for label, s in scores.by_label.items()
            if s.support or s.predicted
        },
    }


#: The figures of every table row, in their columns' order
HEADLINE_FIGURES = ("lenient_precision", "lenient_recall", "recall_high", "strict_f1")


def markdown(results: dict[str, dict]) -> str:
    """One row per model and gold set: each figure with its interval."""
    lines = [
        "| model | gold set | docs | lenient P | lenient R | high-risk R | strict F1 |",
        "|---|---|---|---|---|---|---|",
    ]
    for model, sets in results.items():
        for name, r in sets.items():
            cells = [
                f"{r['headline'][k]:.3f} ({r['intervals'][k][0]:.3f}–{r['intervals'][k][1]:.3f})"
                for k in HEADLINE_FIGURES
            ]
            lines.append(f"| {model} | {name} | {r['documents']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired(pairs: list[str], kept: dict[str, dict], samples: int) -> dict:
    """``NEW:OLD`` → gold set → each headline figure's difference with its paired interval."""
    from hf_anon.model.metrics import paired_intervals

    out = {}
    for pair in pairs:
        new, _, old = pair.partition(":")
        if new not in kept or old not in kept:
            raise SystemExit(f"--pairs {pair}: both must be names of --models")
        out[f"{new} - {old}"] = {
            gold: paired_intervals(kept[old][gold], kept[new][gold], samples=samples)
            for gold in kept[new]
        }
    return out


def paired_markdown(results: dict) -> str:
    lines = [
        "| pair | gold set | lenient P | lenient R | high-risk R | strict F1 |",
        "|---|---|---|---|---|---|",
    ]
    for pair, sets in results.items():
        for gold, figures in sets.items():
            cells = [
                "{difference:+.3f} ({low:+.3f}..{high:+.3f})".format(**figures[k])
                for k in HEADLINE_FIGURES
            ]
            lines.append(f"| {pair} | {gold} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", required=True, help="NAME=FOLDER ...")
    parser.add_argument("--gold", nargs="+", required=True, help="NAME=JSONL ...")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--pairs", nargs="+", default=[], help="NEW:OLD model names, paired")
    parser.add_argument(
        "--threshold",
        nargs="+",
        default=[],
        help="NAME:LABEL=VALUE: that model read with that label's threshold moved",
    )
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    args = parser.parse_args(argv)
    gold_sets = named(args.gold)
    models = named(args.models)
    moved: dict[str, dict[str, float]] = {}
    for spec in args.threshold:
        name, _, setting = spec.partition(":")
        label, _, value = setting.partition("=")
        if name not in dict(models) or not label or not value:
            parser.error(f"--threshold {spec}: NAME:LABEL=VALUE with NAME one of --models")
        try:
            moved.setdefault(name, {})[label] = float(value)
        except ValueError:
            parser.error(f"--threshold {spec}: {value!r} is no number")
    for _, spec in gold_sets:
        for path in spec.split("#")[0].split("+"):
            if not Path(path.split(":")[0]).exists():
                parser.error(f"{path}: no such gold set")
    results, kept = {}, {}
    for name, folder in models:
        print(f"{name}: {folder}", file=sys.stderr, flush=True)
        kept[name] = {}
        results[name] = evaluate(folder, gold_sets, args.samples, kept[name], moved.get(name))
    table = markdown(results)
    if moved:
        results["thresholds_moved"] = moved
    if args.pairs:
        results["paired"] = paired(args.pairs, kept, args.samples)
        table += "\n\n" + paired_markdown(results["paired"])
    print(table)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
