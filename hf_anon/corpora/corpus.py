"""Corpora on disk and on the hub: reading decisions, splitting, saving a DatasetDict.

The corpus scripts in ``datasets_scripts/`` share these steps so that every corpus has
the same columns (see :func:`hf_anon.text.data.dataset_features`), the same split names and
the same summary at the end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from hf_anon.text.data import Document, ValidationError, from_dataset, iter_jsonl, to_dataset
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

TEXT_SUFFIXES = (".txt",)
#: Fields of ``Document.meta`` that hold character offsets: stale once the text changes.
OFFSET_META_FIELDS = ("kept", "timex_dates", "placeholders", "spans")
JSONL_SUFFIXES = (".jsonl", ".json")


def list_input_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, plus ``.txt``/``.jsonl`` files found under folders (sorted)."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix in TEXT_SUFFIXES + JSONL_SUFFIXES
            )
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return files


def read_decisions(paths: Iterable[str | Path]) -> list[Document]:
    """Published decisions as documents without spans.

    A ``.txt`` file is one decision (id: the file name without suffix); a ``.jsonl``
    file holds one decision per line with ``id`` and ``text`` (other fields are kept in
    ``meta``, existing spans are ignored). Ids must be unique across all inputs.
    """
    documents: list[Document] = []
    seen: set[str] = set()
    for path in list_input_files(paths):
        if path.suffix in JSONL_SUFFIXES:
            for number, raw in iter_jsonl(path):
                if not isinstance(raw, dict):
                    raise ValidationError(f"{path}:{number}: a line must be a JSON object")
                doc_id, text = raw.get("id"), raw.get("text")
                if not isinstance(doc_id, str) or not doc_id:
                    raise ValidationError(f"{path}:{number}: id must be a non-empty string")
                if not isinstance(text, str):
                    raise ValidationError(f"{path}:{number}: text must be a string")
                keep = {
                    k: v
                    for k, v in raw.items()
                    if k not in {"id", "text", "domain", "spans", "placeholders"}
                }
                documents.append(Document(doc_id, text, [], raw.get("domain"), keep))
        else:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as err:
                raise ValidationError(f"{path}: not valid UTF-8 ({err.reason})") from None
            documents.append(Document(path.stem, text))
        for doc in documents[len(seen) :]:
            if doc.id in seen:
                raise ValidationError(f"{path}: duplicate document id {doc.id!r}")
            seen.add(doc.id)
    return documents


def without_offset_fields(doc: Document) -> Document:
    """The document minus meta fields whose offsets would point into another text."""
    meta = {k: v for k, v in doc.meta.items() if k not in OFFSET_META_FIELDS}
    return Document(doc.id, doc.text, doc.spans, doc.domain, meta)


def split_documents(
    documents: Sequence[Document],
    *,
    validation: float = 0.1,
    test: float = 0.1,
    seed: int = 0,
) -> dict[str, list[Document]]:
    """Shuffle whole documents (never sentences of one document) into splits."""
    if not 0 <= validation < 1 or not 0 <= test < 1 or validation + test >= 1:
        raise ValueError(f"split fractions must leave room for training: {validation}, {test}")
    order = list(documents)
    random.Random(seed).shuffle(order)
    n_val, n_test = round(len(order) * validation), round(len(order) * test)
    splits = {"train": order[n_val + n_test :]}
    if n_val:
        splits["validation"] = order[:n_val]
    if n_test:
        splits["test"] = order[n_val : n_val + n_test]
    return splits


def save_corpus(
    splits: Mapping[str, Sequence[Document]],
    out_dir: str | Path,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    extra_labels: Sequence[str] = (),
):
    """Write a ``datasets.DatasetDict`` to ``out_dir``.

    Also writes ``labels.json`` (the label set used) next to it, so a corpus can be read
    back without guessing. Pushing it is distribution's business
    (:func:`hf_anon.distribution.datasets.push_corpus`, which also uploads ``labels.json``;
    :func:`hf_anon.distribution.datasets.push_as_asked` for the scripts' ``--push-to-hub``).
    """
    from datasets import DatasetDict

    dataset = DatasetDict(
        {
            name: to_dataset(docs, labels, spans_key=spans_key, extra_labels=extra_labels)
            for name, docs in splits.items()
        }
    )
    out_dir = Path(out_dir)
    dataset.save_to_disk(str(out_dir))
    labels.save(out_dir / "labels.json")
    return dataset


def load_corpus(
    path: str | Path, *, spans_key: str = "spans", extra_labels: Sequence[str] = ()
) -> dict[str, list[Document]]:
    """Read a corpus written by :func:`save_corpus` back into documents per split."""
    from datasets import load_from_disk

    path = Path(path)
    labels = LabelSet.from_file(path / "labels.json")
    dataset = load_from_disk(str(path))
    return {
        name: from_dataset(
            split,
            labels,
            spans_key=spans_key,
            require_risk=spans_key == "spans",
            extra_labels=extra_labels,
        )
        for name, split in dataset.items()
    }


def corpus_statistics(splits: Mapping[str, Sequence[Document]]) -> dict:
    """Counts for the summary: documents, characters, spans per split and per label."""
    stats: dict = {"splits": {}, "labels": Counter(), "risks": Counter()}
    for name, docs in splits.items():
        stats["splits"][name] = {
            "documents": len(docs),
            "characters": sum(len(d.text) for d in docs),
            "spans": sum(len(d.spans) for d in docs),
        }
        for doc in docs:
            stats["labels"].update(s.label for s in doc.spans)
            stats["risks"].update(s.risk or "none" for s in doc.spans)
    stats["labels"] = dict(stats["labels"].most_common())
    stats["risks"] = dict(stats["risks"].most_common())
    return stats


def format_statistics(stats: Mapping) -> str:
    """The summary the corpus scripts print at the end."""
    lines = [f"{'split':12}{'documents':>11}{'characters':>13}{'spans':>9}"]
    for name, s in stats["splits"].items():
        lines.append(f"{name:12}{s['documents']:11,}{s['characters']:13,}{s['spans']:9,}")
    lines.append("spans by label: " + json.dumps(stats["labels"], ensure_ascii=False))
    if stats.get("risks"):
        lines.append("spans by risk:  " + json.dumps(stats["risks"], ensure_ascii=False))
    return "\n".join(lines)


def corpus_script_parser(doc: str):
    """The argument parser of a script that turns published decisions into a corpus:
    its docstring as help, DECISIONS inputs and the shared output options."""
    import argparse

    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], epilog=doc.split("\n\n", 2)[-1]
    )
    parser.add_argument("inputs", nargs="+", metavar="DECISIONS", help=".txt/.jsonl or folders")
    add_corpus_arguments(parser)
    return parser


def add_corpus_arguments(parser) -> None:
    """The output options every corpus script shares."""
    parser.add_argument("--output", required=True, help="folder for the DatasetDict")
    parser.add_argument("--validation", type=float, default=0.1, help="share of documents")
    parser.add_argument("--test", type=float, default=0.1, help="share of documents")
    parser.add_argument("--seed", type=int, default=0, help="seed for splits and surrogates")
    parser.add_argument("--jsonl", help="also write all documents to this JSON Lines file")
    parser.add_argument("--push-to-hub", metavar="REPO_ID", help="also push the dataset")
    visibility = parser.add_mutually_exclusive_group()
    visibility.add_argument(
        "--public", action="store_true", help="make the pushed dataset public (default private)"
    )
    visibility.add_argument(
        "--private",
        dest="public",
        action="store_false",
        default=False,
        help="make the pushed dataset private (the default)",
    )


def write_corpus(
    documents: Sequence[Document],
    args,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    extra_labels: Sequence[str] = (),
) -> dict[str, list[Document]]:
    """Split and save a corpus as the shared options say; return the splits (the push that
    ``--push-to-hub`` asks for: :func:`hf_anon.distribution.datasets.push_as_asked`)."""
    from hf_anon.text.data import save_jsonl

    splits = split_documents(documents, validation=args.validation, test=args.test, seed=args.seed)
    save_corpus(
        splits,
        args.output,
        labels,
        spans_key=spans_key,
        extra_labels=extra_labels,
    )
    if args.jsonl:
        save_jsonl(documents, args.jsonl, spans_key=spans_key)
    return splits
