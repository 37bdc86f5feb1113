"""Build the by-court placeholder key from the annotators' marked files (issue 30).

The annotators of ``data/real/placeholder-key/`` mark placeholders only, in a copy of
each published text (``prepare_placeholder_key.py`` wrote the texts)::

    Herr [[A.|nat-name]] wohnt in der [[XXX|address-name]] in [[XXX|address-name]].

Removing the marks must give the published text back character for character. This
script checks a file (``--check FILE``), builds ``key.jsonl`` in the placeholder format
of ``../shared/data/dev/anonymized.jsonl`` (published text, ``placeholders`` with start,
end and label, ``kept`` empty: clear text is not annotated here) from ``final/``, and
writes the agreement of the two independent passes (``passA/`` and ``passB/``, on the
decisions both annotated) to ``agreement.json``: placeholder-level precision, recall and
label agreement (overlap matching, as the detector is scored) and exact-boundary F1.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from hf_anon.corpora.markup import markup_file_name
from hf_anon.corpora.placeholders import score_placeholders
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[1]
KEY_DIR = ROOT / "data/real/placeholder-key"
_MARK = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)


class KeyMarkupError(ValueError):
    """A marked file that cannot be read, with line and column."""


def _where(markup: str, position: int) -> str:
    line = markup.count("\n", 0, position) + 1
    column = position - (markup.rfind("\n", 0, position) + 1) + 1
    return f"line {line}, column {column} ({markup[position : position + 50]!r})"


def parse_key_markup(markup: str) -> tuple[str, list[Span]]:
    """The published text and its placeholder spans from ``[[SURFACE|LABEL]]`` marks."""
    parts: list[str] = []
    spans: list[Span] = []
    position = length = 0
    for match in _MARK.finditer(markup):
        between = markup[position : match.start()]
        if "[[" in between or "]]" in between:
            raise KeyMarkupError(f"unbalanced brackets near {_where(markup, position)}")
        parts.append(between)
        length += len(between)
        fields = match.group(1).split("|")
        if len(fields) != 2:
            raise KeyMarkupError(f"a mark needs SURFACE|LABEL at {_where(markup, match.start())}")
        surface, label = fields
        if not surface or surface != surface.strip():
            raise KeyMarkupError(f"empty or padded surface at {_where(markup, match.start())}")
        if label not in DEFAULT_LABELS:
            raise KeyMarkupError(f"unknown label {label!r} at {_where(markup, match.start())}")
        spans.append(Span(length, length + len(surface), label))
        parts.append(surface)
        length += len(surface)
        position = match.end()
    tail = markup[position:]
    if "[[" in tail or "]]" in tail:
        raise KeyMarkupError(f"unbalanced brackets near {_where(markup, position)}")
    parts.append(tail)
    return "".join(parts), spans


def read_marked(path: Path, published: str) -> list[Span]:
    """The spans of one marked file, checked against the published text."""
    text, spans = parse_key_markup(path.read_text(encoding="utf-8"))
    if text != published:
        at = next(
            (i for i, (a, b) in enumerate(zip(text, published, strict=False)) if a != b), None
        )
        at = min(len(text), len(published)) if at is None else at
        raise KeyMarkupError(
            f"{path.name}: the text without marks differs from the published text at "
            f"character {at}: {text[at : at + 40]!r} vs {published[at : at + 40]!r}"
        )
    return spans


def load_selection(key_dir: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in (key_dir / "selection.jsonl").open(encoding="utf-8")]
    return {markup_file_name(row["id"]): row for row in rows}


def agreement(key_dir: Path, selection: dict[str, dict], other: str = "passB") -> dict:
    """Pass A against another independent pass (``other``, the reference) on the
    decisions both marked."""
    names = sorted(
        p.stem for p in (key_dir / other).glob("*.txt") if (key_dir / "passA" / p.name).exists()
    )
    triples, exact_a, exact_b, exact_both = [], 0, 0, 0
    for name in names:
        published = selection[name]["text"]
        a = read_marked(key_dir / "passA" / f"{name}.txt", published)
        b = read_marked(key_dir / other / f"{name}.txt", published)
        triples.append((published, b, a))
        bounds_a = {(s.start, s.end) for s in a}
        bounds_b = {(s.start, s.end) for s in b}
        exact_a, exact_b = exact_a + len(bounds_a), exact_b + len(bounds_b)
        exact_both += len(bounds_a & bounds_b)
    scores = score_placeholders(triples)
    exact_f1 = 2 * exact_both / (exact_a + exact_b) if exact_a + exact_b else 1.0
    return {
        "decisions": len(names),
        "documents": names,
        "pass_a_placeholders": scores.predicted,
        "pass_b_placeholders": scores.key,
        "precision_a_vs_b": round(scores.precision, 4),
        "recall_a_vs_b": round(scores.recall, 4),
        "f1": round(scores.f1, 4),
        "label_agreement": round(scores.label_accuracy, 4),
        "exact_boundary_f1": round(exact_f1, 4),
    }


def build(key_dir: Path) -> int:
    selection = load_selection(key_dir)
    rows, missing = [], []
    for name, row in sorted(selection.items()):
        path = key_dir / "final" / f"{name}.txt"
        if not path.exists():
            missing.append(name)
            continue
        spans = read_marked(path, row["text"])
        rows.append(
            {
                "id": row["id"],
                "text": row["text"],
                "placeholders": [s.to_dict() for s in spans],
                "kept": [],
                **{k: row[k] for k in ("source", "court", "court_family", "court_type", "date")},
                "conventions": row["conventions"],
                **({"group": row["group"]} if "group" in row else {}),
                "licence": row["licence"],
            }
        )
    if missing:
        print(f"{len(missing)} decisions have no final file: {', '.join(missing)}", file=sys.stderr)
        return 2
    with (key_dir / "key.jsonl").open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    stats = agreement(key_dir, selection)
    if (key_dir / "passC").is_dir():  # a third independent pass (the fourth key: all decisions)
        stats["pass_c"] = agreement(key_dir, selection, "passC")
    stats["key_decisions"] = len(rows)
    stats["key_placeholders"] = sum(len(r["placeholders"]) for r in rows)
    stats["key_courts"] = len({r["court_family"] for r in rows})
    (key_dir / "agreement.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(stats, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--key-dir",
        help="the key's folder (default: data/real/placeholder-key; for --check, "
        "the folder two levels above each file)",
    )
    parser.add_argument("--check", nargs="+", metavar="FILE", help="check marked files only")
    args = parser.parse_args(argv)
    if args.check:
        status = 0
        selections: dict[Path, dict[str, dict]] = {}  # each key's selection read once
        for file in args.check:
            path = Path(file)
            # a marked file lies in KEY/passA/ (or passB/, final/): its key is two folders up
            key_dir = Path(args.key_dir) if args.key_dir else path.resolve().parent.parent
            try:
                if key_dir not in selections:
                    selections[key_dir] = load_selection(key_dir)
                selection = selections[key_dir]
                if path.stem not in selection:
                    raise KeyMarkupError(f"{path.stem} is not in {key_dir / 'selection.jsonl'}")
                spans = read_marked(path, selection[path.stem]["text"])
                print(f"{path.name}: ok, {len(spans)} placeholders")
            except (KeyMarkupError, OSError) as error:
                print(f"{path.name}: {error}", file=sys.stderr)
                status = 1
        return status
    return build(Path(args.key_dir or KEY_DIR))


if __name__ == "__main__":
    raise SystemExit(main())
