"""A decoding rule on and off: the pieces every "does it earn its place?" benchmark shares.

Issue 31, part 3: a rule stays only if it helps on every fold of a cross-validation over the
training courts (the 341 decisions of rounds 4 to 9 in the five folds by court of
``rules_cv.py``), and is then read once on the sets nothing was chosen on. The benchmarks of
single rules (``cited_authors.py``, ``companies_cv.py``, ``cited_filter_cv.py``) decode each
set with and without their rule and hand the two lists of spans to these functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from rules_cv import fold_pool, helps_where_it_acts, scores  # the folds of every such benchmark

ROOT = Path(__file__).resolve().parents[1]
#: The sets read once afterwards (validation: where the other rules were chosen)
SETS = {
    "validation": ROOT / "data" / "real" / "validation.jsonl",
    "test": ROOT / "data" / "real" / "test.jsonl",
    "unseen courts": ROOT / "data" / "real" / "unseen_courts.jsonl",
    "unseen courts (juris)": ROOT / "data" / "real" / "unseen_courts_juris.jsonl",
}
PROSE = ROOT / "data" / "real" / "prose.jsonl"

#: ``decode_both(documents) -> (with the rule, without it)``: the spans of each document
DecodeBoth = Callable[[Sequence], tuple[list, list]]


def fold_scores(pool, folds: list[int], on, off, labels) -> dict:
    """Per fold (by its number, counted from 1): its decisions, and the scores with (``on``)
    and without (``off``) the rule."""
    out = {}
    for k in sorted(set(folds)):
        chosen = [i for i, f in enumerate(folds) if f == k]
        docs = [pool[i] for i in chosen]
        out[str(k + 1)] = {
            "decisions": len(chosen),
            "spans_changed": sum(len(_edges(on[i]) ^ _edges(off[i])) for i in chosen),
            "with": scores(docs, [on[i] for i in chosen], labels),
            "without": scores(docs, [off[i] for i in chosen], labels),
        }
    return out


def _edges(spans) -> set[tuple[int, int, str]]:
    return {(s.start, s.end, s.label) for s in spans}


def earns_its_place(folds: dict) -> bool:
    """F2 up on every fold, high-risk recall down on none."""
    f = folds.values()
    return all(x["with"]["f2"] > x["without"]["f2"] for x in f) and not any(
        x["with"]["recall_high"] < x["without"]["recall_high"] for x in f
    )


def earns_its_place_where_it_acts(folds: dict, recall_loss: float = 0.001) -> bool:
    """F2 up on every fold where the rule changes a span, high-risk recall down on none,
    recall down by at most ``recall_loss`` on any (session 55). For a rule of some courts'
    boilerplate: a fold without it is neutral (``rules_cv.helps_where_it_acts``)."""
    f = list(folds.values())
    gains = [x["with"]["f2"] - x["without"]["f2"] for x in f]
    return (
        helps_where_it_acts(gains, [x["spans_changed"] > 0 for x in f])
        and not any(x["with"]["recall_high"] < x["without"]["recall_high"] for x in f)
        and all(x["without"]["recall"] - x["with"]["recall"] <= recall_loss for x in f)
    )


VERDICTS = {
    earns_its_place: "F2 up on every fold, high-risk recall down on none",
    earns_its_place_where_it_acts: (
        "F2 up on every fold where it changes a span, high-risk recall down on none, "
        "recall down by at most 0.001 on any"
    ),
}


def sets_read_afterwards(decode_both: DecodeBoth, labels, samples: int) -> dict:
    """Paired intervals (over decisions) of the rule's effect on each of :data:`SETS`."""
    from hf_anon.model.metrics import document_scorers, paired_intervals
    from hf_anon.text.data import load_jsonl

    out = {}
    for name, path in SETS.items():
        docs = load_jsonl(path)
        with_rule, without = decode_both(docs)
        out[name] = paired_intervals(
            document_scorers(labels, docs, without),
            document_scorers(labels, docs, with_rule),
            samples=samples,
        )
        out[name]["decisions"] = len(docs)
    return out


def prose_counts(decode_both: DecodeBoth) -> dict:
    """Spans and marked paragraphs of the ordinary-prose set with the rule and without it."""
    from hf_anon.text.data import load_jsonl

    prose = load_jsonl(PROSE)
    with_rule, without = decode_both(prose)
    return {
        "paragraphs": len(prose),
        "spans_without": sum(map(len, without)),
        "spans_with": sum(map(len, with_rule)),
        "paragraphs_marked_without": sum(1 for s in without if s),
        "paragraphs_marked_with": sum(1 for s in with_rule if s),
    }


def rule_main(
    description: str,
    decode_both,
    argv=None,
    *,
    folds_without_filter=False,
    verdict: Callable[[dict], bool] = earns_its_place,
) -> int:
    """The command line of a single-rule benchmark: ``decode_both(detector, documents)``
    gives the spans with the rule and without it. The folds, then the sets read afterwards
    and the prose paragraphs; ``folds_without_filter``: the folds are decoded without the
    model folder's learned citation filter (fitted on them: with it their precision would be
    that of its training data); ``verdict``: the rule the folds are judged by (one of
    :data:`VERDICTS`)."""
    import argparse
    from functools import partial

    from hf_anon.model.detection import SpanDetector

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    detector = SpanDetector.from_pretrained(args.model)
    pool, folds = fold_pool(args.folds)
    shipped_filter = detector.cited_filter
    if folds_without_filter:
        detector.cited_filter = None
    on, off = decode_both(detector, pool)
    detector.cited_filter = shipped_filter
    both = partial(decode_both, detector)
    results: dict = {"folds": fold_scores(pool, folds, on, off, detector.labels)}
    results["earns_its_place"] = verdict(results["folds"])
    results["verdict"] = VERDICTS[verdict]
    results["sets"] = sets_read_afterwards(both, detector.labels, args.samples)
    results["prose"] = prose_counts(both)
    write(results, markdown(results), args.json, args.markdown)
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
        verdict_line(results),
        "",
        "| set (read afterwards) | decisions | precision | recall | high-risk recall |",
        "|---|---|---|---|---|",
    ]
    for name, figures in results["sets"].items():
        cells = [change_cell(figures[key]) for key in ("lenient_precision", "lenient_recall",
                                                        "recall_high")]  # fmt: skip
        lines.append(f"| {name} | {figures['decisions']} | " + " | ".join(cells) + " |")
    lines += ["", prose_line(results["prose"], "rule")]
    return "\n".join(lines) + "\n"


def change_cell(x: dict) -> str:
    """A paired difference (:func:`paired_intervals`' entry) as a table cell."""
    return (
        f"{x['before']:.3f} → {x['after']:.3f} ({x['difference']:+.3f}, "
        f"{x['low']:+.3f} to {x['high']:+.3f})"
    )


def verdict_line(results: dict) -> str:
    rule = results.get("verdict", VERDICTS[earns_its_place])
    return f"Earns its place ({rule}): **{'yes' if results['earns_its_place'] else 'no'}**."


def prose_line(prose: dict, what: str) -> str:
    """The ordinary-prose paragraphs' spans without and with ``what`` (the rule, the filter)."""
    return (
        f"Ordinary prose ({prose['paragraphs']} paragraphs): {prose['spans_without']} spans in "
        f"{prose['paragraphs_marked_without']} paragraphs without the {what}, "
        f"{prose['spans_with']} in {prose['paragraphs_marked_with']} with it."
    )


def write(results: dict, table: str, json_path: Path | None, markdown_path: Path | None) -> None:
    """Print the table; save the results and the table where asked."""
    print(table)
    if json_path:
        json_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if markdown_path:
        markdown_path.write_text(table, encoding="utf-8")
