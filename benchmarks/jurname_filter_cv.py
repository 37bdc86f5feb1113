"""Would a learned second opinion on company names earn its place? (issue 31, session 47)

    python benchmarks/jurname_filter_cv.py --json reports/capacity/jurname_filter_cv.json

Stage 10 marks about twice as many ``jur-name`` spans as the model before it on the 341
decisions of rounds 4-9 (1,458 against 697; 522 of them touch no gold span: aid programmes,
abbreviations of courts and statutes, platforms, products). The learned citation filter
(:mod:`hf_anon.model.recognizers.cited_filter`) is a linear classifier on hashed context
words that drops a date, court or docket it is sure is cited. This asks whether the same
design, given ``jur-name`` spans and the span's own words (``S:`` features, its word count,
shape and length), drops the false company names without losing true ones, by the rule of
part 3: fitted on four folds of courts, scored on the fifth, it must raise F2 on every fold
and lower high-risk recall on none. The model's spans are decoded once with its filter off;
every variant is compared with the shipped design (dates, courts, dockets at 0.97) fitted
on the same folds. Variants: ``jur-name`` judged by the same filter (context only, and with
its words), and by a filter of its own at 0.97, 0.9 and 0.8. Nothing is read on any other
set: this is a question about the training courts only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from on_off import ROOT, earns_its_place, fold_pool, fold_scores

import hf_anon.model.recognizers.cited_filter as cf

FOLDS = 5


def with_own_words(base):
    """``base``'s features, and for a ``jur-name`` span its own words and shape."""

    def features(text, span, context, config):
        names = base(text, span, context, config)
        if span.label == "jur-name":
            surface = text[span.start : span.end]
            words = cf.WORD.findall(surface)
            names += ["S:" + cf._word(w) for w in words]
            names.append(f"SN:{min(len(words), 4)}")
            compact = surface.replace(" ", "")
            shape = "caps" if compact.isupper() else "title" if surface[:1].isupper() else "lower"
            names += [f"SHAPE:{shape}", f"SLEN:{min(len(surface) // 4, 8)}"]
        return names

    return features


def out_of_fold(pool, predicted, folds, labels, features, threshold=0.97):
    """Each decision's spans after a filter of ``labels`` fitted on the other folds. The
    module's label check and feature function are swapped for the run, then restored."""
    saved = cf.REFERENCE_LABELS, cf.span_features
    cf.REFERENCE_LABELS = frozenset(saved[0] | set(labels))
    cf.span_features = features
    try:
        out = [None] * len(pool)
        for k in sorted(set(folds)):
            train = [i for i, f in enumerate(folds) if f != k]
            config = cf.CitedFilterConfig(labels=tuple(sorted(labels)), threshold=threshold)
            fitted = cf.CitedFilter.fit(
                [pool[i].text for i in train],
                [predicted[i] for i in train],
                [pool[i].spans for i in train],
                config,
            )
            for i, f in enumerate(folds):
                if f == k:
                    out[i] = fitted.drop(pool[i].text, predicted[i])
        return out
    finally:
        cf.REFERENCE_LABELS, cf.span_features = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector

    detector = SpanDetector.from_pretrained(args.model, cited_filter=False)
    pool, folds = fold_pool(FOLDS)
    predicted = detector.decode_all(detector.predict_probabilities(pool, progress=True))
    refs = sorted(cf.REFERENCE_LABELS)
    shipped = out_of_fold(pool, predicted, folds, refs, cf.span_features)
    words = with_own_words(cf.span_features)
    variants = {
        "jur-name in the same filter, context only": ([*refs, "jur-name"], cf.span_features, 0.97),
        "jur-name in the same filter, with its words": ([*refs, "jur-name"], words, 0.97),
    }
    for threshold in (0.97, 0.9, 0.8):
        variants[f"a jur-name filter of its own at {threshold}"] = (["jur-name"], words, threshold)
    results = {}
    for name, (labels, features, threshold) in variants.items():
        if labels == ["jur-name"]:  # a second filter after the shipped one
            judged = out_of_fold(pool, shipped, folds, labels, features, threshold)
        else:
            judged = out_of_fold(pool, predicted, folds, labels, features, threshold)
        scores = fold_scores(pool, folds, judged, shipped, detector.labels)
        results[name] = {"folds": scores, "earns_its_place": earns_its_place(scores)}
        print(f"{name}: earns its place {results[name]['earns_its_place']}")
        for k, f in scores.items():
            a, b = f["without"], f["with"]
            print(
                f"  fold {k} ({f['decisions']}): F2 {a['f2']:.4f} -> {b['f2']:.4f}, "
                f"P {a['precision']:.4f} -> {b['precision']:.4f}, "
                f"R {a['recall']:.4f} -> {b['recall']:.4f}, "
                f"high {a['recall_high']:.3f} -> {b['recall_high']:.3f}"
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
