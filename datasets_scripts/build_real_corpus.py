"""Real published decisions → silver training corpus: pseudonymized placeholders plus rule spans.

    python datasets_scripts/build_real_corpus.py --output corpora/real_silver
    python datasets_scripts/build_real_corpus.py --measure   # rules vs the gold validation split

Reads ``../shared/data/real/decisions.jsonl.gz`` and the raw LER decisions
(``../shared/data/ler/raw/``), leaves out every decision annotated or keyed by hand
(``data/real/*/selection.jsonl``), and labels the rest in two ways:

- **placeholders** (hf_anon.corpora.placeholders) are replaced by consistent surrogates
  (hf_anon.corpora.surrogates): exact spans of what the court hid;
- **clear text** that courts leave visible (dates, times, dockets, courts of this case,
  judges and lawyers after their titles, identifiers) is labelled by the deterministic
  recognizers of hf_anon.model.recognizers, where they do not touch a placeholder.

These labels are silver: names in clear text without a title are not found, so the corpus
is not exhaustive (train with it next to exhaustive data, never evaluate on it).
``--measure`` scores each rule against the gold validation split (published text and its
clear-text spans; the test split is never looked at) and prints precision, recall and the
share of exact boundaries per rule; only rules with precision >= ``--min-precision``
(default 0.97) are used unless ``--rules`` names them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon.corpora.corpus import (
    add_corpus_arguments,
    corpus_statistics,
    format_statistics,
    write_corpus,
)
from hf_anon.corpora.ler import raw_files, read_raw_timex
from hf_anon.corpora.placeholders import placeholder_spans
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.distribution.datasets import push_as_asked
from hf_anon.model.recognizers import RECOGNIZERS, resolve_overlaps
from hf_anon.text.data import Document, Span
from hf_anon.text.readers import read_ids

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
GOLD = ROOT / "data" / "real"


def read_real(shared: Path) -> list[Document]:
    path = shared / "real" / "decisions.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [
        Document(r["id"], r["text"], [], None, {"court": r["court"], "court_type": r["court_type"]})
        for r in rows
    ]


def read_ler(shared: Path) -> list[Document]:
    docs = []
    for path in raw_files(shared / "ler" / "raw"):
        for doc in read_raw_timex(path):
            docs.append(Document(doc.id, doc.text, [], doc.domain, {"court_type": doc.domain}))
    return docs


def gold_ids(gold: Path) -> set[str]:
    """Every decision annotated or keyed by hand (``GOLD/*/selection.jsonl``: the gold set,
    its training rounds and both placeholder keys): none of them enters the silver corpus,
    so no key is seen, even pseudonymized, by a model trained on it."""
    return read_ids(sorted(gold.glob("*/selection.jsonl")))


def _free(spans: list[Span], holes: list[Span]) -> list[Span]:
    """``spans`` that touch none of ``holes``."""
    return [s for s in spans if all(s.end <= h.start or s.start >= h.end for h in holes)]


def rule_spans(text: str, rules: list[str], blocked: list[Span]) -> list[Span]:
    """Spans of ``rules`` on ``text`` that touch none of ``blocked`` (longest first)."""
    found = _free([s for name in rules for s in RECOGNIZERS[name](text)], blocked)
    return resolve_overlaps(sorted(found, key=lambda s: -(s.end - s.start)))


def silver_document(
    doc: Document,
    rules: list[str],
    pseudonymizer: Pseudonymizer,
    counts: Counter | None = None,
    teacher: list[Span] = (),
) -> Document:
    """Placeholders pseudonymized, rule spans (and a teacher model's confident spans) kept
    on the clear text (``counts``: spans by source)."""
    placeholders = placeholder_spans(doc.text)
    clear = rule_spans(doc.text, rules, placeholders)
    n_rules = len(clear)
    if teacher:
        taught = _free(list(teacher), placeholders + clear)
        if counts is not None:
            counts["teacher"] += len(taught)
        clear = sorted(clear + taught)
    marked = Document(doc.id, doc.text, sorted(placeholders + clear), doc.domain, dict(doc.meta))
    keep = {(s.start, s.end) for s in clear}
    if counts is not None:
        counts.update({"placeholder": len(placeholders), "rule": n_rules})
    out = pseudonymizer.pseudonymize(marked, replace=lambda s: (s.start, s.end) not in keep)
    out.spans = [Span(s.start, s.end, s.label, s.risk) for s in out.spans]
    return out


def teacher_predictions(model: str, docs: list[Document], labels: list[str], min_score: float):
    """A trained model's spans of ``labels`` scored at least ``min_score`` (model alone, no
    rules; ONNX int8 on the CPU for speed): the clear-text names, companies and places
    that no rule finds, so that silver labels do not teach the student to ignore them."""
    from hf_anon.model.detection import SpanDetector

    detector = SpanDetector.from_pretrained(
        model, backend="onnx", quantize=True, recognizers=(), label_thresholds={}
    )
    found = detector.detect(docs, progress=True)
    return [
        [s for s in spans if s.label in labels and (s.score or 0) >= min_score] for spans in found
    ]


# --- measuring the rules against the gold validation split ----------------------------------


def measure(gold: Path, split: str = "validation") -> dict:
    """Each rule against the clear-text spans of the gold ``split`` (placeholders set aside).

    ``rules``: per rule, its predictions and their precision (inside a gold span), the share
    on exact gold boundaries, and label accuracy; ``labels``: per label, the gold clear-text
    spans and the share that some rule overlaps (recall of all rules together).
    """
    keys = [json.loads(line) for line in (gold / f"{split}.key.jsonl").open(encoding="utf-8")]
    rules = {}
    per_doc: list[tuple[list[Span], list[Span]]] = [([], []) for _ in keys]
    for name, recognizer in RECOGNIZERS.items():
        predicted = inside = exact = typed = 0
        for (kept_all, found_all), key in zip(per_doc, keys, strict=True):
            kept = [Span(k["start"], k["end"], k["label"]) for k in key["kept"]]
            holes = [Span(k["start"], k["end"], k["label"]) for k in key["placeholders"]]
            if not kept_all:
                kept_all += kept
            spans = _free(recognizer(key["text"]), holes)
            found_all += spans
            for s in spans:
                predicted += 1
                host = next((k for k in kept if k.start <= s.start and s.end <= k.end), None)
                inside += host is not None
                exact += host is not None and (host.start, host.end) == (s.start, s.end)
                typed += host is not None and host.label == s.label
        rules[name] = {
            "labels": list(recognizer.labels),
            "predicted": predicted,
            "precision": inside / predicted if predicted else None,
            "exact": exact / predicted if predicted else None,
            "label_accuracy": typed / inside if inside else None,
        }
    support: Counter = Counter()
    found: Counter = Counter()
    for kept, spans in per_doc:
        for k in kept:
            support[k.label] += 1
            found[k.label] += any(s.start < k.end and k.start < s.end for s in spans)
    labels = {
        label: {"gold": n, "found": found[label], "recall": found[label] / n}
        for label, n in support.most_common()
    }
    return {"split": split, "rules": rules, "labels": labels}


def format_measure(results: dict) -> str:
    def f(x):
        return "–" if x is None else f"{x:.3f}"

    lines = [
        f"Rules on the gold {results['split']} split (clear text; placeholders set aside):",
        "",
        "| rule | labels | predicted | precision | exact boundaries | label accuracy |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, r in results["rules"].items():
        lines.append(
            f"| {name} | {', '.join(r['labels'])} | {r['predicted']} | {f(r['precision'])} | "
            f"{f(r['exact'])} | {f(r['label_accuracy'])} |"
        )
    lines += [
        "",
        "| label | gold clear-text spans | found by a rule | recall |",
        "|---|---:|---:|---:|",
    ]
    for label, r in results["labels"].items():
        lines.append(f"| {label} | {r['gold']} | {r['found']} | {f(r['recall'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[-1]
    )
    parser.add_argument("--measure", action="store_true", help="score the rules and stop")
    parser.add_argument(
        "--split",
        default="validation",
        choices=["validation", "test"],
        help="gold split --measure reports on (rules are chosen on validation only)",
    )
    parser.add_argument("--shared", default=str(SHARED), help="the shared data folder")
    parser.add_argument("--gold", default=str(GOLD), help="the real gold set folder")
    parser.add_argument("--rules", nargs="+", choices=sorted(RECOGNIZERS), help="rules to use")
    parser.add_argument("--min-precision", type=float, default=0.97)
    parser.add_argument("--limit", type=int, help="use only the first N decisions (trials)")
    parser.add_argument(
        "--unknown-label", default="nat-name", help="label of placeholders no cue decides"
    )
    parser.add_argument("--teacher", help="a trained hf-anon model that adds confident spans")
    parser.add_argument(
        "--teacher-labels",
        nargs="+",
        default=["nat-name", "jur-name", "address-name"],
        help="labels the teacher may add (default: the high-risk names and places)",
    )
    parser.add_argument("--teacher-score", type=float, default=0.9, help="minimum span score")
    add_corpus_arguments(parser)
    for action in parser._actions:  # --output is only needed when building
        if action.dest == "output":
            action.required = False
    args = parser.parse_args(argv)
    gold = Path(args.gold)
    if not (gold / "validation.key.jsonl").exists():
        print(f"error: {gold}/validation.key.jsonl not found (build_real_gold.py)", file=sys.stderr)
        return 2
    results = measure(gold)
    if args.measure:
        shown = results if args.split == "validation" else measure(gold, args.split)
        print(format_measure(shown))
        target = gold / f"rules.{args.split}.json"
        target.write_text(json.dumps(shown, indent=2) + "\n", encoding="utf-8")
        print(f"written to {target}")
        return 0
    if not args.output:
        parser.error("--output is required unless --measure")
    rules = args.rules or [
        n
        for n, r in results["rules"].items()
        if r["precision"] is not None and r["precision"] >= args.min_precision
    ]
    print(f"rules: {', '.join(rules) or 'none'}")
    shared = Path(args.shared)
    if (
        not (shared / "real" / "decisions.jsonl.gz").exists()
        or not (shared / "ler" / "raw").exists()
    ):
        print(f"error: the raw corpora are not in {shared} (real/, ler/raw/)", file=sys.stderr)
        return 2
    began = time.perf_counter()
    excluded = gold_ids(gold)
    decisions = [d for d in read_real(shared) + read_ler(shared) if d.id not in excluded]
    if args.limit:
        decisions = decisions[: args.limit]
    pseudonymizer = Pseudonymizer(seed=args.seed, unknown_label=args.unknown_label)
    teacher = (
        teacher_predictions(args.teacher, decisions, args.teacher_labels, args.teacher_score)
        if args.teacher
        else [[] for _ in decisions]
    )
    sources: Counter = Counter()
    documents = [
        silver_document(d, rules, pseudonymizer, sources, taught)
        for d, taught in tqdm(
            zip(decisions, teacher, strict=True),
            desc="silver labels",
            unit="doc",
            total=len(decisions),
        )
    ]
    splits = write_corpus(documents, args)
    push_as_asked(args)
    print(format_statistics(corpus_statistics(splits)))
    print(
        f"{len(documents):,} decisions ({len(excluded)} annotated or keyed decisions left out), "
        f"{sum(len(d.text) for d in documents):,} characters; spans by source: "
        + json.dumps(dict(sources))
        + f"; {time.perf_counter() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
