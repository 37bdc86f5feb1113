"""The input layer: the texts of the files decisions come in, and the errors they raise.

Every command and the demo read their inputs here, so that one file gives one text and
one kind of error whichever entry point reads it:

- :func:`read_text`: the text of a ``.txt``, ``.docx`` or ``.pdf`` file (the demo's
  uploads, ``hf-anon anonymize``'s single-document inputs);
- :func:`read_jsonl_texts`: the ``id``/``text`` rows of a JSON Lines file (``hf-anon
  detect``, ``placeholders``, ``pseudonymize``, ``anonymize``);
- :func:`collect_inputs`: the files named on a command line, folders searched
  recursively, and :func:`read_documents`: the rows of one of them;
- :func:`decode_utf8`: the one UTF-8 decoder behind all of them.

What each file type gives:

- ``.txt``: strict UTF-8. A wrong encoding is not guessed: a mis-decoded name is a name
  the model cannot find, so the error names the byte, its offset and its line. A leading
  BOM is dropped by :func:`read_text` and kept (``keep_bom=True``) by ``hf-anon
  anonymize``, which writes the file back byte for byte outside the replaced stretches.
- ``.docx`` (:mod:`hf_anon.text.word`): the body in document order, one line per
  paragraph (table cells and text boxes too), then headers, footers, footnotes and
  endnotes after a blank line each. Tracked changes are accepted; comments, hidden text
  and properties are not read (``hf-anon anonymize`` removes them from the Word file it
  writes).
- ``.pdf`` (pypdf): the text layer of every page, pages separated by a blank line. A
  PDF without text (a scan) or with a password is an error: OCR or unlock it first.
- ``.jsonl``: one JSON object a line with a non-empty string ``id`` (unique in the file)
  and a string ``text``; other fields are kept.

Errors are :class:`InputError` (a ``ValueError``) whose message starts with the path
(and the line, for JSON Lines); a file that cannot be opened at all raises ``OSError``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hf_anon.text.data import iter_jsonl
from hf_anon.text.errors import InputError

#: Suffixes :func:`read_text` reads.
SUPPORTED = (".txt", ".docx", ".pdf")
#: Input types of ``hf-anon anonymize`` (suffix → kind).
READABLE = {".txt": "txt", ".jsonl": "jsonl", ".docx": "docx", ".pdf": "pdf"}
#: Kinds that hold one document (a ``.jsonl`` file holds one a line).
SINGLE_DOCUMENT = frozenset({"txt", "docx", "pdf"})
#: Types found in folders that are reported as not supported (rather than ignored):
#: they usually hold decisions too. No parser for them ships with hf-anon.
UNSUPPORTED = frozenset({".doc", ".odt", ".rtf"})


def decode_utf8(data: bytes, path: str | Path, *, keep_bom: bool = False) -> str:
    """Strict UTF-8; an error names the offending byte, its offset and line.

    A leading BOM (``U+FEFF``) is dropped unless ``keep_bom``: text for a model has no
    use for it, but a file written back byte for byte must keep it.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(
            f"{path}: not valid UTF-8: byte 0x{data[err.start]:02X} at offset {err.start} "
            f"(line {line}): {err.reason}; convert the file to UTF-8 first"
        ) from None
    return text if keep_bom else text.removeprefix("\ufeff")


def _read_docx(path: Path) -> str:
    """The text of a .docx as the anonymizer reads it (:func:`hf_anon.text.word.open_word`:
    zip bombs refused, hidden content removed, tracked changes accepted)."""
    from hf_anon.text.word import open_word

    return open_word(path.read_bytes(), str(path)).text  # OSError stays an OSError


def _read_pdf(path: Path) -> str:
    from pypdf import PdfReader

    data = path.read_bytes()  # OSError stays an OSError
    try:
        reader = PdfReader(io.BytesIO(data))
        locked = reader.is_encrypted and not reader.decrypt("")
        pages = [] if locked else [(p.extract_text() or "").strip("\n") for p in reader.pages]
    except Exception as err:  # pypdf raises many kinds for broken files
        raise InputError(f"{path}: not a readable PDF file ({type(err).__name__})") from None
    if locked:
        raise InputError(f"{path}: the PDF is password-protected; unlock it first")
    text = "\n\n".join(pages)
    if not text.strip():
        raise InputError(f"{path}: the PDF has no text layer (a scan?); run OCR on it first")
    return text


def read_text(path: str | Path) -> str:
    """The text of a ``.txt``, ``.docx`` or ``.pdf`` file (see the module docs).

    Raises :class:`InputError` for another type or a file that cannot be read as its
    type (``OSError`` for a file that cannot be opened at all).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".txt":
        return decode_utf8(path.read_bytes(), path)
    if suffix == ".docx":
        return _read_docx(path)
    if suffix == ".pdf":
        return _read_pdf(path)
    raise InputError(
        f"{path}: {suffix or 'files without a suffix'} is not supported; "
        f"supported: {', '.join(SUPPORTED)} (convert other formats to one of them)"
    )


def iter_jsonl_texts(path: str | Path) -> Iterator[dict[str, Any]]:
    """The rows of a JSON Lines file of texts, one at a time (a file of any size is never
    held whole): objects with a non-empty string ``id`` (unique in the file) and a string
    ``text``; other fields are kept as they are.

    Raises :class:`InputError` naming the file and line (``FILE:3: …``), and
    :class:`~hf_anon.text.data.ValidationError` for a line that is not valid UTF-8 or JSON,
    when that line is reached.
    """
    seen: set[str] = set()
    try:
        for number, raw in iter_jsonl(path):
            if not isinstance(raw, dict):
                raise InputError(f"{path}:{number}: a line must be a JSON object")
            if not isinstance(raw.get("id"), str) or not raw["id"]:
                raise InputError(f"{path}:{number}: id must be a non-empty string")
            if not isinstance(raw.get("text"), str):
                raise InputError(f"{path}:{number}: document {raw['id']!r}: text must be a string")
            if raw["id"] in seen:
                raise InputError(f"{path}:{number}: duplicate document id {raw['id']!r}")
            seen.add(raw["id"])
            yield raw
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a JSON Lines file") from None


def read_jsonl_texts(path: str | Path) -> list[dict[str, Any]]:
    """All rows of a JSON Lines file of texts (:func:`iter_jsonl_texts`)."""
    return list(iter_jsonl_texts(path))


def read_ids(paths: Iterable[str | Path]) -> set[str]:
    """The ids of every row of these JSON Lines files of texts: the decisions a selection,
    a key or an ``--exclude`` list names, so a corpus can leave them out."""
    return {row["id"] for path in paths for row in iter_jsonl_texts(path)}


# ------------------------------------------------------------------- files and folders


@dataclass
class InputFile:
    """One input of ``hf-anon anonymize``."""

    path: Path
    relative: Path  # where its output goes, relative to the output folder
    kind: str  # txt, jsonl, docx, pdf, or the unsupported suffix


def collect_inputs(inputs: Sequence[str | Path]) -> tuple[list[InputFile], int]:
    """The files to process and how many other files the folders held.

    Folders are searched recursively (sorted); a file named directly is taken whatever
    its type (:func:`read_documents` then reports an unsupported one). A path that does
    not exist, or inputs without any readable file, raise :class:`InputError`.
    """
    files: list[InputFile] = []
    skipped = 0
    for raw in inputs:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                suffix = child.suffix.lower()
                if suffix in READABLE:
                    files.append(InputFile(child, child.relative_to(path), READABLE[suffix]))
                elif suffix in UNSUPPORTED:
                    files.append(InputFile(child, child.relative_to(path), suffix))
                else:
                    skipped += 1
        elif path.is_file():
            suffix = path.suffix.lower()
            files.append(InputFile(path, Path(path.name), READABLE.get(suffix, suffix or "?")))
        else:
            raise InputError(f"{raw}: no such file or folder")
    if not files:
        raise InputError("no .txt, .jsonl, .docx or .pdf files in the inputs")
    return files, skipped


def iter_documents(file: InputFile, *, revisions: str = "accept") -> Iterator[dict[str, Any]]:
    """The file's documents as rows with ``id`` and ``text``, one at a time (a JSON Lines
    file is streamed).

    A one-document file's ``id`` is its relative path without the suffix; a ``.txt``
    keeps its BOM, so that the output is the input byte for byte outside the replaced
    stretches. A ``.docx`` row also holds the cleaned Word file under ``word``
    (:class:`~hf_anon.text.word.WordDocument`; tracked changes settled as ``revisions``
    says), so that the anonymized text can be written back into it.
    """
    if file.kind == "jsonl":
        yield from iter_jsonl_texts(file.path)
        return
    if file.kind == "docx":
        from hf_anon.text.word import open_word

        document = open_word(file.path.read_bytes(), str(file.path), revisions=revisions)
        row_id = file.relative.with_suffix("").as_posix()
        yield {"id": row_id, "text": document.text, "word": document}
        return
    if file.kind == "txt":
        text = decode_utf8(file.path.read_bytes(), file.path, keep_bom=True)
    elif file.kind in SINGLE_DOCUMENT:  # .pdf: extracted text
        text = read_text(file.path)
    else:
        raise InputError(
            f"{file.path}: {file.kind} files are not supported (no parser installed); "
            "convert them to .txt or .jsonl first"
        )
    yield {"id": file.relative.with_suffix("").as_posix(), "text": text}


def read_documents(file: InputFile) -> list[dict[str, Any]]:
    """All of the file's documents (:func:`iter_documents`)."""
    return list(iter_documents(file))


__all__ = [
    "READABLE",
    "SINGLE_DOCUMENT",
    "SUPPORTED",
    "UNSUPPORTED",
    "InputError",
    "InputFile",
    "collect_inputs",
    "decode_utf8",
    "iter_documents",
    "iter_jsonl_texts",
    "read_documents",
    "read_jsonl_texts",
    "read_text",
]
