"""Word in, Word out (hf_anon.apply.word): a .docx comes back anonymized in every part, its
formatting kept, and nothing is written when a protected form would remain anywhere."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections import Counter

import docx
import pytest
from lxml import etree

from hf_anon.apply.anonymize import Anonymizer, LeakError
from hf_anon.apply.word import anonymize_docx
from hf_anon.cli.main import main
from hf_anon.corpora.synthetic.word import messy_word_decision
from hf_anon.text.data import Span
from hf_anon.text.word import open_word
from hf_anon.text.word.extraction import paragraph_texts
from hf_anon.text.word.package import w


def finds(*names: str):
    """A detector that finds these names wherever they stand (a stand-in for the model)."""

    def detect(texts):
        out = []
        for text in texts:
            spans = []
            for name in sorted(names, key=len, reverse=True):
                for match in re.finditer(re.escape(name), text):
                    if not any(s.start < match.end() and match.start() < s.end for s in spans):
                        spans.append(Span(match.start(), match.end(), "nat-name", "high", 0.99))
            out.append(spans)
        return out

    return detect


def formats(run) -> str:
    on = (run.bold, run.italic, run.underline)
    return "".join(c for c, flag in zip("biu", on, strict=True) if flag)


def left_in(data: bytes, names) -> dict[str, list[str]]:
    """Every name still in any part of a .docx: in the raw bytes of each part, and in the
    paragraphs of each XML part (a name split over runs counts)."""
    found: dict[str, list[str]] = {}
    archive = zipfile.ZipFile(io.BytesIO(data))
    for part in archive.namelist():
        raw = archive.read(part)
        texts = [raw.decode("utf-8", "ignore")]
        if part.endswith(".xml"):
            texts += paragraph_texts(etree.fromstring(raw))
        hits = [n for n in names if any(n in t for t in texts) or n.encode() in raw]
        if hits:
            found[part] = hits
    return found


@pytest.fixture(scope="module")
def messy():
    return messy_word_decision(2)


def test_no_name_is_left_in_any_part_and_formatting_is_kept(messy):
    anonymizer = Anonymizer(finds(*messy.names))

    word = anonymize_docx(messy.data, anonymizer, mode="label", seed=1)

    assert left_in(word.docx, messy.names) == {}
    assert left_in(messy.data, messy.names)  # they were there before
    paragraphs = docx.Document(io.BytesIO(word.docx)).paragraphs
    for number in {number for number, _, _ in messy.body_formats}:
        wanted = Counter(f for n, _, f in messy.body_formats if n == number)
        runs = [r for r in paragraphs[number].runs if r.text]
        labelled = Counter(formats(r) for r in runs if r.text.startswith("<nat-name-"))
        assert labelled >= wanted, paragraphs[number].text  # each value in its first run's
        assert {formats(r) for r in runs if "<nat-name-" not in r.text} <= {""}  # around: plain
    assert word.removed["comments"] == 1 and word.removed["hidden runs"] == 1
    assert word.result.text.count("<nat-name-") >= len(messy.names) - 2


def test_the_text_read_is_the_text_of_the_txt_output(messy):
    anonymizer = Anonymizer(finds(*messy.names))

    word = anonymize_docx(messy.data, anonymizer, mode="label", seed=1, key=True)

    assert word.result.restore() == open_word(messy.data).text  # the key fits the text read


def test_a_name_left_in_a_field_instruction_stops_the_file():
    document = docx.Document()
    paragraph = document.add_paragraph("Kontakt: Hans Meinhardt ")
    run = paragraph.add_run()
    instruction = etree.SubElement(run._r, w("instrText"))
    instruction.text = ' MERGEFIELD "Hans Meinhardt" '
    buffer = io.BytesIO()
    document.save(buffer)

    with pytest.raises(LeakError, match=r"remains in word/document\.xml \(w:instrText\)"):
        anonymize_docx(buffer.getvalue(), Anonymizer(finds("Hans Meinhardt")), mode="label")


def test_a_link_to_a_party_loses_its_target():
    document = docx.Document()
    paragraph = document.add_paragraph("Schreiben an ")
    part = document.part
    rel = part.relate_to(
        "mailto:hans.meinhardt@example.de",
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
        is_external=True,
    )
    link = etree.SubElement(paragraph._p, w("hyperlink"))
    link.set(f"{{{paragraph._p.nsmap['r']}}}id", rel)
    link.append(paragraph.add_run("hans.meinhardt@example.de")._r)
    buffer = io.BytesIO()
    document.save(buffer)

    word = anonymize_docx(buffer.getvalue(), Anonymizer(finds("hans.meinhardt@example.de")))

    assert word.removed["link targets"] == 1
    assert left_in(word.docx, ["meinhardt"]) == {}


def test_the_command_writes_a_word_file_beside_the_text(messy, tmp_path, capsys, monkeypatch):
    source = tmp_path / "in" / "urteil.docx"
    source.parent.mkdir()
    source.write_bytes(messy.data)
    anonymizer = Anonymizer(finds(*messy.names))
    monkeypatch.setattr(Anonymizer, "from_pretrained", classmethod(lambda cls, *a, **k: anonymizer))
    out = tmp_path / "out"

    key = tmp_path / "key.jsonl"
    command = ["anonymize", str(source.parent), "--output", str(out), "--mode", "label"]
    code = main([*command, "--seed", "1", "--key-out", str(key), "--no-progress"])

    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["urteil.docx", "urteil.txt"]
    written = (out / "urteil.docx").read_bytes()
    assert left_in(written, messy.names) == {}
    assert "<nat-name-1>" in (out / "urteil.txt").read_text()
    summary = capsys.readouterr().err
    assert "removed from Word files: " in summary and "comments 1" in summary
    entry = json.loads(key.read_text())
    assert entry["file"] == "urteil.docx" and entry["replacements"]

    # into its own folder, the Word output would overwrite the input: refused
    code = main(["anonymize", str(source), "--output", str(source.parent), "--no-progress"])
    assert code == 1
    assert "would overwrite it" in capsys.readouterr().err
    assert source.read_bytes() == messy.data


def test_rejected_changes_come_back_as_text(messy, tmp_path, monkeypatch, capsys):
    source = tmp_path / "urteil.docx"
    source.write_bytes(messy.data)
    deleted = messy.parts["tracked deletion"][0]
    anonymizer = Anonymizer(finds())  # nothing found: the text shows what was read
    monkeypatch.setattr(Anonymizer, "from_pretrained", classmethod(lambda cls, *a, **k: anonymizer))

    for revisions, present in (("accept", False), ("reject", True)):
        out = tmp_path / revisions
        assert main(["anonymize", str(source), "--output", str(out), "--revisions", revisions,
                     "--no-progress"]) == 0  # fmt: skip
        assert (f"und {deleted}" in (out / "urteil.txt").read_text()) is present


def test_a_japanese_word_file_is_anonymized_in_every_part():
    document = docx.Document()
    document.add_paragraph("被告人田中太郎は、令和４年３月１５日、佐藤花子方に侵入した。")
    document.sections[0].header.paragraphs[0].text = "被告人　田中太郎"
    document.core_properties.author = "田中太郎"
    buffer = io.BytesIO()
    document.save(buffer)
    anonymizer = Anonymizer(finds("田中太郎", "佐藤花子"), language="ja")

    word = anonymize_docx(buffer.getvalue(), anonymizer, mode="initials", seed=1)

    assert word.result.text.startswith("被告人Ａは") and "被告人　Ａ" in word.result.text
    assert left_in(word.docx, ["田中", "太郎", "佐藤", "花子"]) == {}
