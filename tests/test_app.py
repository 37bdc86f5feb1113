"""The Gradio demo (``app.py``): its functions, the running app through ``gradio_client``
and once in a real browser (Playwright with Debian's Chromium).

The model is a pattern detector (an :class:`Anonymizer` built from a callable), so span
checks are exact and fast; one test runs the tiny random model of ``conftest.py``.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from documents import encrypt_pdf, make_docx, make_pdf, make_zip_bomb  # noqa: E402

import app  # noqa: E402
from hf_anon.apply.anonymize import Anonymizer  # noqa: E402
from hf_anon.text.data import Span  # noqa: E402
from hf_anon.text.labels import DEFAULT_LABELS  # noqa: E402

# Gradio's queue statistics use pandas options that pandas 3 deprecates (not ours).
pytestmark = [
    pytest.mark.filterwarnings("ignore:'future.no_silent_downcasting' is deprecated"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
]

PATTERNS = {
    r"Hans Müller": ("nat-name", "high", 0.97),
    r"Bahnhofstraße 12": ("address-name", "high", 0.9),
    r"Amtsgericht München": ("court-name", "low", 0.8),
    r"VW Golf": ("car-name", "medium", 0.7),  # predicted above the label's usual risk
}
TEXT = (
    "Das Amtsgericht München hört den Kläger Hans Müller, Bahnhofstraße 12, an. "
    "Herr Müller fuhr einen VW Golf."
)
LABELLED = (
    "Das <court-name-1> hört den Kläger <nat-name-1>, <address-name-1>, an. "
    "Herr <nat-name-1> fuhr einen <car-name-1>."
)


def detect(texts):
    if any("KAPUTT" in t for t in texts):
        raise RuntimeError("the model broke")
    return [
        sorted(
            Span(m.start(), m.end(), label, risk, score)
            for pattern, (label, risk, score) in PATTERNS.items()
            for m in re.finditer(pattern, text)
        )
        for text in texts
    ]


@pytest.fixture(scope="module")
def anonymizer():
    return Anonymizer(detect)


def spans_of(result):
    return [(s["text"], s["label"], s["risk"], s["source"], s["replacement"]) for s in result.spans]


# ------------------------------------------------------------------------------- units


def test_every_label_has_a_colour_for_every_risk():
    colours = app.color_map()
    topics = {f"topic:{name} · high" for _, name in app.TOPICS}
    assert topics <= set(colours)
    assert len(colours) == len(DEFAULT_LABELS) * len(DEFAULT_LABELS.risks) + len(topics)
    assert (
        colours["nat-name · high"] == colours["nat-name · low"] == DEFAULT_LABELS["nat-name"].color
    )
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours.values())
    assert len({label.color for label in DEFAULT_LABELS}) == len(DEFAULT_LABELS)


def test_label_mode_spans_highlights_and_table(anonymizer):
    result = app.anonymize_text(anonymizer, TEXT, "label")
    assert result.anonymized == LABELLED
    assert spans_of(result) == [
        ("Amtsgericht München", "court-name", "low", "model", "<court-name-1>"),
        ("Hans Müller", "nat-name", "high", "model", "<nat-name-1>"),
        ("Bahnhofstraße 12", "address-name", "high", "model", "<address-name-1>"),
        ("Müller", "nat-name", "high", "leak-check", "<nat-name-1>"),
        ("VW Golf", "car-name", "medium", "model", "<car-name-1>"),
    ]
    assert all(TEXT[s["start"] : s["end"]] == s["text"] for s in result.spans)
    pieces = result.highlighted
    assert "".join(piece for piece, _ in pieces) == TEXT
    assert [c for _, c in pieces if c] == [
        "court-name · low",
        "nat-name · high",
        "address-name · high",
        "nat-name · high",
        "car-name · medium",
    ]
    table = result.table()
    assert list(table.columns) == app.COLUMNS
    assert table.iloc[1].tolist() == [
        "Hans Müller",
        "nat-name",
        "high",
        0.97,
        40,
        51,
        "<nat-name-1>",
        "model",
    ]
    assert (
        result.summary()
        == "4 Stellen erkannt, 5 ersetzt (davon 1 durch die Leak-Prüfung gefunden)."
    )
    assert json.loads(result.spans_json()) == result.spans


@pytest.mark.parametrize(
    ("mode", "pattern"),
    [
        ("redact", r"Das \[…\] hört den Kläger \[…\], \[…\], an\. Herr \[…\] fuhr einen \[…\]\."),
        ("initials", r"Das .+ hört den Kläger [A-Z]\. [A-Z]\., .+, an\. Herr [A-Z]\. fuhr .+\."),
        ("pseudonym", r"Das .+ hört den Kläger \w+ [\w-]+, .+, an\. Herr [\w-]+ fuhr einen .+\."),
    ],
)
def test_other_modes(anonymizer, mode, pattern):
    result = app.anonymize_text(anonymizer, TEXT, mode, seed=1)
    assert re.fullmatch(pattern, result.anonymized), result.anonymized
    for form in ("Müller", "Bahnhofstraße", "München"):
        assert form not in result.anonymized
    assert all(s["replacement"] for s in result.spans)


def test_label_filter_and_minimum_risk(anonymizer):
    only_names = app.anonymize_text(anonymizer, TEXT, "label", ["nat-name"])
    assert only_names.anonymized == (
        "Das Amtsgericht München hört den Kläger <nat-name-1>, Bahnhofstraße 12, an. "
        "Herr <nat-name-1> fuhr einen VW Golf."
    )
    # kept detections are still shown, without a replacement
    assert [s["replacement"] for s in only_names.spans] == [
        None,
        "<nat-name-1>",
        None,
        "<nat-name-1>",
        None,
    ]
    assert only_names.rows[0][6] == ""
    assert (
        only_names.summary()
        == "4 Stellen erkannt, 2 ersetzt (davon 1 durch die Leak-Prüfung gefunden)."
    )

    medium = app.anonymize_text(anonymizer, TEXT, "label", None, "medium")
    assert "Amtsgericht München" in medium.anonymized  # court-name: low
    assert "<car-name-1>" in medium.anonymized  # car-name: usually low, predicted medium
    high = app.anonymize_text(anonymizer, TEXT, "label", None, "high")
    assert high.anonymized == (
        "Das Amtsgericht München hört den Kläger <nat-name-1>, <address-name-1>, an. "
        "Herr <nat-name-1> fuhr einen VW Golf."
    )
    nothing = app.anonymize_text(anonymizer, TEXT, "label", [])
    assert nothing.anonymized == TEXT and len(nothing.spans) == 4


def test_empty_text_and_invalid_input(anonymizer, tmp_path):
    for text in ("", None, "  \n "):
        result = app.anonymize_text(anonymizer, text, "label")
        assert result.spans == [] and result.summary() == "Kein Text."
        assert result.highlighted == [(result.text, None)]
    downloads = app.Downloads(tmp_path / "d")
    outputs = app.outputs_for(app.anonymize_text(anonymizer, "", "label"), downloads)
    assert outputs[0] == "" and outputs[1] == [] and outputs[-2:] == (None, None)
    assert list(downloads.root.iterdir()) == []  # nothing to download, nothing written
    with pytest.raises(ValueError, match="unknown mode 'keep'"):
        app.anonymize_text(anonymizer, TEXT, "keep")
    with pytest.raises(ValueError, match="unknown label 'name'"):
        app.anonymize_text(anonymizer, TEXT, "label", ["name"])
    with pytest.raises(ValueError, match="at most 200,000"):
        app.anonymize_text(anonymizer, "x" * (app.MAX_CHARS + 1), "label")


def test_downloads_are_written_and_expire(anonymizer, tmp_path):
    downloads = app.Downloads(tmp_path / "d", max_age=60)
    result = app.anonymize_text(anonymizer, TEXT, "label")
    anonymized, spans, _, table, _, txt, spans_file, word = app.outputs_for(result, downloads)
    assert word is None  # no Word file uploaded
    assert anonymized == LABELLED and spans == result.spans and len(table) == 5
    assert Path(txt).read_text(encoding="utf-8") == LABELLED
    assert json.loads(Path(spans_file).read_text(encoding="utf-8")) == result.spans
    assert Path(txt).parent.parent == downloads.root
    downloads.prune(now=time.time() + 30)
    assert Path(txt).exists()
    downloads.prune(now=time.time() + 120)
    assert not Path(txt).exists() and list(downloads.root.iterdir()) == []


def test_uploads_are_read_then_deleted(tmp_path):
    def upload(name: str) -> Path:  # as Gradio stores them: a folder per upload
        folder = tmp_path / name.replace(".", "_")
        folder.mkdir()
        return folder / name

    txt = upload("u.txt")
    txt.write_bytes("\ufeffHans Müller\r\nwohnt hier.".encode())
    assert app.read_upload(str(txt)) == "Hans Müller\r\nwohnt hier."
    assert not txt.exists() and not txt.parent.exists()

    docx = make_docx(upload("u.docx"), ["Der Kläger Hans Müller", "wohnt in der Bahnhofstraße 12."])
    assert app.read_upload(docx) == (
        "Der Kläger Hans Müller\nwohnt in der Bahnhofstraße 12.\n\nKopfzeile Geheim"
    )  # the header after a blank line
    assert not docx.exists()

    pdf = upload("u.pdf")
    pdf.write_bytes(make_pdf([["Der Kläger Hans Müller"], ["Seite 2"]]))
    assert app.read_upload(pdf) == "Der Kläger Hans Müller\n\nSeite 2"
    assert not pdf.exists()

    for name, content, message in [
        ("u.odt", b"PK", r"^u\.odt: \.odt is not supported"),
        ("latin.txt", b"M\xfcller", r"^latin\.txt: not valid UTF-8: byte 0xFC at offset 1"),
    ]:
        bad = upload(name)
        bad.write_bytes(content)
        with pytest.raises(ValueError, match=message) as err:
            app.read_upload(bad)
        assert str(tmp_path) not in str(err.value)  # the server's paths stay private
        assert not bad.exists()
    assert app.read_upload(None) == ""


def test_a_word_upload_comes_back_as_word(anonymizer, tmp_path):
    import docx

    path = make_docx(tmp_path / "urteil.docx", ["Der Kläger Hans Müller", "fährt einen VW Golf."])
    downloads = app.Downloads(tmp_path / "d")

    text, cleared, word = app.load_file(str(path))
    result = app.anonymize_text(anonymizer, text, "label", word=word)
    *_, txt, _, written = app.outputs_for(result, downloads)
    assert "<nat-name-1>" in Path(txt).read_text(encoding="utf-8")

    assert cleared is None and word is not None and not path.exists()
    assert Path(written).name == "anonymisiert.docx"
    document = docx.Document(written)
    assert [p.text for p in document.paragraphs] == [
        "Der Kläger <nat-name-1>",
        "fährt einen <car-name-1>.",
    ]
    assert "Müller" not in Path(written).read_bytes().decode("latin-1")
    assert "Dokumenteigenschaften" in result.summary()  # what was removed is said
    # the text box edited after the upload: its text is no longer the file's, no .docx
    edited = app.anonymize_text(anonymizer, text + " Ende.", "label", word=word)
    assert edited.word is None and app.outputs_for(edited, downloads)[-1] is None


def test_a_review_corrects_the_text_and_exports_what_it_made(anonymizer, tmp_path):
    result = app.anonymize_text(anonymizer, TEXT, "label")
    review = app.start_review(TEXT, result.spans, {"nat-name": 0.9})

    table, picker, status, published = app.review_view(review, "label")
    assert published == LABELLED and "5 noch offen" in status
    # doubtful first: Hans Müller (0.97 < 0.9 + 0.15), then the leak check's Müller
    assert list(table["Text"])[:2] == ["Hans Müller", "Müller"]
    assert list(table["Zweifel"])[:2] == ["knapp über der Schwelle", "Leak-Prüfung"]
    assert picker["value"] == 0 and len(picker["choices"]) == 5

    golf = next(i for i, item in enumerate(review.items) if item.span.label == "car-name")
    review.reject(golf)
    review.add(TEXT.index("Kläger"), TEXT.index("Kläger") + len("Kläger"), "nat-jur")
    *_, status, published = app.review_view(review, "label")
    assert published.endswith("fuhr einen VW Golf.") and "<nat-jur-1>" in published
    assert "4 noch offen" in status  # the rejected one is done; the added one needs nothing

    files = app.review_export(review, "label", app.Downloads(tmp_path / "d"))
    assert [Path(f).name for f in files] == [
        "veroeffentlichung.txt",
        "schluessel.jsonl",
        "annotation.jsonl",
    ]
    assert Path(files[0]).read_text(encoding="utf-8") == published
    gold = json.loads(Path(files[2]).read_text(encoding="utf-8"))
    assert {s["label"] for s in gold["spans"]} == {
        "court-name",
        "nat-jur",
        "nat-name",
        "address-name",
    }
    key = json.loads(Path(files[1]).read_text(encoding="utf-8"))
    assert {r["original"] for r in key["replacements"]} >= {"Hans Müller", "Kläger"}


def test_a_reviewed_word_upload_is_exported_as_word(anonymizer, tmp_path):
    import docx

    path = make_docx(tmp_path / "u.docx", ["Der Kläger Hans Müller", "fährt einen VW Golf."])
    text, _, word = app.load_file(str(path))
    result = app.anonymize_text(anonymizer, text, "label", word=word)
    review = app.start_review(text, result.spans)
    review.reject(next(i for i, it in enumerate(review.items) if it.span.label == "car-name"))

    files = app.review_export(review, "label", app.Downloads(tmp_path / "d"), word)

    assert Path(files[-1]).name == "veroeffentlichung.docx"
    paragraphs = [p.text for p in docx.Document(files[-1]).paragraphs]
    assert paragraphs == ["Der Kläger <nat-name-1>", "fährt einen VW Golf."]  # as reviewed


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("u.exe", lambda path: path.write_bytes(b"MZ"), r"u\.exe: \.exe is not supported"),
        ("bomb.docx", make_zip_bomb, r"bomb\.docx: a part of the \.docx is compressed .*bomb"),
        ("fake.docx", lambda p: p.write_bytes(b"PK\x03\x04?"), r"fake\.docx: not a readable"),
        (
            "locked.pdf",
            lambda path: path.write_bytes(encrypt_pdf(make_pdf([["Hans Müller"]]))),
            r"locked\.pdf: the PDF is password-protected; unlock it first",
        ),
        (
            "scan.pdf",
            lambda path: path.write_bytes(make_pdf([[]])),
            r"scan\.pdf: the PDF has no text layer \(a scan\?\); run OCR on it first",
        ),
        ("cut.pdf", lambda path: path.write_bytes(b"%PDF-1.4"), r"cut\.pdf: not a readable PDF"),
        (
            "long.txt",
            lambda path: path.write_text("x" * (app.MAX_CHARS + 1)),
            r"long\.txt: the text has 200,001 characters; the demo takes at most 200,000",
        ),
    ],
)
def test_a_bad_upload_gives_a_message_on_the_page(tmp_path, name, content, message):
    path = tmp_path / "upload" / name
    path.parent.mkdir()
    content(path)
    with pytest.raises(app.gr.Error) as err:
        app.load_file(str(path))
    assert re.match(message, err.value.message), err.value.message
    assert str(tmp_path) not in err.value.message  # the server's paths stay private
    assert not path.exists() and not path.parent.exists()


def test_the_upload_box_refuses_other_types_and_big_files(anonymizer, tmp_path):
    from gradio.data_classes import FileData

    demo = app.build_demo(anonymizer, downloads=app.Downloads(tmp_path / "d"))
    (upload,) = [b for b in demo.blocks.values() if getattr(b, "elem_id", None) == "upload"]
    with pytest.raises(app.gr.Error, match=r"Invalid file type.*\.txt.*\.docx.*\.pdf"):
        upload.preprocess(FileData(path=str(tmp_path / "x.exe"), orig_name="x.exe"))
    assert app.PRIVATE_LAUNCH["max_file_size"] == app.MAX_FILE_SIZE  # 413 when bigger


def test_the_queue_limits(anonymizer, tmp_path):
    demo = app.build_demo(anonymizer, downloads=app.Downloads(tmp_path / "d"))
    assert demo._queue.max_size == app.QUEUE_SIZE
    # the button (and API) and the upload's anonymization share one model queue
    model = [fn for fn in demo.fns.values() if fn.concurrency_id == app.MODEL_QUEUE]
    assert len(model) == 2
    assert all(fn.concurrency_limit == app.CONCURRENCY == 1 for fn in model)
    # no validator: Gradio's max_size check is not atomic with one (see the module docs)
    assert all(fn.validator is None for fn in demo.fns.values())
    small = app.build_demo(anonymizer, downloads=app.Downloads(tmp_path / "e"), queue_size=3)
    assert small._queue.max_size == 3


def test_a_tiny_real_model(tiny_model_dir):
    from conftest import TINY_MODEL_SENTENCE

    model = Anonymizer.from_pretrained(tiny_model_dir)
    text = TINY_MODEL_SENTENCE * 3
    result = app.anonymize_text(model, text, "redact")
    assert all(text[s["start"] : s["end"]] == s["text"] for s in result.spans)
    assert "".join(piece for piece, _ in result.highlighted) == text
    labels = {label.name for label in DEFAULT_LABELS}
    assert all(s["label"] in labels for s in result.spans)
    # the detector scores its spans; mentions the leak check adds carry no score
    assert all(
        0 <= s["score"] <= 1 if s["source"] != "leak-check" else s["score"] is None
        for s in result.spans
    )


GRADIO_VARIABLES = ("GRADIO_SERVER_NAME", "GRADIO_SERVER_PORT", "GRADIO_ROOT_PATH")


@pytest.fixture
def launched(monkeypatch):
    """main() without a server: the arguments it launches with; Gradio's variables unset."""
    calls = []
    monkeypatch.setattr(app, "launch", lambda demo, *args, **kw: calls.append((demo, *args, kw)))
    for name in GRADIO_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return calls


def test_main_parses_flags_and_loads_the_default_model(launched, monkeypatch, tiny_model_dir):
    monkeypatch.setenv("HF_ANON_MODEL", str(tiny_model_dir))
    assert app.main(["--port", "7999", "--host", "0.0.0.0"]) == 0
    ((demo, host, port, share, kw),) = launched
    assert (host, port, share, kw) == ("0.0.0.0", 7999, False, {"root_path": None})
    assert demo.analytics_enabled is False
    assert demo._queue.max_size == app.QUEUE_SIZE
    assert app.main(["--model", str(tiny_model_dir), "--share", "--queue-size", "5"]) == 0
    assert launched[1][1:4] == ("127.0.0.1", 7860, True)
    assert launched[1][0]._queue.max_size == 5
    with pytest.raises(SystemExit):
        app.main(["--model", str(tiny_model_dir), "--concurrency", "0"])


def test_main_takes_gradios_variables_and_flags_win(launched, monkeypatch, tiny_model_dir):
    monkeypatch.setenv("HF_ANON_MODEL", str(tiny_model_dir))
    monkeypatch.setenv("GRADIO_SERVER_NAME", "0.0.0.0")
    monkeypatch.setenv("GRADIO_SERVER_PORT", "8123")
    monkeypatch.setenv("GRADIO_ROOT_PATH", "/anon")
    assert app.main([]) == 0
    assert launched[-1][1:] == ("0.0.0.0", 8123, False, {"root_path": "/anon"})
    flags = ["--host", "127.0.0.2", "--port", "7999", "--root-path", "/other"]
    assert app.main(flags) == 0
    assert launched[-1][1:] == ("127.0.0.2", 7999, False, {"root_path": "/other"})
    assert app.main(["--port", "7998"]) == 0  # each setting on its own
    assert launched[-1][1:] == ("0.0.0.0", 7998, False, {"root_path": "/anon"})
    monkeypatch.setenv("GRADIO_SERVER_PORT", "eighty")
    with pytest.raises(SystemExit):
        app.main([])
    assert len(launched) == 3


def test_server_address():
    assert app.server_address(environ={}) == ("127.0.0.1", 7860, None)
    env = {"GRADIO_SERVER_NAME": "0.0.0.0", "GRADIO_SERVER_PORT": "8123"}
    assert app.server_address(environ=env) == ("0.0.0.0", 8123, None)
    assert app.server_address("::1", 9000, "/x", environ=env) == ("::1", 9000, "/x")
    empty = dict.fromkeys(GRADIO_VARIABLES, "")  # empty counts as unset
    assert app.server_address(environ=empty) == ("127.0.0.1", 7860, None)
    with pytest.raises(ValueError, match="GRADIO_SERVER_PORT must be a number"):
        app.server_address(environ={"GRADIO_SERVER_PORT": "eighty"})
    with pytest.raises(ValueError, match="the port must be a number from 1 to 65535"):
        app.server_address(port=70000, environ={})


# ------------------------------------------------------------------------ running app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(anonymizer, tmp_path_factory):
    """The demo served on a free localhost port; closed after the module."""
    demo = app.build_demo(anonymizer, downloads=app.Downloads(tmp_path_factory.mktemp("dl")))
    _, url, _ = app.launch(demo, "127.0.0.1", free_port(), prevent_thread_lock=True, quiet=True)
    yield demo, url
    demo.close()


def test_the_api_endpoint(server, tmp_path):
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    _, url = server
    client = Client(url, verbose=False, download_files=str(tmp_path))
    endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert list(endpoints) == ["/anonymize"]  # the upload events are not an API
    anonymized, spans, highlighted, table, summary, txt, spans_file, word = client.predict(
        TEXT, "label", DEFAULT_LABELS.names, "low", api_name="/anonymize"
    )
    assert anonymized == LABELLED and word is None  # a Word file only after a .docx upload
    assert [(s["text"], s["label"], s["start"], s["end"]) for s in spans] == [
        ("Amtsgericht München", "court-name", 4, 23),
        ("Hans Müller", "nat-name", 40, 51),
        ("Bahnhofstraße 12", "address-name", 53, 69),
        ("Müller", "nat-name", 80, 86),
        ("VW Golf", "car-name", 98, 105),
    ]
    assert {"token": "Hans Müller", "class_or_confidence": "nat-name · high"} in highlighted
    assert table["headers"] == app.COLUMNS and len(table["data"]) == 5
    assert summary.startswith("4 Stellen erkannt, 5 ersetzt")
    assert Path(txt).read_text(encoding="utf-8") == LABELLED
    assert json.loads(Path(spans_file).read_text(encoding="utf-8")) == spans

    anonymized, *_ = client.predict(TEXT, "redact", ["nat-name"], "high", api_name="/anonymize")
    assert anonymized == (
        "Das Amtsgericht München hört den Kläger […], Bahnhofstraße 12, an. "
        "Herr […] fuhr einen VW Golf."
    )
    with pytest.raises(AppError, match="detection failed, nothing was anonymized"):
        client.predict("KAPUTT", "label", [], "low", api_name="/anonymize")


def test_privacy_settings_of_the_running_app(server):
    import httpx

    demo, url = server
    assert demo.analytics_enabled is False
    assert demo.max_file_size == 5 * 1024 * 1024
    too_big = ("big.txt", b"x" * (5 * 1024 * 1024 + 1))
    response = httpx.post(f"{url}gradio_api/upload", files={"files": too_big}, timeout=30)
    assert response.status_code == 413
    assert httpx.get(f"{url}monitoring", timeout=30).status_code in (403, 404)
    assert "flag" not in json.dumps(demo.config, default=str).lower()  # (State: a callback)


def test_an_oversized_text_is_refused_with_a_clear_error(server):
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    _, url = server
    client = Client(url, verbose=False, download_files=False)
    started = time.perf_counter()
    with pytest.raises(AppError, match=r"the text has 200,001 characters; .* at most 200,000"):
        client.predict("x" * (app.MAX_CHARS + 1), "label", [], "low", api_name="/anonymize")
    assert time.perf_counter() - started < 10
    anonymized, *_ = client.predict(TEXT, "label", ["nat-name"], "low", api_name="/anonymize")
    assert "<nat-name-1>" in anonymized  # the server goes on serving


def test_served_under_a_root_path(anonymizer, tmp_path):
    """Behind a proxy at https://host/anon: the page and API name their URLs under /anon."""
    import httpx

    demo = app.build_demo(anonymizer, downloads=app.Downloads(tmp_path / "d"))
    _, url, _ = app.launch(
        demo, "127.0.0.1", free_port(), root_path="/anon", prevent_thread_lock=True, quiet=True
    )
    try:
        assert httpx.get(f"{url}config", timeout=30).json()["root"] == f"{url}anon"
    finally:
        demo.close()


def test_a_full_queue_refuses_at_once(tmp_path):
    from gradio_client import Client
    from gradio_client.utils import QueueError

    running, release = threading.Event(), threading.Event()

    def slow(texts):
        running.set()
        release.wait(60)
        return detect(texts)

    demo = app.build_demo(Anonymizer(slow), downloads=app.Downloads(tmp_path / "d"), queue_size=1)
    _, url, _ = app.launch(demo, "127.0.0.1", free_port(), prevent_thread_lock=True, quiet=True)
    try:
        client = Client(url, verbose=False, download_files=False)
        call = (TEXT, "label", ["nat-name"], "low")
        first = client.submit(*call, api_name="/anonymize")
        assert running.wait(30)  # the one model run
        second = client.submit(*call, api_name="/anonymize")
        for _ in range(100):  # until it waits in the queue
            if len(demo._queue) == 1:
                break
            time.sleep(0.1)
        assert len(demo._queue) == 1
        with pytest.raises(QueueError, match="Queue is full"):
            client.predict(*call, api_name="/anonymize")
        release.set()
        assert "<nat-name-1>" in first.result(timeout=30)[0]
        assert "<nat-name-1>" in second.result(timeout=30)[0]
    finally:
        release.set()
        demo.close()


CHROMIUM = Path("/usr/bin/chromium")


def test_in_a_browser(server, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright")
    import httpx

    _, url = server
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            page.goto(url)
            page.locator("#input-text textarea").fill(TEXT)
            page.locator("#anonymize").click()
            output = page.locator("#output-text textarea")
            sync_api.expect(output).to_have_value(LABELLED, timeout=30_000)
            sync_api.expect(page.locator("#summary")).to_contain_text("4 Stellen erkannt")
            highlighted = page.locator("#highlighted")
            sync_api.expect(highlighted).to_contain_text("Hans Müller")
            sync_api.expect(highlighted).to_contain_text("nat-name · high")
            sync_api.expect(page.locator("#review-note")).to_contain_text("keine")

            # an upload fills the text box and is anonymized right away
            upload = tmp_path / "upload.txt"
            upload.write_text("Zeuge Hans Müller.", encoding="utf-8")
            page.locator("#upload input[type=file]").set_input_files(str(upload))
            sync_api.expect(output).to_have_value("Zeuge <nat-name-1>.", timeout=30_000)
            sync_api.expect(page.locator("#input-text textarea")).to_have_value(
                "Zeuge Hans Müller."
            )

            # the review: accept the one span found, add the one the model missed, export
            page.locator("#input-text textarea").fill(
                "Zeuge Hans Müller und Zeugin Petra Kowalski."
            )
            page.locator("#anonymize").click()
            status = page.locator("#review-status")
            sync_api.expect(status).to_contain_text("1 noch offen", timeout=30_000)
            page.locator("#review-accept").click()
            sync_api.expect(status).to_contain_text("0 noch offen", timeout=30_000)
            page.locator("#input-text textarea").evaluate(
                """(el) => { el.focus(); const i = el.value.indexOf('Petra Kowalski');
                el.setSelectionRange(i, i + 14); el.dispatchEvent(new Event('select')); }"""
            )
            sync_api.expect(page.locator("#review-selection")).to_contain_text(
                "Petra Kowalski", timeout=30_000
            )
            page.locator("#review-add").click()
            reviewed = page.locator("#review-text textarea")
            sync_api.expect(reviewed).to_have_value(
                "Zeuge <nat-name-1> und Zeugin <nat-name-2>.", timeout=30_000
            )
            page.locator("#review-export").click()
            gold_link = page.locator("#review-files a[download='annotation.jsonl']")
            sync_api.expect(gold_link).to_have_count(1, timeout=30_000)
            gold = json.loads(httpx.get(gold_link.get_attribute("href"), timeout=30).text)
            assert [(s["start"], s["end"], s["label"]) for s in gold["spans"]] == [
                (6, 17, "nat-name"),
                (29, 43, "nat-name"),
            ]

            # a Word file comes back as a Word file, anonymized, ready to download
            word = make_docx(tmp_path / "urteil.docx", ["Zeuge Hans Müller."])
            page.locator("#upload input[type=file]").set_input_files(str(word))
            sync_api.expect(output).to_have_value(
                "Zeuge <nat-name-1>.\n\nKopfzeile Geheim", timeout=30_000
            )
            link = page.locator("#docx-file a").first
            sync_api.expect(link).to_have_attribute("download", "anonymisiert.docx", timeout=30_000)
            with page.expect_download() as download:
                link.click()
            saved = tmp_path / "downloaded.docx"
            download.value.save_as(saved)
            assert "Müller" not in app.open_word(saved.read_bytes()).text
            assert "<nat-name-1>" in app.open_word(saved.read_bytes()).text

            # a file that cannot be read gives a message on the page
            locked = tmp_path / "locked.pdf"
            locked.write_bytes(encrypt_pdf(make_pdf([["Zeuge Hans Müller."]])))
            page.locator("#upload input[type=file]").set_input_files(str(locked))
            sync_api.expect(page.get_by_text("the PDF is password-protected")).to_be_visible(
                timeout=30_000
            )
        finally:
            browser.close()
