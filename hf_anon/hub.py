"""Where models go: releases, and pushes of models, demo Spaces and corpora to the Hub.

Where they come from is :mod:`hf_anon.model_folder`: a checkout carries the default model
under ``models/``; an installed package without it falls back to the same model's hub
id. ``HF_ANON_MODEL`` overrides both (a folder or a hub id), so that a deployment pins its
model without code changes. :func:`default_model` is importable from here too.
"""

from __future__ import annotations

import json
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hf_anon.model_card import LICENSE

# Where the default model is (a folder of the checkout, else a hub id) is the model
# folder's business; the names stay importable from here, where deployments look for them.
from hf_anon.model_folder import (  # noqa: F401 - re-exported
    DEFAULT_HUB_ID,
    DEFAULT_MODEL_NAME,
    REPO_ROOT,
    ModelFolder,
    default_model,
)

# --- Pushing to the Hub -------------------------------------------------------------
#
# What goes up is an explicit allow-list, never "the folder": a training run's output
# folder also holds checkpoints, optimizer states and sometimes training data, and a
# model repo is usually public. Everything else in the folder is listed as left out.

#: Files of a model folder that are uploaded when present (weights: ``*.safetensors``).
MODEL_FILES = (
    "config.json",
    "modeling.py",
    "training_config.json",
    "training_info.json",
    "eval_results.json",
    "README.md",
    "model.safetensors.index.json",
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
#: Never uploaded, even where an allow-list would take them (training data, states).
NEVER_UPLOAD_SUFFIXES = frozenset(
    {".jsonl", ".pt", ".pth", ".bin", ".pkl", ".ckpt", ".arrow", ".parquet", ".env"}
)
#: Text that looks like a Hugging Face access token: a file holding one is refused.
TOKEN_PATTERN = re.compile(rb"hf_[A-Za-z0-9]{30,}")
#: The Space reads its model from this variable (see :func:`default_model`).
MODEL_VARIABLE = "HF_ANON_MODEL"
#: Torch from the CPU wheel index: free Space hardware has no GPU, and the CUDA wheels
#: are gigabytes.
SPACE_REQUIREMENTS = """\
# CPU-only PyTorch: the Space runs on CPU hardware
--extra-index-url https://download.pytorch.org/whl/cpu
torch
{requirement}
"""
CORPUS_WARNING = (
    "warning: a pseudonymized corpus still carries the original facts of each decision "
    "(events, dates, places, case histories): replacing names and numbers does not make "
    "it anonymous. Push it public only if the source decisions are public."
)


def release_model(source: str | Path, out_dir: str | Path, *, dtype: str = "float16") -> Path:
    """Copy a trained model (``outputs/…/best``) into a distributable folder: weights in
    ``dtype`` (fp16 halves the size; hf-anon loads them back in float32), tokenizer, the
    training files, and a generated model card. Nothing else (no checkpoints, no data)."""
    import shutil

    import torch

    from hf_anon.model_card import base_model_of, write_model_card

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
    write_model_card(out)
    return out


class PushError(ValueError):
    """The folder cannot be pushed as asked (not a model, no card, a token inside …)."""


@dataclass
class PlannedFile:
    """One file of a push: where it goes in the repo, its size, its local path or bytes."""

    path_in_repo: str
    size: int
    source: Path | bytes = field(repr=False)


@dataclass
class PushPlan:
    """What a push uploads (or, with ``dry_run``, would upload), and where it went."""

    repo_id: str
    repo_type: str
    files: list[PlannedFile]
    commit_message: str
    private: bool = False
    skipped: list[str] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)
    dry_run: bool = False
    repo_url: str | None = None
    commit_url: str | None = None

    @property
    def total_size(self) -> int:
        return sum(f.size for f in self.files)

    def format(self) -> str:
        """The listing printed before uploading: files with sizes, what is left out."""
        visibility = "private" if self.private else "public"
        lines = [
            f"{self.repo_type} {self.repo_id} ({visibility}): {len(self.files)} files, "
            f"{_human_size(self.total_size)}"
        ]
        lines += [f"  {_human_size(f.size):>10}  {f.path_in_repo}" for f in self.files]
        for key, value in self.variables.items():
            lines.append(f"  variable {key}={value}")
        if self.skipped:
            lines.append("left out (never uploaded): " + ", ".join(self.skipped))
        lines.append(f"commit message: {self.commit_message}")
        if self.dry_run:
            lines.append("dry run: nothing uploaded")
        return "\n".join(lines)


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def _summarize(paths: list[str]) -> list[str]:
    """``checkpoint-100/optimizer.bin`` … → ``checkpoint-100/ (3 files)``."""
    by_top: dict[str, list[str]] = {}
    for path in paths:
        top, sep, _ = path.partition("/")
        by_top.setdefault(top + sep, []).append(path)
    return [
        f"{key} ({len(group)} files)" if len(group) > 1 else group[0]
        for key, group in sorted(by_top.items())
    ]


def _check_no_token(files: list[PlannedFile], token: str | None) -> None:
    for planned in files:
        if planned.path_in_repo.endswith(".safetensors"):
            continue
        data = planned.source if isinstance(planned.source, bytes) else planned.source.read_bytes()
        if TOKEN_PATTERN.search(data) or (token and token.encode() in data):
            raise PushError(
                f"{planned.path_in_repo} contains what looks like a Hugging Face access "
                "token: remove it before pushing"
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
    from hf_anon.modeling import AnonConfig

    folder = Path(model_dir)
    if not folder.is_dir():
        raise PushError(f"{folder}: no such folder")
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
    if missing := sorted(name for name in remote_code if not (folder / name).is_file()):
        raise PushError(f"{folder}: config.json's auto_map needs {', '.join(missing)}")
    files = [PlannedFile(p.relative_to(folder).as_posix(), p.stat().st_size, p) for p in paths]
    _check_no_token(files, token)
    return PushPlan(
        repo_id,
        "model",
        files,
        commit_message or _default_model_message(folder),
        private=private,
        skipped=_summarize(skipped),
    )


def _commit(api, plan: PushPlan, description: str):
    from huggingface_hub import CommitOperationAdd

    operations = [
        CommitOperationAdd(
            path_in_repo=f.path_in_repo,
            path_or_fileobj=f.source if isinstance(f.source, bytes) else str(f.source),
        )
        for f in plan.files
    ]
    info = api.create_commit(
        plan.repo_id,
        operations,
        commit_message=plan.commit_message,
        commit_description=description,
        repo_type=plan.repo_type,
    )
    plan.commit_url = info.commit_url
    return info


def _create_repo(api, plan: PushPlan, **kwargs) -> None:
    """Create the repo (or find it); refuse to upload into a public repo when a private
    one was asked for (``private`` only applies to new repos)."""
    url = api.create_repo(
        plan.repo_id, repo_type=plan.repo_type, private=plan.private, exist_ok=True, **kwargs
    )
    plan.repo_url = str(url)
    if plan.private and not api.repo_info(plan.repo_id, repo_type=plan.repo_type).private:
        raise PushError(
            f"{plan.repo_type} {plan.repo_id} exists and is public: make it private "
            "first or push without --private"
        )


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
    ``modeling.py`` (remote code), ``training_config.json``, ``eval_results.json``, the
    ``README.md`` model card and ``report/`` if present. Nothing else in the folder
    (training data, checkpoints, optimizer states, ``.env`` …) goes up.

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
    _create_repo(api, plan)
    _commit(
        api,
        plan,
        f"Pushed with hf-anon {__version__}: "
        + ", ".join(f"{f.path_in_repo} ({_human_size(f.size)})" for f in plan.files),
    )
    if echo:
        print(f"uploaded to {plan.repo_url} ({plan.commit_url})", flush=True)
    return plan


def _gradio_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gradio")
    except PackageNotFoundError:
        raise PushError("gradio is not installed: the Space's sdk_version is its version") from None


def space_readme(space_id: str, model_repo_id: str, *, title: str | None = None) -> str:
    """The Space's README.md: YAML metadata and a short description."""
    import yaml

    metadata = {
        "title": title or "hf-anon: anonymize German court decisions",
        "emoji": "⚖️",
        "colorFrom": "blue",
        "colorTo": "gray",
        "sdk": "gradio",
        "sdk_version": _gradio_version(),
        "app_file": "app.py",
        "pinned": False,
        "license": LICENSE,
        "models": [model_repo_id],
        "short_description": "Find and replace personal data in German court decisions",
    }
    header = yaml.safe_dump(metadata, allow_unicode=True, sort_keys=False)
    return (
        f"---\n{header}---\n\n"
        f"# {metadata['title']}\n\n"
        f"Finds and replaces personal data in German court decisions with the model "
        f"[{model_repo_id}](https://huggingface.co/{model_repo_id}).\n\n"
        f"The model is chosen by the Space variable `{MODEL_VARIABLE}` (Settings → "
        f"Variables and secrets), set to `{model_repo_id}` when the Space was pushed: "
        f"change it there to serve another model, no commit needed. A private model "
        f"also needs an `HF_TOKEN` secret that can read it.\n"
    )


def plan_space_push(
    space_id: str,
    model_repo_id: str,
    *,
    private: bool = False,
    commit_message: str | None = None,
    app_file: str | Path | None = None,
    requirement: str = "hf-anon",
    title: str | None = None,
) -> PushPlan:
    """The files of a Gradio demo Space for ``model_repo_id`` (see :func:`push_space`)."""
    app = Path(app_file) if app_file is not None else REPO_ROOT / "app.py"
    if not app.is_file():
        raise PushError(f"{app}: no such file (the Gradio app the Space runs)")
    contents = {
        "app.py": app.read_bytes(),
        "requirements.txt": SPACE_REQUIREMENTS.format(requirement=requirement).encode(),
        "README.md": space_readme(space_id, model_repo_id, title=title).encode(),
    }
    files = [PlannedFile(name, len(data), data) for name, data in contents.items()]
    _check_no_token(files, None)
    return PushPlan(
        space_id,
        "space",
        files,
        commit_message or f"Gradio demo of hf-anon model {model_repo_id}",
        private=private,
        variables={MODEL_VARIABLE: model_repo_id},
    )


def push_space(
    space_id: str,
    model_repo_id: str,
    *,
    private: bool = False,
    token: str | None = None,
    dry_run: bool = False,
    commit_message: str | None = None,
    endpoint: str | None = None,
    app_file: str | Path | None = None,
    requirement: str = "hf-anon",
    title: str | None = None,
    echo: bool = True,
) -> PushPlan:
    """Create (or update) a Gradio Space ``space_id`` that demonstrates ``model_repo_id``.

    Uploads, in one commit, ``app_file`` (default: the checkout's ``app.py``) as
    ``app.py``, a ``requirements.txt`` (``requirement``, default ``hf-anon`` from PyPI —
    pass e.g. ``"hf-anon @ git+https://…"`` — plus CPU-only torch) and a ``README.md``
    with the Space metadata (sdk gradio at the installed version, ``models:`` linking the
    model repo, license).

    The model is set by the Space *variable* ``HF_ANON_MODEL`` (which the app reads via
    :func:`default_model`), not by a file in the Space: it is set through the API on every
    push, so an existing Space is updated too, and it can be changed in the Space's
    settings without a commit.
    """
    from huggingface_hub import HfApi

    plan = plan_space_push(
        space_id,
        model_repo_id,
        private=private,
        commit_message=commit_message,
        app_file=app_file,
        requirement=requirement,
        title=title,
    )
    plan.dry_run = dry_run
    if echo:
        print(plan.format(), flush=True)
    if dry_run:
        return plan
    api = HfApi(endpoint=endpoint, token=token)
    _create_repo(api, plan, space_sdk="gradio")
    for key, value in plan.variables.items():
        api.add_space_variable(
            space_id, key, value, description="the hf-anon model the demo serves"
        )
    _commit(api, plan, f"app.py, requirements.txt and README.md for {model_repo_id}")
    if echo:
        print(f"Space at {plan.repo_url} ({plan.commit_url})", flush=True)
    return plan


@contextmanager
def _datasets_endpoint(endpoint: str | None):
    """``datasets`` reads its hub endpoint from ``datasets.config.HF_ENDPOINT``."""
    from datasets import config

    if endpoint is None:
        yield
        return
    saved = config.HF_ENDPOINT
    config.HF_ENDPOINT = endpoint.rstrip("/")
    try:
        yield
    finally:
        config.HF_ENDPOINT = saved


def push_corpus(
    corpus_dir: str | Path,
    repo_id: str,
    *,
    private: bool = True,
    token: str | None = None,
    dry_run: bool = False,
    commit_message: str | None = None,
    endpoint: str | None = None,
):
    """Push a corpus written by :func:`hf_anon.corpora.corpus.save_corpus` (a ``DatasetDict`` on
    disk) to the hub dataset repo ``repo_id`` as Parquet, plus its ``labels.json``.

    Private unless ``private=False``. Prints a warning: pseudonymized corpora still carry
    the original facts. Returns the ``CommitInfo`` of the dataset commit (``None`` for a
    dry run).
    """
    from datasets import load_from_disk
    from huggingface_hub import HfApi

    folder = Path(corpus_dir)
    if not (folder / "dataset_dict.json").is_file():
        raise PushError(f"{folder}: not a corpus written by save_corpus (no dataset_dict.json)")
    print(CORPUS_WARNING, file=sys.stderr, flush=True)
    dataset = load_from_disk(str(folder))
    rows = ", ".join(f"{name} {len(split):,}" for name, split in dataset.items())
    visibility = "private" if private else "public"
    print(f"dataset {repo_id} ({visibility}): {rows} documents", flush=True)
    if dry_run:
        print("dry run: nothing uploaded", flush=True)
        return None
    message = commit_message or f"Upload hf-anon corpus {folder.resolve().name}"
    with _datasets_endpoint(endpoint):
        info = dataset.push_to_hub(repo_id, private=private, token=token, commit_message=message)
    labels = folder / "labels.json"
    if labels.is_file():
        HfApi(endpoint=endpoint, token=token).upload_file(
            path_or_fileobj=str(labels),
            path_in_repo="labels.json",
            repo_id=repo_id,
            repo_type="dataset",
            commit_message="Add labels.json (the hf-anon label set of the corpus)",
        )
    return info
