"""Word files read part by part (hf_anon.text.word): the text of every part, what is hidden
removed, and replacements written into the runs with their formatting."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from hf_anon.corpora.synthetic.word import messy_word_decision
from hf_anon.text.errors import InputError
from hf_anon.text.word import open_word
from hf_anon.text.word.extraction import read_word_text
from hf_anon.text.word.media import strip_jpeg, strip_png
from hf_anon.text.word.package import REL, W, WordPackage, w


def save(document) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def runs(paragraph, *parts: tuple[str, str]):
    """Add runs to a python-docx paragraph: (text, formats of b/i/u)."""
    for text, formats in parts:
        run = paragraph.add_run(text)
        run.bold, run.italic, run.underline = "b" in formats, "i" in formats, "u" in formats
    return paragraph


def formats(run) -> str:
    return "".join(
        c for c, on in zip("biu", (run.bold, run.italic, run.underline), strict=True) if on
    )


@pytest.fixture(scope="module")
def messy():
    return messy_word_decision(1)


def test_a_name_split_over_formatted_runs_is_replaced_in_its_first_run():
    word = docx.Document()
    runs(
        word.add_paragraph(),
        ("Der Kläger ", ""),
        ("Hans ", "b"),
        ("Meinhardt", "i"),
        (" klagt.", ""),
    )
    document = open_word(save(word))
    start = document.text.index("Hans")

    document.content.replace([(start, start + len("Hans Meinhardt"), "Jonas Weber")])

    paragraph = docx.Document(io.BytesIO(document.package.to_bytes())).paragraphs[0]
    kept = [(r.text, formats(r)) for r in paragraph.runs if r.text]
    assert kept == [("Der Kläger ", ""), ("Jonas Weber", "b"), (" klagt.", "")]


def test_every_part_is_read_tables_as_rows_and_each_text_box_paragraph_once(messy):
    text = open_word(messy.data).text

    for part in ("body", "table", "header", "footer", "footnote", "text box"):
        for name in messy.parts[part]:
            assert name in text, (part, name)
    main = messy.parts["table"][0]
    assert f"Kläger\t{main}" in text  # a row is one line of tab-separated cells
    assert text.count("Berichterstatter:") == 1


def test_hidden_content_is_removed_and_counted(messy):
    document = open_word(messy.data)
    package = document.package
    xml = b"\n".join(
        etree.tostring(package.xml(part)) for part in package.xml_parts()
    )  # every XML part as it will be written

    assert document.removed["comments"] == 1
    assert document.removed["hidden runs"] == 1
    assert document.removed["tracked insertions"] == document.removed["tracked deletions"] == 1
    assert document.removed["document properties"] >= 4
    assert document.removed["image metadata"] >= 1
    assert document.removed["settings"] >= 1  # the document variable
    assert "word/comments.xml" not in package.parts
    assert "docProps/custom.xml" not in package.parts
    assert "Intern:" not in document.text  # the hidden run
    assert f"und {messy.parts['tracked deletion'][0]}" not in document.text  # accepted
    assert f"Zeuge {messy.parts['tracked insertion'][0]}" in document.text
    for gone in ("volljährig".encode(), b"w:author", b"commentReference", b"docVar", b"Mandant",
                 b"w:vanish", b"dc:creator", b"lastModifiedBy", b"custom.xml"):  # fmt: skip
        assert gone not in xml, gone


def test_rejecting_changes_keeps_the_deleted_text_and_drops_the_inserted(messy):
    document = open_word(messy.data, revisions="reject")

    assert messy.parts["tracked deletion"][0] in document.text
    assert f"Zeuge {messy.parts['tracked insertion'][0]}" not in document.text
    body = etree.tostring(document.package.xml("word/document.xml"))
    assert b"w:del " not in body and b"w:ins " not in body and b"delText" not in body


def test_a_style_that_hides_text_hides_it_for_good():
    word = docx.Document()
    style = word.styles.add_style("Geheim", 2)  # WD_STYLE_TYPE.CHARACTER
    style.font.hidden = True
    paragraph = word.add_paragraph("Sichtbar. ")
    paragraph.add_run("Hans Meinhardt", style="Geheim")

    assert open_word(save(word)).text == "Sichtbar. "


def test_image_metadata_is_cut_without_touching_the_pixels(messy):
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    archive = zipfile.ZipFile(io.BytesIO(messy.data))
    photo = max((n for n in archive.namelist() if n.startswith("word/media/")), key=len)
    jpeg = archive.read(photo)
    stripped = strip_jpeg(jpeg)

    assert b"Exif" in jpeg and b"Exif" not in stripped
    assert messy.parts["image metadata"][0].encode() not in stripped
    before, after = Image.open(io.BytesIO(jpeg)), Image.open(io.BytesIO(stripped))
    assert list(before.get_flattened_data()) == list(after.get_flattened_data())
    assert strip_jpeg(stripped) is None  # nothing left to cut

    png = io.BytesIO()
    info = PngInfo()
    info.add_text("Author", "Hans Meinhardt")
    Image.new("RGB", (4, 4)).save(png, "PNG", pnginfo=info)
    clean = strip_png(png.getvalue())
    assert b"Meinhardt" in png.getvalue() and b"Meinhardt" not in clean
    assert list(Image.open(io.BytesIO(clean)).get_flattened_data()) == [(0, 0, 0)] * 16


def test_what_is_no_word_file_is_refused_clearly():
    with pytest.raises(InputError, match=r"x\.docx: not a readable \.docx file"):
        open_word(b"PK\x03\x04 broken", "x.docx")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("hello.txt", "no document")
    with pytest.raises(InputError, match="no main document part"):
        WordPackage.read(archive.getvalue(), "y.docx")
    with pytest.raises(ValueError, match="revisions must be one of accept, reject"):
        open_word(b"", revisions="keep")


words = st.text(alphabet="abcÄß ", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    pieces=st.lists(st.lists(words, min_size=1, max_size=4), min_size=1, max_size=3),
    cuts=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8), words), max_size=4),
)
def test_replacements_read_back_as_the_replaced_text(pieces, cuts):
    """Any runs, any non-overlapping replacements: the file reads as the replaced text
    (paragraph breaks kept), and replacing touches nothing outside the stretches."""
    word = docx.Document()
    for paragraph in pieces:
        runs(
            word.add_paragraph(),
            *[(text, "b" if i % 2 else "") for i, text in enumerate(paragraph)],
        )
    document = open_word(save(word))
    text = document.text
    chosen, taken = [], set()
    for start, length, value in cuts:
        end = min(start + length, len(text))
        if start < end and not taken & set(range(start, end)):
            chosen.append((start, end, value))
            taken |= set(range(start, end))
    expected = document.content.replaced_text(chosen)

    document.content.replace(chosen)

    assert read_word_text(document.package).text == expected
    assert len(expected.split("\n")) == len(text.split("\n"))  # no paragraph merged


def test_the_written_file_keeps_every_other_part_byte_for_byte(messy):
    document = open_word(messy.data)
    written = zipfile.ZipFile(io.BytesIO(document.package.to_bytes()))
    original = zipfile.ZipFile(io.BytesIO(messy.data))
    untouched = [n for n in original.namelist() if n.startswith("word/theme/")]

    assert untouched and all(written.read(n) == original.read(n) for n in untouched)
    assert w("t") == "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"


def test_building_blocks_and_custom_xml_data_are_dropped():
    package = WordPackage.read(save(docx.Document()))
    rels = package.xml("word/_rels/document.xml.rels")
    base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    for rid, kind, target in (
        ("rIdX1", "customXml", "../customXml/item1.xml"),
        ("rIdX2", "glossaryDocument", "glossary/document.xml"),
    ):
        etree.SubElement(rels, f"{{{REL}}}Relationship", Id=rid, Type=base + kind, Target=target)
    package.parts["customXml/item1.xml"] = b"<meta><author>Hans Meinhardt</author></meta>"
    package.parts["word/glossary/document.xml"] = (
        f'<w:glossaryDocument xmlns:w="{W}"><w:docParts><w:docPart><w:docPartBody><w:p><w:r>'
        "<w:t>Richter Hans Meinhardt</w:t></w:r></w:p></w:docPartBody></w:docPart>"
        "</w:docParts></w:glossaryDocument>"
    ).encode()

    document = open_word(package.to_bytes())

    assert document.removed["attached data"] == 2
    assert b"Meinhardt" not in document.package.to_bytes()
    assert b"glossary" not in etree.tostring(document.package.xml("word/_rels/document.xml.rels"))


def test_runs_inside_content_controls_fields_links_and_smart_tags_are_text():
    """Word wraps runs in content controls (w:sdt), simple fields, hyperlinks and smart
    tags; their text is the paragraph's text and takes replacements like any run."""
    word = docx.Document()
    paragraph = word.add_paragraph("Kläger: ")
    p = paragraph._p

    def run(text: str) -> etree._Element:
        r = etree.Element(w("r"))
        etree.SubElement(r, w("t")).text = text
        return r

    sdt = etree.SubElement(p, w("sdt"))
    etree.SubElement(sdt, w("sdtContent")).append(run("Hans "))
    tag = etree.SubElement(p, w("smartTag"), {w("element"): "PersonName"})
    tag.append(run("Meinhardt"))
    field = etree.SubElement(p, w("fldSimple"), {w("instr"): " DOCPROPERTY Az "})
    field.append(run(", Az. 3 C 411/24"))
    document = open_word(save(word))
    assert document.text == "Kläger: Hans Meinhardt, Az. 3 C 411/24"

    start = document.text.index("Hans")
    document.content.replace([(start, start + len("Hans Meinhardt"), "<nat-name-1>")])

    assert read_word_text(document.package).text == "Kläger: <nat-name-1>, Az. 3 C 411/24"


def test_endnotes_are_read_after_the_body():
    package = WordPackage.read(save(docx.Document()))
    body = package.xml("word/document.xml").find(w("body"))
    paragraph = etree.Element(w("p"))
    etree.SubElement(etree.SubElement(paragraph, w("r")), w("t")).text = "Urteil."
    body.insert(0, paragraph)
    package.parts["word/endnotes.xml"] = (
        f'<w:endnotes xmlns:w="{W}"><w:endnote w:id="1"><w:p><w:r>'
        "<w:t>Hinweis von Petra Kowalski.</w:t></w:r></w:p></w:endnote></w:endnotes>"
    ).encode()
    rels = package.xml("word/_rels/document.xml.rels")
    kind = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes"
    etree.SubElement(rels, f"{{{REL}}}Relationship", Id="rIdE", Type=kind, Target="endnotes.xml")

    document = open_word(package.to_bytes())

    assert document.text.startswith("Urteil.")
    assert document.text.endswith("\n\nHinweis von Petra Kowalski.")
    assert "word/endnotes.xml" in document.package.story_parts()
