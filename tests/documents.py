"""Small documents built on the fly for the tests (no fixture files): ``.docx`` with a
header, minimal valid PDFs, zip bombs, encrypted PDFs. The reader, demo and CLI tests import
them from here."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path


def make_docx(path: Path, paragraphs: list[str], table: list[list[str]] | None = None) -> Path:
    """A .docx with these paragraphs, then the table (if any), then a closing line."""
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, text in enumerate(row):
                grid.cell(r, c).text = text
        document.add_paragraph("Ende.")
    document.sections[0].header.paragraphs[0].text = "Kopfzeile Geheim"
    document.save(str(path))
    return path


def make_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF: one page per list of lines, Helvetica in WinAnsiEncoding
    (so German umlauts work), with a correct cross-reference table."""

    def literal(line: str) -> bytes:
        raw = line.encode("cp1252")
        return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"

    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for i, lines in enumerate(pages):
        content = b"BT /F1 12 Tf 14 TL 72 720 Td "
        content += b" ".join(literal(line) + b" Tj T*" for line in lines) + b" ET"
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def make_zip_bomb(path: Path, parts: int = 1, part_size: int = 64 * 2**20) -> Path:
    """A real .docx plus ``parts`` extra parts of ``part_size`` zero bytes each: about
    1000 : 1 compressed, so 64 MiB takes 64 KiB on disk."""
    make_docx(path, ["Der Kläger Hans Müller"])
    chunk = b"\0" * min(part_size, 2**20)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive:
        for number in range(parts):
            with archive.open(f"word/media/bomb{number}.bin", "w") as part:
                for _ in range(part_size // len(chunk)):
                    part.write(chunk)
    return path


def encrypt_pdf(pdf: bytes, password: str = "geheim") -> bytes:
    """``pdf`` with a user password (pypdf's writer)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pieces_with_spans(pieces: list[str], separator: str = " "):
    """A hypothesis strategy: texts made of ``pieces`` joined by ``separator``, each piece a
    ``nat-name`` span or not (for the placeholder re-rendering tests, German and Japanese)."""
    from hypothesis import strategies as st

    from hf_anon.text.data import Span

    @st.composite
    def strategy(draw):
        words = draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=12))
        text, spans = "", []
        for word in words:
            text += separator if text else ""
            start = len(text)
            text += word
            if draw(st.booleans()):
                spans.append(Span(start, len(text), "nat-name"))
        return text, spans

    return strategy()


def spans_of(text: str, *parts: tuple[str, str, int]):
    """Spans of ``text`` by surface, label and which occurrence (``("A.", "nat-name", 1)``:
    the second ``A.``), sorted."""
    import re

    from hf_anon.text.data import Span

    out = []
    for surface, label, nth in parts:
        start = [m.start() for m in re.finditer(re.escape(surface), text)][nth]
        out.append(Span(start, start + len(surface), label))
    return sorted(out)
