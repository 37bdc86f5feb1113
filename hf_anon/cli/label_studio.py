"""``hf-anon label-studio``: review in Label Studio (labelling config, tasks out, gold back).

    hf-anon label-studio config --output config.xml
    hf-anon label-studio export --input review.jsonl --output tasks.json
    hf-anon label-studio import --input export.json --output gold.jsonl

``review.jsonl`` comes from ``hf-anon anonymize --review-out`` (or any gold JSON Lines
file); ``export.json`` is Label Studio's JSON export of the completed tasks. The gold file
goes back into outputs with ``hf-anon anonymize --spans-from gold.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hf_anon.text.data import iter_jsonl, save_jsonl
from hf_anon.text.readers import InputError


def _write(path: str, text: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text, encoding="utf-8")


def cmd_config(args: argparse.Namespace) -> int:
    from hf_anon.apply.label_studio import labeling_config

    _write(args.output, labeling_config())
    print(f"labelling config: {args.output}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from hf_anon.apply.label_studio import to_tasks

    try:
        records = [record for _, record in iter_jsonl(args.input)]
    except FileNotFoundError:
        raise InputError(f"{args.input}: no such file") from None
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict) or not {"id", "text", "spans"} <= set(record):
            raise InputError(f"{args.input}:{number}: a record needs id, text and spans")
    tasks = to_tasks(records)
    _write(args.output, json.dumps(tasks, ensure_ascii=False, indent=1) + "\n")
    doubtful = sum(task["data"]["doubtful"] for task in tasks)
    print(f"{len(tasks)} tasks ({doubtful} doubtful spans) → {args.output}", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from hf_anon.apply.label_studio import from_export

    try:
        tasks = json.loads(Path(args.input).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{args.input}: no such file") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{args.input}: not a Label Studio JSON export ({err})") from None
    if not isinstance(tasks, list):
        raise InputError(f"{args.input}: not a Label Studio JSON export (a list of tasks)")
    try:
        documents, open_ids = from_export(tasks)
    except ValueError as err:
        raise InputError(f"{args.input}: {err}") from None
    save_jsonl(documents, args.output)
    spans = sum(len(d.spans) for d in documents)
    print(
        f"{len(documents)} annotated documents, {spans} spans → {args.output}"
        + (
            f"; {len(open_ids)} tasks not annotated yet: {', '.join(open_ids[:5])}"
            if open_ids
            else ""
        ),
        file=sys.stderr,
    )
    return 0


def add_label_studio_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon label-studio`` and its three steps."""
    parser = commands.add_parser(
        "label-studio",
        help="review in Label Studio: labelling config, pre-annotated tasks, gold back",
        description=__doc__.split("\n\n")[0],
    )
    steps = parser.add_subparsers(dest="step", required=True, metavar="STEP")
    config = steps.add_parser("config", help="the project's labelling config (XML)")
    config.add_argument("--output", required=True, help="config file to write")
    config.set_defaults(func=cmd_config)
    export = steps.add_parser("export", help="review records or gold → Label Studio tasks")
    export.add_argument("--input", required=True, help="review or gold JSON Lines file")
    export.add_argument("--output", required=True, help="tasks JSON file to import")
    export.set_defaults(func=cmd_export)
    back = steps.add_parser("import", help="Label Studio JSON export → gold JSON Lines")
    back.add_argument("--input", required=True, help="Label Studio JSON export")
    back.add_argument("--output", required=True, help="gold JSON Lines file to write")
    back.set_defaults(func=cmd_import)
    return parser
