"""Does dropping the authors of cited literature earn its place? On and off, fold by fold,
then once on the sets nothing was chosen on.

    python benchmarks/cited_authors.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/cited_authors.json] [--markdown reports/capacity/cited_authors.md]

Issue 31, part 3: a rule stays only if it helps on every fold of a cross-validation over the
training courts. :mod:`hf_anon.model.recognizers.literature` was written from the model's
false names in the ordinary prose of the 341 decisions of training rounds 4 to 9 (which the
shipped model never trained on); those decisions, in the five folds by court of
``rules_cv.py``, are its cross-validation. The model runs once per set; the spans are decoded
with the rule and without it (:func:`is_cited_author` patched to say no), and each fold and
each other set is scored (lenient precision, recall, F2, high-risk recall), with paired
intervals over decisions on the sets read afterwards: validation (where the other rules were
chosen), test, the unseen-court test and the ordinary-prose paragraphs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from unittest import mock

from rules_cv import UNSEEN_BY_SHIPPED, fold_of, scores

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "validation": ROOT / "data" / "real" / "validation.jsonl",
    "test": ROOT / "data" / "real" / "test.jsonl",
    "unseen courts": ROOT / "data" / "real" / "unseen_courts.jsonl",
}
PROSE = ROOT / "data" / "real" / "prose.jsonl"


def decode_both(detector, documents) -> tuple[list, list]:
    """The spans of ``documents`` with the rule (as shipped) and without it, from one run."""
    probabilities = detector.predict_probabilities(documents, progress=True)
    with_rule = detector.decode_all(probabilities)
    with mock.patch("hf_anon.model.recognizers.citations.is_cited_author", return_value=False):
        without = detector.decode_all(probabilities)
    return with_rule, without


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.corpora.courts import court_identity
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.metrics import document_scorers, paired_intervals
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    detector = SpanDetector.from_pretrained(args.model)
    ids = read_ids(ROOT / "data" / "real" / r / "selection.jsonl" for r in UNSEEN_BY_SHIPPED)
    pool = [d for d in load_jsonl(ROOT / "data" / "real" / "train.jsonl") if d.id in ids]
    folds = [
        fold_of(court_identity(d.meta.get("court")) or d.id.split(":")[0], args.folds) for d in pool
    ]
    on, off = decode_both(detector, pool)
    results: dict = {"folds": {}, "sets": {}}
    for k in range(args.folds):
        chosen = [i for i, f in enumerate(folds) if f == k]
        docs = [pool[i] for i in chosen]
        results["folds"][str(k + 1)] = {
            "decisions": len(chosen),
            "with": scores(docs, [on[i] for i in chosen], detector.labels),
            "without": scores(docs, [off[i] for i in chosen], detector.labels),
        }
    gains = [f["with"]["f2"] - f["without"]["f2"] for f in results["folds"].values()]
    losses = [
        f["with"]["recall_high"] < f["without"]["recall_high"] for f in results["folds"].values()
    ]
    results["earns_its_place"] = all(g > 0 for g in gains) and not any(losses)
    for name, path in SETS.items():
        docs = load_jsonl(path)
        with_rule, without = decode_both(detector, docs)
        results["sets"][name] = paired_intervals(
            document_scorers(detector.labels, docs, without),
            document_scorers(detector.labels, docs, with_rule),
            samples=args.samples,
        )
        results["sets"][name]["decisions"] = len(docs)
    prose = load_jsonl(PROSE)
    with_rule, without = decode_both(detector, prose)
    results["prose"] = {
        "paragraphs": len(prose),
        "spans_without": sum(map(len, without)),
        "spans_with": sum(map(len, with_rule)),
        "paragraphs_marked_without": sum(1 for s in without if s),
        "paragraphs_marked_with": sum(1 for s in with_rule if s),
    }
    table = markdown(results)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    return 0


def markdown(results: dict) -> str:
    """The folds (F2 and precision with and without), the sets read afterwards (paired
    differences), and the prose paragraphs' spans."""
    lines = [
        "| fold | decisions | F2 without → with | precision without → with | high-risk recall |",
        "|---|---|---|---|---|",
    ]
    for k, f in results["folds"].items():
        a, b = f["without"], f["with"]
        lines.append(
            f"| {k} | {f['decisions']} | {a['f2']:.4f} → {b['f2']:.4f} | "
            f"{a['precision']:.4f} → {b['precision']:.4f} | "
            f"{a['recall_high']:.3f} → {b['recall_high']:.3f} |"
        )
    lines += [
        "",
        f"Earns its place (F2 up on every fold, high-risk recall down on none): "
        f"**{'yes' if results['earns_its_place'] else 'no'}**.",
        "",
        "| set (read afterwards) | decisions | precision | recall | high-risk recall |",
        "|---|---|---|---|---|",
    ]
    for name, figures in results["sets"].items():
        cells = []
        for key in ("lenient_precision", "lenient_recall", "recall_high"):
            x = figures[key]
            cells.append(
                f"{x['before']:.3f} → {x['after']:.3f} ({x['difference']:+.3f}, "
                f"{x['low']:+.3f} to {x['high']:+.3f})"
            )
        lines.append(f"| {name} | {figures['decisions']} | " + " | ".join(cells) + " |")
    p = results["prose"]
    lines += [
        "",
        f"Ordinary prose ({p['paragraphs']} paragraphs): {p['spans_without']} spans in "
        f"{p['paragraphs_marked_without']} paragraphs without the rule, {p['spans_with']} in "
        f"{p['paragraphs_marked_with']} with it.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
