"""Does the company rule earn its place? On and off, fold by fold, then once on the sets
nothing was chosen on.

    python benchmarks/companies_cv.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/companies.json] [--markdown reports/capacity/companies.md]

Issue 31, part 3: a rule stays only if it helps on every fold of a cross-validation over the
training courts. :mod:`hf_anon.model.recognizers.companies` was written from the model's
missed company names in folds 1 to 3 of the five folds by court of ``rules_cv.py`` (the 341
decisions of training rounds 4 to 9, which the shipped model never trained on); folds 4 and 5
were not read. The model runs once per set; its spans are decoded with the model's
recognizers and with them plus ``companies``, and each fold and each other set is scored
(lenient precision, recall, F2, high-risk recall; paired intervals over decisions on the sets
read afterwards: validation, test, the unseen-court test, and the ordinary-prose paragraphs).
The folds are decoded without the learned citation filter, which was fitted on them (it
judges dates, courts and dockets only, so the rule's effect is the same either way); the
other sets as the model ships.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cited_authors import PROSE, SETS, markdown
from rules_cv import UNSEEN_BY_SHIPPED, fold_of, scores

ROOT = Path(__file__).resolve().parents[1]
RULE = "companies"


def decode_both(detector, documents) -> tuple[list, list]:
    """The spans of ``documents`` with the rule and without it, from one model pass."""
    probabilities = detector.predict_probabilities(documents, progress=True)
    shipped = detector.recognizers
    try:
        detector.recognizers = tuple(r for r in shipped if r != RULE)
        without = detector.decode_all(probabilities)
        detector.recognizers = (*detector.recognizers, RULE)
        with_rule = detector.decode_all(probabilities)
    finally:
        detector.recognizers = shipped
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
    shipped_filter, detector.cited_filter = detector.cited_filter, None
    on, off = decode_both(detector, pool)
    detector.cited_filter = shipped_filter
    results: dict = {"folds": {}, "sets": {}}
    for k in range(args.folds):
        chosen = [i for i, f in enumerate(folds) if f == k]
        docs = [pool[i] for i in chosen]
        results["folds"][str(k + 1)] = {
            "decisions": len(chosen),
            "with": scores(docs, [on[i] for i in chosen], detector.labels),
            "without": scores(docs, [off[i] for i in chosen], detector.labels),
        }
    f = results["folds"].values()
    results["earns_its_place"] = all(x["with"]["f2"] > x["without"]["f2"] for x in f) and not any(
        x["with"]["recall_high"] < x["without"]["recall_high"] for x in f
    )
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


if __name__ == "__main__":
    sys.exit(main())
