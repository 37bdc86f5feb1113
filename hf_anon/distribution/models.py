"""Model releases (a float16 copy with its card) and model pushes to the Hub.

Where models come from is :mod:`hf_anon.model.model_folder`: a checkout carries the default
model under ``models/``; an installed package without it falls back to the same model's
hub id. ``HF_ANON_MODEL`` overrides both (a folder or a hub id).
"""

from __future__ import annotations

import json
from pathlib import Path

from hf_anon.distribution.plans import (
    NEVER_UPLOAD_SUFFIXES,
    PlannedFile,
    PushError,
    PushPlan,
    check_no_token,
    commit,
    create_repo,
    human_size,
    summarize,
)
from hf_anon.model.model_folder import ModelFolder
from hf_anon.model.placeholder_tagger import ADAPTER_FILES as TAGGER_ADAPTER_FILES
from hf_anon.model.placeholder_tagger import ADAPTER_FOLDER as TAGGER_ADAPTER
from hf_anon.model.recognizers.cited_filter import CONFIG_FILE as CITED_FILTER_CONFIG

#: Files of a model folder that are uploaded when present (weights: ``*.safetensors``).
MODEL_FILES = (
    "config.json",
    "modeling.py",
    "pipeline.py",
    "pipeline_decoding.py",  # the model-only decoding that pipeline.py imports
    "training_config.json",
    "training_info.json",
    "eval_results.json",
    "README.md",
    "model.safetensors.index.json",
    "placeholder_head.json",  # the placeholder tagger's settings (its weights: *.safetensors)
    "placeholder_tuning.json",  # how the tuned tagger was trained and its thresholds chosen
    CITED_FILTER_CONFIG,  # the learned citation filter's settings (its weights: *.safetensors)
)


#: Tokenizer files of the tokenizers transformers saves (fast, WordPiece, BPE, SentencePiece).
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "sentencepiece.bpe.model",
    "spiece.model",
)


#: The folder ``hf-anon report`` writes; only these kinds of files of it go up.
REPORT_DIR = "report"


REPORT_SUFFIXES = frozenset(
    {".md", ".json", ".html", ".png", ".jpg", ".jpeg", ".svg", ".csv", ".txt"}
)


def release_model(source: str | Path, out_dir: str | Path, *, dtype: str = "float16") -> Path:
    """Copy a trained model (``outputs/…/best``) into a distributable folder: weights in
    ``dtype`` (fp16 halves the size; hf-anon loads them back in float32), tokenizer, the
    training files, and a generated model card. Nothing else (no checkpoints, no data)."""
    import shutil

    import torch

    from hf_anon.distribution.model_card import base_model_of, write_model_card

    source, out = Path(source), Path(out_dir)
    if not (source / "config.json").is_file():
        raise ValueError(f"{source}: not a model folder (no config.json)")
    if out.resolve() == source.resolve():
        raise ValueError("the release folder must differ from the source folder")
    folder = ModelFolder(source)
    # the config as ModelFolder reads it: an older folder's windows, and the base model of
    # its card, move into config.json
    model = folder.load_model()
    model.config.base_model = base_model_of(folder)
    model.to(getattr(torch, dtype)).save_pretrained(str(out), safe_serialization=True)
    folder.load_tokenizer().save_pretrained(str(out))
    for name in ("training_config.json", "training_info.json", "eval_results.json"):
        if (path := folder.file(name)) is not None:
            shutil.copyfile(path, out / name)
    _warn_stale_filter(out)
    write_model_card(out)
    return out


def _warn_stale_filter(out: Path) -> None:
    """A learned citation filter already in ``out`` was fitted on another model's spans
    (:mod:`hf_anon.model.recognizers.cited_filter`): it keeps working, but says so."""
    import warnings

    if (out / CITED_FILTER_CONFIG).is_file():
        warnings.warn(
            f"{out} keeps its learned citation filter ({CITED_FILTER_CONFIG}), fitted on the "
            "spans of the model released there before; fit it again for the new weights with "
            "datasets_scripts/train_cited_filter.py --model " + str(out),
            stacklevel=3,
        )


def _model_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The allow-listed files of a model folder, and everything else (relative paths)."""
    keep: list[Path] = []
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.suffix in NEVER_UPLOAD_SUFFIXES:
            continue
        if path.suffix == ".safetensors" or path.name in (*MODEL_FILES, *TOKENIZER_FILES):
            keep.append(path)
    report = folder / REPORT_DIR
    if report.is_dir():
        keep += sorted(
            p
            for p in report.rglob("*")
            if p.is_file()
            and p.suffix in REPORT_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(report).parts)
        )
    # the tuned placeholder tagger's LoRA adapter (hf_anon.model.placeholder_tagger)
    adapter = folder / TAGGER_ADAPTER
    keep += [adapter / name for name in TAGGER_ADAPTER_FILES if (adapter / name).is_file()]
    kept = set(keep)
    skipped = [
        p.relative_to(folder).as_posix()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p not in kept
    ]
    return keep, skipped


def _default_model_message(folder: Path) -> str:
    message = f"Upload hf-anon model {folder.resolve().name}"
    try:
        results = json.loads((folder / "eval_results.json").read_text(encoding="utf-8"))
        message += (
            f" (lenient recall {results['lenient_recall']:.4f}, "
            f"strict typed F1 {results['strict_typed_f1']:.4f})"
        )
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return message


def plan_model_push(
    model_dir: str | Path,
    repo_id: str,
    *,
    private: bool = False,
    commit_message: str | None = None,
    token: str | None = None,
) -> PushPlan:
    """Check that ``model_dir`` is a complete hf-anon model with a card and list what a
    push would upload. Raises :class:`PushError` otherwise."""
    from hf_anon.model.modeling import AnonConfig

    folder = Path(model_dir)
    if not folder.is_dir():
        raise PushError(f"{folder}: no such folder")
    if (folder / "adapter_config.json").is_file():
        return plan_adapter_push(
            folder, repo_id, private=private, commit_message=commit_message, token=token
        )
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PushError(f"{folder}: not an hf-anon model (no config.json)") from None
    except ValueError as err:
        raise PushError(f"{folder}/config.json: not valid JSON ({err})") from None
    if not isinstance(config, dict) or config.get("model_type") != AnonConfig.model_type:
        found = config.get("model_type") if isinstance(config, dict) else None
        raise PushError(
            f"{folder}: not an hf-anon model (config.json model_type is {found!r}, "
            f"expected {AnonConfig.model_type!r})"
        )
    if not (folder / "README.md").is_file():
        raise PushError(f"{folder}: no README.md model card; write one with `hf-anon card` first")
    paths, skipped = _model_files(folder)
    if not any(p.suffix == ".safetensors" for p in paths):
        raise PushError(f"{folder}: no *.safetensors weights")
    remote_code = {str(ref).split(".")[0] + ".py" for ref in config.get("auto_map", {}).values()}
    pipelines = config.get("custom_pipelines") or {}
    remote_code |= {
        str(task["impl"]).split(".")[0] + ".py"
        for task in (pipelines.values() if isinstance(pipelines, dict) else ())
        if isinstance(task, dict) and "impl" in task
    }
    if missing := sorted(name for name in remote_code if not (folder / name).is_file()):
        raise PushError(
            f"{folder}: config.json's auto_map or custom_pipelines needs {', '.join(missing)}"
        )
    files = [PlannedFile(p.relative_to(folder).as_posix(), p.stat().st_size, p) for p in paths]
    check_no_token(files, token)
    return PushPlan(
        repo_id,
        "model",
        files,
        commit_message or _default_model_message(folder),
        private=private,
        skipped=summarize(skipped),
    )


#: Files of a LoRA adapter folder (``train.py --save_adapter true``) that are uploaded.
ADAPTER_FILES = (
    "adapter_config.json",
    "adapter_model.safetensors",
    "README.md",
    "training_config.json",
    "training_info.json",
    "eval_results.json",
    "calibration.json",
)


def plan_adapter_push(
    folder: Path,
    repo_id: str,
    *,
    private: bool = False,
    commit_message: str | None = None,
    token: str | None = None,
) -> PushPlan:
    """What pushing a LoRA adapter folder uploads: the adapter, its card (``README.md``,
    :mod:`hf_anon.distribution.adapter_card`) and its training files; nothing else."""
    if not (folder / "adapter_model.safetensors").is_file():
        raise PushError(f"{folder}: no adapter_model.safetensors weights")
    if not (folder / "README.md").is_file():
        raise PushError(f"{folder}: no README.md card; train.py writes one with the adapter")
    paths = [folder / name for name in ADAPTER_FILES if (folder / name).is_file()]
    skipped = [
        p.relative_to(folder).as_posix()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p not in paths
    ]
    files = [PlannedFile(p.name, p.stat().st_size, p) for p in paths]
    check_no_token(files, token)
    message = commit_message or f"Upload hf-anon LoRA adapter {folder.resolve().name}"
    return PushPlan(repo_id, "model", files, message, private=private, skipped=summarize(skipped))


def push_model(
    model_dir: str | Path,
    repo_id: str,
    *,
    private: bool = False,
    token: str | None = None,
    dry_run: bool = False,
    commit_message: str | None = None,
    endpoint: str | None = None,
    echo: bool = True,
) -> PushPlan:
    """Upload a trained hf-anon model folder to the hub model repo ``repo_id`` in one
    commit: weights (``*.safetensors``), tokenizer files, ``config.json``,
    ``modeling.py``, ``pipeline.py`` and ``pipeline_decoding.py`` (remote code: the model,
    and the ``anonymization`` pipeline of ``transformers.pipeline``),
    ``training_config.json``, ``eval_results.json``, the ``README.md`` model card and
    ``report/`` if present. Nothing else in the folder (training data, checkpoints,
    optimizer states, ``.env`` …) goes up.

    The listing (files, sizes, what is left out) is printed first (``echo``) and
    returned; ``dry_run`` stops there. ``token`` defaults to ``HF_TOKEN`` or the cached
    login; ``endpoint`` to ``HF_ENDPOINT`` or huggingface.co.
    """
    from huggingface_hub import HfApi

    from hf_anon import __version__

    plan = plan_model_push(
        model_dir, repo_id, private=private, commit_message=commit_message, token=token
    )
    plan.dry_run = dry_run
    if echo:
        print(plan.format(), flush=True)
    if dry_run:
        return plan
    api = HfApi(endpoint=endpoint, token=token)
    create_repo(api, plan)
    commit(
        api,
        plan,
        f"Pushed with hf-anon {__version__}: "
        + ", ".join(f"{f.path_in_repo} ({human_size(f.size)})" for f in plan.files),
    )
    if echo:
        print(f"uploaded to {plan.repo_url} ({plan.commit_url})", flush=True)
    return plan
