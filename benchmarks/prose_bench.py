"""Ordinary prose: what a model marks in real paragraphs that hold nothing to anonymize.

    python benchmarks/prose_bench.py [--model models/hf-anon-de-e5-small] \
        [--prose data/real/prose.jsonl] [--json out.json]

``data/real/prose.jsonl`` (``datasets_scripts/build_prose_set.py``) holds paragraphs of
exhaustively annotated decisions of the test split and the unseen-court test in which no gold
span lies: reasons, statute discussion, technical descriptions. Every span a model marks there
is a false one. Prints the paragraphs with any span, the spans by label, the share of
characters marked, and the marked texts (the target is none).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="hf-anon model (default: bundled)")
    parser.add_argument("--prose", type=Path, default=Path("data/real/prose.jsonl"))
    parser.add_argument("--json", type=Path, help="write the figures and the marks here")
    args = parser.parse_args(argv)
    from hf_anon.apply.anonymize import Anonymizer
    from hf_anon.text.data import load_jsonl

    docs = load_jsonl(args.prose)
    if any(doc.spans for doc in docs):
        parser.error(f"{args.prose}: prose paragraphs must have no gold span")
    anonymizer = Anonymizer.from_pretrained(args.model)
    found = anonymizer.detect([doc.text for doc in docs])
    marks = [
        {"paragraph": doc.id, "label": s.label, "text": doc.text[s.start : s.end]}
        for doc, spans in zip(docs, found, strict=True)
        for s in spans
    ]
    chars = sum(len(doc.text) for doc in docs)
    marked = sum(s.end - s.start for spans in found for s in spans)
    figures = {
        "paragraphs": len(docs),
        "characters": chars,
        "paragraphs_with_a_span": sum(bool(spans) for spans in found),
        "spans": len(marks),
        "marked_characters_share": marked / chars if chars else 0.0,
        "by_label": dict(Counter(m["label"] for m in marks).most_common()),
        "marks": marks,
    }
    print(
        f"{figures['paragraphs']} paragraphs ({chars:,} characters): "
        f"{figures['spans']} spans in {figures['paragraphs_with_a_span']} paragraphs, "
        f"{100 * figures['marked_characters_share']:.2f} % of the characters marked"
    )
    print("by label: " + ", ".join(f"{k} {v}" for k, v in figures["by_label"].items()))
    for m in marks:
        print(f"  {m['label']:14} {m['text']!r}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    return 0 if not marks else 1


if __name__ == "__main__":
    sys.exit(main())
