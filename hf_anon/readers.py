"""Plain text out of the files decisions come in: ``.txt``, ``.docx`` and ``.pdf``.

:func:`read_text` is what the demo (``app.py``) and ``hf-anon anonymize`` use for
uploads and inputs. What each type gives:

- ``.txt``: strict UTF-8 (a leading BOM dropped). A wrong encoding is not guessed: a
  mis-decoded name is a name the model cannot find, so the error names the byte.
- ``.docx`` (python-docx): the body in document order, one line per paragraph, table
  rows as lines of tab-separated cells. Headers, footers, footnotes, comments and text
  boxes are *not* read (so they do not reach the output either).
- ``.pdf`` (pypdf): the text layer of every page, pages separated by a blank line. A
  PDF without text (a scan) or with a password is an error: OCR or unlock it first.

Errors are ``ValueError`` whose message starts with the path.
"""

from __future__ import annotations

import io
from pathlib import Path

#: Suffixes :func:`read_text` reads.
SUPPORTED = (".txt", ".docx", ".pdf")


def decode_utf8(data: bytes, path: str | Path) -> str:
    """Strict UTF-8 with an error that names the offending byte, its offset and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ValueError(
            f"{path}: not valid UTF-8: byte 0x{data[err.start]:02X} at offset {err.start} "
            f"(line {line}): {err.reason}; convert the file to UTF-8 first"
        ) from None
    return text.removeprefix("\ufeff")


def _read_docx(path: Path) -> str:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    data = path.read_bytes()  # OSError stays an OSError
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as err:  # zipfile, lxml and python-docx errors alike
        raise ValueError(f"{path}: not a readable .docx file ({type(err).__name__})") from None
    lines: list[str] = []
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            lines.append(block.text)
        elif isinstance(block, Table):
            for row in block.rows:
                cells: list[str] = []
                for cell in row.cells:  # a merged cell is repeated: keep it once
                    if not cells or cell.text != cells[-1]:
                        cells.append(cell.text)
                lines.append("\t".join(cells))
    return "\n".join(lines)


def _read_pdf(path: Path) -> str:
    from pypdf import PdfReader

    data = path.read_bytes()  # OSError stays an OSError
    try:
        reader = PdfReader(io.BytesIO(data))
        locked = reader.is_encrypted and not reader.decrypt("")
        pages = [] if locked else [(p.extract_text() or "").strip("\n") for p in reader.pages]
    except Exception as err:  # pypdf raises many kinds for broken files
        raise ValueError(f"{path}: not a readable PDF file ({type(err).__name__})") from None
    if locked:
        raise ValueError(f"{path}: the PDF is password-protected; unlock it first")
    text = "\n\n".join(pages)
    if not text.strip():
        raise ValueError(f"{path}: the PDF has no text layer (a scan?); run OCR on it first")
    return text


def read_text(path: str | Path) -> str:
    """The text of a ``.txt``, ``.docx`` or ``.pdf`` file (see the module docs).

    Raises ``ValueError`` for another type or a file that cannot be read as its type
    (``OSError`` for a file that cannot be opened at all).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".txt":
        return decode_utf8(path.read_bytes(), path)
    if suffix == ".docx":
        return _read_docx(path)
    if suffix == ".pdf":
        return _read_pdf(path)
    raise ValueError(
        f"{path}: {suffix or 'files without a suffix'} is not supported; "
        f"supported: {', '.join(SUPPORTED)} (convert other formats to one of them)"
    )


__all__ = ["SUPPORTED", "decode_utf8", "read_text"]
