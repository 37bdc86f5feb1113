"""What goes up to the Hub, planned before anything is sent: the files of a push as a
:class:`PushPlan` (shown by ``--dry-run``), refused when a file holds an access token, and
sent as one commit.

What goes up is an explicit allow-list, never "the folder": a training run's output folder
also holds checkpoints, optimizer states and sometimes training data, and a model repo is
usually public. Everything else in the folder is listed as left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: Never uploaded, even where an allow-list would take them (training data, states).
NEVER_UPLOAD_SUFFIXES = frozenset(
    {".jsonl", ".pt", ".pth", ".bin", ".pkl", ".ckpt", ".arrow", ".parquet", ".env"}
)


#: Text that looks like a Hugging Face access token: a file holding one is refused.
TOKEN_PATTERN = re.compile(rb"hf_[A-Za-z0-9]{30,}")


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
            f"{human_size(self.total_size)}"
        ]
        folded: dict[str, list[PlannedFile]] = {}
        for f in self.files:
            folder = next((c for c in self.collapse if f.path_in_repo.startswith(c + "/")), None)
            if folder is None:
                lines.append(f"  {human_size(f.size):>10}  {f.path_in_repo}")
            else:
                folded.setdefault(folder, []).append(f)
        lines += [
            f"  {human_size(sum(f.size for f in group)):>10}  {folder}/ ({len(group)} files)"
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


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def summarize(paths: list[str]) -> list[str]:
    """``checkpoint-100/optimizer.bin`` … → ``checkpoint-100/ (3 files)``."""
    by_top: dict[str, list[str]] = {}
    for path in paths:
        top, sep, _ = path.partition("/")
        by_top.setdefault(top + sep, []).append(path)
    return [
        f"{key} ({len(group)} files)" if len(group) > 1 else group[0]
        for key, group in sorted(by_top.items())
    ]


def check_no_token(files: list[PlannedFile], token: str | None) -> None:
    for planned in files:
        if planned.path_in_repo.endswith(".safetensors"):
            continue
        data = planned.source if isinstance(planned.source, bytes) else planned.source.read_bytes()
        if TOKEN_PATTERN.search(data) or (token and token.encode() in data):
            raise PushError(
                f"{planned.path_in_repo} contains what looks like a Hugging Face access "
                "token: remove it before pushing"
            )


def commit(api, plan: PushPlan, description: str, deletions: Sequence[str] = ()):
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


def create_repo(api, plan: PushPlan, **kwargs) -> None:
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
