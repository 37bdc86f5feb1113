"""Dates and times: a date of the proceedings is ``date-world``, of the facts ``date-fact``;
dates of laws, of cited decisions and numbered references are none."""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import (
    CITING_COURT_BEFORE,
    DOCKET_AFTER,
    in_citation,
    rubrum_heading,
)
from hf_anon.model.recognizers.dockets import find_dockets
from hf_anon.text.data import Span
from hf_anon.text.tables import MONTH_ABBREVIATIONS, MONTHS, SEASONS

_MONTH = "|".join(MONTHS)
_MONTH_ABBR = "|".join(re.escape(m) for m in MONTH_ABBREVIATIONS)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR = r"(?:19|20)\d{2}"
_TIME = r"(?:(?:[01]?\d|2[0-3])[.:][0-5]\d|(?:[01]?\d|2[0-3]))\s?Uhr"
DATE_RE = re.compile(
    rf"(?<![\w.,/-])(?:"
    rf"{_DAY}\.\s?(?:0?[1-9]|1[0-2])\.\s?(?:{_YEAR}|\d{{2}}(?![\d.]))"  # 12.03.2021, 1.3.21
    # 1. März 2021, 5./6. Juni 2020, März 2019
    rf"|(?:{_DAY}\.\s?(?:/\s?{_DAY}\.\s?)?)?(?:{_MONTH}|{_MONTH_ABBR})\s{{1,2}}{_YEAR}"
    rf"|{_DAY}\.\s?(?:{_MONTH})(?=\s+(?:d\.\s?J\.|dieses|des|letzten|vergangenen))"
    rf"|(?:{'|'.join(SEASONS)})\s{_YEAR}"
    rf")(?:,?\s{_TIME})?(?![\w/])"
)
TIME_RE = re.compile(rf"(?<![\w.,:])(?:ca\.\s)?{_TIME}(?!\w)")
_NUMERIC_DATE_REFERENCE = re.compile(r"(?:Nr|Ziff|Rn|Rdnr|Nummer|Tz|Punkt|Abschnitt|Anlage)\.?\s*$")


LEGAL_DATE_CONTEXT = re.compile(
    r"(?i:gesetz)|Fassung|Inkrafttreten|in Kraft|Stichtag|Übergangs|Rechtslage|geltend|"
    r"[Nn]eufassung|"
    r"Änderung de[rs] \w+(?:gesetz|verordnung|ordnung)|Verordnung|Richtlinie|Bekanntmachung"
)


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]`` (to the nearest ``. ``, line break)."""
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    rights = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
    return text[left : min(rights) if rights else len(text)]


WORLD_BEFORE = re.compile(
    r"(?:\b(?:Urteil|Beschluss|Gerichtsbescheid|Klage|Antrag|Hilfsantrag|Eilantrag|Schriftsatz|"
    r"Berufung|Beschwerde|Revision|Termin|Verhandlung|Sitzung|Vergleich|Ladung|Anhörungsrüge|"
    r"Endurteil|Teilurteil|Versäumnisurteil|Vorlageschreiben|Protokoll|Niederschrift)\w*"
    r"\b[^.;\n]{0,60}\s(?:vom|am|v\.)"
    r"|\w*schriftsatz\w*\s+vom"
    r"|(?:gericht|gerichts|hof|hofs|Kammer|Senat|Senats|AG|LG|OLG|VG|OVG|VGH|SG|LSG|LAG|ArbG|FG)"
    r"(?:\s+[A-ZÄÖÜ][\w-]+){0,4}\s+(?:vom|am)"
    r"|Datum:|verkündet\s+am|eingegangen\s+am|zugestellt\s+am)\s*$"
)
WORLD_AFTER = re.compile(
    r"^[^.;\n]{0,40}?\b(?:erhoben|eingelegt|begründet|eingegangen|zugestellt|verkündet|"
    r"beim\s+\w*gericht|bei\s+Gericht|beim\s+(?:AG|LG|OLG|VG|OVG|SG|LSG|LAG|ArbG|FG)\b|"
    r"mündlich\s+verhandelt|beschlossen|für\s+Recht\s+erkannt)"
)


def _date_label(text: str, start: int, end: int | None = None) -> tuple[str, str]:
    """date-world for the proceedings (``Urteil vom``, ``am … Klage erhoben``, the date of
    the decision in its rubrum), else date-fact (authorities' letters and orders included)."""
    before = text[max(0, start - 100) : start]
    heading = rubrum_heading(text)
    if (
        heading is not None
        and start < heading
        and not re.search(r"geb(?:oren|\.)\s*(?:am)?\s*$", before)
    ):
        return "date-world", "low"
    if WORLD_BEFORE.search(before):
        return "date-world", "low"
    if end is not None and WORLD_AFTER.match(text[end : end + 80]):
        return "date-world", "low"
    return "date-fact", "medium"


def find_dates(text: str) -> list[Span]:
    """Dates (numeric, with month names, month-year, seasons), with an attached time; the
    decision's date in its own link (:func:`find_link_dates`)."""
    own = {text[s.start : s.end] for s in find_dockets(text)}
    out = []
    for m in DATE_RE.finditer(text):
        start, end = m.span()
        if _NUMERIC_DATE_REFERENCE.search(text[max(0, start - 12) : start]):
            continue
        if in_citation(text, start, end) or CITING_COURT_BEFORE.search(
            text[max(0, start - 40) : start]
        ):
            continue  # `BAG 17.05.2011 – 1 AZR 473/09`, `LAG München 28.08.2007`
        if (
            LEGAL_DATE_CONTEXT.search(_sentence(text, start, end))
            and _date_label(text, start, end)[0] != "date-world"
        ):
            continue  # `in der bis zum 31.03.2024 geltenden Fassung`: a date of the law
        docket = DOCKET_AFTER.match(text[end : end + 40])
        if docket and not any(d in text[end : end + 40] for d in own):
            continue  # `vom 24.9.1998 – 5 A 2886/95`: another decision
        label, risk = _date_label(text, start, end)
        out.append(rule_span(start, end, label, risk))
    return sorted(out + find_link_dates(text), key=lambda s: s.start)


# `…/1_K_592_08urteil20080811`: the decision's date in the link of a print header
# (justiz.nrw.de)
LINK_DATE_RE = re.compile(r"(?:(?<=[Uu]rteil)|(?<=[Bb]eschluss))(?:19|20)\d{5,6}(?!\d)")


def find_link_dates(text: str) -> list[Span]:
    """The date of the decision in its own link (``…/1_K_592_08urteil20080811``)."""
    return [rule_span(*m.span(), "date-world", "low") for m in LINK_DATE_RE.finditer(text)]


def find_times(text: str) -> list[Span]:
    """Times of day (``14:30 Uhr``, ``16.15 Uhr``, ``9 Uhr``) of the facts."""
    return [rule_span(*m.span(), "date-fact", "medium") for m in TIME_RE.finditer(text)]
