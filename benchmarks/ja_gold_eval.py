"""Japanese models on the real Japanese gold set: every span, names, placeholders, per
label and risk, with per-precedent intervals, and the word check on and off.

    python benchmarks/ja_gold_eval.py --models shipped=models/hf-anon-ja-e5-small \\
        [--variants model dates sudachi janome] [--gold data/ja/gold] \\
        [--json reports/ja_gold/eval.json] [--markdown reports/ja_gold/eval.md]

Variants of decoding (``SpanDetector`` arguments), each run once per model and half:

- ``config``: as every entry point loads the model (its recognizers, thresholds, analyzer);
- ``model``: the model alone (no recognizer, no word check);
- ``dates``: the model and its recognizers (``ja-dates``), no word check;
- ``sudachi`` / ``janome``: ``dates`` and the word check with that analyzer
  (:mod:`hf_anon.text.japanese_words`).

Headline figures (lenient precision and recall, high-risk recall, strict F1) and names
(``nat-name`` and ``nat-jur`` only) get 95 % intervals over precedents drawn with
replacement; each variant after the first also gets paired intervals of its difference
from the first (``hf_anon.model.metrics.paired_intervals``), and each model after the first
its difference from the first model (``paired_models`` in the JSON). The placeholders of the keys
are scored with ``hf_anon.corpora.placeholders`` (``--language ja``). Choose on
``validation``; ``test`` holds courts nothing was chosen on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from detection_eval import figures  # the same figures as the German benchmark

VARIANTS = {
    "config": {},
    "model": {"recognizers": (), "word_analyzer": ""},
    "dates": {"word_analyzer": ""},
    "sudachi": {"word_analyzer": "sudachi"},
    "janome": {"word_analyzer": "janome"},
}
NAMES = ("nat-name", "nat-jur")
SPLITS = ("validation", "test")


def scorers(detector, docs, predicted, labels=None):
    """One scorer per precedent; ``labels`` keeps only those labels on both sides."""
    from hf_anon.model.metrics import SpanScorer

    out = []
    for doc, spans in zip(docs, predicted, strict=True):
        scorer = SpanScorer(detector.labels)
        gold = [s for s in doc.spans if labels is None or s.label in labels]
        pred = [s for s in spans if labels is None or s.label in labels]
        scorer.add(doc.text, gold, pred)
        out.append(scorer)
    return out


def key_path(gold: Path) -> Path:
    """The key of a gold file: ``test.jsonl`` → ``test.key.jsonl``."""
    return gold.with_name(gold.name.removesuffix(".jsonl") + ".key.jsonl")


def placeholder_figures(key: Path) -> dict:
    from hf_anon.cli.inputs import read_documents
    from hf_anon.corpora.placeholders import placeholder_spans
    from hf_anon.corpora.placeholders.scoring import bootstrap_interval, score_placeholders
    from hf_anon.text.labels import DEFAULT_LABELS

    documents = read_documents(
        str(key), DEFAULT_LABELS, require_risk=False, spans_key="placeholders"
    )
    pairs = [(d.text, d.spans, placeholder_spans(d.text, "ja")) for d in documents]
    scores = score_placeholders(pairs)
    return {
        "precision": scores.precision,
        "recall": scores.recall,
        "label_accuracy": scores.label_accuracy,
        "key": scores.key,
        "intervals": {
            m: bootstrap_interval(pairs, m) for m in ("precision", "recall", "label_accuracy")
        },
    }


def evaluate(
    folder: str, variants: list[str], halves: dict[str, Path], samples: int
) -> tuple[dict, dict]:
    """Figures per variant and half (``halves``: name → gold JSON Lines), and per half the
    first variant's scorers (all spans, names), which :func:`paired_models` pairs across
    models."""
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import paired_intervals
    from hf_anon.model.training import load_documents

    results: dict = {}
    docs: dict[str, list] = {}
    first: dict[str, tuple] = {}  # per half: the first variant and its scorers
    for variant in variants:  # one model load per variant, every half read by it
        detector = SpanDetector.from_pretrained(folder, **VARIANTS[variant])
        for split, path in halves.items():
            if split not in docs:
                docs[split] = load_documents([str(path)], detector.labels, split="test")
            start = time.perf_counter()
            predicted = detector.detect([d.text for d in docs[split]])
            seconds = time.perf_counter() - start
            every = scorers(detector, docs[split], predicted)
            names = scorers(detector, docs[split], predicted, NAMES)
            row = {
                "documents": len(docs[split]),
                "all": figures(every, samples),
                "names": figures(names, samples),
                "seconds": round(seconds, 1),
            }
            if split not in first:
                first[split] = (variant, every, names)
            else:
                row["against"] = first[split][0]
                row["paired_all"] = paired_intervals(first[split][1], every, samples=samples)
                row["paired_names"] = paired_intervals(first[split][2], names, samples=samples)
            results.setdefault(variant, {})[split] = row
            print(f"  {variant} {split}: {row['all']['headline']}", file=sys.stderr, flush=True)
    return results, {split: (every, names) for split, (_, every, names) in first.items()}


def paired_models(kept: dict, samples: int, pairs: list[tuple[str, str]] | None = None) -> dict:
    """Model against model with their first variant, per half (``pairs``: (model, base)
    names; by default each model after the first against the first): paired intervals of
    the differences (the same precedents in every draw), all spans and names. Models differ
    in weights or thresholds, so only a paired interval tells a gain from the precedents
    that happen to be drawn."""
    from hf_anon.model.metrics import paired_intervals

    names = list(kept)
    if pairs is None:
        pairs = [(name, names[0]) for name in names[1:]]
    out: dict = {}
    for name, base in pairs:
        for split, (every, named) in kept[name].items():
            base_every, base_named = kept[base][split]
            out.setdefault(f"{name} - {base}", {})[split] = {
                "all": paired_intervals(base_every, every, samples=samples),
                "names": paired_intervals(base_named, named, samples=samples),
            }
    return out


def _cell(fig: dict, key: str) -> str:
    low, high = fig["intervals"][key]
    return f"{fig['headline'][key]:.3f} ({low:.3f}–{high:.3f})"


def markdown(results: dict, placeholders: dict) -> str:
    keys = ("lenient_precision", "lenient_recall", "recall_high", "strict_f1")
    lines = [
        "| model | decoding | half | docs | lenient P | lenient R | high-risk R | strict F1 "
        "| names P | names R |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, variants in results.items():
        for variant, halves in variants.items():
            for split, r in halves.items():
                cells = [_cell(r["all"], k) for k in keys]
                cells += [_cell(r["names"], k) for k in ("lenient_precision", "lenient_recall")]
                lines.append(
                    f"| {model} | {variant} | {split} | {r['documents']} | "
                    + " | ".join(cells)
                    + " |"
                )
    lines += [
        "",
        "| half | placeholders in key | precision | recall | label accuracy |",
        "|---|---|---|---|---|",
    ]
    for split, p in placeholders.items():
        cells = [
            f"{p[m]:.3f} ({p['intervals'][m][0]:.3f}–{p['intervals'][m][1]:.3f})"
            for m in ("precision", "recall", "label_accuracy")
        ]
        lines.append(f"| {split} | {p['key']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", required=True, help="NAME=FOLDER ...")
    parser.add_argument("--variants", nargs="+", default=["dates", "sudachi"], choices=VARIANTS)
    parser.add_argument("--gold", type=Path, default=Path("data/ja/gold"))
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument(
        "--splits", nargs="+", default=list(SPLITS), choices=SPLITS, help="validation to choose"
    )
    parser.add_argument(
        "--extra",
        nargs="+",
        default=[],
        metavar="NAME=JSONL",
        help="more gold read like a half, its key beside it (NAME.key.jsonl): precedents kept "
        "out of training (build_ja_gold.py --part)",
    )
    parser.add_argument(
        "--pairs",
        nargs="+",
        default=None,
        metavar="MODEL:BASE",
        help="paired differences to report (default: each model against the first)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    halves = {split: args.gold / f"{split}.jsonl" for split in args.splits}
    for spec in args.extra:
        name, _, path = spec.partition("=")
        if not path:
            parser.error(f"--extra {spec!r}: give NAME=JSONL")
        halves[name] = Path(path)
    for path in halves.values():
        if not path.exists() or not key_path(path).exists():
            parser.error(f"{path} or its key: no such gold file (build_ja_gold.py)")
    folders = {}  # NAME=FOLDER, or a folder that names itself
    for spec in args.models:
        name, _, folder = spec.partition("=") if "=" in spec else (spec, "", spec)
        folders[name] = folder
    pairs = None
    if args.pairs:
        pairs = [tuple(spec.partition(":")[::2]) for spec in args.pairs]
        for pair in pairs:
            if not all(name in folders for name in pair):
                parser.error(f"--pairs {':'.join(pair)}: give MODEL:BASE of --models names")
    results, kept = {}, {}
    for name, folder in folders.items():
        print(f"{name}: {folder}", file=sys.stderr, flush=True)
        results[name], kept[name] = evaluate(folder, args.variants, halves, args.samples)
    paired = paired_models(kept, args.samples, pairs)
    placeholders = {s: placeholder_figures(key_path(path)) for s, path in halves.items()}
    table = markdown(results, placeholders)
    print(table)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"models": results, "placeholders": placeholders, "paired_models": paired}
        args.json.write_text(
            json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
