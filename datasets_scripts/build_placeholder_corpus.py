"""Published decisions → documents labelled with their anonymization placeholders.

    python datasets_scripts/build_placeholder_corpus.py DECISIONS... --output DIR

DECISIONS are .txt files (one decision each), .jsonl files (one decision a line with
"id" and "text") or folders of them. The result is the corpus of seed 000: each
document with "placeholders" [{start, end, label}] (label "unknown" where no cue
decides), as a datasets.DatasetDict with train/validation/test splits. Use it for
training with the masking schemes of seed 000 (section 5.4.2), or pseudonymize it with
build_pseudonymized_corpus.py.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from hf_anon.corpora.corpus import (
    corpus_script_parser,
    corpus_statistics,
    format_statistics,
    read_decisions,
    write_corpus,
)
from hf_anon.corpora.placeholders import UNKNOWN, annotate_placeholders
from hf_anon.distribution.datasets import push_as_asked
from hf_anon.text.data import ValidationError


def main(argv: list[str] | None = None) -> int:
    parser = corpus_script_parser(__doc__)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        decisions = read_decisions(args.inputs)
    except (OSError, ValidationError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    documents = annotate_placeholders(decisions)
    splits = write_corpus(documents, args, spans_key="placeholders", extra_labels=[UNKNOWN])
    push_as_asked(args)
    labels = Counter(s.label for d in documents for s in d.spans)
    total = sum(labels.values())
    print(format_statistics(corpus_statistics(splits)))
    print(
        f"placeholders: {total:,} in {sum(1 for d in documents if d.spans):,} of "
        f"{len(documents):,} documents; unknown label: {labels[UNKNOWN]:,} "
        f"({labels[UNKNOWN] / total if total else 0:.1%})"
    )
    print(f"written to {args.output} in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
