"""Candidates against the model in use on a choice set, every figure paired, F-beta among them.

    python benchmarks/paired_choice.py --incumbent INC --candidates C440 C880 \
        --gold corpora/rounds4to9/fold-2.jsonl … --json reports/capacity/fold1_candidate.json

What ``hf-anon calibrate --choose-on`` reads, for candidates it did not read (a floor on the
calibration gold kept them out) or for a reading afterwards that chooses nothing: lenient
precision, recall, high-risk recall, strict F1 and lenient F-beta of each candidate against
the incumbent, on the same decisions, with paired 95 % intervals
(:meth:`hf_anon.model.gate.Gate.paired`, the reading ``--choose-on`` makes).
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
    from hf_anon.model.gate import Gate
    from hf_anon.model.training import load_documents

    incumbent = SpanDetector.from_pretrained(args.incumbent)
    docs = load_documents(args.gold, incumbent.labels, split="test")
    if not docs:
        parser.error("the gold files hold no documents")
    gate = Gate(incumbent, docs, samples=args.samples, beta=args.beta)  # the incumbent read once
    out = {}
    for folder in args.candidates:
        out[folder] = gate.paired(SpanDetector.from_pretrained(folder))
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
