"""``hf-anon anonymize``: its options, and the run that reads them (the files, the model,
the plan, the key) handed to :class:`hf_anon.apply.batch.BatchRun`."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from hf_anon.apply.batch import (
    BatchRun,
    Summary,
    input_language,
    open_key,
    partial_key,
    process_state,
    terminate_as_interrupt,
)
from hf_anon.apply.topics.redactor import TOPIC_MODES
from hf_anon.cli.arguments import (
    add_decoding_arguments,
    add_language_argument,
    add_load_arguments,
    add_progress_argument,
    decoding_kwargs,
    load_options,
)
from hf_anon.cli.topics import add_topic_arguments, build_redactor
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.languages import check_model_language
from hf_anon.text.readers import (
    InputError,
    collect_inputs,
)


def cmd_anonymize(args: argparse.Namespace) -> int:
    from hf_anon.apply.anonymize import Anonymizer, Redact

    secret = None
    if args.secret_env:
        secret = os.environ.get(args.secret_env)
        if not secret:
            raise InputError(f"environment variable {args.secret_env} is not set or empty")
    operators = {}
    for item in args.operator or []:
        label, sep, mode = item.partition("=")
        if not sep:
            raise InputError(f"--operator takes LABEL=MODE, got {item!r}")
        operators[label] = mode
    files, skipped = collect_inputs(args.input)
    if args.topic_mode and not args.topic:
        raise InputError("--topic-mode needs --topic")
    topics = build_redactor(args, default_all=False)  # a bad topic fails before the model loads
    state = process_state()
    # with --model the model's own language counts; else --language picks the bundled model
    language = "de" if args.model else input_language(args.language, files)
    try:
        if args.spans_from:  # reviewed spans instead of a model
            from hf_anon.apply.review import given_spans
            from hf_anon.cli.inputs import read_documents

            reviewed = read_documents(args.spans_from, DEFAULT_LABELS, require_risk=False)
            anonymizer = Anonymizer(given_spans(reviewed), language=language)
        else:
            anonymizer = Anonymizer.from_pretrained(
                args.model,
                language=language,
                options=load_options(args, device=str(state.device) if state else None),
                batch_size=args.batch_size,
                **decoding_kwargs(args),
            )
        check_model_language(anonymizer.language, args.language)
        mode = Redact(args.mask) if args.mode == "redact" and args.mask is not None else args.mode
        plan = anonymizer.plan(
            mode=mode, operators=operators, labels=args.labels, min_risk=args.min_risk
        )
    except ValueError as err:
        raise InputError(str(err)) from None

    batch = BatchRun(args, anonymizer, plan, secret, state, topics)
    summary = Summary(
        files=len(files), skipped=skipped, backend=getattr(anonymizer.detector, "backend", None)
    )
    started = time.perf_counter()
    key_path = Path(args.key_out) if args.key_out else None
    if key_path is not None and batch.is_main:
        batch.key_handle = open_key(key_path, resume=args.resume)
    review_path = Path(args.review_out) if args.review_out else None
    if review_path is not None and batch.is_main:
        batch.review_handle = open_key(review_path, resume=args.resume)
    previous = terminate_as_interrupt()
    try:
        batch.run(files, summary)
    except KeyboardInterrupt:
        if batch.is_main:
            key = f" (their key in {partial_key(key_path)})" if key_path else ""
            print(
                "hf-anon anonymize: interrupted; the outputs written are complete"
                f"{key}, no half-written output is left; run the same command with --resume "
                "to go on",
                file=sys.stderr,
            )
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        for handle in (batch.key_handle, batch.review_handle):
            if handle is not None:
                handle.close()
    for path in (key_path, review_path):
        if path is not None and batch.is_main:
            os.replace(partial_key(path), path)
    summary.seconds = time.perf_counter() - started
    if batch.is_main:
        print(summary.format(), file=sys.stderr)
    return 1 if summary.failed else 0


def add_anonymize_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``anonymize`` on the ``hf-anon`` sub-command parsers."""
    from hf_anon.apply.anonymize import OPERATORS

    parser = commands.add_parser(
        "anonymize",
        help="anonymize .txt, .docx, .pdf and .jsonl files with a trained model",
        description=(
            "Detect sensitive spans with a trained hf-anon model and replace them "
            "(pseudonyms, labels, random initials or a mask), consistently per entity within "
            "each document; the surface forms of replaced spans are also replaced wherever "
            "else they occur. INPUT: .txt, .docx and .pdf files (one document each; the text "
            "of .docx and .pdf is extracted and written as .txt, and a .docx also comes back "
            "as an anonymized .docx: formatting kept; comments, tracked changes, hidden text, "
            "properties and image metadata removed) and .jsonl files (id and "
            "text per line), or folders of them. A file that fails gets no output and is "
            "reported; the exit code is then 1."
        ),
    )
    parser.add_argument("input", nargs="+", metavar="INPUT", help="files or folders")
    parser.add_argument(
        "--model",
        default=None,
        help="hf-anon model folder or hub id (default: the bundled model of the language, "
        "hf-anon-de-e5-small or hf-anon-ja-e5-small)",
    )
    add_language_argument(parser, default="auto")
    parser.add_argument("--output", required=True, metavar="DIR", help="output folder")
    parser.add_argument(
        "--mode",
        default="pseudonym",
        choices=sorted(OPERATORS),
        help="operator for all selected labels (default: pseudonym)",
    )
    parser.add_argument(
        "--operator",
        action="append",
        metavar="LABEL=MODE",
        help="operator for one label, e.g. court-name=keep (repeatable)",
    )
    parser.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help=f"replace only these labels (default all: {', '.join(DEFAULT_LABELS.names)})",
    )
    parser.add_argument(
        "--min-risk",
        choices=list(DEFAULT_LABELS.risks),
        help="replace only spans of at least this risk (a span counts at least as its "
        "label's usual risk)",
    )
    parser.add_argument("--mask", help="the mask of --mode redact (default […])")
    parser.add_argument(
        "--threshold",
        type=float,
        help="a token is inside a span when 1 - P(O) >= threshold (lower: more recall)",
    )
    parser.add_argument(
        "--format",
        default="auto",
        choices=["auto", "txt", "jsonl"],
        help="output format (default: as the input; jsonl adds the replaced spans)",
    )
    parser.add_argument(
        "--revisions",
        default="accept",
        choices=["accept", "reject"],
        help="tracked changes of .docx inputs: accepted (default) or rejected; either way "
        "no history stays in the written file",
    )
    parser.add_argument(
        "--key-out",
        metavar="FILE",
        help="write the key (originals of all replacements, JSON Lines) here; keep it secret",
    )
    parser.add_argument(
        "--review-out",
        metavar="FILE",
        help="write every document's spans on its original text, with scores and doubt "
        "flags, for review (JSON Lines; hf-anon label-studio export turns it into tasks); "
        "it holds the originals: keep it secret",
    )
    parser.add_argument(
        "--spans-from",
        metavar="FILE",
        help="replace the spans of this gold JSON Lines file (reviewed: hf-anon label-studio "
        "import) instead of running a model; it must hold the inputs' texts",
    )
    parser.add_argument(
        "--secret-env",
        metavar="VAR",
        help="environment variable holding a secret: the same entity then gets the same "
        "replacement in all documents (without it, nothing links documents)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="skip the inputs whose output exists (an interrupted run leaves only complete "
        "outputs) and append to the key of the earlier run",
    )
    parser.add_argument("--seed", type=int, help="reproducible replacements")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    add_load_arguments(parser)
    add_decoding_arguments(parser)
    add_topic_arguments(parser, default_all=False)
    parser.add_argument(
        "--topic-mode",
        choices=TOPIC_MODES,
        help="how topic phrases are replaced: the mask (redact) or <topic:NAME> (label); "
        "default: label with --mode label, else redact",
    )
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_anonymize)
    return parser
