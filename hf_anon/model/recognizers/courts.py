"""Court names with a place or a federal or state identity (``Amtsgericht Fürth``,
``OVG NRW``, ``Bayerischer Verwaltungsgerichtshof``), outside citations."""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import header_end, in_citation
from hf_anon.text.data import Span
from hf_anon.text.tables import (
    COURT_ABBREVIATIONS,
    COURT_TYPES,
    FEDERAL_COURTS,
    STATE_ADJECTIVES,
)

_PLACE_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"
_RIVERS = (
    r"am\sMain|an\sder\sOder|im\sBreisgau|an\sder\sRuhr|an\sder\sWeinstraße|in\sder\sOberpfalz|"
    r"an\sder\sDonau|am\sRhein|an\sder\sSaale|an\sder\sHavel|am\sLech|an\sder\sIlm|an\sder\sLahn|"
    r"am\sInn|an\sder\sAisch|in\sHolstein|ob\sder\sTauber|vor\sder\sHöhe"
)
_PLACE = (
    rf"(?:{_PLACE_WORD}(?:\s(?:{_RIVERS}))?"
    r"|des\sSaarlandes|des\sLandes\s[A-ZÄÖÜ][\w-]+|für\sdas\sLand\s[A-ZÄÖÜ][\w-]+"
    r"|NRW|LSA|M-V|MV|SH|RP)"
)
_COURT_TYPE = "|".join(COURT_TYPES)
COURT_RE = re.compile(
    rf"(?<![\w-])(?:"
    rf"(?:(?:{'|'.join(STATE_ADJECTIVES)})\s)?(?:{_COURT_TYPE})(?:e?s)?"
    rf"(?: [-–] [A-ZÄÖÜ][a-zäöüß]+gericht [-–])? {_PLACE}"  # Amtsgericht – Insolvenzgericht – Hof
    rf"|(?:{'|'.join(STATE_ADJECTIVES)})\s(?:{_COURT_TYPE}|Oberstes\sLandesgericht|Landessozialgericht)(?:e?s)?"
    rf"|(?:{'|'.join(COURT_ABBREVIATIONS)})\s{_PLACE}"
    rf"|(?:{'|'.join(FEDERAL_COURTS)})"
    rf"|Kammergerichts?"
    rf")(?![\w/-])"
)
NOT_PLACES = frozenset(
    [
        "Der",
        "Die",
        "Das",
        "Dem",
        "Den",
        "Des",
        "Und",
        "Oder",
        "Vom",
        "Im",
        "Am",
        "In",
        "Zur",
        "Zum",
        "Mit",
        "Nach",
        "Bei",
        "Auf",
        "Für",
        "Gegen",
        "Gemäß",
        "Beschluss",
        "Urteil",
        "Gründe",
        "Tenor",
        "Az",
        "Aktenzeichen",
        "Vorsitzende",
        "Vorsitzender",
        "Richter",
        "Richterin",
        "Hinweis",
        "Hinweise",
        "Beschwerde",
        "Berufung",
        "Revision",
        "Rechtsmittelbelehrung",
        "Sache",
    ]
)


#: A judge's or president's title before a court: ``Richter am Bundesverwaltungsgericht``
TITLE_BEFORE = re.compile(
    r"(?:Richter(?:in)?|Präsident(?:in|en)?|Direktor(?:in|en)?)\s+(?:am|des|der)\s*$"
)


def in_title(text: str, start: int) -> bool:
    """Whether a court named at ``start`` is part of an official title (``Richter am
    Bundesverwaltungsgericht Sailer``): it names the judge's office, not this case's
    court."""
    return TITLE_BEFORE.search(text[max(0, start - 30) : start]) is not None


def find_courts(text: str) -> list[Span]:
    """Court names with a place or a federal/state identity, outside citations.

    Federal courts count only in the rubrum: in running text they are nearly always
    cited (``BVerwG, Urteil vom …``), rarely this case's court.
    """
    header = header_end(text)
    out = []
    for m in COURT_RE.finditer(text):
        start, end = m.span()
        value = m.group(0)
        last = value.split()[-1]
        if last in NOT_PLACES and value.split()[0] in STATE_ADJECTIVES and len(value.split()) > 2:
            end = start + value.rfind(" ")  # `Bayerischer Verwaltungsgerichtshof In …`
            value, last = text[start:end], value.split()[-2]
        if last in NOT_PLACES or re.search(r"(?:straße|platz|weg|allee|ring|gasse)$", last, re.I):
            continue
        if in_title(text, start):
            continue  # `Richter am Bundesverwaltungsgericht Sailer`: part of a title
        if re.search(r"[Rr]echtsprechung\s+(?:des|der)\s*$", text[max(0, start - 30) : start]):
            continue  # `die Rechtsprechung des OVG NRW`: case law, not this case
        federal = value in FEDERAL_COURTS or value.rstrip("s") in FEDERAL_COURTS
        if federal and start >= header:
            continue
        if value.startswith(("AG ", "SG ", "FG ")) and last in ("Nr", "Nr."):
            continue
        after = text[end : end + 60]
        if re.match(
            r"^\s*[,(]\s*(?:Urt|Beschl|B\.|U\.|Urteil|Beschluss|Gerichtsbescheid|v\.)", after
        ):
            continue  # `OVG Münster, Beschluss vom …`: a citation
        if re.match(
            r"^[\s,]*(?:[A-Z][A-Za-z/-]{1,10}\s(?:\d{4}|\d{1,3}),\s*\d|\d{1,2}\.\d{1,2}\.\d{2,4}\s*[-–]|\s*[-–]\s*\d)",
            after,
        ):
            continue  # `OLG Celle, NStZ 2013, 360`, `LAG München 28.08.2007 – 5 Sa 735/07`
        if in_citation(text, start, end):
            continue
        out.append(rule_span(start, end, "court-name", "low"))
    return out
