"""Candidates against the model in use on a choice set, every figure paired, F-beta among them.

    python benchmarks/paired_choice.py --incumbent INC --candidates C440 C880 \
        --gold corpora/rounds4to9/fold-2.jsonl … --json reports/capacity/fold1_candidate.json

What ``hf-anon calibrate --choose-on`` reads, for candidates it did not read (a floor on the
calibration gold kept them out) or for a reading afterwards that chooses nothing: lenient
precision, recall, high-risk recall, strict F1 and lenient F-beta of each candidate against
the incumbent, on the same decisions, with paired 95 % intervals
(:func:`hf_anon.model.metrics.paired_intervals`, :func:`hf_anon.model.gate.choice_figures`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incumbent", required=True, help="the model in use (a model folder)")
    parser.add_argument("--candidates", required=True, nargs="+", help="model folders")
    parser.add_argument("--gold", required=True, nargs="+", help="gold JSON Lines, read as one")
    parser.add_argument("--beta", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)

    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.gate import choice_figures
    from hf_anon.model.metrics import document_scorers, paired_intervals
    from hf_anon.model.training import load_documents

    incumbent = SpanDetector.from_pretrained(args.incumbent)
    docs = load_documents(args.gold, incumbent.labels, split="test")
    if not docs:
        parser.error("the gold files hold no documents")
    texts = [d.text for d in docs]
    before = document_scorers(incumbent.labels, docs, incumbent.detect(texts))
    out = {}
    for folder in args.candidates:
        detector = SpanDetector.from_pretrained(folder)
        after = document_scorers(detector.labels, docs, detector.detect(texts))
        out[folder] = paired_intervals(
            before, after, samples=args.samples, figures=choice_figures(args.beta)
        )
        for name, v in out[folder].items():
            print(
                f"{folder} {name}: {v['after']:.3f} against {v['before']:.3f}, "
                f"{v['difference']:+.3f} ({v['low']:+.3f}..{v['high']:+.3f})"
            )
    if args.json:
        record = {"incumbent": args.incumbent, "gold": args.gold, "documents": len(docs)}
        args.json.write_text(json.dumps({**record, "pairs": out}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
