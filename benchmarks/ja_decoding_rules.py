"""Japanese decoding rules on and off, on precedents the model never trained on.

    python benchmarks/ja_decoding_rules.py [--model models/hf-anon-ja-e5-small] \
        [--held-out reports/ja_gold/session38_ids.txt] [--json out.json]

Rules written from exhaustively annotated training precedents that the model has not seen
(for the stage-4 model: the 60 precedents added in session 38) are shown to help there and
checked on the validation half of the real gold set, which they were not written from. The
model runs once per set; each rule is then switched off in turn and the set scored again
(lenient precision, recall, high-risk recall, strict F1; the model's own thresholds):

- ``authorities``: spans that name a public body dropped
  (:mod:`hf_anon.text.japanese_authorities`);
- ``date particles``: particles after a date's last unit trimmed (``１日から``);
- ``dateless dates``: date spans without a number dropped (``月日は``, ``同日``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def switched_off(rule: str):
    import hf_anon.text.japanese_authorities as authorities
    import hf_anon.text.languages as languages

    saved = (authorities.drop_authorities, languages._DATE_PARTICLE, languages._DATE_CORE)
    if rule == "authorities":
        authorities.drop_authorities = lambda text, spans: list(spans)
    elif rule == "date particles":
        languages._DATE_PARTICLE = re.compile(r"(?!x)x")
    elif rule == "dateless dates":
        languages._DATE_CORE = re.compile("")
    try:
        yield
    finally:
        authorities.drop_authorities, languages._DATE_PARTICLE, languages._DATE_CORE = saved


def figures(detector, docs, probabilities) -> dict[str, float]:
    from hf_anon.model.metrics import SpanScorer

    scorer = SpanScorer(detector.labels)
    for doc, spans in zip(docs, detector.decode_all(probabilities), strict=True):
        scorer.add(doc.text, doc.spans, spans)
    r = scorer.result()
    return {
        "precision": r.lenient.precision,
        "recall": r.lenient.recall,
        "recall_high": r.recall_by_risk.get("high", 1.0),
        "strict_f1": r.strict.f1,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-ja-e5-small"))
    parser.add_argument(
        "--held-out", type=Path, default=ROOT / "reports" / "ja_gold" / "session38_ids.txt"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector
    from hf_anon.text.data import load_jsonl

    ids = set(args.held_out.read_text(encoding="utf-8").split())
    sets = {
        "held out": [d for d in load_jsonl(ROOT / "data/ja/real/train.jsonl") if d.id in ids],
        "validation": load_jsonl(ROOT / "data/ja/gold/validation.jsonl"),
    }
    if not sets["held out"]:
        parser.error(f"no precedent of {args.held_out} in data/ja/real/train.jsonl")
    detector = SpanDetector.from_pretrained(args.model)
    probabilities = {k: detector.predict_probabilities(docs) for k, docs in sets.items()}
    table: dict[str, dict] = {}
    for rule in ("none", "authorities", "date particles", "dateless dates"):
        with switched_off(rule):
            table[rule] = {k: figures(detector, sets[k], probabilities[k]) for k in sets}
    print(f"{len(sets['held out'])} held-out precedents, {len(sets['validation'])} validation")
    print("switched off       | " + " | ".join(f"{k}: P / R / high / strict F1" for k in sets))
    for rule, row in table.items():
        cells = [
            f"{v['precision']:.3f} / {v['recall']:.3f} / {v['recall_high']:.3f} / "
            f"{v['strict_f1']:.3f}"
            for v in row.values()
        ]
        print(f"{rule:18} | " + " | ".join(cells))
    if args.json:
        out = {"model": args.model, "held_out": sorted(ids), "table": table}
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
