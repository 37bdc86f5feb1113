"""Two placeholder detectors on one key, the difference with a paired interval.

    python benchmarks/placeholder_paired.py --before OLD_MODEL_FOLDER \\
        --key data/real/placeholder-key4/key.jsonl --output reports/placeholders/key4_paired
    python benchmarks/placeholder_paired.py --language ja --before rules \\
        --key data/ja/gold/test.key.jsonl --output reports/ja_gold/placeholders_test_paired

Why paired: both detectors read the same decisions, so the difference of their figures varies
less than either figure. Each bootstrap draw takes the same decisions for both (1,000 draws,
decisions as the unit: one court's convention repeats within its decisions), and a
difference whose interval holds 0 is a tie. A model folder is read with ``both`` (rules plus
the tagger above its combination threshold, model labels), each with its own settings;
``rules`` is the rules alone, with their cue labels.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hf_anon.corpora.placeholders import placeholder_spans, scoring  # noqa: E402
from hf_anon.model.placeholder_tagger import PlaceholderTagger, find_placeholders_with  # noqa: E402
from hf_anon.text.data import Span  # noqa: E402


def counts_per_decision(model: str, rows: list[dict], language: str) -> list[tuple[int, ...]]:
    """Per decision: key hits, key, predicted hits, predicted, labels right (as scored)."""
    texts = [r["text"] for r in rows]
    if model == "rules":
        found = [placeholder_spans(text, language) for text in texts]
    else:
        tagger = PlaceholderTagger.from_pretrained(model)
        found = find_placeholders_with(texts, tagger=tagger, progress=True, language=language)
    pairs = [
        (row["text"], [Span(p["start"], p["end"], p["label"]) for p in row["placeholders"]], spans)
        for row, spans in zip(rows, found, strict=True)
    ]
    return scoring.decision_counts(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--before", required=True, help="the model folder to compare against, or rules"
    )
    parser.add_argument("--after", help="model folder (default: the bundled one of --language)")
    parser.add_argument("--language", choices=("de", "ja"), default="de")
    parser.add_argument("--key", required=True, nargs="+", help="key files, read as one")
    parser.add_argument("--output", required=True, help="path without suffix (.json, .md)")
    args = parser.parse_args(argv)
    lines_of_key = [
        line for key in args.key for line in Path(key).read_text(encoding="utf-8").splitlines()
    ]
    rows = [json.loads(line) for line in lines_of_key if line.strip()]
    after_flag = f" --after {args.after}" if args.after else ""  # as given, for the record
    args.after = args.after or str(ROOT / f"models/hf-anon-{args.language}-e5-small")
    before, after = (counts_per_decision(m, rows, args.language) for m in (args.before, args.after))
    result = scoring.paired_difference(before, after)
    out = Path(args.output)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    lines = [
        f"# `both` on `{' '.join(args.key)}`: before and after, paired",
        "",
        f"Made by `python benchmarks/placeholder_paired.py --language {args.language} "
        f"--before {args.before}{after_flag} --key {' '.join(args.key)}`; {len(rows)} decisions, "
        "95 % paired "
        "bootstrap intervals.",
        "",
        "| metric | before | after | difference (interval) |",
        "|---|---:|---:|---|",
    ]
    for metric, r in result.items():
        low, high = r["interval"]
        lines.append(
            f"| {metric} | {r['before']:.3f} | {r['after']:.3f} | "
            f"{r['difference']:+.3f} ({low:+.3f} to {high:+.3f}) |"
        )
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
