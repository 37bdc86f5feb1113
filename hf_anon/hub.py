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
from collections.abc import Sequence
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
    "pipeline.py",
    "training_config.json",
    "training_info.json",
    "eval_results.json",
    "README.md",
    "model.safetensors.index.json",
    "placeholder_head.json",  # the placeholder tagger's settings (its weights: *.safetensors)
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
#: Every Space requirements.txt starts here: torch from the CPU wheel index (free Space
#: hardware has no GPU, and the CUDA wheels are gigabytes). A version pin (``torch==2.5.1``)
#: still takes the CPU wheel: ``2.5.1+cpu`` sorts above ``2.5.1``.
SPACE_REQUIREMENTS = """\
# CPU-only PyTorch: the Space runs on CPU hardware
--extra-index-url https://download.pytorch.org/whl/cpu
"""
#: What of the package a self-contained Space carries besides its ``*.py`` files: the
#: package data of ``[tool.setuptools.package-data]`` in pyproject.toml.
SPACE_PACKAGE_DATA = (
    "model_card_template.md",
    "model_card_template_ja.md",
    "resources/*.txt.gz",
    "resources/*.tsv.gz",
    "resources/README.md",
)
#: Requirements a self-contained Space leaves out: gradio comes with the Space's SDK, at
#: the README's ``sdk_version``.
SPACE_PROVIDED = frozenset({"gradio"})
#: The folder of a self-contained Space that holds its copy of the package.
SPACE_PACKAGE = "hf_anon"
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
    #: Folders that the listing shows as one line (file count and size), not file by file.
    collapse: tuple[str, ...] = ()

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
        folded: dict[str, list[PlannedFile]] = {}
        for f in self.files:
            folder = next((c for c in self.collapse if f.path_in_repo.startswith(c + "/")), None)
            if folder is None:
                lines.append(f"  {_human_size(f.size):>10}  {f.path_in_repo}")
            else:
                folded.setdefault(folder, []).append(f)
        lines += [
            f"  {_human_size(sum(f.size for f in group)):>10}  {folder}/ ({len(group)} files)"
            for folder, group in folded.items()
        ]
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
    _check_no_token(files, token)
    return PushPlan(
        repo_id,
        "model",
        files,
        commit_message or _default_model_message(folder),
        private=private,
        skipped=_summarize(skipped),
    )


def _commit(api, plan: PushPlan, description: str, deletions: Sequence[str] = ()):
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    operations = [CommitOperationDelete(path_in_repo=path) for path in deletions]
    operations += [
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
    ``modeling.py`` and ``pipeline.py`` (remote code: the model, and the ``anonymization``
    pipeline of ``transformers.pipeline``), ``training_config.json``, ``eval_results.json``, the
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


# --- Demo Spaces -----------------------------------------------------------------------
#
# hf-anon is on no package index, so a Space cannot ``pip install hf-anon``. A Space
# either installs it from a URL the user gives (a git tag, a wheel) or, by default,
# carries its own copy of the ``hf_anon`` package next to ``app.py`` (``python app.py``
# imports it from there) and installs only hf-anon's dependencies, pinned to the versions
# the Space was pushed from: the code, the app and the dependency versions are then the
# ones tested together on this machine, with nothing to publish first.


def _package_dir() -> Path:
    """The folder of the ``hf_anon`` package this process imported."""
    import hf_anon

    return Path(hf_anon.__file__).resolve().parent


def space_package_files(package_dir: str | Path | None = None) -> list[Path]:
    """The files of the ``hf_anon`` package that a self-contained Space carries: every
    ``*.py`` file and the package data (:data:`SPACE_PACKAGE_DATA`); no ``__pycache__``
    or hidden files."""
    root = Path(package_dir) if package_dir is not None else _package_dir()
    files = set(root.rglob("*.py"))
    for pattern in SPACE_PACKAGE_DATA:
        files.update(root.glob(pattern))
    return sorted(
        p
        for p in files
        if p.is_file()
        and not any(
            part == "__pycache__" or part.startswith(".") for part in p.relative_to(root).parts
        )
    )


def _declared_dependencies() -> list[str]:
    """hf-anon's dependencies as declared: the checkout's pyproject.toml when hf_anon is
    imported from a checkout (editable install), else the installed distribution's
    metadata."""
    from importlib.metadata import PackageNotFoundError, requires

    pyproject = _package_dir().parent / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "hf-anon":
            return list(project.get("dependencies", []))
    try:
        return list(requires("hf-anon") or [])
    except PackageNotFoundError:
        raise PushError(
            "hf-anon is not installed, so its dependencies are unknown: install it "
            "(pip install -e .) or give the Space a requirement URL"
        ) from None


def space_dependencies() -> list[str]:
    """The requirements of a self-contained Space: hf-anon's runtime dependencies (no
    extras), each pinned to the version installed here (``transformers==4.57.1``; a local
    version label such as ``+cpu`` is dropped, the CPU index of :data:`SPACE_REQUIREMENTS`
    supplies torch's), except those the Space SDK provides (:data:`SPACE_PROVIDED`). A
    dependency that is not installed keeps its declared range."""
    from importlib.metadata import PackageNotFoundError, version

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    pins = []
    for spec in _declared_dependencies():
        requirement = Requirement(spec)
        if requirement.marker is not None and "extra" in str(requirement.marker):
            continue
        if canonicalize_name(requirement.name) in SPACE_PROVIDED:
            continue
        marker = f"; {requirement.marker}" if requirement.marker is not None else ""
        try:
            installed = Version(version(requirement.name)).public
        except PackageNotFoundError:
            pins.append(str(requirement))
            continue
        pins.append(f"{requirement.name}=={installed}{marker}")
    return pins


def check_space_requirement(requirement: str) -> str:
    """``requirement`` as one line of a requirements.txt that a Space can install hf-anon
    from: a URL (``git+https://github.com/ORG/hf-anon@v0.1.0``, a wheel's ``https://``
    URL, ``hf-anon @ git+https://…``). A bare name (``hf-anon``) is refused, since no
    package index serves hf-anon, and so is a ``file:`` URL, which names a path on this
    machine."""
    line = requirement.strip()
    if "\n" in line or "\r" in line:
        raise PushError(f"the Space requirement must be one line, not {requirement!r}")
    if "://" not in line:
        raise PushError(
            f"the Space cannot install {line!r}: hf-anon is on no package index. Give a "
            "URL pip can install from (e.g. git+https://github.com/ORG/hf-anon@v0.1.0 or "
            "a wheel's https:// URL), or leave the requirement out to put hf_anon's "
            "source into the Space"
        )
    if re.search(r"(^|[\s@])file:", line):
        raise PushError(f"{line!r} is a path on this machine, which the Space cannot read")
    return line


def space_requirements(requirement: str | None = None) -> str:
    """The Space's ``requirements.txt``: CPU-only torch (:data:`SPACE_REQUIREMENTS`) and
    either hf-anon from ``requirement`` (see :func:`check_space_requirement`) or, without
    one, hf-anon's dependencies pinned by :func:`space_dependencies` (the Space carries
    the ``hf_anon`` package itself)."""
    if requirement is not None:
        return SPACE_REQUIREMENTS + f"torch\n{check_space_requirement(requirement)}\n"
    return (
        SPACE_REQUIREMENTS
        + "# hf-anon's dependencies, pinned to the versions this Space was made with; the\n"
        + "# hf_anon package itself is in hf_anon/, and gradio comes with the Space SDK\n"
        + "\n".join(space_dependencies())
        + "\n"
    )


def space_readme(
    space_id: str,
    model_repo_id: str,
    *,
    title: str | None = None,
    requirement: str | None = None,
) -> str:
    """The Space's README.md: YAML metadata (sdk gradio at the installed version, this
    Python's version, ``app_file: app.py``, ``models:`` the model repo) and a short
    description of how the Space chooses its model and installs hf-anon."""
    import yaml

    from hf_anon import __version__

    metadata = {
        "title": title or "hf-anon: anonymize German court decisions",
        "emoji": "⚖️",
        "colorFrom": "blue",
        "colorTo": "gray",
        "sdk": "gradio",
        "sdk_version": _gradio_version(),
        # hf-anon needs Python >= 3.11; Spaces default to an older one
        "python_version": f"{sys.version_info.major}.{sys.version_info.minor}",
        "app_file": "app.py",
        "pinned": False,
        "license": LICENSE,
        "models": [model_repo_id],
        "short_description": "Find and replace personal data in German court decisions",
    }
    header = yaml.safe_dump(metadata, allow_unicode=True, sort_keys=False)
    if requirement is None:
        installed = (
            f"The Space carries hf-anon {__version__} itself (the `hf_anon/` folder, which "
            f"`app.py` imports); `requirements.txt` pins its dependencies."
        )
    else:
        installed = f"hf-anon is installed from `{requirement}` (`requirements.txt`)."
    return (
        f"---\n{header}---\n\n"
        f"# {metadata['title']}\n\n"
        f"Finds and replaces personal data in German court decisions with the model "
        f"[{model_repo_id}](https://huggingface.co/{model_repo_id}).\n\n"
        f"The model is chosen by the Space variable `{MODEL_VARIABLE}` (Settings → "
        f"Variables and secrets), set to `{model_repo_id}` when the Space was pushed: "
        f"change it there to serve another model, no commit needed. A private model "
        f"also needs an `HF_TOKEN` secret that can read it.\n\n"
        f"{installed} To run it elsewhere: `pip install -r requirements.txt "
        f"gradio=={metadata['sdk_version']}`, then "
        f"`{MODEL_VARIABLE}={model_repo_id} python app.py` (`GRADIO_SERVER_NAME`, "
        f"`GRADIO_SERVER_PORT` and `GRADIO_ROOT_PATH` set the address).\n"
    )


def plan_space_push(
    space_id: str,
    model_repo_id: str,
    *,
    private: bool = False,
    commit_message: str | None = None,
    app_file: str | Path | None = None,
    requirement: str | None = None,
    title: str | None = None,
) -> PushPlan:
    """The files of a Gradio demo Space for ``model_repo_id`` (see :func:`push_space`):
    ``app.py``, ``requirements.txt`` (:func:`space_requirements`), ``README.md``
    (:func:`space_readme`) and, without ``requirement``, the ``hf_anon`` package
    (:func:`space_package_files`) under ``hf_anon/``."""
    app = Path(app_file) if app_file is not None else REPO_ROOT / "app.py"
    if not app.is_file():
        raise PushError(f"{app}: no such file (the Gradio app the Space runs)")
    if requirement is not None:
        requirement = check_space_requirement(requirement)
    contents = {
        "app.py": app.read_bytes(),
        "requirements.txt": space_requirements(requirement).encode(),
        "README.md": space_readme(
            space_id, model_repo_id, title=title, requirement=requirement
        ).encode(),
    }
    files = [PlannedFile(name, len(data), data) for name, data in contents.items()]
    if requirement is None:
        package = _package_dir()
        files += [
            PlannedFile(
                f"{SPACE_PACKAGE}/{path.relative_to(package).as_posix()}",
                path.stat().st_size,
                path,
            )
            for path in space_package_files(package)
        ]
    _check_no_token(files, None)
    return PushPlan(
        space_id,
        "space",
        files,
        commit_message or f"Gradio demo of hf-anon model {model_repo_id}",
        private=private,
        variables={MODEL_VARIABLE: model_repo_id},
        collapse=(SPACE_PACKAGE,),
    )


def write_space(
    folder: str | Path,
    model_repo_id: str,
    *,
    space_id: str | None = None,
    app_file: str | Path | None = None,
    requirement: str | None = None,
    title: str | None = None,
) -> PushPlan:
    """Write the files of the Space :func:`push_space` would push into ``folder`` (absent
    or empty), to look at or run locally: ``cd folder && HF_ANON_MODEL=… python app.py``
    (the Space variable is not a file: set ``HF_ANON_MODEL`` yourself). Returns the plan."""
    out = Path(folder)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PushError(f"{out}: the Space folder must be new or empty")
    plan = plan_space_push(
        space_id or f"local/{out.resolve().name}",
        model_repo_id,
        app_file=app_file,
        requirement=requirement,
        title=title,
    )
    for planned in plan.files:
        target = out / planned.path_in_repo
        target.parent.mkdir(parents=True, exist_ok=True)
        data = planned.source
        target.write_bytes(data if isinstance(data, bytes) else data.read_bytes())
    return plan


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
    requirement: str | None = None,
    title: str | None = None,
    echo: bool = True,
) -> PushPlan:
    """Create (or update) a Gradio Space ``space_id`` that demonstrates ``model_repo_id``.

    Uploads, in one commit, ``app_file`` (default: the checkout's ``app.py``) as
    ``app.py``, a ``requirements.txt`` and a ``README.md`` with the Space metadata (sdk
    gradio at the installed version, this Python's version, ``models:`` linking the model
    repo, license). How the Space gets hf-anon, which no package index serves:

    - without ``requirement`` (the default), the Space carries the ``hf_anon`` package
      this process imports, copied to ``hf_anon/`` beside ``app.py``, and its
      ``requirements.txt`` pins hf-anon's dependencies to the versions installed here:
      self-contained, nothing to publish first, and the code, app and versions that were
      tested together here;
    - with ``requirement``, a URL pip installs hf-anon from
      (``git+https://github.com/ORG/hf-anon@v0.1.0``, a wheel's ``https://`` URL), and
      ``requirements.txt`` asks for it (and CPU-only torch) with no pins.

    Either way torch comes from the CPU wheel index. Files under ``hf_anon/`` that an
    earlier push left in the Space and this one does not carry are deleted in the same
    commit (so a Space that switches to ``requirement`` does not import an old copy).

    The model is set by the Space *variable* ``HF_ANON_MODEL`` (which the app reads via
    :func:`default_model`), not by a file in the Space: it is set through the API on every
    push, so an existing Space is updated too, and it can be changed in the Space's
    settings without a commit. The Space sets ``GRADIO_SERVER_NAME``/``GRADIO_SERVER_PORT``,
    which ``app.py`` listens on. :func:`write_space` writes the same files to a folder.
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
    planned = {f.path_in_repo for f in plan.files}
    stale = [
        path
        for path in api.list_repo_files(space_id, repo_type="space")
        if path.startswith(f"{SPACE_PACKAGE}/") and path not in planned
    ]
    vendored = sum(f.path_in_repo.startswith(f"{SPACE_PACKAGE}/") for f in plan.files)
    _commit(
        api,
        plan,
        f"app.py, requirements.txt and README.md for {model_repo_id}"
        + (f", and the hf_anon package ({vendored} files)" if vendored else "")
        + (f"; {len(stale)} old files of hf_anon/ deleted" if stale else ""),
        stale,
    )
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
