"""``hf-anon anonymize``: files and folders in, anonymized files, a key and a summary out.

The model is replaced by a pattern detector (``Anonymizer.from_pretrained`` patched) for
the behaviour of the command; one test runs a real tiny model from disk end to end.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys

import pytest

from hf_anon.apply.anonymize import Anonymizer, restore
from hf_anon.cli import main
from hf_anon.text.data import Span, load_jsonl

NAMES = {
    r"Hans Müller": ("nat-name", "high"),
    r"Eva Schmidt": ("nat-name", "high"),
    r"Bahnhofstraße 12": ("address-name", "high"),
    r"Amtsgericht München": ("court-name", "low"),
}


def detect(texts):
    if any("KAPUTT" in t for t in texts):
        raise RuntimeError("the model broke on this text")
    return [
        sorted(
            Span(m.start(), m.end(), label, risk, 0.9)
            for pattern, (label, risk) in NAMES.items()
            for m in re.finditer(pattern, text)
        )
        for text in texts
    ]


@pytest.fixture
def stub_model(monkeypatch):
    """`--model` loads the pattern detector; the arguments it got are recorded."""
    calls = []

    def from_pretrained(cls, path, **kwargs):
        calls.append((path, kwargs))
        return cls(detect, batch_size=kwargs.get("batch_size", 16))

    monkeypatch.setattr(Anonymizer, "from_pretrained", classmethod(from_pretrained))
    return calls


TXT = "\ufeffDer Kläger Hans Müller\r\nwohnt in der Bahnhofstraße 12.\r\nHerr Müller klagt.\r\n"
ROWS = [
    {
        "id": "u1",
        "domain": "mietrecht",
        "title": "Müller ./. Schmidt",
        "text": "Eva Schmidt zahlt.",
    },
    {"id": "u2", "text": "Das Amtsgericht München hört Hans Müller an."},
]


@pytest.fixture
def inputs(tmp_path):
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_bytes(TXT.encode("utf-8"))
    (folder / "sub" / "b.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8"
    )
    (folder / "bad.txt").write_bytes(b"Zeile eins\nZeile zwei M\xfcller\n")  # Latin-1
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4")
    (folder / "notes.md").write_text("not a decision")
    return folder


def run(*args: str) -> int:
    return main(["anonymize", "--model", "m", *args, "--no-progress"])


def test_a_folder_is_anonymized_file_by_file_and_failures_are_reported(
    stub_model, inputs, tmp_path, capsys
):
    out, key = tmp_path / "out", tmp_path / "secret" / "key.jsonl"
    assert run(str(inputs), "--output", str(out), "--mode", "label", "--key-out", str(key)) == 1
    err = capsys.readouterr().err
    # the good files: byte for byte outside the replacements (BOM, CRLF kept)
    assert (out / "a.txt").read_bytes() == (
        "\ufeffDer Kläger <nat-name-1>\r\nwohnt in der <address-name-1>.\r\n"
        "Herr <nat-name-1> klagt.\r\n"
    ).encode("utf-8")
    docs = load_jsonl(out / "sub" / "b.jsonl")
    assert [d.text for d in docs] == [
        "<nat-name-1> zahlt.",
        "Das <court-name-1> hört <nat-name-1> an.",
    ]
    assert docs[0].domain == "mietrecht" and "title" not in docs[0].meta
    assert [(s.start, s.end, s.label) for s in docs[1].spans] == [
        (4, 18, "court-name"),
        (24, 36, "nat-name"),
    ]
    # the bad ones: no output, a clear message, the batch went on
    assert not (out / "bad.txt").exists() and not (out / "scan.pdf").exists()
    assert re.search(r"bad\.txt: not valid UTF-8: byte 0xFC at offset 23 \(line 2\)", err)
    assert re.search(r"scan\.pdf: not a readable PDF file", err)
    assert "2 of 4 files anonymized (2 failed, 1 other files skipped), 3 documents" in err
    assert "6 spans replaced (nat-name 4, address-name 1, court-name 1), 1 of them found" in err
    assert "title (1)" in err
    # the key restores every document, and only its owner may read it
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    entries = [json.loads(line) for line in key.read_text(encoding="utf-8").splitlines()]
    originals = {"a": TXT, "u1": ROWS[0]["text"], "u2": ROWS[1]["text"]}
    outputs = {"a": (out / "a.txt").read_bytes().decode("utf-8")} | {d.id: d.text for d in docs}
    assert sorted(e["id"] for e in entries) == ["a", "u1", "u2"]
    for entry in entries:
        assert restore(outputs[entry["id"]], entry["replacements"]) == originals[entry["id"]]


def test_output_formats(stub_model, inputs, tmp_path):
    txt = inputs / "a.txt"
    jsonl = inputs / "sub" / "b.jsonl"
    assert run(str(txt), "--output", str(tmp_path / "j"), "--format", "jsonl", "--seed", "1") == 0
    (doc,) = load_jsonl(tmp_path / "j" / "a.jsonl")
    assert doc.id == "a" and doc.text.startswith("\ufeffDer Kläger ") and len(doc.spans) == 3
    assert run(str(jsonl), "--output", str(tmp_path / "t"), "--format", "txt") == 0
    assert sorted(p.name for p in (tmp_path / "t" / "b").iterdir()) == ["u1.txt", "u2.txt"]


def test_selection_operators_and_secret(stub_model, inputs, tmp_path, monkeypatch, capsys):
    jsonl = str(inputs / "sub" / "b.jsonl")
    args = ["--output", str(tmp_path / "o"), "--mode", "redact", "--mask", "XX"]
    assert run(jsonl, *args, "--min-risk", "medium") == 0
    docs = load_jsonl(tmp_path / "o" / "b.jsonl")
    assert docs[1].text == "Das Amtsgericht München hört XX an."
    assert run(jsonl, *args, "--operator", "nat-name=initials") == 0
    assert re.fullmatch(
        r"Das XX hört [A-Z]\. [A-Z]\. an\.", load_jsonl(tmp_path / "o" / "b.jsonl")[1].text
    )

    monkeypatch.setenv("HF_ANON_SECRET", "geheim")
    twice = tmp_path / "twice"
    twice.mkdir()
    for name in ("x.txt", "y.txt"):
        (twice / name).write_text("Zeuge Hans Müller.", encoding="utf-8")
    assert run(str(twice), "--output", str(tmp_path / "s"), "--secret-env", "HF_ANON_SECRET") == 0
    x, y = ((tmp_path / "s" / n).read_text(encoding="utf-8") for n in ("x.txt", "y.txt"))
    assert x == y != "Zeuge Hans Müller."
    capsys.readouterr()
    assert run(str(twice), "--output", str(tmp_path / "s"), "--secret-env", "NOT_SET_ANYWHERE") == 2
    assert "NOT_SET_ANYWHERE is not set" in capsys.readouterr().err


def test_docx_and_pdf_are_read_and_written_as_txt(stub_model, tmp_path, capsys):
    from documents import make_docx, make_pdf

    folder = tmp_path / "in"
    folder.mkdir()
    make_docx(folder / "u.docx", ["Der Kläger Hans Müller", "wohnt in der Bahnhofstraße 12."])
    (folder / "v.pdf").write_bytes(make_pdf([["Die Zeugin Eva Schmidt"], ["Herr Müller klagt."]]))
    (folder / "w.doc").write_bytes(b"old Word")
    assert run(str(folder), "--output", str(tmp_path / "out"), "--mode", "label") == 1
    assert (tmp_path / "out" / "u.txt").read_text(encoding="utf-8") == (
        "Der Kläger <nat-name-1>\nwohnt in der <address-name-1>.\n\nKopfzeile Geheim"
    )  # the header after a blank line
    assert (tmp_path / "out" / "u.docx").exists()  # and the Word file beside it
    assert (tmp_path / "out" / "v.txt").read_text(encoding="utf-8") == (
        "Die Zeugin <nat-name-1>\n\nHerr Müller klagt."
    )
    assert re.search(r"w\.doc: \.doc files are not supported", capsys.readouterr().err)


def test_a_detection_failure_fails_only_its_file(stub_model, tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ok.txt").write_text("Hans Müller zahlt.", encoding="utf-8")
    (folder / "broken.txt").write_text("KAPUTT Eva Schmidt", encoding="utf-8")
    assert run(str(folder), "--output", str(tmp_path / "out"), "--mode", "label") == 1
    assert (tmp_path / "out" / "ok.txt").read_text(encoding="utf-8") == "<nat-name-1> zahlt."
    assert not (tmp_path / "out" / "broken.txt").exists()
    assert "broken.txt: detection failed" in capsys.readouterr().err


def test_invalid_arguments_end_with_exit_code_2(stub_model, inputs, tmp_path, capsys):
    out = ["--output", str(tmp_path / "o")]
    assert run(str(tmp_path / "missing.txt"), *out) == 2
    assert "missing.txt: no such file or folder" in capsys.readouterr().err
    assert run(str(inputs), *out, "--labels", "name") == 2
    assert "unknown label 'name'" in capsys.readouterr().err
    assert run(str(inputs), *out, "--operator", "nat-name") == 2
    assert "LABEL=MODE" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(str(empty), *out) == 2
    assert "no .txt, .jsonl, .docx or .pdf files" in capsys.readouterr().err


SENTENCE = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München. "


@pytest.fixture(scope="module")
def tiny_model(tiny_model_dir):
    return tiny_model_dir


def test_a_real_tiny_model_end_to_end(tiny_model, tmp_path, capsys):
    (tmp_path / "in.txt").write_text(SENTENCE * 60 + "\x00 Ende.", encoding="utf-8")
    args = ["anonymize", str(tmp_path / "in.txt"), "--model", str(tiny_model)]
    args += ["--output", str(tmp_path / "out"), "--key-out", str(tmp_path / "key.jsonl")]
    assert main([*args, "--no-progress", "--quantize", "--batch-size", "4"]) == 0
    err = capsys.readouterr().err
    tokens = int(re.search(r"characters, ([\d,]+) tokens", err).group(1).replace(",", ""))
    assert tokens > 60 * 10
    (entry,) = [json.loads(line) for line in (tmp_path / "key.jsonl").read_text().splitlines()]
    anonymized = (tmp_path / "out" / "in.txt").read_text(encoding="utf-8")
    assert entry["replacements"] and restore(anonymized, entry["replacements"]) == (
        SENTENCE * 60 + "\x00 Ende."
    )
    assert main([*args[:3], str(tmp_path / "nope"), "--output", str(tmp_path / "o")]) == 2
    assert "cannot load an hf-anon model" in capsys.readouterr().err


@pytest.mark.slow
def test_two_processes_with_accelerate_give_the_same_output(tiny_model, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(5):
        (folder / f"d{i}.txt").write_text(SENTENCE * (10 + i), encoding="utf-8")
    common = [str(folder), "--model", str(tiny_model), "--mode", "label", "--no-progress"]
    assert main(["anonymize", *common, "--output", str(tmp_path / "one")]) == 0
    launch = [sys.executable, "-m", "accelerate.commands.launch", "--cpu", "--num_processes", "2"]
    launch += ["--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no"]
    done = subprocess.run(
        [*launch, "-m", "hf_anon.cli", "anonymize", *common, "--output", str(tmp_path / "two")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "5 of 5 files anonymized" in done.stderr
    for i in range(5):
        name = f"d{i}.txt"
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def _files(folder) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_large_json_lines_file_is_streamed_in_chunks(stub_model, tmp_path, monkeypatch):
    """Documents are read, anonymized and written chunk by chunk, in input order; a broken
    line found late fails its file and leaves nothing of it, not even a temporary file."""
    import hf_anon.apply.batch as batch

    monkeypatch.setattr(batch, "CHUNK_DOCUMENTS", 3)
    events = []
    read = batch.iter_documents

    def reading(file, **options):
        for row in read(file, **options):
            events.append("read")
            yield row

    patterns = detect

    def detecting(texts):
        events.append("detect")
        return patterns(texts)

    monkeypatch.setattr(batch, "iter_documents", reading)
    monkeypatch.setattr(sys.modules[__name__], "detect", detecting)
    rows = [{"id": f"d{i}", "text": f"Hans Müller zahlt {i} Euro."} for i in range(10)]
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    broken = "".join(json.dumps(r) + "\n" for r in rows[:8]) + "{kaputt\n"
    (folder / "b.jsonl").write_text(broken, encoding="utf-8")
    out = tmp_path / "out"
    assert run(str(folder), "--output", str(out), "--mode", "label") == 1
    assert [d.text for d in load_jsonl(out / "a.jsonl")] == [
        f"<nat-name-1> zahlt {i} Euro." for i in range(10)
    ]
    assert _files(out) == ["a.jsonl"]  # b.jsonl failed at line 9: no output, no temporary
    assert events[:4] == ["read", "read", "read", "detect"]  # never the whole file first


def test_an_interrupted_run_leaves_complete_outputs_and_resume_finishes_it(
    stub_model, tmp_path, monkeypatch, capsys
):
    """Ctrl-C (or SIGTERM) in the middle: the files done are complete, the one in progress
    left no trace, the key holds what was done; ``--resume`` goes on where it stopped and
    the result equals an uninterrupted run."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in "abcd":
        (folder / f"{name}.txt").write_text(f"Hans Müller zahlt ({name}).", encoding="utf-8")
    patterns = detect

    def interrupted(texts):
        if any("(c)" in t for t in texts):
            raise KeyboardInterrupt
        return patterns(texts)

    out, key = tmp_path / "out", tmp_path / "key.jsonl"
    args = [str(folder), "--output", str(out), "--mode", "label", "--key-out", str(key)]
    import hf_anon.apply.batch as batch

    monkeypatch.setattr(batch, "CHUNK_DOCUMENTS", 1)
    monkeypatch.setattr(sys.modules[__name__], "detect", interrupted)
    assert run(*args) == 130
    assert "interrupted" in capsys.readouterr().err
    assert _files(out) == ["a.txt", "b.txt"] and not key.exists()
    partial = tmp_path / "key.jsonl.partial"
    assert stat.S_IMODE(os.stat(partial).st_mode) == 0o600
    assert [json.loads(line)["id"] for line in partial.read_text().splitlines()] == ["a", "b"]

    monkeypatch.setattr(sys.modules[__name__], "detect", patterns)
    assert run(*args, "--resume") == 0
    assert "4 of 4 files anonymized (0 failed, 2 done before (--resume))" in capsys.readouterr().err
    assert _files(out) == ["a.txt", "b.txt", "c.txt", "d.txt"] and not partial.exists()
    entries = [json.loads(line) for line in key.read_text(encoding="utf-8").splitlines()]
    assert [e["id"] for e in entries] == ["a", "b", "c", "d"]
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    for entry in entries:
        output = (out / f"{entry['id']}.txt").read_text(encoding="utf-8")
        original = (folder / f"{entry['id']}.txt").read_text(encoding="utf-8")
        assert restore(output, entry["replacements"]) == original


def test_sigterm_ends_a_run_like_ctrl_c():
    import signal

    from hf_anon.apply.batch import terminate_as_interrupt as _terminate_as_interrupt

    previous = _terminate_as_interrupt()
    try:
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between byte codes
                pass
    finally:
        signal.signal(signal.SIGTERM, previous)
