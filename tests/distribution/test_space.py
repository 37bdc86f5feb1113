"""The demo Space that ``hf-anon push --space`` makes: built into a local folder (no hub,
no network) and started the way a Space starts it, ``python app.py`` in that folder with
the Space's variables, then asked through ``gradio_client``.

By default the Space carries its own copy of the ``hf_anon`` package: the test runs it
with ``PYTHONPATH`` set to the Space folder and checks that ``hf_anon`` resolves to that
copy, not to this checkout.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from hf_anon.distribution import spaces
from hf_anon.distribution.plans import PushError
from hf_anon.distribution.spaces import check_space_requirement, space_requirements, write_space
from hf_anon.text.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Seconds the Space may take to start (it imports torch, transformers and gradio).
START_TIMEOUT = 60
#: Prints where the package and the modules of ``app.py`` would be imported from.
FIND_HF_ANON = (
    "import importlib.util as u; import hf_anon; "
    "print(*(u.find_spec(m).origin "
    "for m in ('hf_anon', 'hf_anon.text.readers', 'hf_anon.text.labels')))"
)


def requirement_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith(("#", "-"))]


@pytest.fixture(scope="module")
def space(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("space") / "demo"
    write_space(folder, "org/tiny", space_id="org/demo", app_file=ROOT / "app.py")
    return folder


def test_the_space_folder(space):
    files = {p.relative_to(space).as_posix() for p in space.rglob("*") if p.is_file()}
    assert {"app.py", "requirements.txt", "README.md"} <= files
    package = {f for f in files if f.startswith("hf_anon/")}
    expected = {
        "hf_anon/" + p.relative_to(ROOT / "hf_anon").as_posix()
        for p in spaces.space_package_files(ROOT / "hf_anon")
    }
    assert package == expected
    assert {
        "hf_anon/__init__.py",
        "hf_anon/apply/anonymize/__init__.py",
        "hf_anon/text/labels.py",
    } <= files
    assert "hf_anon/resources/common_nouns.txt.gz" in files  # package data
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)
    assert files == package | {"app.py", "requirements.txt", "README.md"}
    assert (space / "app.py").read_bytes() == (ROOT / "app.py").read_bytes()

    metadata = yaml.safe_load((space / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert metadata["sdk"] == "gradio" and metadata["sdk_version"] == version("gradio")
    assert metadata["app_file"] == "app.py" and metadata["models"] == ["org/tiny"]
    assert metadata["python_version"] == f"{sys.version_info.major}.{sys.version_info.minor}"
    assert isinstance(metadata["python_version"], str)  # not the float 3.1 for "3.10"
    assert len(metadata["short_description"]) <= 60  # the Hub's limit


def test_the_space_pins_hf_anons_dependencies(space):
    text = (space / "requirements.txt").read_text(encoding="utf-8")
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in text.splitlines()
    pins = {}
    for line in requirement_lines(text):
        requirement = Requirement(line)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", line
        pins[canonicalize_name(requirement.name)] = specifier.version
    declared = {
        canonicalize_name(Requirement(spec).name) for spec in PYPROJECT["project"]["dependencies"]
    }
    assert set(pins) == declared - {"gradio"}  # gradio: the README's sdk_version
    for name, pinned in pins.items():
        assert pinned == Version(version(name)).public, name
    assert "torch" in pins and "+" not in pins["torch"]


def test_the_space_carries_the_package_data_pyproject_declares():
    declared = PYPROJECT["tool"]["setuptools"]["package-data"]["hf_anon"]
    assert sorted(spaces.SPACE_PACKAGE_DATA) == sorted(declared)


def test_a_space_that_installs_hf_anon_from_a_url(tmp_path):
    url = "git+https://github.com/org/hf-anon@v0.1.0"
    plan = write_space(tmp_path / "space", "org/tiny", app_file=ROOT / "app.py", requirement=url)
    assert sorted(f.path_in_repo for f in plan.files) == ["README.md", "app.py", "requirements.txt"]
    assert not (tmp_path / "space" / "hf_anon").exists()
    text = (tmp_path / "space" / "requirements.txt").read_text(encoding="utf-8")
    assert requirement_lines(text) == ["torch", url]
    assert f"installed from `{url}`" in (tmp_path / "space" / "README.md").read_text()
    wheel = "hf-anon @ https://example.org/hf_anon-0.1.0-py3-none-any.whl"
    assert requirement_lines(space_requirements(wheel)) == ["torch", wheel]


@pytest.mark.parametrize(
    ("requirement", "message"),
    [
        ("hf-anon", "on no package index"),
        ("hf-anon==0.1.0", "on no package index"),
        ("hf-anon @ file:///home/me/hf_anon.whl", "path on this machine"),
        ("git+https://x/y\nevil", "one line"),
    ],
)
def test_a_requirement_the_space_cannot_install_is_refused(tmp_path, requirement, message):
    with pytest.raises(PushError, match=message):
        check_space_requirement(requirement)
    with pytest.raises(PushError, match=message):
        write_space(tmp_path / "s", "org/tiny", app_file=ROOT / "app.py", requirement=requirement)
    assert not (tmp_path / "s").exists()


def test_write_space_wants_a_new_folder(tmp_path):
    (tmp_path / "old.txt").write_text("x")
    with pytest.raises(PushError, match="new or empty"):
        write_space(tmp_path, "org/tiny", app_file=ROOT / "app.py")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


#: Put on the Space's path, so that hf_anon is importable only as a Space has it: an
#: editable install of this checkout adds an import hook that would quietly fill in a
#: module missing from the Space's copy.
NOT_INSTALLED = """\
import sys

sys.meta_path[:] = [
    f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")
]
"""


def space_environment(space: Path, port: int, model: Path, helper: Path) -> dict[str, str]:
    """This environment as a Space would have it: Gradio's address variables, the
    model variable, the Space folder first on the path (then ``helper``, which holds
    :data:`NOT_INSTALLED` as ``sitecustomize``); never the hub."""
    helper.mkdir(parents=True, exist_ok=True)
    (helper / "sitecustomize.py").write_text(NOT_INSTALLED)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADIO_")}
    env.update(
        PYTHONPATH=os.pathsep.join([str(space), str(helper)]),
        GRADIO_SERVER_NAME="127.0.0.1",  # a Space sets 0.0.0.0
        GRADIO_SERVER_PORT=str(port),
        HF_ANON_MODEL=str(model),
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def test_the_space_starts_and_answers(space, tiny_model_dir, tmp_path):
    import httpx
    from conftest import TINY_MODEL_SENTENCE
    from gradio_client import Client

    port = free_port()
    env = space_environment(space, port, tiny_model_dir, tmp_path / "helper")
    where = subprocess.run(
        [sys.executable, "-c", FIND_HF_ANON],
        cwd=space,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    # the Space's copy, not this checkout
    assert [Path(p) for p in where] == [
        space / "hf_anon" / name for name in ("__init__.py", "text/readers.py", "text/labels.py")
    ]

    log = tmp_path / "space.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=space, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"the Space exited with {process.returncode}:\n{log.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"the Space did not answer in {START_TIMEOUT} s:\n{log.read_text()}")
            try:
                if httpx.get(f"{url}config", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        client = Client(url, verbose=False, download_files=False)
        endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
        assert list(endpoints) == ["/anonymize"]
        text = TINY_MODEL_SENTENCE * 2
        anonymized, spans, *_, summary, _txt, _json, _word = client.predict(
            text, "label", DEFAULT_LABELS.names, "low", api_name="/anonymize"
        )
        assert isinstance(anonymized, str) and anonymized.strip()
        assert all(text[s["start"] : s["end"]] == s["text"] for s in spans)
        assert re.match(r"\d+ Stellen erkannt", summary)
        assert f"loading {tiny_model_dir}" in log.read_text()  # HF_ANON_MODEL chose it
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
