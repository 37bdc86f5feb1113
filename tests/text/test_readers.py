"""``hf_anon.text.readers``: .txt, .docx, .pdf and .jsonl to texts, one decoder, clear errors.

The documents are built on the fly by ``tests/documents.py`` (no fixture files).
"""

from __future__ import annotations

import gzip
import zipfile

import pytest
from documents import encrypt_pdf, make_docx, make_pdf, make_zip_bomb

from hf_anon.text.readers import (
    InputError,
    InputFile,
    collect_inputs,
    decode_utf8,
    read_documents,
    read_ids,
    read_jsonl_texts,
    read_text,
)


def test_txt_is_strict_utf8_without_bom(tmp_path):
    path = tmp_path / "a.TXT"
    path.write_bytes("\ufeffDer Kläger\r\nHans Müller".encode())
    assert read_text(path) == "Der Kläger\r\nHans Müller"
    path.write_bytes(b"Zeile eins\nZeile zwei M\xfcller\n")  # Latin-1
    with pytest.raises(
        ValueError, match=r"a\.TXT: not valid UTF-8: byte 0xFC at offset 23 \(line 2\)"
    ):
        read_text(path)


def test_docx_paragraphs_and_tables_in_order(tmp_path):
    path = make_docx(
        tmp_path / "u.docx",
        ["Amtsgericht Lindenfeld", "Der Kläger Jonas Feldkamp klagt.", ""],
        table=[["Az.", "12 C 345/23"], ["Datum", "14. März 2024"]],
    )
    assert read_text(path) == (
        "Amtsgericht Lindenfeld\nDer Kläger Jonas Feldkamp klagt.\n\n"
        "Az.\t12 C 345/23\nDatum\t14. März 2024\nEnde."
        "\n\nKopfzeile Geheim"  # the header after a blank line: it is text, anonymized too
    )


def test_pdf_pages_are_separated_by_a_blank_line(tmp_path):
    path = tmp_path / "u.pdf"
    lines = ["Der Kläger Hans Müller (geb. 1980)", "wohnt in Köln."]
    path.write_bytes(make_pdf([lines, ["Ende."]]))
    assert read_text(path) == "Der Kläger Hans Müller (geb. 1980)\nwohnt in Köln.\n\nEnde."


def test_errors_are_clear(tmp_path):
    broken_pdf = tmp_path / "scan.pdf"
    broken_pdf.write_bytes(b"%PDF-1.4")
    with pytest.raises(ValueError, match=r"scan\.pdf: not a readable PDF file"):
        read_text(broken_pdf)
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(make_pdf([[]]))
    with pytest.raises(ValueError, match=r"blank\.pdf: the PDF has no text layer"):
        read_text(blank)
    broken_docx = tmp_path / "x.docx"
    broken_docx.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match=r"x\.docx: not a readable \.docx file"):
        read_text(broken_docx)
    other = tmp_path / "u.odt"
    other.write_bytes(b"")
    with pytest.raises(ValueError, match=r"\.odt is not supported; supported: \.txt, \.docx"):
        read_text(other)
    with pytest.raises(OSError):
        read_text(tmp_path / "missing.pdf")


def test_a_docx_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    # one part of 64 MiB zeros in 64 KiB: refused for its ratio, without unpacking it
    bomb = make_zip_bomb(tmp_path / "bomb.docx")
    assert bomb.stat().st_size < 200_000
    with pytest.raises(InputError, match=r"bomb\.docx: a part of the \.docx is compressed "):
        read_text(bomb)
    # many small parts (1 MiB each, under the ratio check) that add up to > 256 MiB
    many = make_zip_bomb(tmp_path / "many.docx", parts=256, part_size=2**20)
    with pytest.raises(InputError, match=r"many\.docx: the \.docx would unpack to 2\d\d MiB, more"):
        read_text(many)
    # a zip renamed to .docx that is no document at all, and an ordinary document
    other = tmp_path / "other.docx"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("hello.txt", "Hallo")
    with pytest.raises(InputError, match=r"other\.docx: not a readable \.docx file"):
        read_text(other)
    text = ["Der Kläger Hans Müller " * 2000]  # 46,000 characters: compresses well, is fine
    assert read_text(make_docx(tmp_path / "long.docx", text)).startswith(text[0] + "\n\n")


def test_encrypted_pdf_is_refused_and_an_owner_only_password_is_not(tmp_path):
    pdf = make_pdf([["Der Kläger Hans Müller"]])
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(encrypt_pdf(pdf))
    with pytest.raises(InputError, match=r"locked\.pdf: the PDF is password-protected"):
        read_text(locked)
    open_ = tmp_path / "open.pdf"
    open_.write_bytes(encrypt_pdf(pdf, password=""))  # encrypted, but no password to open
    assert read_text(open_) == "Der Kläger Hans Müller"


def test_decode_utf8_drops_a_bom_unless_asked_to_keep_it():
    data = "\ufeffDer Kläger\r\n".encode()
    assert decode_utf8(data, "a.txt") == "Der Kläger\r\n"
    assert decode_utf8(data, "a.txt", keep_bom=True) == "\ufeffDer Kläger\r\n"
    # only a leading BOM is one; a U+FEFF inside the text is text
    assert decode_utf8("a\ufeffb".encode(), "a.txt") == "a\ufeffb"


def test_decode_utf8_names_the_byte_its_offset_and_line():
    with pytest.raises(InputError) as caught:
        decode_utf8(b"eins\nzwei\ndrei M\xfcller", "x/latin.txt", keep_bom=True)
    assert str(caught.value) == (
        "x/latin.txt: not valid UTF-8: byte 0xFC at offset 16 (line 3): invalid start byte; "
        "convert the file to UTF-8 first"
    )
    assert isinstance(caught.value, ValueError)  # callers that catch ValueError see it too


def test_read_jsonl_texts_keeps_other_fields_and_names_file_and_line(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(
        '{"id": "a", "text": "Hans Müller", "domain": "x"}\n\n{"id": "b", "text": ""}\n'
    )
    assert read_jsonl_texts(path) == [
        {"id": "a", "text": "Hans Müller", "domain": "x"},
        {"id": "b", "text": ""},
    ]
    for line, message in (
        ("[1]", "a line must be a JSON object"),
        ('{"id": "", "text": "x"}', "id must be a non-empty string"),
        ('{"id": "a", "text": 3}', "document 'a': text must be a string"),
        ('{"id": "a", "text": "x"}', "duplicate document id 'a'"),
    ):
        path.write_text('{"id": "a", "text": "x"}\n' + line + "\n")
        with pytest.raises(InputError) as caught:
            read_jsonl_texts(path)
        assert str(caught.value) == f"{path}:2: {message}"
    with pytest.raises(InputError, match=r"missing\.jsonl: no such file$"):
        read_jsonl_texts(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="is a directory, expected a JSON Lines file"):
        read_jsonl_texts(tmp_path)


def test_collect_inputs_walks_folders_and_reports_what_it_cannot_read(tmp_path):
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    for name in ("b.txt", "sub/a.jsonl", "c.DOCX", "d.odt", "notes.md"):
        (folder / name).write_bytes(b"")
    files, skipped = collect_inputs([folder])
    assert [(f.relative.as_posix(), f.kind) for f in files] == [
        ("b.txt", "txt"),
        ("c.DOCX", "docx"),
        ("d.odt", ".odt"),
        ("sub/a.jsonl", "jsonl"),
    ]
    assert skipped == 1  # notes.md
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"nope: no such file or folder"):
        collect_inputs([folder, tmp_path / "nope"])
    with pytest.raises(InputError, match=r"no \.txt, \.jsonl, \.docx or \.pdf files"):
        collect_inputs([tmp_path / "empty"])


def test_read_documents_keeps_a_txt_bom_and_refuses_unsupported_types(tmp_path):
    txt = tmp_path / "u.txt"
    txt.write_bytes("\ufeffHans Müller".encode())
    assert read_documents(InputFile(txt, txt.relative_to(tmp_path), "txt")) == [
        {"id": "u", "text": "\ufeffHans Müller"}
    ]
    odt = tmp_path / "v.odt"
    odt.write_bytes(b"")
    with pytest.raises(InputError, match=r"v\.odt: \.odt files are not supported"):
        read_documents(InputFile(odt, odt.relative_to(tmp_path), ".odt"))


def test_read_ids_names_every_decision_of_several_selections(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl.gz"
    first.write_text('{"id": "a", "text": "x"}\n{"id": "b", "text": "y"}\n', encoding="utf-8")
    with gzip.open(second, "wt", encoding="utf-8") as f:
        f.write('{"id": "b", "text": "y"}\n{"id": "c", "text": "z"}\n')
    assert read_ids([first, second]) == {"a", "b", "c"}
    with pytest.raises(InputError, match="no such file"):
        read_ids([tmp_path / "missing.jsonl"])
