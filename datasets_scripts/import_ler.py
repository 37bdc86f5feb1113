"""Import the German LER corpus as a span corpus in our labels.

Reads ``ler_dev.conll`` (→ split ``train``) and ``ler_test.conll`` (→ split ``test``,
kept apart because we evaluate on it later), maps LER's 19 classes to our labels with
the table in :mod:`hf_anon.corpora.ler`, adjusts span boundaries to the annotation
guidelines (``../shared/ANNOTATION.md``), replaces placeholder mentions (``Herrn G.``,
``X GmbH``) by realistic surrogates unless ``--no-pseudonymize``, and saves a
``datasets.DatasetDict`` with :func:`hf_anon.corpora.corpus.save_corpus`. Optionally also
writes the placeholder key from LER's tags (``--key-jsonl``) and the raw TimeML text as
decisions (``--raw-jsonl``).

Example (from the project root)::

    python datasets_scripts/import_ler.py --ler-dir ../shared/data/ler \\
        --output /tmp/ler_corpus --raw-jsonl /tmp/ler_raw.jsonl --key-jsonl /tmp/ler_key.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from hf_anon.corpora.corpus import corpus_statistics, format_statistics, save_corpus
from hf_anon.corpora.ler import (
    Anomalies,
    LerStats,
    RawLine,
    check_labels,
    court_of,
    ler_corpus,
    locate_sentences,
    pseudonymize_ler,
    raw_documents,
    raw_files,
    read_conll,
    read_raw_lines,
    save_raw_jsonl,
)
from hf_anon.distribution.datasets import push_as_asked
from hf_anon.text.data import Document, save_jsonl

SPLITS = {"train": "ler_dev.conll", "test": "ler_test.conll"}
ID_PREFIX = {"train": "dev", "test": "test"}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Import the LER corpus (German federal court decisions) as a span "
        "corpus in the hf-anon labels: train from ler_dev.conll, test from ler_test.conll.",
    )
    parser.add_argument(
        "--ler-dir",
        default="../shared/data/ler",
        help="folder with ler_dev.conll, ler_test.conll and raw/*_timex.txt (default: %(default)s)",
    )
    parser.add_argument("--output", required=True, help="folder for the DatasetDict")
    parser.add_argument(
        "--sentences-per-document",
        type=int,
        default=25,
        help="sentences per document (default: %(default)s); raw decisions of courts "
        "whose text marks decision ends are kept whole",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates")
    parser.add_argument(
        "--no-pseudonymize",
        action="store_true",
        help="keep the placeholders of the published text instead of surrogates",
    )
    parser.add_argument(
        "--order",
        choices=("raw", "file"),
        default="raw",
        help="'raw': put CoNLL sentences back into the raw text's order per court, so a "
        "document holds one court's sentences in reading order (needs raw/); 'file': "
        "keep the shuffled file order (default: %(default)s)",
    )
    parser.add_argument(
        "--raw-jsonl",
        metavar="FILE",
        help='also write the raw text as decisions {"id", "domain", "text", "timex_dates"}',
    )
    parser.add_argument(
        "--key-jsonl",
        metavar="FILE",
        help="also write the placeholder key from LER's tags (both splits; same ids and "
        "texts as a --no-pseudonymize corpus)",
    )
    parser.add_argument("--push-to-hub", metavar="REPO_ID", help="also push the corpus")
    parser.add_argument(
        "--public", action="store_true", help="push as a public dataset (default: private)"
    )
    args = parser.parse_args(argv)
    if args.sentences_per_document < 1:
        parser.error("--sentences-per-document must be at least 1")
    ler_dir = Path(args.ler_dir)
    missing = [name for name in SPLITS.values() if not (ler_dir / name).is_file()]
    if missing:
        parser.error(
            f"--ler-dir {ler_dir}: missing {', '.join(missing)}; point --ler-dir at the LER "
            "data folder (../shared/data/ler from the project root)"
        )
    needs_raw = args.order == "raw" or args.raw_jsonl
    if needs_raw and not raw_files(ler_dir / "raw"):
        parser.error(
            f"{ler_dir / 'raw'}: no *_timex.txt files; they are needed for --order raw and "
            "--raw-jsonl (use --order file without --raw-jsonl to do without them)"
        )
    return args


def read_raw(ler_dir: Path, anomalies: Anomalies) -> dict[str, list[RawLine]]:
    """The raw sentences per court."""
    files = raw_files(ler_dir / "raw")
    return {
        court_of(path): read_raw_lines(path, anomalies)
        for path in tqdm(files, desc="read raw text", unit="court")
    }


def raw_summary(docs: Sequence[Document], raw: dict[str, list[RawLine]]) -> str:
    """Documents, sentences and TIMEX3 dates per court of the raw decisions."""
    docs_by_court = Counter(doc.domain for doc in docs)
    dates = Counter()
    for doc in docs:
        dates[doc.domain] += len(doc.meta.get("timex_dates", []))
    lines = [f"{'court':8}{'documents':>11}{'sentences':>11}{'DATE spans':>12}"]
    for court, court_lines in raw.items():
        lines.append(f"{court:8}{docs_by_court[court]:11,}{len(court_lines):11,}{dates[court]:12,}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    check_labels()
    ler_dir = Path(args.ler_dir)
    anomalies = Anomalies()
    stats = LerStats(anomalies=anomalies)

    sentences = {}
    for split, name in tqdm(SPLITS.items(), desc="read CoNLL", unit="file"):
        sentences[split] = read_conll(ler_dir / name, anomalies)[0]
    raw = read_raw(ler_dir, anomalies) if args.order == "raw" or args.raw_jsonl else {}

    splits: dict[str, list[Document]] = {}
    key: list[Document] = []
    for split, split_sentences in sentences.items():
        locations = (
            locate_sentences(split_sentences, raw, anomalies) if args.order == "raw" else None
        )
        docs, split_key = ler_corpus(
            split_sentences,
            ID_PREFIX[split],
            args.sentences_per_document,
            locations,
            stats,
            progress=lambda groups, split=split: tqdm(groups, desc=f"convert {split}", unit="doc"),
        )
        splits[split] = docs
        key += split_key
    if not args.no_pseudonymize:
        try:
            for split, docs in splits.items():
                progress = tqdm(docs, desc=f"pseudonymize {split}", unit="doc")
                splits[split] = pseudonymize_ler(progress, args.seed, stats)
        except ImportError as err:
            print(
                f"error: pseudonymization needs hf_anon.corpora.surrogates.Pseudonymizer ({err}); "
                "run with --no-pseudonymize to keep the placeholders",
                file=sys.stderr,
            )
            return 1

    save_corpus(splits, args.output)
    push_as_asked(args)
    if args.key_jsonl:
        save_jsonl(key, args.key_jsonl, spans_key="placeholders")
    raw_docs: list[Document] = []
    if args.raw_jsonl:
        for court, lines in tqdm(raw.items(), desc="raw documents", unit="court"):
            raw_docs += raw_documents(court, lines, args.sentences_per_document)
        save_raw_jsonl(raw_docs, args.raw_jsonl)

    print()
    print(
        f"LER corpus → {args.output}"
        + (f" (pushed to {args.push_to_hub})" if args.push_to_hub else "")
    )
    print(format_statistics(corpus_statistics(splits)))
    print()
    print(stats.format())
    placeholder_spans = sum(stats.placeholders.values())
    replaced = sum(stats.pseudonymized.values())
    print(
        f"placeholder mentions: {placeholder_spans:,} sensitive spans are placeholders, "
        f"{sum(stats.placeholder_in_dropped.values()):,} placeholder-shaped mentions in classes "
        f"that are not sensitive; pseudonymized: "
        + (f"{replaced:,}" if not args.no_pseudonymize else "none (--no-pseudonymize)")
    )
    if args.key_jsonl:
        print(
            f"placeholder key: {len(key):,} documents, {sum(len(d.spans) for d in key):,} "
            f"spans → {args.key_jsonl}"
        )
    if args.raw_jsonl:
        print(f"raw decisions: {len(raw_docs):,} documents → {args.raw_jsonl}")
        print(raw_summary(raw_docs, raw))
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
