"""``hf-anon push``: a model, a demo Space or a corpus to the Hub (``--dry-run`` shows
the plan)."""

from __future__ import annotations

import argparse
import sys

from hf_anon.text.readers import InputError


def cmd_push(args: argparse.Namespace) -> int:
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    from hf_anon.distribution.models import push_model
    from hf_anon.distribution.plans import PushError
    from hf_anon.distribution.spaces import push_space

    common = {"token": args.token, "dry_run": args.dry_run, "endpoint": args.endpoint}
    try:
        push_model(
            args.model, args.repo_id, private=args.private, commit_message=args.message, **common
        )
        if args.space:
            print()
            push_space(
                args.space,
                args.repo_id,
                app_file=args.space_app,
                requirement=args.space_requirement,
                **common,
            )
            if args.private:
                print(
                    "note: the model repo is private: give the Space an HF_TOKEN secret "
                    "that can read it",
                    file=sys.stderr,
                )
    except PushError as err:
        raise InputError(str(err)) from None
    except (HfHubHTTPError, OfflineModeIsEnabled) as err:
        message = " ".join(str(err).split())
        print(f"hf-anon push: error: {message}", file=sys.stderr)
        return 1
    return 0


def add_push_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon push``."""
    parser = commands.add_parser(
        "push",
        help="upload a trained model (and a demo Space) to the Hugging Face Hub",
        description=(
            "Upload a trained hf-anon model folder to a hub model repo in one commit: "
            "weights (*.safetensors), tokenizer files, config.json, modeling.py, pipeline.py, "
            "pipeline_decoding.py, "
            "training_config.json, eval_results.json, the README.md model card and "
            "report/. Nothing else goes up (training data, checkpoints, optimizer states, "
            ".env are listed as left out). The files and sizes are printed first. The "
            "token defaults to HF_TOKEN or the cached `hf auth login`; it is never printed."
        ),
    )
    parser.add_argument(
        "--model",
        required=True,
        help="hf-anon model folder with README.md, or a LoRA adapter folder (train.py "
        "--save_adapter true)",
    )
    parser.add_argument("--repo-id", required=True, metavar="ORG/NAME", help="hub model repo")
    parser.add_argument("--private", action="store_true", help="create the model repo private")
    parser.add_argument(
        "--space", metavar="ORG/NAME", help="also push a Gradio demo Space for the model"
    )
    parser.add_argument(
        "--space-app", default=None, help="the Space's app.py (default: the checkout's app.py)"
    )
    parser.add_argument(
        "--space-requirement",
        default=None,
        metavar="URL",
        help=(
            "a URL the Space installs hf-anon from (e.g. "
            "git+https://github.com/ORG/hf-anon@v0.1.0, or a wheel's https URL); default: "
            "the Space carries this hf_anon package itself and pins its dependencies to "
            "the installed versions"
        ),
    )
    parser.add_argument("--dry-run", action="store_true", help="list the files, upload nothing")
    parser.add_argument(
        "--token", default=None, help="hub token (prefer HF_TOKEN: options show up in `ps`)"
    )
    parser.add_argument("--message", default=None, help="commit message")
    parser.add_argument(
        "--endpoint", default=None, help="hub URL (default: HF_ENDPOINT or huggingface.co)"
    )
    parser.set_defaults(func=cmd_push)
    return parser
