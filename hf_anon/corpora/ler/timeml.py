"""LER's raw running text (``raw/*_timex.txt``, TimeML ``<TIMEX3>`` tags) → decisions."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hf_anon.corpora.ler.conll import Anomalies, split_lines
from hf_anon.corpora.ler.detokenize import detokenize
from hf_anon.text.data import Document

# --- raw TimeML text ------------------------------------------------------------------

RE_TIMEX_OPEN = re.compile(r"<TIMEX3\b(?P<attrs>[^<>]*)>")
RE_TIMEX_CLOSE = re.compile(r"</TIMEX3\s*>")
RE_TIMEX_ANY = re.compile(r"<TIMEX3\b(?P<attrs>[^<>]*)>|</TIMEX3\s*>")
RE_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
XML_FRAME = re.compile(r"^\s*(?:<\?xml\b.*\?>|<!DOCTYPE\b.*>|</?TimeML>)\s*$")


@dataclass(frozen=True)
class Timex:
    """A TIMEX3 expression: characters ``[start, end)`` of the tokenized line, tags removed."""

    start: int
    end: int
    type: str
    value: str


@dataclass(frozen=True)
class RawLine:
    """One raw sentence: its file line (1-based), tokenized text without tags, TIMEXes."""

    number: int
    tokenized: str
    timexes: tuple[Timex, ...] = ()

    @property
    def tokens(self) -> list[str]:
        return self.tokenized.split()


def parse_timex_line(
    line: str, where: str = "", anomalies: Anomalies | None = None
) -> tuple[str, list[Timex]]:
    """Remove the TIMEX3 tags of one line; return the text and the tagged stretches.

    Only ``<TIMEX3 ...>``/``</TIMEX3>`` are tags: other ``<``/``>`` are text (LER has
    ``< Klägerin zu 1. >`` and ``Beatmung > 95``). Nested, unclosed or stray tags are
    repaired (counted): an unclosed tag ends at the end of the line.
    """
    anomalies = anomalies if anomalies is not None else Anomalies()
    out: list[str] = []
    timexes: list[Timex] = []
    open_at: int | None = None
    attrs: dict[str, str] = {}
    length, last = 0, 0
    for match in RE_TIMEX_ANY.finditer(line):
        out.append(line[last : match.start()])
        length += match.start() - last
        last = match.end()
        if match.group("attrs") is not None:  # an opening tag
            if open_at is not None:
                anomalies.add("nested TIMEX3 (outer one closed)", where)
                timexes.append(_timex("".join(out), open_at, length, attrs, where, anomalies))
            open_at, attrs = length, dict(RE_ATTRIBUTE.findall(match.group("attrs")))
        elif open_at is None:
            anomalies.add("stray </TIMEX3> (ignored)", where)
        else:
            timexes.append(_timex("".join(out), open_at, length, attrs, where, anomalies))
            open_at = None
    out.append(line[last:])
    text = "".join(out)
    if open_at is not None:
        anomalies.add("unclosed TIMEX3 (closed at the end of the line)", where)
        timexes.append(_timex(text, open_at, len(text), attrs, where, anomalies))
    return text, [t for t in timexes if t.end > t.start]


def _timex(
    text: str, start: int, end: int, attrs: Mapping[str, str], where: str, anomalies: Anomalies
) -> Timex:
    """A Timex trimmed to non-space characters (empty ones are counted)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end == start:
        anomalies.add("empty TIMEX3 (ignored)", where)
    return Timex(start, end, attrs.get("type", ""), attrs.get("value", ""))


def read_raw_lines(path: str | Path, anomalies: Anomalies | None = None) -> list[RawLine]:
    """The sentences of a ``*_timex.txt`` file (XML frame and blank lines left out)."""
    path = Path(path)
    anomalies = anomalies if anomalies is not None else Anomalies()
    text = path.read_text(encoding="utf-8-sig")
    all_lines = split_lines(text)
    content = [i for i, line in enumerate(all_lines) if line.strip() and not XML_FRAME.match(line)]
    first, last = (content[0], content[-1]) if content else (0, -1)
    lines: list[RawLine] = []
    for number, line in enumerate(all_lines, start=1):
        if XML_FRAME.match(line):
            continue
        if not line.strip():
            if first < number - 1 < last:
                anomalies.add("blank line inside the raw text (skipped)", f"{path.name}:{number}")
            continue
        tokenized, timexes = parse_timex_line(line, f"{path.name}:{number}", anomalies)
        if not tokenized.strip():
            anomalies.add("raw line with only tags (skipped)", f"{path.name}:{number}")
            continue
        _note_timexes(tokenized, timexes, anomalies)
        lines.append(RawLine(number, tokenized, tuple(timexes)))
    return lines


def _note_timexes(tokenized: str, timexes: Sequence[Timex], anomalies: Anomalies) -> None:
    for t in timexes:
        anomalies.note(f"raw: TIMEX3 {t.type or '(no type)'}")
        inside = (t.start > 0 and not tokenized[t.start - 1].isspace()) or (
            t.end < len(tokenized) and not tokenized[t.end].isspace()
        )
        if inside and t.type == "DATE":
            anomalies.note("raw: TIMEX3 DATE starting or ending inside a token (31</TIMEX3>.)")


def detokenize_raw_line(line: RawLine) -> tuple[str, list[Timex]]:
    """Natural text of a raw line, with its TIMEXes moved to the text's characters."""
    words = list(re.finditer(r"\S+", line.tokenized))
    text, offsets = detokenize([w.group() for w in words])
    starts = [w.start() for w in words]

    def moved(position: int) -> int:  # a non-space character of the tokenized line
        k = bisect_right(starts, position) - 1
        return offsets[k][0] + position - starts[k]

    timexes = [Timex(moved(t.start), moved(t.end - 1) + 1, t.type, t.value) for t in line.timexes]
    return text, timexes


RE_SIGNATURE_WORD = re.compile(
    r"^(?:Dr\.|Prof\.|von|van|der|de|zu|vom|[A-ZÄÖÜ]\.|"
    r"[A-ZÄÖÜ][a-zäöüßéèáàç]+(?:-[A-ZÄÖÜ][a-zäöüßéèáàç]+)*)$"
)


def is_signature_line(tokenized: str) -> bool:
    """A line that is one judge's name (``Gallner``, ``W. Reinfelder``, ``Dr. Fischer``)."""
    words = tokenized.split()
    return (
        1 <= len(words) <= 4
        and all(RE_SIGNATURE_WORD.match(w) for w in words)
        and any(len(w) > 2 and w[0].isupper() and not w.endswith(".") for w in words)
    )


def decision_ends(lines: Sequence[RawLine], min_signatures: int = 3) -> list[int]:
    """Line indices where a decision ends: after a block of judges' signature lines.

    BAG and BGH decisions end with the judges' names, one a line (``Kayser / Lohmann /
    Pape / Grupp / Möhring``); a run of at least ``min_signatures`` such lines is taken
    as the end of a decision (108 and 109 decisions, close to LER's ~107 per court).
    The other courts' texts have no such block: the result is empty for them.
    """
    ends, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and is_signature_line(lines[j].tokenized):
            j += 1
        if j - i >= min_signatures:
            ends.append(j)
        i = max(j, i + 1)
    return ends


def raw_documents(
    court: str, lines: Sequence[RawLine], sentences_per_document: int = 25
) -> list[Document]:
    """Raw lines of one court → documents (ids ``ler-raw-<court>-NNNNN``, domain = court).

    Decisions (see :func:`decision_ends`) where the court's text marks their ends, else
    chunks of ``sentences_per_document`` lines. Sentences are joined with ``\\n``;
    ``meta["timex_dates"]`` holds the ``[start, end]`` characters of TIMEX3 DATEs.
    """
    if sentences_per_document < 1:
        raise ValueError(f"sentences_per_document must be at least 1, got {sentences_per_document}")
    ends = decision_ends(lines)
    if ends:
        bounds = list(zip([0, *ends], [*ends, len(lines)], strict=True))
    else:
        bounds = [
            (i, min(i + sentences_per_document, len(lines)))
            for i in range(0, len(lines), sentences_per_document)
        ]
    docs = []
    for start, end in bounds:
        if end <= start:
            continue
        texts, dates, offset = [], [], 0
        for line in lines[start:end]:
            text, timexes = detokenize_raw_line(line)
            dates += [[offset + t.start, offset + t.end] for t in timexes if t.type == "DATE"]
            texts.append(text)
            offset += len(text) + 1
        doc_id = f"ler-raw-{court}-{len(docs) + 1:05d}"
        docs.append(Document(doc_id, "\n".join(texts), [], court, {"timex_dates": dates}))
    return docs


def court_of(path: str | Path) -> str:
    """``raw/bgh_timex.txt`` → ``bgh``."""
    return Path(path).stem.removesuffix("_timex")


def raw_files(raw_dir: str | Path) -> list[Path]:
    """The ``*_timex.txt`` files of a folder, sorted by court."""
    return sorted(Path(raw_dir).glob("*_timex.txt"))


def read_raw_timex(
    path: str | Path, sentences_per_document: int = 25, anomalies: Anomalies | None = None
) -> list[Document]:
    """One ``<court>_timex.txt`` file → documents (see :func:`raw_documents`)."""
    return raw_documents(court_of(path), read_raw_lines(path, anomalies), sentences_per_document)


def save_raw_jsonl(docs: Iterable[Document], path: str | Path) -> None:
    """Write raw documents as decisions: ``{"id", "domain", "text", "timex_dates"}``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for doc in docs:
            row = {
                "id": doc.id,
                "domain": doc.domain,
                "text": doc.text,
                "timex_dates": doc.meta.get("timex_dates", []),
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
