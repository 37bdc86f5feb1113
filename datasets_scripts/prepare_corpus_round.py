"""Every usable decision of one corpus as a training round, the unseen-court tests' courts out.

    python datasets_scripts/prepare_corpus_round.py --corpus corpora/juris_lg.jsonl \
        --out data/real/annotation-train10 --longest 100000

``prepare_real_annotation.py`` draws a stratified sample by court type from the shared
decisions; a small corpus of one publisher's conventions (the Landgerichte of
``import_juris_exports.py``) is worth annotating whole instead. This takes each decision of
``--corpus`` that no selection has yet, that is long enough and at most ``--longest``
characters, and whose court is none of the unseen-court tests' (``data/real/unseen-courts*/``:
a court trained on is no longer unseen), and writes ``OUT/selection.jsonl`` and
``OUT/pass1/NAME.txt`` (placeholders pre-marked and filled) as the other rounds have them;
existing pass files are never overwritten.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from prepare_real_annotation import MIN_CHARS, guess_domain, pre_annotate, usable
from prepare_unseen_courts import taken_ids

from hf_anon.corpora.courts import court_identity, courts_of
from hf_anon.corpora.markup import markup_file_name
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.text.readers import read_jsonl_texts

ROOT = Path(__file__).resolve().parents[1]


def unseen_test_courts(real_root: Path) -> set[str]:
    """The courts of every unseen-court test (``unseen-courts``, ``unseen-courts-juris``)."""
    return courts_of(real_root.glob("unseen-courts*/selection.jsonl"))


def eligible(rows: list[dict], *, kept_out: set[str], taken: set[str], longest: int) -> list[dict]:
    """The decisions a round may take, in the corpus's order."""
    excluded = kept_out | {None}  # a decision without a court cannot be kept out
    return [
        row
        for row in rows
        if row["id"] not in taken
        and court_identity(row.get("court")) not in excluded
        and MIN_CHARS <= len(row["text"]) <= longest
        and usable(row["text"])
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, type=Path, help="JSON Lines (.gz too)")
    parser.add_argument("--out", required=True, type=Path, help="annotation folder")
    parser.add_argument("--longest", type=int, default=100_000, help="characters at most")
    parser.add_argument("--seed", type=int, default=46, help="the pseudonymizer's seed")
    args = parser.parse_args(argv)
    if not args.corpus.exists():
        parser.error(f"{args.corpus}: no such corpus")
    real_root, out = ROOT / "data" / "real", args.out.resolve()
    rows = eligible(
        list(read_jsonl_texts(args.corpus)),
        kept_out=unseen_test_courts(real_root),
        taken=taken_ids(real_root, out),
        longest=args.longest,
    )
    (out / "pass1").mkdir(parents=True, exist_ok=True)
    pseudonymizer = Pseudonymizer(seed=args.seed)
    with (out / "selection.jsonl").open("w", encoding="utf-8") as handle:
        for row in rows:
            record = {
                "id": row["id"],
                "domain": guess_domain(row["text"]),
                "text": row["text"],
                **{k: row.get(k) for k in ("source", "court", "court_type", "date", "licence")},
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            target = out / "pass1" / f"{markup_file_name(row['id'])}.txt"
            if not target.exists():
                target.write_text(pre_annotate(record, pseudonymizer, None), encoding="utf-8")
    chars = sum(len(row["text"]) for row in rows)
    print(f"{len(rows)} decisions of {len({court_identity(r['court']) for r in rows})} courts, "
          f"{chars:,} characters -> {out}")  # fmt: skip
    for row in rows:
        print(f"  {court_identity(row['court'])}: {row['id']} ({len(row['text']):,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
