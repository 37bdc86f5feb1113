"""Identifiers in the forms an unpublished original writes them, measured in session 52 on
passages of such originals (``data/identifiers``): phone numbers however Germans write them,
any number after a word that names it one, pension insurance numbers by their shape.

:mod:`hf_anon.model.recognizers.identifiers` holds the first rules of this kind (phones after
five cue words, contract numbers after a list of cues); the rules here reach further, each as
a family of its own, so that each is switched on only where it earns its place
(``benchmarks/rules_cv.py``).
"""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.text.data import Span

#: A phone number as Germans write it (DIN 5008 and the older ways): a country code, with
#: ``(0)`` or not (``+49 (0)2241 / 38 77-0``, ``0049 89 …``), or a trunk ``0``; the area code
#: bare or in parentheses (``(030) 4 56 78 90``); groups parted by spaces, ``/`` or ``-``.
PHONE_SHAPE = (
    r"(?:(?:\+|00)\d{1,3}\s?(?:\(0\)\s?)?\(?\d{1,5}\)?|\(0\d{1,5}\)|0\d{1,5})"
    r"(?:\s?[/-]?\s?\d{1,8}){1,5}"
)
#: After a cue (``Tel.-Nr.:``, ``Durchwahl``, ``unter der Nummer``), or international without.
PHONE_FORMS_RE = re.compile(
    r"(?:(?:Tel(?:efon)?\.?(?:-?[Nn]r\.)?|Fax(?:-?[Nn]r\.)?|Mobil|Handy|Rufnummer|Telefonnummer"
    r"|Faxnummer|Mobilnummer|Handynummer|Durchwahl|Hotline|Nummer)\s*:?\s*"
    rf"(?P<number>{PHONE_SHAPE})"
    r"|(?<![\w+])(?P<international>\+\d{1,3}\s?(?:\(0\)\s?)?\(?\d{1,5}\)?"
    r"(?:\s?[/-]?\s?\d{1,8}){1,5}))"
)
#: A word that names what follows as a number (``Kindergeld-Nr.``, ``BG-Nummer``,
#: ``Sendungsnummer``, ``Transaktions-ID``, ``KD-NR.``, ``Steuer-IdNr.``): a compound ending in
#: *nummer*, *-Nr.*, *-ID* or *kennung*, never the bare ``Nr.`` of a statute.
NAMING_CUE_RE = re.compile(
    r"(?<![\w.-])(?P<cue>[A-Za-zÄÖÜäöüß][\w.\-]*?"
    r"(?:nummer|Nummer|NUMMER|[Nn]r\.|NR\.|-?I[Dd]|kennung))"
    r"(?![\w])\s*(?::\s*)?#?"
)
#: The number itself: groups with a digit (``118FK302447``, ``4e2a91f0…``), an upper-case
#: prefix or letter between them (``RB 6048 1173 7DE``, ``65 280773 S 519``), parted by a space,
#: ``/``, ``//``, ``.`` or ``-``.
NAMED_NUMBER_RE = re.compile(
    r"(?:[A-Z]{1,4}[\s-]?(?=\d))?[A-Za-z0-9]*\d[A-Za-z0-9]*"
    r"(?:(?:\s|\s?[/.\-]{1,2}\s?)"
    r"(?:[A-Z]{1,4}(?=\s?[/.\-]?\s?\d)|[A-Za-z0-9]*\d[A-Za-z0-9]*)){0,6}"
)
#: Cue words that name no identifier of a person: margin, house, page and list numbers, and
#: the numbers of printed papers and tariffs.
NOT_IDENTIFIER_CUES = (
    "randnummer",
    "hausnummer",
    "seitennummer",
    "ordnungsnummer",
    "listennummer",
    "gliederungsnummer",
    "drucksachennummer",
    "drucksachen-nr.",
    "tarifnummer",
    "kennziffer",
)
#: Cue words of file references: what follows is a docket, not an identifier.
DOCKET_CUES = ("aktennummer", "geschäftsnummer", "vorgangsnummer", "tagebuchnummer", "tgb.-nr.")
#: A German pension insurance number (SGB VI § 147): area, birth date, initial, serial and
#: check digit, ``12 150385 M 013``; the date part must be a date.
INSURANCE_NUMBER_RE = re.compile(
    r"(?<![\w-])\d{2}\s?(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{2}\s?[A-Z]\s?\d{3}(?![\w-])"
)


def find_phone_forms(text: str) -> list[Span]:
    """Phone numbers after their cue, and international ones (``+1 (762) 418-3095``) without
    one: 6 to 15 digits, as the ITU allows."""
    out = []
    for m in PHONE_FORMS_RE.finditer(text):
        group = "number" if m.group("number") else "international"
        start, end = m.span(group)
        if 6 <= sum(c.isdigit() for c in text[start:end]) <= 15:
            out.append(rule_span(start, end, "id-number", "high"))
    return out


def find_named_numbers(text: str) -> list[Span]:
    """Numbers after any word that names them (:data:`NAMING_CUE_RE`), four digits at least:
    what ``numbers`` finds after its list of cues, for every cue. A file reference's cue gives
    a ``court-docket``, every other an ``id-number``."""
    out = []
    for cue in NAMING_CUE_RE.finditer(text):
        word = cue.group("cue").lower()
        if word.endswith(NOT_IDENTIFIER_CUES):
            continue
        number = NAMED_NUMBER_RE.match(text, cue.end())
        if number is None or sum(c.isdigit() for c in number.group(0)) < 4:
            continue
        if word.endswith(DOCKET_CUES):
            out.append(rule_span(*number.span(), "court-docket", "medium"))
        else:
            out.append(rule_span(*number.span(), "id-number", "high"))
    return out


def find_insurance_numbers(text: str) -> list[Span]:
    """Pension insurance numbers by their shape (:data:`INSURANCE_NUMBER_RE`), cue or none."""
    return [rule_span(*m.span(), "id-number", "high") for m in INSURANCE_NUMBER_RE.finditer(text)]
