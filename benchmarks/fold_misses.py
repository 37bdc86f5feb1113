"""What the model misses on courts it never trained on, and what thresholds or spreading reach.

    python benchmarks/fold_misses.py [--model models/hf-anon-de-e5-small] \
        [--floor 0.05] [--json out.json] [--markdown out.md]

Issue 31: recall on unseen courts is far below the target, and before another rule or
threshold is tried it is worth knowing where the missed spans are and what could reach them.
This reads the folds of rounds 4-9 the bundled model never trained on (``rules_cv.fold_pool``)
and counts, per label, the gold spans no predicted span touches (missed entirely: stricter
than lenient recall, which also counts a span partly covered as missed):

- with the model's own thresholds;
- with every label's threshold at ``--floor``: what thresholds alone could reach, and at what
  precision (an upper bound of what any calibration can buy);
- with *spreading*: every span the model found copied onto the other whole-word mentions of
  its characters in the same decision (what ``hf_anon.text.japanese_mentions`` does for
  Japanese names), counting the gold spans it would reach and the false spans it would add.

The model's probabilities are computed once and kept in ``--cache`` (the same files as
``calibration_cv.py``), so a second run takes seconds.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration_cv import decode_with, model_outputs
from on_off import write
from rules_cv import fold_pool, scores

ROOT = Path(__file__).resolve().parents[1]


def touching(start: int, end: int, spans: Sequence) -> list:
    """The ``spans`` that share a character with ``start``–``end``."""
    return [s for s in spans if s.start < end and start < s.end]


def misses(docs: Sequence, predicted: Sequence) -> tuple[Counter, Counter]:
    """Gold spans per label, and those of them no predicted span touches."""
    gold, missed = Counter(), Counter()
    for doc, spans in zip(docs, predicted, strict=True):
        for g in doc.spans:
            gold[g.label] += 1
            missed[g.label] += not touching(g.start, g.end, spans)
    return gold, missed


def spread(text: str, spans: Sequence, min_chars: int = 3) -> list[tuple[int, int, str]]:
    """The other whole-word mentions of each found span's characters that no found span
    covers yet, as (start, end, label): what spreading would add. Spans shorter than
    ``min_chars`` do not spread (``5``, ``AG``)."""
    found: dict[str, str] = {}
    for s in spans:
        found.setdefault(text[s.start : s.end], s.label)
    added = []
    for chars, label in found.items():
        if len(chars) < min_chars:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(chars) + r"(?!\w)", text):
            if not touching(m.start(), m.end(), spans):
                added.append((m.start(), m.end(), label))
    return added


def spreading(docs: Sequence, predicted: Sequence) -> dict:
    """Per label of the spread span: gold spans it would newly reach, false spans it would add,
    and the most frequent false ones."""
    reached, false, examples = Counter(), Counter(), Counter()
    for doc, spans in zip(docs, predicted, strict=True):
        for start, end, label in spread(doc.text, spans):
            hits = touching(start, end, doc.spans)
            if any(not touching(g.start, g.end, spans) for g in hits):
                reached[label] += 1
            elif not hits:
                false[label] += 1
                examples[doc.text[start:end]] += 1
    return {
        "reached": dict(reached.most_common()),
        "false": dict(false.most_common()),
        "false_examples": [[text, n] for text, n in examples.most_common(10)],
    }


def markdown(result: dict) -> str:
    shipped, floor = result["shipped"], result["floor"]
    lines = [
        f"{result['decisions']} decisions of folds "
        + ", ".join(str(k) for k in result["folds"])
        + f", {sum(result['gold'].values())} gold spans.",
        "",
        "| decoding | precision | recall | high-risk recall |",
        "|---|---|---|---|",
        f"| the model's thresholds | {shipped['precision']:.3f} | {shipped['recall']:.3f} "
        f"| {shipped['recall_high']:.3f} |",
        f"| every threshold at {result['floor_threshold']:g} | {floor['precision']:.3f} "
        f"| {floor['recall']:.3f} | {floor['recall_high']:.3f} |",
        "",
        f"| label | gold | touched by no span | the same at {result['floor_threshold']:g} |",
        "|---|---|---|---|",
    ]
    for label, n in sorted(result["gold"].items(), key=lambda kv: -result["missed"][kv[0]]):
        lines.append(
            f"| {label} | {n} | {result['missed'][label]} | {result['missed_at_floor'][label]} |"
        )
    reached, false = result["spreading"]["reached"], result["spreading"]["false"]
    examples = ", ".join(f"`{t}` {n}" for t, n in result["spreading"]["false_examples"])
    lines += [
        "",
        f"Spreading found spans to their other mentions: {sum(reached.values())} missed gold "
        f"spans reached, {sum(false.values())} false spans added (most often: {examples}).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--floor", type=float, default=0.05, help="the one low threshold")
    parser.add_argument("--cache", type=Path, default=ROOT / "runs" / "calibration_cv")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    if not 0.0 < args.floor < 1.0:
        parser.error(f"--floor must lie between 0 and 1, not {args.floor}")
    from hf_anon.model.detection import SpanDetector

    docs, folds = fold_pool()
    detector = SpanDetector.from_pretrained(args.model)
    probs = model_outputs(detector, docs, args.cache / f"{Path(args.model).name}.rounds.pkl")
    shipped = decode_with(detector, probs, detector.label_thresholds)
    floor = decode_with(detector, probs, dict.fromkeys(detector.label_thresholds, args.floor))
    gold, missed = misses(docs, shipped)
    _, missed_floor = misses(docs, floor)
    result = {
        "model": args.model,
        "decisions": len(docs),
        "folds": sorted({k + 1 for k in folds}),
        "floor_threshold": args.floor,
        "shipped": scores(docs, shipped, detector.labels),
        "floor": scores(docs, floor, detector.labels),
        "gold": dict(gold),
        "missed": dict(missed),
        "missed_at_floor": {label: missed_floor[label] for label in gold},
        "spreading": spreading(docs, shipped),
    }
    write(result, markdown(result), args.json, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
