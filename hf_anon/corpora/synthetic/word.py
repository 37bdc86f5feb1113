"""Messy Word decisions: a synthetic decision as a ``.docx`` with names in every part.

The Word round trip (:mod:`hf_anon.apply.word`) must hold on files as courts hand them
over, where names hide in parts that no one sees on the page. :func:`messy_word_decision`
writes a synthetic decision (:func:`~hf_anon.corpora.synthetic.generate_document`) as a
Word file and puts its parties' names everywhere a name can be: split over runs of
different formatting in the body, in a table, a text box, the header and footer, a
footnote, a comment and its author, a tracked insertion and deletion with their author,
hidden text, the core and custom properties, a document variable and the EXIF data of a
picture. It returns the file with the names it placed and the formatting of every name in
the body, so that a benchmark can count what is left and what formatting was kept.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field

from lxml import etree

from hf_anon.corpora.synthetic import generate_document
from hf_anon.text.data import Document

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#: The formats a name's first word and the rest of it are written in, in turn.
FORMATS = (("b", "i"), ("i", "u"), ("u", "b"), ("b", ""), ("", "i"))
PERSON_LABELS = ("nat-name", "nat-jur")


@dataclass
class MessyWord:
    """A generated Word decision: its bytes, every name put into it (full names), where
    each went, and the formatting of the first run of each name in the body (``b``,
    ``i``, ``u`` letters; ``""`` for plain) by the paragraph it stands in."""

    data: bytes
    names: set[str]
    parts: dict[str, list[str]] = field(default_factory=dict)
    body_formats: list[tuple[int, str, str]] = field(default_factory=list)


def _person_names(document: Document) -> list[str]:
    """The decision's names of people, longest first, each once."""
    names = {document.text[s.start : s.end] for s in document.spans if s.label in PERSON_LABELS}
    return sorted((n for n in names if " " in n and "\n" not in n), key=len, reverse=True)


def _add_run(paragraph, text: str, style: str):
    run = paragraph.add_run(text)
    run.bold, run.italic, run.underline = "b" in style, "i" in style, "u" in style
    return run


def messy_word_decision(index: int = 1, seed: int = 0) -> MessyWord:
    """The ``index``-th messy Word decision (see the module docs); same arguments, same
    file."""
    import docx

    rng = random.Random(f"messy-word\x00{seed}\x00{index}")
    decision = generate_document(index, seed)
    names = _person_names(decision)
    while len(names) < 4:  # a decision with few people: more names from the same maker
        names += [n for n in _person_names(generate_document(index + 1000, seed)) if n not in names]
        index += 1000
    main, other, judge, clerk = names[0], names[1], names[2 % len(names)], names[3 % len(names)]
    out = MessyWord(b"", set())

    def put(part: str, name: str) -> str:
        out.names.add(name)
        out.parts.setdefault(part, []).append(name)
        return name

    word = docx.Document()
    _write_body(word, decision, rng, out, put)
    table = word.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Kläger", put("table", main)
    table.cell(1, 0).text, table.cell(1, 1).text = "Beklagte", put("table", other)
    section = word.sections[0]
    section.header.paragraphs[0].text = f"Az. 3 C 411/24 – {put('header', main)} ./. {other}"
    section.footer.paragraphs[0].text = f"Justizangestellte {put('footer', clerk)}"
    remark = word.add_paragraph("Vermerk: ")
    commented = _add_run(remark, "siehe Akte", "")
    word.add_comment(
        commented,
        text=f"Ist {put('comment', other)} volljährig?",
        author=put("comment author", judge),
        initials="".join(part[0] for part in judge.split()),
    )
    hidden = word.add_paragraph("Bearbeitet. ")
    _add_run(hidden, f"Intern: {put('hidden text', clerk)}", "").font.hidden = True
    word.add_picture(io.BytesIO(_photo(put("image metadata", judge))))
    properties = word.core_properties
    properties.author = put("core properties", judge)
    properties.last_modified_by = clerk
    properties.title = f"{main} ./. {other}"
    properties.keywords = other
    buffer = io.BytesIO()
    word.save(buffer)
    out.data = _add_hidden_parts(buffer.getvalue(), main, other, judge, clerk, put)
    return out


def _write_body(word, decision: Document, rng: random.Random, out: MessyWord, put) -> None:
    """The decision's lines as paragraphs; every name of a person split over two runs of
    different formatting (the first word, the rest), the text around it plain."""
    spans = sorted((s for s in decision.spans if s.label in PERSON_LABELS), key=lambda s: s.start)
    line_start = 0
    for number, line in enumerate(decision.text.split("\n")):
        paragraph = word.add_paragraph()
        line_end = line_start + len(line)
        cursor = line_start
        for span in (s for s in spans if line_start <= s.start and s.end <= line_end):
            name = decision.text[span.start : span.end]
            _add_run(paragraph, decision.text[cursor : span.start], "")
            first, rest = [*name.split(" ", 1), ""][:2]
            style = rng.choice(FORMATS)
            _add_run(paragraph, first + (" " if rest else ""), style[0])
            if rest:
                _add_run(paragraph, rest, style[1])
            put("body", name)
            out.body_formats.append((number, name, style[0]))
            cursor = span.end
        _add_run(paragraph, decision.text[cursor:line_end], "")
        line_start = line_end + 1


def _photo(artist: str) -> bytes:
    """A small JPEG whose EXIF names ``artist`` (and the GPS-free camera owner)."""
    from PIL import Image

    image = Image.new("RGB", (8, 8), (200, 180, 160))
    exif = Image.Exif()
    exif[0x013B] = artist  # Artist
    exif[0x8298] = f"(c) {artist}"  # Copyright
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes())
    return buffer.getvalue()


def _w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def _add_hidden_parts(data: bytes, main, other, judge, clerk, put) -> bytes:
    """What python-docx cannot write: a footnote, a tracked insertion and deletion, a text
    box, a document variable and custom properties."""
    from hf_anon.text.word.package import CT, REL, WordPackage

    package = WordPackage.read(data)
    body = package.xml("word/document.xml").find(_w("body"))
    end = body.find(_w("sectPr"))

    def paragraph(*children) -> etree._Element:
        p = etree.Element(_w("p"))
        p.extend(children)
        end.addprevious(p)
        return p

    def run(text: str, tag: str = "t") -> etree._Element:
        r = etree.Element(_w("r"))
        etree.SubElement(r, _w(tag)).text = text
        r[0].set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        return r

    author = {_w("author"): put("tracked change author", clerk), _w("date"): "2024-05-02T10:00:00Z"}
    inserted = etree.Element(_w("ins"), {_w("id"): "901", **author})
    inserted.append(run(f"Zeuge {put('tracked insertion', other)}"))
    deleted = etree.Element(_w("del"), {_w("id"): "902", **author})
    deleted.append(run(f" und {put('tracked deletion', judge)}", "delText"))
    paragraph(run("Anwesend: "), inserted, deleted, run("."))

    note = run("")
    note.remove(note[0])
    etree.SubElement(note, _w("footnoteReference"), {_w("id"): "1"})
    paragraph(run("Der Vergleich wurde geschlossen."), note)
    package.parts["word/footnotes.xml"] = _footnotes(f"Mitgeteilt von {put('footnote', other)}.")
    _relate(package, "word/document.xml", "footnotes", "footnotes.xml", REL)
    _content_type(package, "/word/footnotes.xml", "wordprocessingml.footnotes+xml", CT)

    box = run("")
    box.remove(box[0])
    pict = etree.SubElement(box, _w("pict"))
    vml = "urn:schemas-microsoft-com:vml"
    shape = etree.SubElement(pict, f"{{{vml}}}shape", {"style": "width:200pt;height:40pt"})
    content = etree.SubElement(etree.SubElement(shape, f"{{{vml}}}textbox"), _w("txbxContent"))
    inner = etree.SubElement(content, _w("p"))
    inner.append(run(f"Berichterstatter: {put('text box', judge)}"))
    paragraph(box)

    settings = package.xml("word/settings.xml")
    variables = etree.SubElement(settings, _w("docVars"))
    etree.SubElement(
        variables, _w("docVar"), {_w("name"): "Partei", _w("val"): put("document variable", main)}
    )
    package.parts["docProps/custom.xml"] = _custom_properties(put("custom properties", other))
    _relate(
        package,
        "",
        "custom-properties",
        "docProps/custom.xml",
        REL,
        kind="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties",
    )
    _content_type(
        package,
        "/docProps/custom.xml",
        "custom-properties+xml",
        CT,
        prefix="application/vnd.openxmlformats-officedocument.",
    )
    return package.to_bytes()


def _footnotes(text: str) -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:footnotes xmlns:w="{W_NS}">'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
        "</w:footnote>"
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        "<w:continuationSeparator/></w:r></w:p></w:footnote>"
        f'<w:footnote w:id="1"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:footnote>'
        "</w:footnotes>"
    ).encode()


def _custom_properties(value: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
        'custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/'
        '2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" '
        f'pid="2" name="Mandant"><vt:lpwstr>{value}</vt:lpwstr></property></Properties>'
    ).encode()


def _relate(package, source: str, name: str, target: str, rel_ns: str, kind: str = "") -> None:
    """Add a relationship from ``source`` (``""``: the package) to ``target``."""
    rels = "_rels/.rels" if not source else source.replace("word/", "word/_rels/") + ".rels"
    root = package.xml(rels)
    kind = kind or f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{name}"
    etree.SubElement(
        root, f"{{{rel_ns}}}Relationship", {"Id": f"rIdMessy{name}", "Type": kind, "Target": target}
    )


def _content_type(package, part: str, kind: str, ct_ns: str, prefix: str = "") -> None:
    prefix = prefix or "application/vnd.openxmlformats-officedocument."
    root = package.xml("[Content_Types].xml")
    etree.SubElement(root, f"{{{ct_ns}}}Override", {"PartName": part, "ContentType": prefix + kind})
