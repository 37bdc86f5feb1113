"""Placeholders on every key, by method and by court (issue 30, parts 3–5).

    python benchmarks/placeholder_eval.py --output reports/placeholders/results

For each key — the real validation key (where rules, the tagger's thresholds and the label
source are chosen), the real test key, the first by-court key of unseen courts
(``data/real/placeholder-key/key.jsonl``: rules were written from its errors after its
figures were recorded, so its figures are optimistic now) and the second
(``data/real/placeholder-key2/key.jsonl``, untouched: its first figures are in
``reports/placeholders/key2_first_look.json``; rules were written from its errors after
that), the third (``data/real/placeholder-key3/key.jsonl``: first look in
``reports/placeholders/key3_first_look.json``, its errors read after) and the fourth
(``data/real/placeholder-key4/key.jsonl``, untouched: first look in
``reports/placeholders/key4_first_look.json``) and the key of the second unseen-court test
(``data/real/unseen_courts_juris.key.jsonl``, Landgerichte as juris publishes them; untouched:
first look in ``reports/placeholders/juris_first_look.json``) — it scores

- ``rules``: the rules alone, labels from their cue words;
- ``rules + model labels``: the same spans, the guessed labels (or all, as the label
  head's ``label_scope`` says) from the tagger's label head, else the category head;
- ``tagger``: the learned head alone (its threshold), labels from the model;
- ``both``: the rules plus the tagger's placeholders that overlap none of theirs (at the
  combination threshold), model labels for the guessed ones;

with 95 % intervals over decisions (bootstrap, 1,000 draws) and, for keys with a
``court_family`` (and the second key's ``group``), one row per court (and group).
``--keys`` scores some keys only. The encoder runs once per decision; thresholds only
change decoding. ``--choose`` picks the tagger's combination threshold on the validation
key (best F1 of ``both``, ties to the lower threshold; ``--choose-on`` names other keys read
for it) and writes it into the model folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from tqdm.auto import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hf_anon.corpora.placeholders import find_placeholders, score_placeholders  # noqa: E402
from hf_anon.corpora.placeholders.scoring import bootstrap_interval, score_by_group  # noqa: E402
from hf_anon.model.placeholder_tagger import HEAD_CONFIG, PlaceholderTagger, combine  # noqa: E402
from hf_anon.text.data import Span  # noqa: E402

KEYS = {
    "real validation (chosen on)": ROOT / "data/real/validation.key.jsonl",
    "real test": ROOT / "data/real/test.key.jsonl",
    "first by-court key (read: optimistic)": ROOT / "data/real/placeholder-key/key.jsonl",
    "second by-court key (read: optimistic)": ROOT / "data/real/placeholder-key2/key.jsonl",
    "third by-court key (read)": ROOT / "data/real/placeholder-key3/key.jsonl",
    "fourth by-court key (untouched)": ROOT / "data/real/placeholder-key4/key.jsonl",
    # the key of the second unseen-court test (session 46): juris's conventions, untouched
    "Landgerichte from juris (untouched)": ROOT / "data/real/unseen_courts_juris.key.jsonl",
}
#: Fields a key's rows may carry to be scored by: court family, and the second key's groups
#: (unseen court / unseen decision of a seen court / never read by any audit).
GROUP_FIELDS = {"court_family": "court family", "group": "group"}
METHODS = ("rules", "rules + model labels", "tagger", "both")


def read_key(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def encode(tagger: PlaceholderTagger, rows: list[dict]) -> list:
    """The encoder's output for each decision, computed once."""
    return [tagger.encode([row["text"]])[0] for row in tqdm(rows, desc="encode", unit="doc")]


def predictions(tagger: PlaceholderTagger, rows: list[dict], encoded, combine_threshold: float):
    """Per decision: the key and each method's placeholders."""
    out = {m: [] for m in METHODS}
    keys = []
    for row, encoding in zip(rows, encoded, strict=True):
        text = row["text"]
        key = [Span(p["start"], p["end"], p["label"]) for p in row["placeholders"]]
        keys.append((text, key))
        placeholders = find_placeholders(text)
        relabelled = tagger.relabel(placeholders, encoding)
        alone = tagger.tagged(text, encoding)
        extra = tagger.tagged(text, encoding, combine_threshold)
        out["rules"].append([p.to_span() for p in placeholders])
        out["rules + model labels"].append(relabelled)
        out["tagger"].append(alone)
        out["both"].append(combine(relabelled, extra))
    return keys, out


def summary(keys, predicted) -> dict:
    pairs = [(text, key, pred) for (text, key), pred in zip(keys, predicted, strict=True)]
    scores = score_placeholders(pairs)
    result = {
        **asdict(scores),
        "intervals": {
            m: bootstrap_interval(pairs, m) for m in ("precision", "recall", "label_accuracy")
        },
    }
    return result


def fmt(result: dict, metric: str) -> str:
    low, high = result["intervals"][metric]
    return f"{result[metric]:.3f} ({low:.3f}–{high:.3f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=str(ROOT / "models/hf-anon-de-e5-small"))
    parser.add_argument("--output", default=str(ROOT / "reports/placeholders/results"))
    parser.add_argument("--choose", action="store_true", help="choose the combination threshold")
    parser.add_argument(
        "--choose-on",
        nargs="+",
        choices=sorted(KEYS),
        default=["real validation (chosen on)"],
        help="the keys --choose reads (pooled F1 of both); never the untouched one",
    )
    parser.add_argument("--note", default="", help="a paragraph under the report's title")
    parser.add_argument("--keys", nargs="*", choices=sorted(KEYS), help="score these keys only")
    args = parser.parse_args(argv)
    tagger = PlaceholderTagger.from_pretrained(args.model)
    if args.choose:
        rows = [row for name in args.choose_on for row in read_key(KEYS[name])]
        encoded = encode(tagger, rows)
        best = None
        for threshold in (0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99):
            keys, out = predictions(tagger, rows, encoded, threshold)
            f1 = score_placeholders(
                [(t, k, p) for (t, k), p in zip(keys, out["both"], strict=True)]
            ).f1
            print(f"combination threshold {threshold}: F1 {f1:.4f} on {len(rows)} decisions")
            if best is None or f1 > best[1] + 1e-9:
                best = (threshold, f1)
        tagger.config.combine_threshold = best[0]
        config_path = Path(args.model) / HEAD_CONFIG
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config["combine_threshold"] = best[0]
        config_path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        print(f"chosen: {best[0]}")
    results, grouped = {}, {}
    for name, path in KEYS.items():
        if (args.keys and name not in args.keys) or not path.exists():
            continue
        rows = read_key(path)
        keys, out = predictions(tagger, rows, encode(tagger, rows), tagger.config.combine_threshold)
        results[name] = {m: summary(keys, out[m]) for m in METHODS}
        for field, title in GROUP_FIELDS.items():
            groups = [r.get(field) for r in rows]
            if all(groups):
                grouped[f"{name}, by {title}"] = {
                    m: {
                        g: asdict(s)
                        for g, s in score_by_group(
                            [(t, k, p) for (t, k), p in zip(keys, out[m], strict=True)], groups
                        ).items()
                    }
                    for m in METHODS
                }
    out_path = Path(args.output)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.with_suffix(".json").write_text(
        json.dumps({**results, "groups": grouped}, indent=1) + "\n"
    )
    lines = [
        "# Placeholders: rules, tagger and both, on every key",
        "",
        f"Made by `python benchmarks/placeholder_eval.py` with `{Path(args.model).name}` "
        f"(tagger threshold {tagger.config.threshold}, combination threshold "
        f"{tagger.config.combine_threshold}; where each was chosen: the note). Intervals: 95 %, "
        "bootstrap over decisions.",
        "",
        *([args.note, ""] if args.note else []),
        "| key | method | placeholders | precision | recall | label accuracy |",
        "|---|---|---:|---|---|---|",
    ]
    for name, by_method in results.items():
        for method, r in by_method.items():
            lines.append(
                f"| {name} | {method} | {r['key']} | {fmt(r, 'precision')} | {fmt(r, 'recall')} | "
                f"{fmt(r, 'label_accuracy')} |"
            )
    for title, by_method in grouped.items():
        lines += [
            "",
            f"## {title[0].upper()}{title[1:]}",
            "",
            f"| {title.rsplit('by ', 1)[1]} | placeholders | "
            + " | ".join(f"{m} P / R / labels" for m in METHODS)
            + " |",
            "|---|---:|" + "---|" * len(METHODS),
        ]
        for group in sorted(by_method["rules"]):
            cells = []
            for m in METHODS:
                g = by_method[m][group]
                labels = f"{g['label_accuracy']:.2f}" if g["tp"] else "–"
                cells.append(f"{g['precision']:.2f} / {g['recall']:.2f} / {labels}")
            count = by_method["rules"][group]["key"]
            lines.append(f"| {group} | {count} | " + " | ".join(cells) + " |")
    out_path.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
