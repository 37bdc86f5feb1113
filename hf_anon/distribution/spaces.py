"""Demo Spaces: a self-contained Space (the app, the package copied, its dependencies
pinned), written locally or pushed to the Hub."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hf_anon.distribution.model_card import LICENSE
from hf_anon.distribution.plans import (
    PlannedFile,
    PushError,
    PushPlan,
    check_no_token,
    commit,
    create_repo,
)
from hf_anon.model.model_folder import REPO_ROOT

#: The Space reads its model from this variable
#: (:func:`hf_anon.model.model_folder.default_model`).
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
    "distribution/model_card_template.md",
    "distribution/model_card_template_ja.md",
    "resources/*.txt.gz",
    "resources/*.tsv.gz",
    "resources/README.md",
)


#: Requirements a self-contained Space leaves out: gradio comes with the Space's SDK, at
#: the README's ``sdk_version``.
SPACE_PROVIDED = frozenset({"gradio"})


#: The folder of a self-contained Space that holds its copy of the package.
SPACE_PACKAGE = "hf_anon"


def _gradio_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gradio")
    except PackageNotFoundError:
        raise PushError("gradio is not installed: the Space's sdk_version is its version") from None


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
    check_no_token(files, None)
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
    create_repo(api, plan, space_sdk="gradio")
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
    commit(
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
