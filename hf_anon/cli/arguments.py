"""Command-line flags that several ``hf-anon`` sub-commands share, and what they mean.

The commands that run a model (``detect``, ``report``, ``calibrate``, ``anonymize``) take
the same load and decoding flags; each command's parser adds them from here, and
:func:`decoding_kwargs` turns them into the arguments of
:meth:`hf_anon.model.detection.SpanDetector.from_pretrained`. A module of its own, so that the
commands in :mod:`hf_anon.cli` and :mod:`hf_anon.batch` import it without importing
each other.
"""

from __future__ import annotations

import argparse


def add_load_arguments(parser: argparse.ArgumentParser, *, dtype: bool = True) -> None:
    """``--device``, ``--dtype``, ``--backend``, ``--quantize`` and ``--adapter``: how the
    commands that run a model load it (:func:`load_options`)."""
    from hf_anon.model.loading import BACKENDS, DTYPES

    parser.add_argument("--device", help="cpu, cuda, cuda:1, mps (default: cpu)")
    if dtype:
        parser.add_argument(
            "--dtype", choices=DTYPES, help="model weights on a GPU in half precision"
        )
    parser.add_argument(
        "--backend",
        default="auto",
        choices=BACKENDS,
        help="inference backend; onnx: ONNX Runtime on the CPU, exported once and cached; "
        "auto (default): onnx on the CPU (same spans as torch, faster), torch on a GPU "
        "($HF_ANON_BACKEND overrides auto)",
    )
    parser.add_argument(
        "--quantize", action="store_true", help="dynamic int8 quantization (CPU only)"
    )
    parser.add_argument(
        "--adapter",
        metavar="PATH_OR_HUB_ID",
        help="a LoRA adapter (PEFT folder or hub id, e.g. one court's) merged into the model",
    )


def load_options(args: argparse.Namespace, *, device: str | None = None):
    """The :class:`~hf_anon.model.loading.LoadOptions` of the flags of
    :func:`add_load_arguments` (``device``: where ``--device`` is not given); a
    :class:`ValueError` names a combination that cannot run."""
    from hf_anon.model.loading import LoadOptions

    return LoadOptions(
        device=args.device or device,
        dtype=getattr(args, "dtype", None),
        backend=args.backend,
        quantize=args.quantize,
        adapter=args.adapter,
    )


def add_recognizer_arguments(parser: argparse.ArgumentParser) -> None:
    """``--recognizers`` / ``--no-recognizers``: the rules merged with the model's spans."""
    from hf_anon.model.recognizers import RECOGNIZERS

    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--recognizers",
        nargs="+",
        metavar="NAME",
        choices=sorted(RECOGNIZERS),
        help="deterministic recognizers merged with the model's spans (default: those in the "
        f"model's config); one or more of {', '.join(sorted(RECOGNIZERS))}",
    )
    group.add_argument(
        "--no-recognizers", action="store_true", help="the model's spans only, no rules"
    )


def add_decoding_arguments(parser: argparse.ArgumentParser) -> None:
    """The recognizer flags and ``--uncalibrated``, for the commands that decode spans."""
    add_recognizer_arguments(parser)
    parser.add_argument(
        "--uncalibrated",
        action="store_true",
        help="ignore the per-label thresholds of the model's config (decode the most likely tag)",
    )
    parser.add_argument(
        "--no-cited-filter",
        action="store_true",
        help="keep the dates, courts and dockets the model folder's learned citation filter "
        "would drop (cited_filter.*)",
    )


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``: hide the progress bar (``args.progress``)."""
    parser.add_argument(
        "--no-progress", dest="progress", action="store_false", help="hide the progress bar"
    )


def recognizer_choice(args: argparse.Namespace):
    """What ``SpanDetector`` takes for ``recognizers`` from the flags above: ``()`` for
    none, the names given, or ``"config"`` (those of the model's config)."""
    if getattr(args, "no_recognizers", False):
        return ()
    return getattr(args, "recognizers", None) or "config"


def decoding_kwargs(args: argparse.Namespace) -> dict:
    """``recognizers``, ``label_thresholds`` and ``cited_filter`` for
    ``SpanDetector.from_pretrained``."""
    out = {"recognizers": recognizer_choice(args)}
    if getattr(args, "uncalibrated", False):
        out["label_thresholds"] = {}
    if getattr(args, "no_cited_filter", False):
        out["cited_filter"] = False
    return out


def add_language_argument(parser: argparse.ArgumentParser, default: str = "auto") -> None:
    """``--language``: which language's rules and model read the texts."""
    from hf_anon.text.languages import LANGUAGE_CHOICES

    parser.add_argument(
        "--language",
        choices=LANGUAGE_CHOICES,
        default=default,
        help=f"de (German), ja (Japanese) or auto (by script, per text); default {default}",
    )
