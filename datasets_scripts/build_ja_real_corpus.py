"""Real published Japanese precedents → a pseudonymized training corpus (DatasetDict).

    python datasets_scripts/build_ja_real_corpus.py --output corpora/ja_real \\
        [--input data/ja/real/precedents_a.jsonl data/ja/real/precedents_b.jsonl]

The precedents (``data/ja/real/``, from japanese-law-analysis/data_set, CC0; see the README
there) are published with the courts' placeholders. Each one is unwrapped, its
placeholders are found and labelled, what courts leave in clear text (era dates, courts,
dockets, jurists' names, ages) gets silver spans by rule, and every span is replaced by a
realistic Japanese surrogate with a gold span on it (``hf_anon.corpora.japanese.precedents``).
The same --seed gives the same corpus. Never evaluate on it: its spans are silver.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon.corpora.corpus import (
    add_corpus_arguments,
    corpus_statistics,
    format_statistics,
    write_corpus,
)
from hf_anon.corpora.japanese.precedents import precedent_document
from hf_anon.corpora.japanese.surrogates import pseudonymize_japanese
from hf_anon.distribution.datasets import push_as_asked

DEFAULT_INPUTS = sorted(Path("data/ja/real").glob("precedents_*.jsonl"))


def read_precedents(paths: list[Path]) -> list[dict]:
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{number}: invalid JSON ({err.msg})") from None
                if not isinstance(row.get("text"), str) or not row.get("id"):
                    raise ValueError(f"{path}:{number}: needs an id and a text")
                rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[-1]
    )
    parser.add_argument("--input", nargs="+", type=Path, default=DEFAULT_INPUTS)
    add_corpus_arguments(parser)
    args = parser.parse_args(argv)
    if not args.input:
        print("error: no precedents (data/ja/real/precedents_*.jsonl)", file=sys.stderr)
        return 2
    began = time.perf_counter()
    try:
        rows = read_precedents(args.input)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    documents = [
        pseudonymize_japanese(precedent_document(row), seed=args.seed)
        for row in tqdm(rows, desc="pseudonymize", unit="doc")
    ]
    try:
        splits = write_corpus(documents, args)
        push_as_asked(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(format_statistics(corpus_statistics(splits)))
    print(f"written to {args.output} in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
