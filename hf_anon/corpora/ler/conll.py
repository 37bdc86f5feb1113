"""Reading LER's CoNLL files: sentences, mentions, and every anomaly met on the way."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

LER_CLASSES: tuple[str, ...] = (
    "PER", "RR", "AN", "LD", "ST", "STR", "LDS", "ORG", "UN", "INN",
    "GRT", "MRK", "GS", "VO", "EUN", "VS", "VT", "RS", "LIT",
)  # fmt: skip


# --- anomalies ------------------------------------------------------------------------


@dataclass
class Anomalies:
    """Counts of everything unusual met while reading, with a few examples each.

    ``counts`` are problems that were repaired or skipped; ``notes`` are quirks of the
    data that needed no repair but are worth knowing (CRLF line ends, very long
    sentences, TIMEX3 tags inside tokens).
    """

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    notes: Counter = field(default_factory=Counter)
    max_examples: int = 3

    def note(self, kind: str, n: int = 1) -> None:
        self.notes[kind] += n

    def add(self, kind: str, example: str = "", n: int = 1) -> None:
        self.counts[kind] += n
        if example:
            shown = self.examples.setdefault(kind, [])
            if len(shown) < self.max_examples:
                shown.append(example)

    def update(self, other: Anomalies) -> None:
        self.notes.update(other.notes)
        for kind, n in other.counts.items():
            self.counts[kind] += n
            for example in other.examples.get(kind, []):
                shown = self.examples.setdefault(kind, [])
                if len(shown) < self.max_examples:
                    shown.append(example)

    def __bool__(self) -> bool:
        return bool(self.counts)

    def format(self) -> str:
        lines = ["anomalies (repaired or skipped):" if self.counts else "anomalies: none"]
        for kind, n in sorted(self.counts.items()):
            shown = "; ".join(self.examples.get(kind, []))
            lines.append(f"  {n:9,}  {kind}" + (f"   e.g. {shown}" if shown else ""))
        if self.notes:
            lines.append("notes (quirks, nothing changed):")
            lines += [f"  {n:9,}  {kind}" for kind, n in sorted(self.notes.items())]
        return "\n".join(lines)


# --- reading CoNLL --------------------------------------------------------------------


@dataclass(frozen=True)
class Mention:
    """An entity mention in token positions ``[start, end)`` of one sentence."""

    ler_class: str
    start: int
    end: int


@dataclass
class LerSentence:
    """One CoNLL sentence: tokens, IOB2 tags, and where it came from.

    ``index`` is the sentence's position in its file (0-based), ``line`` the file line
    of its first token (1-based): enough to find it again.
    """

    tokens: list[str]
    tags: list[str]
    source: str = ""
    index: int = 0
    line: int = 0

    def mentions(self) -> list[Mention]:
        """Entity mentions from the IOB2 tags (tags are repaired on reading)."""
        found: list[Mention] = []
        start, cls = None, None
        for i, tag in enumerate([*self.tags, "O"]):
            if start is not None and (tag == "O" or tag.startswith("B-") or tag[2:] != cls):
                found.append(Mention(cls, start, i))
                start, cls = None, None
            if tag.startswith("B-") or (tag.startswith("I-") and start is None):
                start, cls = i, tag[2:]
        return found


RE_TAG = re.compile(r"[BIESU]-(?:" + "|".join(LER_CLASSES) + ")", re.IGNORECASE)


def _repair_tag(tag: str, previous: str, where: str, anomalies: Anomalies) -> str:
    """An IOB2 tag of a known class; odd ones repaired (and counted), unknown ones O."""
    if tag == "O":
        return tag
    prefix, _, cls = tag.partition("-")
    if not cls:
        anomalies.add("tag without class (tagged O)", f"{where}: {tag!r}")
        return "O"
    if prefix.upper() in {"S", "U", "E", "L"}:
        anomalies.add("IOBES prefix (converted to IOB2)", f"{where}: {tag!r}")
        prefix = "B" if prefix.upper() in {"S", "U"} else "I"
    if f"{prefix}-{cls}" != f"{prefix}-{cls}".upper() and cls.upper() in LER_CLASSES:
        anomalies.add("lower-case tag (upper-cased)", f"{where}: {tag!r}")
        prefix, cls = prefix.upper(), cls.upper()
    if prefix not in {"B", "I"} or cls not in LER_CLASSES:
        anomalies.add(f"unknown tag {tag!r} (tagged O)", where)
        return "O"
    if prefix == "I" and previous[2:] != cls:
        anomalies.add("I- without B- (repaired to B-)", f"{where}: {tag}")
        prefix = "B"
    return f"{prefix}-{cls}"


def split_lines(text: str) -> list[str]:
    """Split at LF, CRLF or CR only (``str.splitlines`` also splits at U+2028 and others)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _parse_conll_line(
    line: str, where: str, previous: str, anomalies: Anomalies
) -> list[tuple[str, str]]:
    """``token TAG`` → ``[(token, tag)]``; more fields become several tokens."""
    fields = line.split()
    if len(fields) == 1:
        if fields[0] == "O" or RE_TAG.fullmatch(fields[0]):
            anomalies.add("line with a tag and no token (skipped)", where)
            return []
        anomalies.add("line with a token and no tag (tagged O)", f"{where}: {line!r}")
        return [(fields[0], "O")]
    *tokens, tag = fields
    if len(tokens) > 1:
        anomalies.add("line with more than two fields (split into tokens)", f"{where}: {line!r}")
    tag = _repair_tag(tag, previous, where, anomalies)
    inside = "O" if tag == "O" else f"I-{tag[2:]}"
    return [(token, tag if i == 0 else inside) for i, token in enumerate(tokens)]


def read_conll(
    path: str | Path, anomalies: Anomalies | None = None
) -> tuple[list[LerSentence], Anomalies]:
    """Read a LER CoNLL file into sentences; return them with what was unusual.

    Handles CRLF line ends and a byte order mark, skips ``-DOCSTART-`` lines, repairs
    tags (see :func:`_repair_tag`). Every repair is counted in the returned
    :class:`Anomalies` (a fresh one unless ``anomalies`` is given).
    """
    path = Path(path)
    anomalies = anomalies if anomalies is not None else Anomalies()
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        anomalies.add("byte order mark (removed)", path.name)
        raw = raw[3:]
    text = raw.decode("utf-8")
    if "\r\n" in text:
        anomalies.note(f"{path.name}: CRLF line ends (read as LF)", text.count("\r\n"))
    sentences: list[LerSentence] = []
    tokens: list[str] = []
    tags: list[str] = []
    first_line = 0

    def close() -> None:
        nonlocal tokens, tags
        if tokens:
            sentences.append(LerSentence(tokens, tags, path.name, len(sentences), first_line))
        tokens, tags = [], []

    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            close()
            continue
        if line.split()[0] == "-DOCSTART-":
            anomalies.add("-DOCSTART- line (skipped)", f"{path.name}:{number}")
            close()
            continue
        if not tokens:
            first_line = number
        for token, tag in _parse_conll_line(
            line, f"{path.name}:{number}", tags[-1] if tags else "O", anomalies
        ):
            tokens.append(token)
            tags.append(tag)
    close()
    _note_sentence_shapes(path.name, sentences, anomalies)
    return sentences, anomalies


def _note_sentence_shapes(
    name: str, sentences: Sequence[LerSentence], anomalies: Anomalies
) -> None:
    lengths = [len(s.tokens) for s in sentences]
    anomalies.note(f"{name}: sentences", len(sentences))
    anomalies.note(f"{name}: one-token sentences", lengths.count(1))
    anomalies.note(f"{name}: sentences over 200 tokens", sum(n > 200 for n in lengths))
    anomalies.note(f"{name}: tokens in the longest sentence", max(lengths, default=0))
