"""Copy a corpus folder without the decisions that any annotation selection names.

    python datasets_scripts/drop_selected.py corpora/real_silver_taught corpora/real_silver_clean

The silver corpus is built from every real decision the annotation had not drawn yet; later
rounds drew some of them (the training rounds 4 and 5, the unseen-court test). A model trained
on the old corpus would see those texts with silver labels, so the unseen-court test would not
be unseen, nor the new training texts used once. Rebuilding the corpus needs the teacher model
over 1,300 decisions (an hour on the CPU); leaving out the selected decisions gives the same
corpus the rebuild would give for the others.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from hf_anon.text.readers import read_ids

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="a corpus folder (save_corpus)")
    parser.add_argument("target", type=Path, help="where the copy goes")
    args = parser.parse_args(argv)
    from datasets import load_from_disk

    selections = sorted((ROOT / "data" / "real").glob("**/selection.jsonl"))
    dropped = read_ids(selections)
    corpus = load_from_disk(str(args.source))
    kept = corpus.filter(lambda row: row["id"] not in dropped)
    kept.save_to_disk(str(args.target))
    for extra in args.source.glob("*.json"):
        if not (args.target / extra.name).exists():
            shutil.copy(extra, args.target / extra.name)
    for split in corpus:
        print(f"{split}: {len(corpus[split])} -> {len(kept[split])} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
