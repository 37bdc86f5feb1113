"""Real published Japanese precedents → training documents (issue #17).

Japanese courts publish precedents with the names already replaced (``Ａ``, ``ａ町ｂ番``,
``甲``), but they leave other things the guide (``data/ja/GUIDE.md``) marks in clear
text: dates, courts, dockets, the names of judges, prosecutors and defence counsel. Used
as they are, a model would learn that those are not sensitive. So each precedent gets:

1. its hard line breaks undone (:func:`unwrap_lines`: the texts come from PDFs wrapped
   at a fixed width, which cuts names and dates in two);
2. its placeholders (:func:`~hf_anon.corpora.japanese.placeholders.find_japanese_placeholders`);
3. silver spans for what courts leave in clear text (:func:`silver_spans`): era dates,
   courts, dockets, jurists' names after their titles, ages;

and is then pseudonymized (:func:`~hf_anon.corpora.japanese.surrogates.pseudonymize_japanese`),
which turns every placeholder into a realistic value with a gold span on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hf_anon.corpora.japanese.placeholders import UNKNOWN, find_japanese_placeholders
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.languages import NAME_KANJI, find_japanese_dates

_NUM = "0-9０-９一二三四五六七八九十〇元"
_KANJI = NAME_KANJI

RE_DOCKET = re.compile(
    rf"(?:昭和|平成|令和)[{_NUM}]+年[（(][^）)\n]{{1,5}}[）)]第?[{_NUM}]+号(?:の[{_NUM}]+)?"
)
RE_COURT = re.compile(
    rf"(?:最高裁判所|[{_KANJI}]{{1,6}}(?:地方|高等|家庭|簡易)裁判所(?:[{_KANJI}]{{1,4}}支部)?)"
)
RE_AGE = re.compile(rf"(?<=当時)[{_NUM}]{{1,3}}歳")
_JURIST_TITLES = (
    "裁判長裁判官|裁判官|主任弁護人|弁護人|弁護士|検察官|裁判所書記官|書記官|判事|判事補"
)
_NAME_END = r"(?=[、，。及並各\s（(]|出席|$)"
RE_JURIST = re.compile(
    rf"(?:{_JURIST_TITLES})[ 　]*([{_KANJI}]{{2,5}}(?:[ 　][{_KANJI}]{{1,3}})?){_NAME_END}"
)
RE_SAME_JURIST = re.compile(rf"(?:、|及び|並びに)同([{_KANJI}]{{2,5}}){_NAME_END}")
_HEADING = re.compile(
    rf"^(?:第[{_NUM}]+|[（(][{_NUM}]+[）)]|[{_NUM}]+[ 　]|[アイウエオカキクケコ][ 　]|⑴|⑵|⑶)"
)


def unwrap_lines(text: str, width: int = 30) -> str:
    """Join lines that a PDF wrapped at a fixed width: a line of at least ``width``
    characters that does not end a sentence continues on the next one, unless that one
    starts a heading (``第２``, ``（１）``, ``ア``). Tags such as ``<要旨>`` go."""
    text = re.sub(r"</?要旨>", "", text)
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if (
            out
            and len(out[-1]) >= width
            and not out[-1].endswith(("。", "」", "）"))
            and not _HEADING.match(line)
            and line.strip()
        ):
            out[-1] += line
        else:
            out.append(line)
    return "\n".join(out)


def silver_spans(text: str) -> list[Span]:
    """What courts leave in clear text, by rule: dockets, era and relative dates
    (:func:`hf_anon.text.languages.find_japanese_dates`), courts, jurists' names after
    their titles (``検察官村岡崇央、同坂哉萌``), ages (``当時８７歳``)."""
    found: list[Span] = []
    for m in RE_DOCKET.finditer(text):
        found.append(Span(m.start(), m.end(), "court-docket"))
    # era and relative dates (同年８月１４日), births as nat-idx: the grammar of ja-dates
    found += [Span(s.start, s.end, s.label) for s in find_japanese_dates(text)]
    for m in RE_COURT.finditer(text):
        found.append(Span(m.start(), m.end(), "court-name"))
    for m in RE_AGE.finditer(text):
        found.append(Span(m.start(), m.end(), "nat-idx"))
    for m in RE_JURIST.finditer(text):
        found.append(Span(m.start(1), m.end(1), "nat-jur"))
        cursor = m.end(1)
        while (same := RE_SAME_JURIST.match(text, cursor)) is not None:
            found.append(Span(same.start(1), same.end(1), "nat-jur"))
            cursor = same.end(1)
    return _first_wins(found)


def _first_wins(spans: Iterable[Span]) -> list[Span]:
    """Spans without overlaps: earlier in the list wins, the result sorted."""
    kept: list[Span] = []
    for span in spans:
        if all(span.end <= k.start or k.end <= span.start for k in kept):
            kept.append(span)
    return sorted(kept, key=lambda s: s.start)


def precedent_document(row: dict) -> Document:
    """A published precedent (``id``, ``text``) as a document whose spans are its
    placeholders (label from context; ``unknown`` → ``nat-name``) and the silver spans,
    placeholders first; ready for :func:`pseudonymize_japanese`."""
    text = unwrap_lines(row["text"])
    placeholders = [
        Span(p.start, p.end, "nat-name" if p.label == UNKNOWN else p.label)
        for p in find_japanese_placeholders(text)
    ]
    spans = _first_wins([*placeholders, *silver_spans(text)])
    spans = [Span(s.start, s.end, s.label, DEFAULT_LABELS[s.label].risk) for s in spans]
    meta = {k: v for k, v in row.items() if k not in {"id", "text"}}
    return Document(row["id"], text, spans, "ja-precedent", meta)
