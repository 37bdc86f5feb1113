"""Time to build the pseudonymized corpus from all of the raw LER text.

    python benchmarks/corpus_bench.py [--ler-dir ../shared/data/ler] [--seed 0]

Runs the same steps as `import_ler.py --raw-jsonl` followed by
`build_pseudonymized_corpus.py` — read and detokenize the raw files, find the
placeholders, pseudonymize them, save a DatasetDict — and prints the time of each step.
Target: under 5 minutes on a 2-core CPU. Reads ../shared/data/ler/raw/ when it exists.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from hf_anon.corpora.corpus import save_corpus, split_documents, without_offset_fields
from hf_anon.corpora.ler import read_raw_timex
from hf_anon.corpora.placeholders import annotate_placeholders
from hf_anon.corpora.surrogates import Pseudonymizer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ler-dir", default="../shared/data/ler", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files = sorted((args.ler_dir / "raw").glob("*_timex.txt"))
    if not files:
        print(f"no raw LER files under {args.ler_dir / 'raw'}: nothing to measure")
        return 1
    times: dict[str, float] = {}
    began = time.perf_counter()
    decisions = [doc for path in files for doc in read_raw_timex(path)]
    times["read + detokenize"] = time.perf_counter() - began
    step = time.perf_counter()
    annotated = annotate_placeholders(decisions, progress=False)
    times["find placeholders"] = time.perf_counter() - step
    step = time.perf_counter()
    pseudonymizer = Pseudonymizer(seed=args.seed)
    documents = [without_offset_fields(pseudonymizer.pseudonymize(d)) for d in annotated]
    times["pseudonymize"] = time.perf_counter() - step
    step = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        save_corpus(split_documents(documents, seed=args.seed), out)
    times["save DatasetDict"] = time.perf_counter() - step
    total = time.perf_counter() - began
    characters = sum(len(d.text) for d in decisions)
    print(f"raw files: {len(files)}, documents: {len(decisions):,}, characters: {characters:,}")
    print(f"placeholders replaced: {sum(len(d.spans) for d in documents):,}")
    for name, seconds in times.items():
        print(f"{name:20} {seconds:7.1f} s")
    print(f"{'total':20} {total:7.1f} s  ({characters / total / 1e6:.2f} M characters/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
