"""Do the decoding rules earn their place? Each family on and off, fold by fold over courts.

    python benchmarks/rules_cv.py [--model models/hf-anon-de-e5-small] [--folds 5] \
        [--rounds annotation-train4 ... annotation-train9] [--json out.json]

Issue 31, part 3: a recognizer or decoding rule stays only if it helps on every fold of a
cross-validation over courts, not on the one split it was written from. The decisions are
those of the training rounds the model has *not* trained on (rounds 4 to 9 for the shipped
stage-5 model, which saw rounds 1 to 3): exhaustively annotated, from many courts, and neither
validation (where the rules were written) nor a test. They are grouped into folds by court
(``hf_anon.corpora.courts.court_identity``; decisions without a named court by their source),
so no court is in two folds. The model runs once; each family is then switched off in turn
(each recognizer of the model's config, and ``snap_words``) and every fold scored (lenient
precision, recall, F2, high-risk recall). A family *earns its place* where switching it off
lowers F2 on every fold.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNSEEN_BY_SHIPPED = [f"annotation-train{i}" for i in range(4, 10)]


def fold_of(key: str, folds: int) -> int:
    """A stable fold for a court (or source) name."""
    return hashlib.sha256(key.encode()).digest()[0] % folds


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--rounds", nargs="+", default=UNSEEN_BY_SHIPPED)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.corpora.courts import court_identity
    from hf_anon.model.detection import SpanDetector
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    ids = read_ids(ROOT / "data" / "real" / r / "selection.jsonl" for r in args.rounds)
    docs = [d for d in load_jsonl(ROOT / "data" / "real" / "train.jsonl") if d.id in ids]
    if not docs:
        parser.error("no decision of these rounds in data/real/train.jsonl")
    keys = [court_identity(d.meta.get("court")) or d.id.split(":")[0] for d in docs]
    folds = [fold_of(k, args.folds) for k in keys]
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
        for k in range(args.folds):
            chosen = [i for i, f in enumerate(folds) if f == k]
            table[name].append(
                scores([docs[i] for i in chosen], [predicted[i] for i in chosen], detector.labels)
            )
    summary = {}
    for family in families:
        deltas = [a["f2"] - b["f2"] for a, b in zip(table["all"], table[family], strict=True)]
        high = [
            a["recall_high"] - b["recall_high"]
            for a, b in zip(table["all"], table[family], strict=True)
        ]
        summary[family] = {
            "f2_gain_by_fold": deltas,
            "recall_high_gain_by_fold": high,
            "earns_its_place": all(d > 0 for d in deltas),
        }
    print(
        f"{len(docs)} decisions of rounds {', '.join(args.rounds)}; folds by court: "
        + ", ".join(f"{k}: {folds.count(k)}" for k in range(args.folds))
    )
    print("all rules, F2 by fold: " + " ".join(f"{s['f2']:.3f}" for s in table["all"]))
    print(f"{'family':12} F2 gain when on, by fold (and high-risk recall gain)   earns its place")
    for family, s in summary.items():
        gains = " ".join(f"{d:+.4f}" for d in s["f2_gain_by_fold"])
        highs = " ".join(f"{d:+.3f}" for d in s["recall_high_gain_by_fold"])
        print(f"{family:12} {gains}   ({highs})   {'yes' if s['earns_its_place'] else 'NO'}")
    if args.json:
        out = {"folds": folds, "keys": keys, "table": table, "summary": summary}
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
