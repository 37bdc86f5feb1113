"""``hf-anon anonymize``: anonymize files and folders of decisions in one run.

Inputs are ``.txt`` files (one document each, written back byte for byte outside the
replaced stretches: line endings and a BOM stay), ``.docx`` and ``.pdf`` files (one
document each, their text extracted by :mod:`hf_anon.text.readers`; the output is a ``.txt``
of that text, and for a ``.docx`` also the anonymized Word file beside it,
:mod:`hf_anon.apply.word`) and ``.jsonl`` files (one document a line with ``id`` and
``text``), given one by one or as folders (searched recursively). Each input gets its
output under ``--output`` at the same relative path (``.docx``/``.pdf`` with the suffix
``.txt``).

A file that cannot be read or anonymized (invalid UTF-8, a broken JSON line, a
detection failure) is reported and gets no output at all; the batch goes on and the
command ends with exit code 1. Invalid arguments (no model, no inputs, an unknown
label) end it before anything runs, with exit code 2.

Memory stays bounded: JSON Lines files are streamed, documents are anonymized in chunks of
at most :data:`CHUNK_DOCUMENTS` documents or :data:`CHUNK_CHARS` characters and written as
they are done. An output is written under a temporary name and renamed when its input is
complete, so an interrupted run (Ctrl-C, SIGTERM) leaves no half-written output; the key
is written to ``KEY.partial`` (mode 0600) and renamed when the run ends. ``--resume`` skips
the inputs whose output exists and continues the key.

Several processes: ``accelerate launch --num_processes N -m hf_anon.cli anonymize …``
(one per GPU, or CPU processes). Every process reads the same files, the documents are
split between the processes with accelerate's ``split_between_processes``, and the
main process gathers the results and writes all outputs, the key file and the summary.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon.apply.anonymize.types import AnonymizationError
from hf_anon.apply.topics.redactor import topic_mode_for
from hf_anon.text.data import ValidationError
from hf_anon.text.languages import resolve_language
from hf_anon.text.readers import (
    SINGLE_DOCUMENT,
    InputError,
    InputFile,
    iter_documents,
)

#: Fields of a JSON line written to the output; all others may hold personal data
#: (titles, parties) and are dropped.
KEPT_FIELDS = ("id", "domain")


#: Documents anonymized together (all processes read a chunk, then split its documents);
#: a chunk also ends at this many characters, so a huge file is never held whole.
CHUNK_DOCUMENTS = 64


CHUNK_CHARS = 4_000_000


@dataclass
class Summary:
    files: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: int = 0
    resumed: int = 0
    documents: int = 0
    characters: int = 0
    tokens: int = 0
    labels: Counter = field(default_factory=Counter)
    leak_check: int = 0
    dropped_fields: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    backend: str | None = None  # what ran the model (torch, onnx, onnx-int8)
    removed: Counter = field(default_factory=Counter)  # hidden content of Word files

    def format(self) -> str:
        ok = self.files - len(self.failed)
        rate = self.tokens / self.seconds if self.seconds else 0.0
        lines = [
            f"{ok} of {self.files} files anonymized ({len(self.failed)} failed"
            + (f", {self.resumed} done before (--resume)" if self.resumed else "")
            + (f", {self.skipped} other files skipped" if self.skipped else "")
            + f"), {self.documents} documents, {self.characters:,} characters, "
            f"{self.tokens:,} tokens in {self.seconds:.1f} s "
            f"({rate:,.0f} tokens/s, {self.documents / max(self.seconds, 1e-9):.1f} documents/s"
            + (f"; backend {self.backend}" if self.backend else "")
            + ")",
            f"{sum(self.labels.values())} spans replaced"
            + (" (" + ", ".join(f"{k} {v}" for k, v in self.labels.most_common()) + ")")
            * bool(self.labels)
            + f", {self.leak_check} of them found by the leak check",
        ]
        if self.removed:
            lines.append(
                "removed from Word files: "
                + ", ".join(f"{k} {v}" for k, v in self.removed.most_common())
            )
        if self.dropped_fields:
            lines.append(
                "fields dropped from JSON lines (not anonymized): "
                + ", ".join(f"{k} ({v})" for k, v in self.dropped_fields.most_common())
            )
        for path, error in self.failed:
            lines.append(f"failed: {path}: {error}")
        return "\n".join(lines)


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


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


class Output:
    """One input's output while it is written: documents go to a temporary name next to
    the target (a file, or a folder for ``--format txt`` of a JSON Lines file), renamed to
    the target when the input's last document is written; :meth:`abort` removes it.

    ``write``: False in the processes of a multi-process run that do not write.
    """

    def __init__(self, file: InputFile, target: Path, fmt: str, *, write: bool = True, word=None):
        self.file = file
        self.target = target
        self.format = _target_format(file, fmt)
        self.folder = file.kind == "jsonl" and self.format == "txt"
        self.tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
        #: a .docx input's anonymized Word file (beside the .txt), written with the
        #: options of :func:`~hf_anon.apply.word.write_anonymized_docx` in ``word``
        self.word = word if file.kind == "docx" and self.format == "txt" else None
        self.word_target = word_target(target) if self.word is not None else None
        self.word_tmp = target.with_name(f".{target.stem}.docx.tmp{os.getpid()}")
        self.write = write
        self.pending = 0  # documents read, not yet written
        self.read_all = False
        self.error: str | None = None
        self.done = False
        self.handle = None
        self.names: set[str] = set()
        self.key_lines: list[str] = []
        self.review_lines: list[str] = []
        self.stats = Summary()
        if write:
            target.parent.mkdir(parents=True, exist_ok=True)
            for stale in target.parent.glob(f".{glob.escape(target.name)}.tmp*"):
                _remove(stale)  # left by a run that was killed
            if self.folder:
                self.tmp.mkdir()
            elif self.format == "jsonl":
                self.handle = self.tmp.open("w", encoding="utf-8", newline="")

    def add(self, row: dict, result, *, key: bool, review=None) -> None:
        """Write one anonymized document (in input order); ``review``: the label thresholds
        of its review record (:func:`~hf_anon.apply.review.review_record`), None for none."""
        self.pending -= 1
        if not self.write:
            return
        _account(self.stats, [result])
        if self.format == "txt" and not self.folder:
            if self.word is not None and "word" in row:
                from hf_anon.apply.word import write_anonymized_docx

                self.word_tmp.write_bytes(write_anonymized_docx(row["word"], result, **self.word))
                self.stats.removed.update(row["word"].removed)
            self.tmp.write_bytes(result.text.encode("utf-8"))
        elif self.folder:
            name = _safe_name(row["id"])
            while name in self.names:
                name += "_"
            self.names.add(name)
            (self.tmp / f"{name}.txt").write_bytes(result.text.encode("utf-8"))
        else:
            record = {k: row[k] for k in KEPT_FIELDS if k in row}
            record["text"] = result.text
            record["spans"] = [s.to_dict() for s in result.new_spans()]
            self.stats.dropped_fields.update(k for k in row if k not in (*KEPT_FIELDS, "text"))
            self.handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        if key:
            entry = {
                "file": self.file.relative.as_posix(),
                "id": row["id"],
                "replacements": result.key(),
            }
            self.key_lines.append(json.dumps(entry, ensure_ascii=False) + "\n")
        if review is not None:
            from hf_anon.apply.review import review_record

            record = review_record(row["id"], row["text"], result, review)
            record["file"] = self.file.relative.as_posix()
            self.review_lines.append(json.dumps(record, ensure_ascii=False) + "\n")

    def commit(self) -> None:
        """Rename the complete output to its target (replacing an older one)."""
        self.done = True
        if not self.write:
            return
        if self.handle is not None:
            self.handle.close()
        if not self.tmp.exists():  # a .txt output is written with its one document
            self.tmp.write_bytes(b"")
        if self.folder and self.target.exists():
            _remove(self.target)
        if self.word_target is not None and self.word_tmp.exists():
            os.replace(self.word_tmp, self.word_target)  # before the .txt: --resume looks there
        os.replace(self.tmp, self.target)

    def abort(self) -> None:
        """Remove what was written (a failed or interrupted input)."""
        self.done = True
        if self.handle is not None:
            self.handle.close()
        if self.write:
            _remove(self.tmp)
            _remove(self.word_tmp)


def word_target(target: Path) -> Path:
    """Where a ``.docx`` input's anonymized Word file goes: beside its ``.txt``."""
    return target.with_suffix(".docx")


def _merge(summary: Summary, stats: Summary) -> None:
    summary.documents += stats.documents
    summary.tokens += stats.tokens
    summary.characters += stats.characters
    summary.labels.update(stats.labels)
    summary.leak_check += stats.leak_check
    summary.dropped_fields.update(stats.dropped_fields)
    summary.removed.update(stats.removed)


def process_state():
    """accelerate's process state when launched with several processes, else None."""
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return None
    from accelerate import PartialState

    return PartialState()


def _anonymize_local(anonymizer, plan, items, texts, args, secret, topics=None) -> list[tuple]:
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
            topics=topics,
            topic_mode=args.topic_mode or topic_mode_for(args.mode),
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
    """One ``hf-anon anonymize`` run: files → chunks of documents → anonymize → outputs
    written as the documents are done, renamed when their input is complete."""

    def __init__(
        self, args: argparse.Namespace, anonymizer, plan, secret: str | None, state, topics=None
    ):
        self.args = args
        self.anonymizer = anonymizer
        self.topics = topics
        self.plan = plan
        self.secret = secret
        self.state = state
        self.is_main = state is None or state.is_main_process
        self.out_dir = Path(args.output)
        self.targets: dict[Path, Path] = {}
        self.key_handle = None
        self.review_handle = None  # --review-out: the spans with their doubt

    def review_thresholds(self) -> dict:
        """The label thresholds doubt is measured against (the model's calibrated ones)."""
        return dict(getattr(self.anonymizer.detector, "label_thresholds", None) or {})

    def word_options(self) -> dict:
        """How the Word files are checked: the model's labels, the plan's leak threshold,
        the language (:func:`~hf_anon.apply.word.write_anonymized_docx`)."""
        return {
            "label_set": self.anonymizer.label_set,
            "leak_min_score": self.plan.leak_min_score,
            "language": self.anonymizer.language,
        }

    def claim(self, file: InputFile, target: Path) -> Path:
        """``target``, the file's output path, taken for it; raises ValidationError where
        another input has it or it would overwrite its input."""
        if target in self.targets:
            raise ValidationError(
                f"its output {target} is also the output of {self.targets[target]}"
            )
        for output in (target, word_target(target) if file.kind == "docx" else target):
            if output.resolve() == file.path.resolve():
                raise ValidationError(
                    f"its output {output} would overwrite it; choose another --output"
                )
        self.targets[target] = file.path
        return target

    def anonymize(self, items: list[tuple[int, int]], texts: dict) -> list[tuple]:
        """A chunk's documents, split between processes; every process gets all results,
        in input order."""
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
                self.topics,
            )
            if local
            else []
        )
        if self.state is not None:
            from accelerate.utils import gather_object

            found = gather_object(found)
        return sorted(found, key=lambda t: (t[0], t[1]))

    def flush(self, chunk: list[tuple[int, int, dict]], outputs: dict[int, Output]) -> None:
        """Anonymize a chunk and write its documents to their outputs."""
        rows = {(f, d): row for f, d, row in chunk if f in outputs and outputs[f].error is None}
        texts = {item: row["text"] for item, row in rows.items()}
        for f, d, result, error in self.anonymize(list(rows), texts):
            out = outputs[f]
            if out.error is not None:
                continue
            if error is not None:
                out.error = error
                continue
            try:
                out.add(
                    rows[f, d],
                    result,
                    key=self.key_handle is not None,
                    review=self.review_thresholds() if self.review_handle is not None else None,
                )
            except OSError as err:
                out.error = f"cannot write its output: {_message(err)}"
            except AnonymizationError as err:  # the Word file failed its leak check
                out.error = _message(err)

    def finish(self, out: Output, summary: Summary, bar) -> None:
        """Commit a complete output (and its key lines), or abort a failed one."""
        if out.done or (out.error is None and (not out.read_all or out.pending)):
            return
        if out.error is None:
            try:
                out.commit()
            except OSError as err:
                out.error = f"cannot write its output: {_message(err)}"
        if out.error is not None:
            out.abort()
            summary.failed.append((str(out.file.path), out.error))
            if self.is_main:
                message = f"hf-anon anonymize: error: {out.file.path}: {out.error}"
                tqdm.write(message, file=sys.stderr)
        else:
            _merge(summary, out.stats)
            for handle, lines in (
                (self.key_handle, out.key_lines),
                (self.review_handle, out.review_lines),
            ):
                if handle is not None:
                    handle.writelines(lines)
                    handle.flush()
        out.key_lines, out.review_lines, out.names = [], [], set()
        bar.update(1)

    def run(self, files: list[InputFile], summary: Summary) -> None:
        bar = tqdm(
            total=len(files),
            desc="anonymize",
            unit="file",
            disable=not (self.args.progress and self.is_main),
        )
        outputs: dict[int, Output] = {}  # the inputs in progress
        chunk: list[tuple[int, int, dict]] = []
        chars = 0
        try:
            for f, file in enumerate(files):
                target = output_paths(file, self.out_dir, self.args.format)
                if self.args.resume and target.exists():
                    summary.resumed += 1
                    bar.update(1)
                    continue
                try:
                    out = outputs[f] = Output(
                        file,
                        self.claim(file, target),
                        self.args.format,
                        write=self.is_main,
                        word=self.word_options(),
                    )
                except (ValidationError, OSError) as err:
                    out = outputs[f] = Output(file, target, self.args.format, write=False)
                    out.error = _file_message(file.path, err)
                try:
                    revisions = getattr(self.args, "revisions", "accept")
                    for d, row in enumerate(iter_documents(file, revisions=revisions)):
                        if out.error is not None:
                            break  # a failed file is not read on
                        chunk.append((f, d, row))
                        out.pending += 1
                        chars += len(row["text"])
                        if len(chunk) >= CHUNK_DOCUMENTS or chars >= CHUNK_CHARS:
                            self.flush(chunk, outputs)
                            chunk, chars = [], 0
                            for g in [g for g in outputs if g != f]:
                                self.finish(outputs[g], summary, bar)
                                if outputs[g].done:
                                    del outputs[g]  # only inputs in progress are kept
                except (InputError, ValidationError, OSError) as err:
                    out.error = out.error or _file_message(file.path, err)
                out.read_all = True
                self.finish(out, summary, bar)
                if out.done:
                    del outputs[f]
            if chunk:
                self.flush(chunk, outputs)
            for out in outputs.values():
                self.finish(out, summary, bar)
        finally:
            for out in outputs.values():
                if not out.done:
                    out.abort()  # interrupted: no half-written output
            bar.close()


def input_language(language: str, files) -> str:
    """``--language``, or for ``auto`` the script of the first documents of the inputs."""
    if language != "auto":
        return language
    texts: list[str] = []
    for file in files:
        try:
            for row in iter_documents(file):
                texts.append(row["text"])
                if len(texts) >= 20:
                    break
        except (InputError, ValidationError, OSError):
            continue  # reported when the file is processed
        if len(texts) >= 20:
            break
    return resolve_language("auto", texts)


def partial_key(key_path: Path) -> Path:
    """Where the key is written during a run (renamed to ``key_path`` at its end)."""
    return key_path.with_name(key_path.name + ".partial")


def open_key(key_path: Path, *, resume: bool):
    """The key file being written, mode 0600: a new ``KEY.partial``, or with ``resume`` the
    one an interrupted run left (else a copy of the finished ``KEY``) to append to."""
    partial = partial_key(key_path)
    key_path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT
    if resume and not partial.exists() and key_path.exists():
        shutil.copyfile(key_path, partial)
    flags |= os.O_APPEND if resume else os.O_TRUNC
    fd = os.open(partial, flags, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "a" if resume else "w", encoding="utf-8")


def terminate_as_interrupt():
    """Make SIGTERM end the run like Ctrl-C (outputs in progress are removed); returns the
    previous handler, or None where signals cannot be set (not the main thread)."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, interrupt)
    except ValueError:
        return None


def _account(summary: Summary, results: list) -> None:
    for result in results:
        summary.documents += 1
        summary.tokens += result.tokens or 0
        summary.characters += len(result.text)
        summary.labels.update(r.label for r in result.replacements)
        summary.leak_check += sum(r.source == "leak-check" for r in result.replacements)
