"""Hand-written Japanese precedent passages (inline markup) → gold and placeholder-key files.

    python datasets_scripts/build_ja_passages.py [--passages FILE] [--output data/ja]

``data/ja/passages.txt`` holds 60 passages written for issue #17 (criminal, traffic, civil,
family), annotated as ``data/ja/GUIDE.md`` says, in the inline markup of
``hf_anon.corpora.markup``: a block per passage, a header line
``# id: … | domain: … | split: validation|test``, then the marked text. The published text
(marks removed) carries the court's placeholders (``Ａ``, ``甲野太郎``, ``○○``); the filled
text has realistic values in their place. For each split this writes:

- ``SPLIT.jsonl``: the filled text with every gold span (detection: ``hf-anon report``);
- ``SPLIT.key.jsonl``: the published text with its ``placeholders`` (``hf-anon placeholders
  --language ja --evaluate``).

The passages are evaluation data: never train on them; tune on ``validation`` only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from hf_anon.corpora.markup import MarkupError, parse_markup

SPLITS = ("validation", "test")


def read_passages(path: Path) -> list[dict]:
    """The blocks of a passages file: ``{"id", "domain", "split", "markup"}``."""
    rows = []
    for number, block in enumerate(path.read_text(encoding="utf-8").strip().split("\n\n"), 1):
        head, _, body = block.partition("\n")
        if not head.startswith("# ") or not body.strip():
            raise ValueError(f"{path}: block {number} needs a '# id: …' header and text")
        fields = dict(part.strip().split(": ", 1) for part in head[2:].split("|") if ": " in part)
        if fields.get("split") not in SPLITS or "id" not in fields:
            raise ValueError(f"{path}: block {number}: header needs an id and a split in {SPLITS}")
        rows.append({**fields, "markup": body})
    return rows


def build(passages: Path, output: Path) -> dict[str, Counter]:
    rows = read_passages(passages)
    output.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Counter] = {}
    for split in SPLITS:
        gold, key = [], []
        counts[split] = Counter()
        for row in (r for r in rows if r["split"] == split):
            try:
                doc = parse_markup(row["markup"])
            except MarkupError as err:
                raise ValueError(f"{passages}: {row['id']}: {err}") from None
            spans = [
                {"start": s.filled_start, "end": s.filled_end, "label": s.label, "risk": s.risk}
                for s in doc.spans
            ]
            placeholders = [
                {"start": s.published_start, "end": s.published_end, "label": s.label}
                for s in doc.spans
                if s.placeholder
            ]
            base = {"id": row["id"], "domain": row.get("domain")}
            gold.append({**base, "text": doc.filled, "spans": spans})
            key.append({**base, "text": doc.published, "placeholders": placeholders})
            counts[split].update(s["label"] for s in spans)
            counts[split]["placeholders"] += len(placeholders)
            counts[split]["documents"] += 1
        for name, data in ((f"{split}.jsonl", gold), (f"{split}.key.jsonl", key)):
            with (output / name).open("w", encoding="utf-8") as handle:
                for item in data:
                    handle.write(json.dumps(item, ensure_ascii=False) + "\n")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=Path, default=Path("data/ja/passages.txt"))
    parser.add_argument("--output", type=Path, default=Path("data/ja"))
    args = parser.parse_args(argv)
    try:
        counts = build(args.passages, args.output)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for split, c in counts.items():
        spans = sum(v for k, v in c.items() if k not in {"placeholders", "documents"})
        print(
            f"{split}: {c['documents']} passages, {spans} spans, {c['placeholders']} placeholders"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
