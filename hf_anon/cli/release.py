"""``hf-anon release``: a float16 release folder of a trained model."""

from __future__ import annotations

import argparse

from hf_anon.text.readers import InputError


def cmd_release(args: argparse.Namespace) -> int:
    from hf_anon.distribution.models import release_model

    try:
        out = release_model(args.model, args.out, dtype=args.dtype)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"released to {out} ({size / 1e6:.1f} MB); next: hf-anon report, then hf-anon card")
    return 0


def add_release_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon release``."""
    parser = commands.add_parser(
        "release",
        help="copy a trained model into a distributable folder (fp16 weights, card)",
    )
    parser.add_argument("--model", required=True, help="trained model folder (…/best)")
    parser.add_argument("--out", required=True, help="release folder, e.g. models/NAME")
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16", "float32"])
    parser.set_defaults(func=cmd_release)
    return parser
