"""Published decisions → pseudonymized documents with gold spans, labels and risks.

    python datasets_scripts/build_pseudonymized_corpus.py DECISIONS... --output DIR

Finds the placeholders of each decision (hf_anon.corpora.placeholders) and replaces them with
realistic, consistent surrogates of the label they hide (hf_anon.corpora.surrogates): "Herr A."
… "A." becomes "Herr Kemal Aydın" … "Aydın", "X-Straße 1" a street with a house
number, "xx.xx.2016" a date in 2016. The surrogates' character ranges are the gold
spans (risk: the label's usual risk). Input fields that hold character offsets
(timex_dates, kept) are not carried over: they would point into the original text.
Placeholders whose label no cue decides are pseudonymized as --unknown-label (default
nat-name, by far the most frequent), or the documents holding them are left out with
--drop-unknown (counted in the summary).
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from tqdm.auto import tqdm

from hf_anon.corpora.corpus import (
    corpus_script_parser,
    corpus_statistics,
    format_statistics,
    read_decisions,
    without_offset_fields,
    write_corpus,
)
from hf_anon.corpora.placeholders import UNKNOWN, annotate_placeholders
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.distribution.datasets import push_as_asked
from hf_anon.text.data import ValidationError
from hf_anon.text.labels import DEFAULT_LABELS


def main(argv: list[str] | None = None) -> int:
    parser = corpus_script_parser(__doc__)
    unknown = parser.add_mutually_exclusive_group()
    unknown.add_argument(
        "--unknown-label",
        default="nat-name",
        choices=DEFAULT_LABELS.names,
        help="label for placeholders no cue decides (default: nat-name)",
    )
    unknown.add_argument(
        "--drop-unknown",
        action="store_true",
        help="leave out documents with placeholders of unknown label instead",
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        decisions = read_decisions(args.inputs)
    except (OSError, ValidationError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    annotated = annotate_placeholders(decisions)
    unknown_counts = Counter(sum(s.label == UNKNOWN for s in d.spans) for d in annotated)
    if args.drop_unknown:
        kept = [d for d in annotated if not any(s.label == UNKNOWN for s in d.spans)]
    else:
        kept = annotated
    pseudonymizer = Pseudonymizer(seed=args.seed, unknown_label=args.unknown_label)
    documents = [
        without_offset_fields(pseudonymizer.pseudonymize(doc))
        for doc in tqdm(kept, desc="pseudonymize", unit="doc")
    ]
    splits = write_corpus(documents, args)
    push_as_asked(args)
    print(format_statistics(corpus_statistics(splits)))
    n_unknown = sum(k * v for k, v in unknown_counts.items())
    dropped = len(annotated) - len(kept)
    print(
        f"placeholders replaced: {sum(len(d.spans) for d in documents):,}; "
        f"of unknown label: {n_unknown:,} "
        + (
            f"(documents dropped: {dropped:,})"
            if args.drop_unknown
            else f"(pseudonymized as {args.unknown_label})"
        )
    )
    print(f"written to {args.output} in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
