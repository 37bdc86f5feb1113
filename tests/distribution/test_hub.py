"""Pushing models, Spaces and corpora: the real huggingface_hub client against a fake Hub.

``FakeHub`` is a ``ThreadingHTTPServer`` on 127.0.0.1 that implements the endpoints
the uploads use (read from huggingface_hub's ``hf_api.py`` and ``_commit_api.py``):

- ``POST /api/repos/create`` (409 when the repo exists),
- ``GET /api/{type}s/{id}[/revision/{rev}]`` (repo info; 404 ``RepoNotFound``),
- ``POST /api/validate-yaml`` (README.md metadata check before a commit),
- ``POST /api/{type}s/{id}/preupload/{rev}``: every file ``"regular"`` (it arrives
  inline, base64, in the commit) except Parquet files: ``datasets`` deletes its
  temporary shards right after the preupload, so they must go up before the commit,
  as LFS objects. Xet is switched off (``HF_HUB_DISABLE_XET``), so the client takes
  the plain LFS path:
- ``POST /{prefix}{id}.git/info/lfs/objects/batch`` (basic transfer) and
  ``PUT /lfs-upload/{oid}`` (the upload href it hands out; sha256 checked),
- ``POST /api/{type}s/{id}/commit/{rev}`` (NDJSON: header, base64 files, LFS
  pointers, deletions),
- ``POST /api/spaces/{id}/variables``,
- what ``datasets``' ``push_to_hub`` reads through ``HfFileSystem``:
  ``GET /api/{type}s/{id}/tree/{rev}[/{path}]``, ``POST .../paths-info/{rev}`` and
  ``GET|HEAD /{prefix}{id}/resolve/{rev}/{path}``.

Anything else answers 501 and is recorded, so a test fails loudly when a client
version starts to need another endpoint. Nothing here touches the internet.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import pytest
import yaml

from hf_anon import cli
from hf_anon.distribution.datasets import push_corpus
from hf_anon.distribution.models import push_model
from hf_anon.distribution.plans import PushError
from hf_anon.distribution.spaces import push_space

TOKEN = "hf_" + "T" * 34
PREFIX = {"model": "", "dataset": "datasets/", "space": "spaces/"}


class Repo:
    def __init__(self, repo_type: str, repo_id: str, payload: dict):
        self.type, self.id, self.payload = repo_type, repo_id, payload
        self.private = payload.get("visibility") == "private"
        self.files: dict[str, bytes] = {}
        self.commits: list[dict] = []
        self.variables: dict[str, dict] = {}
        self.sha = hashlib.sha1(repo_id.encode()).hexdigest()


class FakeHub(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.repos: dict[tuple[str, str], Repo] = {}
        self.requests: list[tuple[str, str]] = []
        self.unknown: list[tuple[str, str]] = []
        self.auth: set[str | None] = set()
        self.lfs: dict[str, bytes] = {}  # uploaded LFS objects by sha256
        self.lock = threading.Lock()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def repo(self, repo_type: str, repo_id: str) -> Repo:
        return self.repos[(repo_type, repo_id)]


def _split_repo(rest: str) -> tuple[str, str]:
    """``ns/name/tail…`` → (``ns/name``, ``tail…``)."""
    parts = rest.split("/", 2)
    return "/".join(parts[:2]), parts[2] if len(parts) > 2 else ""


class Handler(BaseHTTPRequestHandler):
    server: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # keep pytest output clean
        pass

    # -- plumbing ----------------------------------------------------------------
    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0], 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status: int, body=b"", headers=None, head_only=False) -> None:
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers = {"Content-Type": "application/json", **(headers or {})}
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def _not_found(self, code: str, message: str) -> None:
        self._send(404, {"error": message}, {"X-Error-Code": code, "X-Error-Message": message})

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        path, query = unquote(url.path), parse_qs(url.query)
        body = self._body() if method in {"POST", "PUT"} else b""
        hub = self.server
        with hub.lock:
            hub.requests.append((method, path))
            if not path.startswith("/lfs-upload/"):  # presigned storage URLs take no token
                hub.auth.add(self.headers.get("Authorization"))
        try:
            handled = self._dispatch(method, path, query, body)
        except Exception as err:  # a bug in the fake: make it visible
            self._send(500, {"error": repr(err)})
            raise
        if not handled:
            hub.unknown.append((method, self.path))
            self._send(501, {"error": f"fake hub: {method} {path} not implemented"})

    def do_GET(self):
        self._route("GET")

    def do_HEAD(self):
        self._route("HEAD")

    def do_POST(self):
        self._route("POST")

    def do_PUT(self):
        self._route("PUT")

    # -- endpoints ---------------------------------------------------------------
    def _dispatch(self, method: str, path: str, query: dict, body: bytes) -> bool:
        hub = self.server
        if method == "POST" and path == "/api/repos/create":
            payload = json.loads(body)
            repo_type = payload.get("type") or "model"
            name = payload["name"]
            repo_id = f"{payload['organization']}/{name}" if payload.get("organization") else name
            url = f"{hub.endpoint}/{PREFIX[repo_type]}{repo_id}"
            with hub.lock:
                if (repo_type, repo_id) in hub.repos:
                    self._send(409, {"error": "You already created this repo", "url": url})
                    return True
                hub.repos[(repo_type, repo_id)] = Repo(repo_type, repo_id, payload)
            self._send(200, {"url": url, "name": repo_id})
            return True
        if method == "POST" and path.endswith(".git/info/lfs/objects/batch"):
            payload = json.loads(body)
            assert payload["operation"] == "upload"
            objects = [
                {
                    "oid": o["oid"],
                    "size": o["size"],
                    "actions": {"upload": {"href": f"{hub.endpoint}/lfs-upload/{o['oid']}"}},
                }
                for o in payload["objects"]
            ]
            self._send(200, {"transfer": "basic", "objects": objects})
            return True
        if method == "PUT" and path.startswith("/lfs-upload/"):
            oid = path.rsplit("/", 1)[1]
            if hashlib.sha256(body).hexdigest() != oid:
                self._send(400, {"error": "sha256 mismatch"})
                return True
            with hub.lock:
                hub.lfs[oid] = body
            self._send(200, b"")
            return True
        if method == "POST" and path == "/api/validate-yaml":
            self._send(200, {"errors": [], "warnings": []})
            return True
        if path.startswith("/api/"):
            kind, _, rest = path[len("/api/") :].partition("/")
            repo_type = kind.removesuffix("s")
            if repo_type not in PREFIX:
                return False
            repo_id, tail = _split_repo(rest)
            repo = hub.repos.get((repo_type, repo_id))
            if repo is None:
                self._not_found("RepoNotFound", f"Repository {repo_id} not found")
                return True
            return self._repo_api(method, repo, tail, query, body)
        for repo_type, prefix in PREFIX.items():
            if prefix and not path.startswith("/" + prefix):
                continue
            repo_id, tail = _split_repo(path[1 + len(prefix) :])
            repo = hub.repos.get((repo_type, repo_id))
            if repo is not None and tail.startswith("resolve/"):
                _, _, file_path = tail[len("resolve/") :].partition("/")
                return self._resolve(method, repo, file_path)
        return False

    def _repo_api(self, method: str, repo: Repo, tail: str, query: dict, body: bytes) -> bool:
        if method == "GET" and (tail == "" or tail.startswith("revision/")):
            self._send(
                200,
                {
                    "id": repo.id,
                    "sha": repo.sha,
                    "private": repo.private,
                    "siblings": [{"rfilename": name} for name in sorted(repo.files)],
                },
            )
            return True
        if method == "POST" and tail.startswith("preupload/"):
            files = json.loads(body)["files"]
            self._send(
                200,
                {
                    "files": [
                        {
                            "path": f["path"],
                            "uploadMode": "lfs" if f["path"].endswith(".parquet") else "regular",
                            "shouldIgnore": False,
                        }
                        for f in files
                    ]
                },
            )
            return True
        if method == "POST" and tail.startswith("commit/"):
            return self._commit(repo, body)
        if method == "POST" and tail == "variables" and repo.type == "space":
            payload = json.loads(body)
            repo.variables[payload["key"]] = {
                "value": payload["value"],
                "description": payload.get("description"),
            }
            self._send(200, repo.variables)
            return True
        if method == "GET" and tail.startswith("tree/"):
            _, _, prefix = tail[len("tree/") :].partition("/")
            recursive = query.get("recursive", ["false"])[0].lower() in {"1", "true"}
            prefix = prefix.strip("/")
            if prefix and not any(name.startswith(prefix + "/") for name in repo.files):
                self._not_found("EntryNotFound", f"{prefix} does not exist")  # as the Hub
                return True
            self._send(200, self._tree(repo, prefix, recursive))
            return True
        if method == "POST" and tail.startswith("paths-info/"):
            if self.headers.get("Content-Type", "").startswith("application/json"):
                paths = json.loads(body)["paths"]
            else:
                paths = parse_qs(body.decode())["paths"]
            entries = self._tree(repo, "", True)
            self._send(200, [e for e in entries if e["path"] in {p.strip("/") for p in paths}])
            return True
        return False

    @staticmethod
    def _entry(name: str, data: bytes) -> dict:
        oid = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        return {"type": "file", "path": name, "size": len(data), "oid": oid}

    def _tree(self, repo: Repo, prefix: str, recursive: bool) -> list[dict]:
        entries: dict[str, dict] = {}
        for name, data in sorted(repo.files.items()):
            if prefix and not name.startswith(prefix + "/"):
                continue
            rel = name[len(prefix) + 1 :] if prefix else name
            if "/" in rel and not recursive:
                folder = (prefix + "/" if prefix else "") + rel.split("/")[0]
                entries[folder] = {"type": "directory", "path": folder, "size": 0, "oid": "0"}
            else:
                if recursive:  # the folders on the way, as the Hub lists them
                    parts = name.split("/")[:-1]
                    for i in range(len(prefix.split("/")) if prefix else 0, len(parts)):
                        folder = "/".join(parts[: i + 1])
                        entries[folder] = {
                            "type": "directory",
                            "path": folder,
                            "size": 0,
                            "oid": "0",
                        }
                entries[name] = self._entry(name, data)
        return list(entries.values())

    def _resolve(self, method: str, repo: Repo, file_path: str) -> bool:
        data = repo.files.get(file_path)
        if data is None:
            self._not_found("EntryNotFound", f"{file_path} does not exist")
            return True
        self._send(
            200,
            data,
            {
                "ETag": '"' + self._entry(file_path, data)["oid"] + '"',
                "X-Repo-Commit": repo.sha,
                "Content-Type": "application/octet-stream",
            },
            head_only=method == "HEAD",
        )
        return True

    def _commit(self, repo: Repo, body: bytes) -> bool:
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        header, operations = lines[0], lines[1:]
        assert header["key"] == "header"
        parent = header["value"].get("parentCommit")
        if parent is not None and parent != repo.sha:
            self._send(412, {"error": "parent commit is not the head"})
            return True
        commit = {"header": header["value"], "files": {}, "lfs": [], "deleted": []}
        for op in operations:
            value = op["value"]
            if op["key"] == "file":
                assert value["encoding"] == "base64"
                commit["files"][value["path"]] = base64.b64decode(value["content"])
            elif op["key"] == "lfsFile" and value["oid"] in self.server.lfs:
                commit["files"][value["path"]] = self.server.lfs[value["oid"]]
                commit["lfs"].append(value["path"])
            elif op["key"] in {"deletedFile", "deletedFolder"}:
                commit["deleted"].append(value["path"])
            else:
                self._send(400, {"error": f"fake hub: bad operation {op}"})
                return True
        for name in commit["deleted"]:
            for existing in [f for f in repo.files if f == name or f.startswith(name + "/")]:
                del repo.files[existing]
        repo.files.update(commit["files"])
        repo.commits.append(commit)
        repo.sha = hashlib.sha1(repo.sha.encode() + body).hexdigest()
        url = f"{self.server.endpoint}/{PREFIX[repo.type]}{repo.id}/commit/{repo.sha}"
        self._send(200, {"commitUrl": url, "commitOid": repo.sha, "pullRequestUrl": None})
        return True


@pytest.fixture
def hub(monkeypatch):
    """A fake Hub on a free port of 127.0.0.1; the client is pointed at it per call."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # conftest sets offline mode
    monkeypatch.setattr(constants, "HF_HUB_DISABLE_XET", True)  # LFS, not Xet, for Parquet
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = FakeHub()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert not server.unknown, f"endpoints the fake hub lacks: {server.unknown}"


CARD = "---\nlicense: apache-2.0\nlibrary_name: transformers\n---\n# tiny hf-anon model\n"


@pytest.fixture
def model_dir(tiny_model_dir, tmp_path) -> Path:
    """A copy of the tiny model with a card, a report, training data and a checkpoint."""
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "README.md").write_text(CARD, encoding="utf-8")
    (folder / "eval_results.json").write_text(
        json.dumps({"lenient_recall": 0.987654, "strict_typed_f1": 0.9}), encoding="utf-8"
    )
    (folder / "training_config.json").write_text('{"learning_rate": 0.0001}\n')
    (folder / "report").mkdir()
    (folder / "report" / "index.md").write_text("# report\n")
    (folder / "report" / "scores.json").write_text("{}\n")
    (folder / "report" / "predictions.jsonl").write_text('{"id": "x", "text": "Hans"}\n')
    (folder / "train.jsonl").write_text('{"id": "1", "text": "Hans Müller"}\n')
    (folder / "checkpoint-100").mkdir()
    (folder / "checkpoint-100" / "model.safetensors").write_bytes(b"old weights")
    (folder / "checkpoint-100" / "optimizer.bin").write_bytes(b"state")
    (folder / "optimizer.pt").write_bytes(b"state")
    (folder / "pytorch_model.bin").write_bytes(b"weights of another format")
    (folder / ".env").write_text("HF_TOKEN=secret\n")
    adapter = folder / "placeholder_adapter"  # the tuned placeholder tagger's LoRA adapter
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text('{"r": 16}\n')
    (adapter / "adapter_model.safetensors").write_bytes(b"lora weights")
    (adapter / "README.md").write_text("PEFT's own card, not uploaded\n")
    return folder


def _expected_files(folder: Path) -> dict[str, bytes]:
    top = {
        p.name: p.read_bytes()
        for p in folder.iterdir()
        if p.is_file()
        and (
            p.suffix == ".safetensors"
            or p.name
            in {
                "config.json",
                "modeling.py",
                "pipeline.py",
                "pipeline_decoding.py",
                "README.md",
                "eval_results.json",
                "training_config.json",
            }
            or p.name.startswith("tokenizer")
            or p.name == "special_tokens_map.json"
        )
    }
    for name in ("adapter_config.json", "adapter_model.safetensors"):
        top[f"placeholder_adapter/{name}"] = (folder / "placeholder_adapter" / name).read_bytes()
    top["report/index.md"] = (folder / "report" / "index.md").read_bytes()
    top["report/scores.json"] = (folder / "report" / "scores.json").read_bytes()
    return top


def test_push_model_uploads_the_allow_list_in_one_commit(hub, model_dir, capsys):
    plan = push_model(model_dir, "org/tiny", token=TOKEN, endpoint=hub.endpoint)
    repo = hub.repo("model", "org/tiny")
    expected = _expected_files(model_dir)
    assert {"config.json", "modeling.py", "pipeline.py", "pipeline_decoding.py"} <= set(expected)
    assert "model.safetensors" in expected
    assert "tokenizer.json" in expected
    assert repo.files == expected  # names and bytes
    assert len(repo.commits) == 1 and repo.commits[0]["lfs"] == [] and hub.lfs == {}
    summary = repo.commits[0]["header"]["summary"]
    assert summary == ("Upload hf-anon model model (lenient recall 0.9877, strict typed F1 0.9000)")
    assert "hf-anon" in repo.commits[0]["header"]["description"]
    for never in ("train.jsonl", "optimizer.pt", "pytorch_model.bin", ".env"):
        assert never not in repo.files
    assert not any(name.startswith("checkpoint-100") for name in repo.files)
    assert "report/predictions.jsonl" not in repo.files
    assert "placeholder_adapter/adapter_model.safetensors" in repo.files
    assert "placeholder_adapter/README.md" not in repo.files
    assert repo.payload["visibility"] == "public" and repo.payload.get("type") == "model"
    assert hub.auth == {f"Bearer {TOKEN}"}
    assert plan.commit_url.startswith(f"{hub.endpoint}/org/tiny/commit/")
    out = capsys.readouterr().out
    assert "model.safetensors" in out and "checkpoint-100/ (2 files)" in out
    assert "train.jsonl" in out and TOKEN not in out
    assert "report/predictions.jsonl" in out  # left out, and said so
    assert ("POST", "/api/repos/create") in hub.requests
    assert ("POST", "/api/models/org/tiny/commit/main") in hub.requests


def test_push_model_private_flag_and_message(hub, model_dir):
    push_model(
        model_dir,
        "org/private-tiny",
        private=True,
        token=TOKEN,
        commit_message="Release v1",
        endpoint=hub.endpoint,
        echo=False,
    )
    repo = hub.repo("model", "org/private-tiny")
    assert repo.payload["visibility"] == "private" and repo.private
    assert repo.commits[0]["header"]["summary"] == "Release v1"
    # pushing again updates the existing repo (create_repo exist_ok)
    (model_dir / "README.md").write_text(CARD + "\nv2\n", encoding="utf-8")
    push_model(
        model_dir, "org/private-tiny", private=True, token=TOKEN, endpoint=hub.endpoint, echo=False
    )
    assert len(repo.commits) == 2 and repo.files["README.md"].endswith(b"v2\n")


def test_push_model_refuses_private_push_into_a_public_repo(hub, model_dir):
    push_model(model_dir, "org/public", token=TOKEN, endpoint=hub.endpoint, echo=False)
    with pytest.raises(PushError, match="exists and is public"):
        push_model(
            model_dir, "org/public", private=True, token=TOKEN, endpoint=hub.endpoint, echo=False
        )
    assert len(hub.repo("model", "org/public").commits) == 1


def test_push_model_carries_the_learned_citation_filter(hub, model_dir):
    """The filter's settings and weights go up with the model: decoding on the hub's copy is
    the decoding measured here."""
    from hf_anon.model.recognizers.cited_filter import (
        CONFIG_FILE,
        WEIGHTS_FILE,
        CitedFilter,
        CitedFilterConfig,
    )
    from hf_anon.text.data import Span

    cited, own = "Vgl. BGH, Urteil vom 1.2.2003, juris.", "Der Kläger zog am 1.2.2003 aus."
    spans = [
        [Span(t.index("1.2"), t.index("1.2") + 8, "date-fact", "medium")] for t in (cited, own)
    ]
    fitted = CitedFilter.fit([cited, own], spans, [[], spans[1]], CitedFilterConfig(buckets=64))
    fitted.save_pretrained(model_dir)
    plan = push_model(model_dir, "org/tiny", dry_run=True, endpoint=hub.endpoint, echo=False)
    assert {CONFIG_FILE, WEIGHTS_FILE} <= {f.path_in_repo for f in plan.files}


def test_dry_run_lists_and_uploads_nothing(hub, model_dir, capsys):
    plan = push_model(model_dir, "org/tiny", dry_run=True, endpoint=hub.endpoint)
    assert hub.requests == [] and hub.repos == {}
    assert {f.path_in_repo for f in plan.files} == set(_expected_files(model_dir))
    sizes = {f.path_in_repo: f.size for f in plan.files}
    assert sizes["config.json"] == (model_dir / "config.json").stat().st_size
    out = capsys.readouterr().out
    assert "dry run: nothing uploaded" in out
    for f in plan.files:
        assert f.path_in_repo in out


def test_refuses_folders_that_are_not_hf_anon_models(tmp_path, model_dir):
    with pytest.raises(PushError, match="no such folder"):
        push_model(tmp_path / "missing", "org/x", dry_run=True)
    (tmp_path / "empty").mkdir()
    with pytest.raises(PushError, match=r"not an hf-anon model \(no config.json\)"):
        push_model(tmp_path / "empty", "org/x", dry_run=True)
    other = tmp_path / "bert"
    other.mkdir()
    (other / "config.json").write_text('{"model_type": "bert"}')
    (other / "README.md").write_text("# bert\n")
    with pytest.raises(PushError, match="model_type is 'bert'"):
        push_model(other, "org/x", dry_run=True)
    (model_dir / "README.md").unlink()
    with pytest.raises(PushError, match="hf-anon card"):
        push_model(model_dir, "org/x", dry_run=True)


def test_refuses_a_token_in_an_uploaded_file(model_dir):
    (model_dir / "training_config.json").write_text(json.dumps({"hub_token": TOKEN}))
    with pytest.raises(PushError, match=r"training_config\.json contains what looks like"):
        push_model(model_dir, "org/x", dry_run=True)


def test_push_space(hub, tmp_path, capsys):
    app = tmp_path / "app.py"
    app.write_text("import gradio as gr\n")
    plan = push_space(
        "org/demo",
        "org/tiny",
        token=TOKEN,
        endpoint=hub.endpoint,
        app_file=app,
        requirement="hf-anon @ git+https://example.org/hf-anon.git",
    )
    repo = hub.repo("space", "org/demo")
    assert repo.payload["type"] == "space" and repo.payload["sdk"] == "gradio"
    assert set(repo.files) == {"app.py", "requirements.txt", "README.md"}
    assert repo.files["app.py"] == app.read_bytes()
    requirements = repo.files["requirements.txt"].decode().splitlines()
    assert "torch" in requirements
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in requirements
    assert "hf-anon @ git+https://example.org/hf-anon.git" in requirements
    readme = repo.files["README.md"].decode()
    metadata = yaml.safe_load(readme.split("---\n")[1])
    from importlib.metadata import version

    assert metadata["sdk"] == "gradio" and metadata["sdk_version"] == version("gradio")
    assert metadata["app_file"] == "app.py" and metadata["models"] == ["org/tiny"]
    assert metadata["license"] == "apache-2.0"
    assert {"title", "emoji", "colorFrom", "colorTo"} <= set(metadata)
    assert repo.variables["HF_ANON_MODEL"]["value"] == "org/tiny"
    assert len(repo.commits) == 1 and "org/tiny" in repo.commits[0]["header"]["summary"]
    assert plan.repo_url == f"{hub.endpoint}/spaces/org/demo"
    assert "variable HF_ANON_MODEL=org/tiny" in capsys.readouterr().out


def test_push_a_self_contained_space_then_switch_to_a_url(hub, tmp_path, capsys):
    """Without a requirement the Space carries the hf_anon package and pinned
    dependencies; a later push that installs hf-anon from a URL deletes that copy (else
    ``import hf_anon`` would still find it), in the same commit."""
    from hf_anon.distribution.spaces import space_package_files

    app = tmp_path / "app.py"
    app.write_text("import gradio as gr\n")
    common = {"token": TOKEN, "endpoint": hub.endpoint, "app_file": app}
    push_space("org/demo", "org/tiny", **common)
    repo = hub.repo("space", "org/demo")
    package = {f for f in repo.files if f.startswith("hf_anon/")}
    assert len(package) == len(space_package_files()) and "hf_anon/__init__.py" in package
    requirements = repo.files["requirements.txt"].decode().splitlines()
    assert "hf-anon" not in requirements and any(r.startswith("torch==") for r in requirements)
    assert not any(r.startswith("gradio") for r in requirements)
    listing = capsys.readouterr().out
    assert f"hf_anon/ ({len(package)} files)" in listing  # one line, not one per file
    assert "hf_anon/text/labels.py" not in listing

    url = "git+https://example.org/hf-anon.git@v0.1.0"
    push_space("org/demo", "org/tiny", requirement=url, **common)
    assert set(repo.files) == {"app.py", "requirements.txt", "README.md"}
    assert sorted(repo.commits[-1]["deleted"]) == sorted(package)
    assert repo.files["requirements.txt"].decode().splitlines()[-2:] == ["torch", url]
    assert len(repo.commits) == 2


def test_push_space_refuses_a_requirement_no_index_serves(tmp_path):
    app = tmp_path / "app.py"
    app.write_text("import gradio as gr\n")
    with pytest.raises(PushError, match="on no package index"):
        push_space("org/demo", "org/tiny", app_file=app, requirement="hf-anon", dry_run=True)


def test_push_space_needs_the_app(tmp_path):
    with pytest.raises(PushError, match="no such file"):
        push_space("org/demo", "org/tiny", app_file=tmp_path / "app.py", dry_run=True)


def _corpus(tmp_path: Path) -> Path:
    from hf_anon.corpora.corpus import save_corpus
    from hf_anon.text.data import Document, Span

    docs = [
        Document(f"d{i}", "Herr Hans Müller klagt.", [Span(5, 16, "nat-name", "high")])
        for i in range(4)
    ]
    out = tmp_path / "corpus"
    save_corpus({"train": docs[:3], "test": docs[3:]}, out)
    return out


@pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")  # hub's LFS PUT
def test_push_corpus_with_datasets_push_to_hub(hub, tmp_path, capsys):
    """The real ``DatasetDict.push_to_hub`` against the fake hub: Parquet shards, the
    dataset card, then ``labels.json``."""
    import io

    import pyarrow.parquet as pq

    corpus = _corpus(tmp_path)
    push_corpus(corpus, "org/corpus", token=TOKEN, endpoint=hub.endpoint)
    repo = hub.repo("dataset", "org/corpus")
    assert repo.private and repo.payload["type"] == "dataset"
    assert set(repo.files) == {
        "README.md",
        "labels.json",
        "data/train-00000-of-00001.parquet",
        "data/test-00000-of-00001.parquet",
    }
    train = pq.read_table(io.BytesIO(repo.files["data/train-00000-of-00001.parquet"]))
    assert train.num_rows == 3 and "text" in train.column_names
    assert repo.files["labels.json"] == (corpus / "labels.json").read_bytes()
    shards = sorted(path for commit in repo.commits for path in commit["lfs"])
    assert shards == ["data/test-00000-of-00001.parquet", "data/train-00000-of-00001.parquet"]
    assert "still carries the original facts" in capsys.readouterr().err
    assert hub.auth == {f"Bearer {TOKEN}"}


def test_push_corpus_dry_run_and_refusal(hub, tmp_path, capsys):
    corpus = _corpus(tmp_path)
    assert push_corpus(corpus, "org/corpus", dry_run=True, endpoint=hub.endpoint) is None
    assert hub.requests == []
    captured = capsys.readouterr()
    assert "train 3, test 1 documents" in captured.out and "original facts" in captured.err
    with pytest.raises(PushError, match="not a corpus"):
        push_corpus(tmp_path, "org/corpus", dry_run=True)


def test_corpus_scripts_push_with_the_shared_options(tmp_path, monkeypatch):
    """``--push-to-hub`` of the corpus scripts goes through push_corpus, private by
    default (push_corpus itself is tested against the fake hub above)."""
    import hf_anon.distribution.datasets as datasets_push
    from hf_anon.corpora.corpus import add_corpus_arguments, write_corpus
    from hf_anon.corpora.synthetic import generate_document

    calls = []
    monkeypatch.setattr(datasets_push, "push_corpus", lambda *a, **k: calls.append((a, k)))
    import argparse

    parser = argparse.ArgumentParser()
    add_corpus_arguments(parser)
    docs = [generate_document(i, 0) for i in range(1, 4)]
    out = tmp_path / "c"
    for argv in (["--push-to-hub", "org/c"], ["--push-to-hub", "org/c", "--public"], ["--private"]):
        args = parser.parse_args(["--output", str(out), *argv])
        write_corpus(docs, args)
        datasets_push.push_as_asked(args)
    assert [(a[1], k["private"]) for a, k in calls] == [("org/c", True), ("org/c", False)]
    with pytest.raises(SystemExit):
        parser.parse_args(["--output", "x", "--private", "--public"])


def test_cli_push_dry_run(model_dir, tmp_path, capsys):
    app = tmp_path / "app.py"
    app.write_text("print('demo')\n")
    code = cli.main(
        [
            "push",
            "--model",
            str(model_dir),
            "--repo-id",
            "org/tiny",
            "--private",
            "--space",
            "org/demo",
            "--space-app",
            str(app),
            "--dry-run",
            "--token",
            TOKEN,
            "--message",
            "First release",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "model org/tiny (private)" in out and "space org/demo (public)" in out
    assert "model.safetensors" in out and "requirements.txt" in out
    assert "commit message: First release" in out
    assert out.count("dry run: nothing uploaded") == 2
    assert TOKEN not in out


def test_cli_push_to_the_fake_hub(hub, model_dir, tmp_path, capsys):
    code = cli.main(
        [
            "push",
            "--model",
            str(model_dir),
            "--repo-id",
            "org/tiny",
            "--token",
            TOKEN,
            "--endpoint",
            hub.endpoint,
        ]
    )
    assert code == 0
    assert hub.repo("model", "org/tiny").files == _expected_files(model_dir)
    assert TOKEN not in capsys.readouterr().out


def test_cli_push_refusal_is_one_line(tmp_path, capsys):
    code = cli.main(["push", "--model", str(tmp_path), "--repo-id", "org/x", "--dry-run"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("hf-anon push: error:") and "not an hf-anon model" in err
