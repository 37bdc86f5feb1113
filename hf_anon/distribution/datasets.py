"""Corpus pushes: a saved ``DatasetDict`` and its ``labels.json`` to a Hub dataset repo."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

from hf_anon.distribution.plans import PushError

CORPUS_WARNING = (
    "warning: a pseudonymized corpus still carries the original facts of each decision "
    "(events, dates, places, case histories): replacing names and numbers does not make "
    "it anonymous. Push it public only if the source decisions are public."
)


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


def push_as_asked(args) -> None:
    """The push the corpus scripts' shared options ask for (``--push-to-hub REPO``, private
    unless ``--public``; :func:`hf_anon.corpora.corpus.add_corpus_arguments`), of the corpus
    written to ``args.output``; nothing without ``--push-to-hub``."""
    if args.push_to_hub:
        push_corpus(args.output, args.push_to_hub, private=not args.public)
