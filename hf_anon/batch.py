"""``hf-anon anonymize``: anonymize files and folders of decisions in one run.

Inputs are ``.txt`` files (one document each, written back byte for byte outside the
replaced stretches: line endings and a BOM stay), ``.docx`` and ``.pdf`` files (one
document each, their text extracted by :mod:`hf_anon.readers`; the output is a ``.txt``
of that text) and ``.jsonl`` files (one document a line with ``id`` and ``text``), given
one by one or as folders (searched recursively). Each input gets one output under
``--output`` at the same relative path (``.docx``/``.pdf`` with the suffix ``.txt``).

A file that cannot be read or anonymized (invalid UTF-8, a broken JSON line, a
detection failure) is reported and gets no output at all; the batch goes on and the
command ends with exit code 1. Invalid arguments (no model, no inputs, an unknown
label) end it before anything runs, with exit code 2.

Several processes: ``accelerate launch --num_processes N -m hf_anon.cli anonymize …``
(one per GPU, or CPU processes). Every process reads the same files, the documents are
split between the processes with accelerate's ``split_between_processes``, and the
main process gathers the results and writes all outputs, the key file and the summary.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from hf_anon.arguments import (
    add_backend_arguments,
    add_decoding_arguments,
    add_progress_argument,
    decoding_kwargs,
)
from hf_anon.data import ValidationError
from hf_anon.labels import DEFAULT_LABELS
from hf_anon.readers import (
    SINGLE_DOCUMENT,
    InputError,
    InputFile,
    collect_inputs,
    read_documents,
)

#: Fields of a JSON line written to the output; all others may hold personal data
#: (titles, parties) and are dropped.
KEPT_FIELDS = ("id", "domain")
#: Files read per round (all processes read a round, then split its documents).
ROUND_FILES = 64
ROUND_BYTES = 8_000_000


@dataclass
class FileResult:
    file: InputFile
    error: str | None = None
    documents: int = 0


@dataclass
class Summary:
    files: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: int = 0
    documents: int = 0
    characters: int = 0
    tokens: int = 0
    labels: Counter = field(default_factory=Counter)
    leak_check: int = 0
    dropped_fields: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def format(self) -> str:
        ok = self.files - len(self.failed)
        rate = self.tokens / self.seconds if self.seconds else 0.0
        lines = [
            f"{ok} of {self.files} files anonymized ({len(self.failed)} failed"
            + (f", {self.skipped} other files skipped" if self.skipped else "")
            + f"), {self.documents} documents, {self.characters:,} characters, "
            f"{self.tokens:,} tokens in {self.seconds:.1f} s "
            f"({rate:,.0f} tokens/s, {self.documents / max(self.seconds, 1e-9):.1f} documents/s)",
            f"{sum(self.labels.values())} spans replaced"
            + (" (" + ", ".join(f"{k} {v}" for k, v in self.labels.most_common()) + ")")
            * bool(self.labels)
            + f", {self.leak_check} of them found by the leak check",
        ]
        if self.dropped_fields:
            lines.append(
                "fields dropped from JSON lines (not anonymized): "
                + ", ".join(f"{k} ({v})" for k, v in self.dropped_fields.most_common())
            )
        for path, error in self.failed:
            lines.append(f"failed: {path}: {error}")
        return "\n".join(lines)


# -------------------------------------------------------------------------------- input


def rounds(files: Sequence[InputFile]) -> Iterator[list[int]]:
    """Indices of files in rounds of at most ``ROUND_FILES`` files or about
    ``ROUND_BYTES`` bytes."""
    current: list[int] = []
    size = 0
    for i, file in enumerate(files):
        with contextlib.suppress(OSError):  # a vanished file fails when it is read
            size += file.path.stat().st_size
        current.append(i)
        if len(current) >= ROUND_FILES or size >= ROUND_BYTES:
            yield current
            current, size = [], 0
    if current:
        yield current


# ------------------------------------------------------------------------------- output


def _safe_name(doc_id: str) -> str:
    keep = "".join(c if c.isalnum() or c in "-_." else "_" for c in doc_id).strip(".")
    return keep or "document"


def _target_format(file: InputFile, fmt: str) -> str:
    """``txt`` or ``jsonl``: as asked, else as the input (one-document files give txt)."""
    if fmt != "auto":
        return fmt
    return "txt" if file.kind in SINGLE_DOCUMENT else "jsonl"


def output_paths(file: InputFile, out_dir: Path, fmt: str) -> Path:
    """Where a file's output goes: same relative path; ``--format txt`` on a JSON Lines
    file gives a folder with one ``.txt`` per document."""
    target = _target_format(file, fmt)
    if file.kind == "jsonl" and target == "txt":
        return out_dir / file.relative.with_suffix("")
    return out_dir / file.relative.with_suffix(".txt" if target == "txt" else ".jsonl")


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_output(file: InputFile, rows: list[dict], results: list, out: Path, fmt: str) -> Counter:
    """Write one file's anonymized documents; returns the fields dropped from rows."""
    target = _target_format(file, fmt)
    dropped: Counter = Counter()
    if target == "txt" and file.kind in SINGLE_DOCUMENT:
        _write_atomic(out, results[0].text.encode("utf-8"))
    elif target == "txt":
        names: set[str] = set()
        for row, result in zip(rows, results, strict=True):
            name = _safe_name(row["id"])
            while name in names:
                name += "_"
            names.add(name)
            _write_atomic(out / f"{name}.txt", result.text.encode("utf-8"))
    else:
        lines = []
        for row, result in zip(rows, results, strict=True):
            record = {k: row[k] for k in KEPT_FIELDS if k in row}
            record["text"] = result.text
            record["spans"] = [s.to_dict() for s in result.new_spans()]
            dropped.update(k for k in row if k not in (*KEPT_FIELDS, "text"))
            lines.append(json.dumps(record, ensure_ascii=False) + "\n")
        _write_atomic(out, "".join(lines).encode("utf-8"))
    return dropped


# --------------------------------------------------------------------------------- run


def _process_state():
    """accelerate's process state when launched with several processes, else None."""
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return None
    from accelerate import PartialState

    return PartialState()


def _anonymize_local(anonymizer, plan, items, texts, args, secret) -> list[tuple]:
    """Anonymize this process's documents; a failure is pinned on the file it came from.

    ``items`` are (file index, document index); returns (file, document, result, error).
    """

    def run(indices):
        return anonymizer.anonymize(
            [texts[i] for i in indices],
            plan=plan,
            threshold=args.threshold,
            seed=args.seed,
            secret=secret,
            key=args.key_out is not None,
            batch_size=args.batch_size,
        )

    try:
        results = run(range(len(items)))
        return [(f, d, r, None) for (f, d), r in zip(items, results, strict=True)]
    except Exception as err:  # any failure fails its files, never the batch
        if len({f for f, _ in items}) == 1:
            return [(f, d, None, _message(err)) for f, d in items]
    out = []
    for f in sorted({f for f, _ in items}):
        idx = [i for i, (g, _) in enumerate(items) if g == f]
        try:
            results = run(idx)
            out += [(f, items[i][1], r, None) for i, r in zip(idx, results, strict=True)]
        except Exception as err:
            out += [(f, items[i][1], None, _message(err)) for i in idx]
    return out


def _message(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


def _file_message(path: Path, err: BaseException) -> str:
    """An error about a file without the file's name (the report puts it in front);
    ``FILE:3: invalid JSON`` → ``line 3: invalid JSON``."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    message = _message(err)
    if message.startswith(f"{path}:"):
        message = re.sub(r"^(\d+): ", r"line \1: ", message[len(f"{path}:") :].lstrip())
    return message


class BatchRun:
    """One ``hf-anon anonymize`` run: rounds of files → read → anonymize → write."""

    def __init__(self, args: argparse.Namespace, anonymizer, plan, secret: str | None, state):
        self.args = args
        self.anonymizer = anonymizer
        self.plan = plan
        self.secret = secret
        self.state = state
        self.is_main = state is None or state.is_main_process
        self.out_dir = Path(args.output)
        self.outputs: dict[Path, Path] = {}
        self.key_handle = None

    def read(self, file: InputFile) -> list[dict]:
        """The file's rows; raises ValidationError/InputError/OSError for a file error."""
        target = output_paths(file, self.out_dir, self.args.format)
        if target in self.outputs:
            raise ValidationError(
                f"its output {target} is also the output of {self.outputs[target]}"
            )
        if target.resolve() == file.path.resolve():
            raise ValidationError(
                f"its output {target} would overwrite it; choose another --output"
            )
        self.outputs[target] = file.path
        return read_documents(file)

    def anonymize(self, items: list[tuple[int, int]], texts: dict) -> list[tuple]:
        """This round's documents, split between processes; every process gets all results."""
        if self.state is None:
            local = items
        else:
            with self.state.split_between_processes(items) as part:
                local = list(part)
        found = (
            _anonymize_local(
                self.anonymizer,
                self.plan,
                local,
                [texts[item] for item in local],
                self.args,
                self.secret,
            )
            if local
            else []
        )
        if self.state is not None:
            from accelerate.utils import gather_object

            found = gather_object(found)
        return found

    def write(self, file: InputFile, rows: list[dict], results: list, summary: Summary) -> None:
        """Output and key lines of one file (main process only)."""
        target = output_paths(file, self.out_dir, self.args.format)
        summary.dropped_fields.update(write_output(file, rows, results, target, self.args.format))
        _account(summary, results)
        if self.key_handle is not None:
            for row, result in zip(rows, results, strict=True):
                entry = {
                    "file": file.relative.as_posix(),
                    "id": row["id"],
                    "replacements": result.key(),
                }
                self.key_handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def run(self, files: list[InputFile], summary: Summary) -> None:
        bar = tqdm(
            total=len(files),
            desc="anonymize",
            unit="file",
            disable=not (self.args.progress and self.is_main),
        )
        try:
            for group in rounds(files):
                errors: dict[int, str] = {}
                rows: dict[int, list[dict]] = {}
                for f in group:
                    try:
                        rows[f] = self.read(files[f])
                    except (InputError, ValidationError, OSError) as err:
                        errors[f] = _file_message(files[f].path, err)
                items = [(f, d) for f in sorted(rows) for d in range(len(rows[f]))]
                texts = {(f, d): rows[f][d]["text"] for f, d in items}
                results: dict[int, list] = {f: [None] * len(rows[f]) for f in rows}
                for f, d, result, error in self.anonymize(items, texts):
                    if error is not None:
                        errors.setdefault(f, error)
                    results[f][d] = result
                for f in group:
                    if f not in errors and self.is_main:
                        try:
                            self.write(files[f], rows[f], results[f], summary)
                        except OSError as err:
                            errors[f] = f"cannot write its output: {_message(err)}"
                    if f in errors:
                        summary.failed.append((str(files[f].path), errors[f]))
                        if self.is_main:
                            message = f"hf-anon anonymize: error: {files[f].path}: {errors[f]}"
                            tqdm.write(message, file=sys.stderr)
                    bar.update(1)
        finally:
            bar.close()


def cmd_anonymize(args: argparse.Namespace) -> int:
    from hf_anon.anonymize import Anonymizer, Redact

    secret = None
    if args.secret_env:
        secret = os.environ.get(args.secret_env)
        if not secret:
            raise InputError(f"environment variable {args.secret_env} is not set or empty")
    operators = {}
    for item in args.operator or []:
        label, sep, mode = item.partition("=")
        if not sep:
            raise InputError(f"--operator takes LABEL=MODE, got {item!r}")
        operators[label] = mode
    files, skipped = collect_inputs(args.input)
    state = _process_state()
    device = args.device or (str(state.device) if state is not None else None)
    try:
        anonymizer = Anonymizer.from_pretrained(
            args.model,
            device=device,
            dtype=args.dtype,
            quantize=args.quantize,
            batch_size=args.batch_size,
            backend=args.backend,
            **decoding_kwargs(args),
        )
        mode = Redact(args.mask) if args.mode == "redact" and args.mask is not None else args.mode
        plan = anonymizer.plan(
            mode=mode, operators=operators, labels=args.labels, min_risk=args.min_risk
        )
    except ValueError as err:
        raise InputError(str(err)) from None

    batch = BatchRun(args, anonymizer, plan, secret, state)
    summary = Summary(files=len(files), skipped=skipped)
    started = time.perf_counter()
    if args.key_out and batch.is_main:
        key_path = Path(args.key_out)
        key_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        batch.key_handle = os.fdopen(fd, "w", encoding="utf-8")
    try:
        batch.run(files, summary)
    finally:
        if batch.key_handle is not None:
            batch.key_handle.close()
    summary.seconds = time.perf_counter() - started
    if batch.is_main:
        print(summary.format(), file=sys.stderr)
    return 1 if summary.failed else 0


def _account(summary: Summary, results: list) -> None:
    for result in results:
        summary.documents += 1
        summary.tokens += result.tokens or 0
        summary.characters += len(result.text)
        summary.labels.update(r.label for r in result.replacements)
        summary.leak_check += sum(r.source == "leak-check" for r in result.replacements)


def add_anonymize_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``anonymize`` on the ``hf-anon`` sub-command parsers."""
    from hf_anon.anonymize import OPERATORS

    parser = commands.add_parser(
        "anonymize",
        help="anonymize .txt, .docx, .pdf and .jsonl files with a trained model",
        description=(
            "Detect sensitive spans with a trained hf-anon model and replace them "
            "(pseudonyms, labels, random initials or a mask), consistently per entity within "
            "each document; the surface forms of replaced spans are also replaced wherever "
            "else they occur. INPUT: .txt, .docx and .pdf files (one document each; the text "
            "of .docx and .pdf is extracted and written as .txt) and .jsonl files (id and "
            "text per line), or folders of them. A file that fails gets no output and is "
            "reported; the exit code is then 1."
        ),
    )
    parser.add_argument("input", nargs="+", metavar="INPUT", help="files or folders")
    parser.add_argument(
        "--model",
        default=None,
        help="hf-anon model folder or hub id (default: the bundled hf-anon-de-e5-small)",
    )
    parser.add_argument("--output", required=True, metavar="DIR", help="output folder")
    parser.add_argument(
        "--mode",
        default="pseudonym",
        choices=sorted(OPERATORS),
        help="operator for all selected labels (default: pseudonym)",
    )
    parser.add_argument(
        "--operator",
        action="append",
        metavar="LABEL=MODE",
        help="operator for one label, e.g. court-name=keep (repeatable)",
    )
    parser.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help=f"replace only these labels (default all: {', '.join(DEFAULT_LABELS.names)})",
    )
    parser.add_argument(
        "--min-risk",
        choices=list(DEFAULT_LABELS.risks),
        help="replace only spans of at least this risk (a span counts at least as its "
        "label's usual risk)",
    )
    parser.add_argument("--mask", help="the mask of --mode redact (default […])")
    parser.add_argument(
        "--threshold",
        type=float,
        help="a token is inside a span when 1 - P(O) >= threshold (lower: more recall)",
    )
    parser.add_argument(
        "--format",
        default="auto",
        choices=["auto", "txt", "jsonl"],
        help="output format (default: as the input; jsonl adds the replaced spans)",
    )
    parser.add_argument(
        "--key-out",
        metavar="FILE",
        help="write the key (originals of all replacements, JSON Lines) here; keep it secret",
    )
    parser.add_argument(
        "--secret-env",
        metavar="VAR",
        help="environment variable holding a secret: the same entity then gets the same "
        "replacement in all documents (without it, nothing links documents)",
    )
    parser.add_argument("--seed", type=int, help="reproducible replacements")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    parser.add_argument("--device", help="cpu, cuda, cuda:1, mps (default: cpu)")
    parser.add_argument(
        "--dtype",
        choices=["float32", "bfloat16", "float16"],
        help="model weights on a GPU in half precision",
    )
    add_backend_arguments(parser)
    add_decoding_arguments(parser)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_anonymize)
    return parser
