"""``hf-anon card``: the model card of a model folder, written as its README.md."""

from __future__ import annotations

import argparse

from hf_anon.text.readers import InputError


def cmd_card(args: argparse.Namespace) -> int:
    from hf_anon.distribution.model_card import write_model_card

    try:
        path = write_model_card(args.model, repo_id=args.repo_id, base_model=args.base_model)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    print(f"model card written to {path}")
    return 0


def add_card_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon card``."""
    parser = commands.add_parser(
        "card",
        help="(re)generate a model folder's README.md model card",
        description=(
            "Render the model card from the folder's config (labels, inference settings), "
            "training_config.json, training_info.json, eval_results.json and "
            "report/report.json."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder")
    parser.add_argument("--repo-id", default=None, help="hub id used in the usage snippets")
    parser.add_argument(
        "--base-model",
        default=None,
        metavar="HUB_ID",
        help="hub id of the encoder it was trained from (default: the one training recorded)",
    )
    parser.set_defaults(func=cmd_card)
    return parser
