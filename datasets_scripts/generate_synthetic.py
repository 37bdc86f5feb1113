"""Synthetic German decisions (or Japanese passages) with gold spans → a span corpus.

    python datasets_scripts/generate_synthetic.py --output DIR [--num-documents 2000]
    python datasets_scripts/generate_synthetic.py --language ja --output DIR

With --language ja: Japanese precedent passages (criminal, traffic, civil, family) from
hf_anon.corpora.japanese.synthetic, annotated as data/ja/GUIDE.md says.

Writes Amtsgericht decisions and passages in tenancy and traffic cases (Rubrum with
parties, addresses and lawyers, Tenor, facts with flats, floors, plates, VINs, IBANs,
phone numbers, dates; Rechtsbehelfsbelehrung, signatures) from hf_anon.corpora.synthetic, with
exact gold spans, labels and risks. The same --seed gives the same corpus; document k
depends only on the seed and k. Nothing is downloaded.

With --augment each decision is also varied as real published ones are
(hf_anon.corpora.augment): hard-negative paragraphs (cited precedents, publication references,
commentaries, statutes, authorities without a place, drugs and body parts), a head or a
whole decision in capitals, hard line breaks and hyphenated words. --everyday-negatives P
adds, to a share P of the decisions, paragraphs with everyday common nouns where names
stand (``Der Kläger ist einem Reh ausgewichen.``), the times of rules and the dates of
statutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tqdm.auto import tqdm

from hf_anon.corpora.augment import AugmentConfig, augment
from hf_anon.corpora.corpus import (
    add_corpus_arguments,
    corpus_statistics,
    format_statistics,
    write_corpus,
)
from hf_anon.corpora.japanese.synthetic import generate_japanese_document
from hf_anon.corpora.synthetic import generate_document
from hf_anon.distribution.datasets import push_as_asked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[-1]
    )
    parser.add_argument(
        "--num-documents", type=int, default=2000, help="how many documents (default: 2000)"
    )
    parser.add_argument(
        "--augment",
        action="store_true",
        help="vary the decisions as real ones are: hard negatives, capitals, line breaks",
    )
    parser.add_argument(
        "--everyday-negatives",
        type=float,
        default=0.0,
        metavar="P",
        help="with --augment: share of decisions with everyday-noun and rule-time paragraphs "
        "(default 0)",
    )
    parser.add_argument("--language", choices=["de", "ja"], default="de", help="de (default) or ja")
    add_corpus_arguments(parser)
    args = parser.parse_args(argv)
    if args.num_documents < 1:
        parser.error("--num-documents must be at least 1")
    if args.augment and args.language != "de":
        parser.error("--augment varies German decisions only")
    if not 0.0 <= args.everyday_negatives <= 1.0:
        parser.error("--everyday-negatives must be between 0 and 1")
    if args.everyday_negatives and not args.augment:
        parser.error("--everyday-negatives needs --augment")
    config = AugmentConfig(everyday_negatives=args.everyday_negatives)
    began = time.perf_counter()
    generate = generate_document if args.language == "de" else generate_japanese_document
    documents = [
        generate(index, args.seed)
        for index in tqdm(range(1, args.num_documents + 1), desc="generate", unit="doc")
    ]
    if args.augment:  # one generator per document: any slice can be regenerated alone
        documents = [
            augment(doc, random.Random(f"augment\x00{args.seed}\x00{doc.id}"), config)
            for doc in tqdm(documents, desc="augment", unit="doc")
        ]
    try:
        splits = write_corpus(documents, args)
        push_as_asked(args)
    except ValueError as err:  # split fractions that leave no room for training
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(format_statistics(corpus_statistics(splits)))
    print(f"written to {args.output} in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
