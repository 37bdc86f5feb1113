"""``hf-anon remote-code``: the remote code of model folders (``modeling.py``, ``pipeline.py``,
``pipeline_decoding.py``) written from the library (``--check``: only say which differ)."""

from __future__ import annotations

import argparse

from hf_anon.distribution.remote_code import stale_remote_code, write_remote_code
from hf_anon.model.model_folder import DEFAULT_MODEL_NAMES, REPO_ROOT
from hf_anon.text.readers import InputError


def bundled_model_folders() -> list[str]:
    """The bundled models of the checkout (``models/NAME`` of every language)."""
    folders = [REPO_ROOT / "models" / name for name in DEFAULT_MODEL_NAMES.values()]
    return [str(folder) for folder in folders if folder.is_dir()]


def cmd_remote_code(args: argparse.Namespace) -> int:
    folders = args.folders or bundled_model_folders()
    if not folders:
        raise InputError("no model folder given and no bundled model in this checkout")
    stale_any = False
    for folder in folders:
        try:
            names = stale_remote_code(folder) if args.check else write_remote_code(folder)
        except ValueError as err:
            raise InputError(str(err)) from None
        stale_any |= bool(names)
        verb = "differs" if args.check else "written"
        print(f"{folder}: " + (f"{', '.join(names)} {verb}" if names else "up to date"))
    return 1 if args.check and stale_any else 0


def add_remote_code_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon remote-code``."""
    parser = commands.add_parser(
        "remote-code",
        help="write the remote code of model folders from the library",
        description=(
            "Write the remote code of model folders (modeling.py, pipeline.py, "
            "pipeline_decoding.py: what "
            "transformers runs with trust_remote_code=True where hf-anon is not installed) "
            "from the library, so that no folder keeps a stale copy. Default: the bundled "
            "models. With --check nothing is written; the exit code is 1 if a file differs."
        ),
    )
    parser.add_argument("folders", nargs="*", metavar="FOLDER", help="model folders")
    parser.add_argument("--check", action="store_true", help="only report files that differ")
    parser.set_defaults(func=cmd_remote_code)
    return parser
