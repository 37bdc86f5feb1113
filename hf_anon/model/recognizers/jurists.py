"""Names of judges, clerks and lawyers: after a judicial or legal-profession title, and in
the signature block at the end of a decision."""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import in_citation
from hf_anon.text.data import Span
from hf_anon.text.tables import ACADEMIC, JUDICIAL_TITLES, NOT_NAMES

_SURNAME = r"(?:(?:von|van|de|zu|von der|von den|vom) )?[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?"
JURIST_RE = re.compile(
    rf"(?<![\w-])(?:{JUDICIAL_TITLES})[ ]{ACADEMIC}"
    rf"(?P<name>(?:[A-ZÄÖÜ]\. ?)?{_SURNAME}(?: {_SURNAME})?)"
)


def _trim_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    words = list(re.finditer(r"\S+", text[start:end]))
    kept = []
    for w in words:
        token = w.group(0)
        if token.rstrip(".,") in NOT_NAMES:
            break
        kept.append(w)
    if not kept:
        return None
    # a second capitalised word followed by lower case is often a noun (`Müller Klage`)
    if len(kept) == 2:
        after = text[start + kept[1].end() : start + kept[1].end() + 2]
        if after[:1] == " " and after[1:2].isupper():
            kept = kept[:1]
    return start + kept[0].start(), start + kept[-1].end()


def find_jurists(text: str) -> list[Span]:
    """Names right after a judicial or legal-profession title (``Richterin am AG Schulz``),
    with further names joined by ``und`` or commas (``die Richter am BVerwG Krauß und
    Guttenberger``)."""
    out, pos = [], 0
    while (m := JURIST_RE.search(text, pos)) is not None:
        bounds = _trim_name(text, m.start("name"), m.end("name"))
        pos = bounds[1] if bounds else m.end()
        if bounds is None or in_citation(text, *bounds):
            continue
        title = text[m.start() : m.start("name")]
        if re.fullmatch(r"Richter(?:in)?\s+", title) and not re.search(
            r"\b(?:durch|den|die|der|des|dem|von|vom|sowie|und|gez\.?)\s*$",
            text[max(0, m.start() - 12) : m.start()],
        ):
            continue  # `als Richter Einsicht`: `Richter` is also a word and a surname
        out.append(rule_span(*bounds, "nat-jur", "medium"))
        while (more := JOINED_NAME.match(text, pos)) is not None:
            joined = _trim_name(text, more.start("name"), more.end("name"))
            if joined is None:
                break
            out.append(rule_span(*joined, "nat-jur", "medium"))
            pos = joined[1]
    return out


JOINED_NAME = re.compile(
    rf"(?:,| und| sowie) {ACADEMIC}(?P<name>(?:[A-ZÄÖÜ]\. ?)?{_SURNAME})(?=[\s,.;:])"
)
_SIGNATURE_TOKEN = re.compile(rf"(?:{ACADEMIC})?(?:[A-ZÄÖÜ]\. ?)?{_SURNAME}")
SIGNATURE_END = re.compile(r"Rechtsmittelbelehrung|Ausgefertigt|Beglaubigt|Hinweis|Vorinstanz")
HEADINGS = frozenset(
    [
        "Gründe",
        "Tenor",
        "Tatbestand",
        "Entscheidungsgründe",
        "Rechtsmittelbelehrung",
        "Ausgefertigt",
        "Beglaubigt",
        "Beschluss",
        "Urteil",
        "Leitsatz",
        "Leitsätze",
        "Hinweis",
        "Hinweise",
        "Vorinstanz",
        "Vorinstanzen",
        "Sonstiger",
        "Langtext",
        "Kurztext",
        "Orientierungssatz",
        "Fundstellen",
        "Norm",
        "Normen",
        "Schlagworte",
        "Verfahrensgang",
    ]
)


def find_signatures(text: str, tail: int = 1500) -> list[Span]:
    """Judges' names in the signature block at the end (``Sailer Krauß Guttenberger``,
    one name a line, ``gez.: Sauer Rech Engel``): lines of names only, two or more names
    in all, within the last ``tail`` characters or right before the instructions on appeal."""
    cut = max(0, len(text) - tail)
    lines = []
    for m in re.finditer(r"[^\n]+", text):
        if m.end() < cut and not SIGNATURE_END.match(text[m.end() : m.end() + 40].lstrip()):
            continue
        line = m.group(0)
        body_start = m.start() + (len(line) - len(line.lstrip()))
        body = line.strip()
        if body.lower().startswith("gez."):
            skip = len(re.match(r"gez\.:?\s*", body, re.IGNORECASE).group(0))
            body_start += skip
            body = body[skip:]
        if not body or len(body) > 90:
            continue
        names, at = [], 0
        while at < len(body):
            tok = _SIGNATURE_TOKEN.match(body, at)
            if tok is None:
                break
            name_start = at + len(re.match(ACADEMIC, body[at:]).group(0))
            if name_start >= tok.end():
                break  # `Dr.` alone: no name follows
            word = body[name_start : tok.end()].split()[-1]
            if word in NOT_NAMES or word in HEADINGS:
                break
            names.append((body_start + name_start, body_start + tok.end()))
            at = tok.end()
            at += len(body[at:]) - len(body[at:].lstrip(" ,"))
        if names and at >= len(body):
            lines.append((m.start(), names))
    # a block: one line with two or more names, or two or more lines in a row
    out = []
    for k, (start, names) in enumerate(lines):
        neighbour = any(
            abs(j_start - start) < 200 and j != k for j, (j_start, _) in enumerate(lines)
        )
        if len(names) >= 2 or neighbour:
            out += [rule_span(a, b, "nat-jur", "medium") for a, b in names]
    return out
