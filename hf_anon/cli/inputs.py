"""What several sub-commands read and write: gold and predicted JSON Lines checked
against a label set, JSON Lines written; invalid input ends a command with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from hf_anon.corpora.placeholders import (
    UNKNOWN,
)
from hf_anon.text.data import load_jsonl
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.readers import InputError

EXIT_INVALID_INPUT = 2


def load_label_set(path: str | None) -> LabelSet:
    if path is None:
        return DEFAULT_LABELS
    try:
        return LabelSet.from_file(path)
    except (OSError, ValueError) as err:
        raise InputError(f"cannot load label set {path}: {err}") from None


def read_documents(path: str, labels: LabelSet, *, require_risk: bool, spans_key: str = "spans"):
    try:
        return load_jsonl(
            path,
            labels,
            require_risk=require_risk,
            spans_key=spans_key,
            extra_labels=(UNKNOWN,) if spans_key == "placeholders" else (),
        )
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a JSON Lines file") from None
    except OSError as err:
        raise InputError(f"{path}: {err.strerror}") from None


def write_jsonl(path: str, rows: list[dict]) -> None:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
