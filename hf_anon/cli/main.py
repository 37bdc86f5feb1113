"""The ``hf-anon`` command line: the parser of every sub-command, and :func:`main`.

Sub-commands are a stable contract (external checks call them): add options, never
rename or remove them. Invalid input ends with exit code 2 and a one-line message.

Each sub-command is a module of :mod:`hf_anon.cli` with a ``cmd_<name>`` function and an
``add_<name>_parser`` beside it that registers its options; :data:`PARSERS` lists them. The
flags several commands share are in :mod:`hf_anon.cli.arguments`, what several read and
write in :mod:`hf_anon.cli.inputs`; the input files are read by :mod:`hf_anon.text.readers`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hf_anon import __version__
from hf_anon.cli.anonymize import add_anonymize_parser
from hf_anon.cli.base_model import add_base_model_parser
from hf_anon.cli.calibrate import add_calibrate_parser
from hf_anon.cli.card import add_card_parser
from hf_anon.cli.detect import add_detect_parser
from hf_anon.cli.evaluate import add_evaluate_parser
from hf_anon.cli.export import add_export_parser
from hf_anon.cli.inputs import EXIT_INVALID_INPUT
from hf_anon.cli.label_studio import add_label_studio_parser
from hf_anon.cli.placeholders import add_placeholders_parser
from hf_anon.cli.pseudonymize import add_pseudonymize_parser
from hf_anon.cli.push import add_push_parser
from hf_anon.cli.release import add_release_parser
from hf_anon.cli.remote_code import add_remote_code_parser
from hf_anon.cli.report import add_report_parser
from hf_anon.cli.select import add_select_parser
from hf_anon.cli.topics import add_topics_parser
from hf_anon.text.data import ValidationError
from hf_anon.text.readers import InputError

#: The sub-commands in the order ``hf-anon --help`` lists them; each registers its own
#: parser (``add_<command>_parser``) beside the function that runs it.
PARSERS = (
    add_evaluate_parser,
    add_placeholders_parser,
    add_pseudonymize_parser,
    add_detect_parser,
    add_report_parser,
    add_calibrate_parser,
    add_card_parser,
    add_release_parser,
    add_remote_code_parser,
    add_export_parser,
    add_push_parser,
    add_base_model_parser,
    add_anonymize_parser,
    add_topics_parser,
    add_label_studio_parser,
    add_select_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hf-anon",
        description="Build, evaluate and apply models that anonymize German court decisions.",
    )
    parser.add_argument("--version", action="version", version=f"hf-anon {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add_parser in PARSERS:
        add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `hf-anon evaluate ... | head`: the reader is gone, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (InputError, ValidationError) as err:
        message = " ".join(str(err).split())
        print(f"hf-anon {args.command}: error: {message}", file=sys.stderr)
        return EXIT_INVALID_INPUT


if __name__ == "__main__":
    sys.exit(main())
