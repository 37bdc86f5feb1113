"""Identifiers with a fixed shape: IBANs (checksum), e-mail addresses, register numbers,
phone numbers and contract numbers after their cue, licence plates."""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import in_citation
from hf_anon.text.data import Span

IBAN_RE = re.compile(
    r"(?<![A-Z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,3})?(?![A-Z0-9])"
)
EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w-])")
REGISTER_RE = re.compile(r"(?<!\w)(?:HRB|HRA|GnR|VR|PR)\s?\d{2,6}(?:\s?[A-Z]{1,2}\b)?")
PHONE_RE = re.compile(
    r"(?:Tel(?:efon)?\.?|Fax|Mobil|Handy|Rufnummer|Telefonnummer)\s*:?\s*"
    r"(?P<number>(?:\+49\s?|0)\d{2,5}(?:[\s/-]?\d{2,}){1,4})"
)
PLATE_RE = re.compile(
    r"(?<![\w-])[A-ZÄÖÜ]{1,3}-[A-Z]{1,2}\s?[1-9]\d{0,3}[EH]?(?![\w-])"
    r"|(?:Kennzeichen|Kfz-Kennzeichen|amtlichen\sKennzeichen)\s(?P<plate>[A-ZÄÖÜ]{1,3}\s[A-Z]{1,2}\s[1-9]\d{0,3}[EH]?)"
)
CUED_NUMBER_RE = re.compile(
    r"(?:Vertrags|Versicherungs|Policen|Schaden|Kunden|Rechnungs|Konto|Mitglieds|"
    r"Personal|Steuer|Versicherten|Renten|Aktenz)\w*(?:nummer|-Nr\.|nr\.|\sNr\.)\s*:?\s*"
    r"(?P<number>[A-Z]{0,4}-?\d[\d\s/.-]{3,22}\d)"
)
# Invoice, credit-note and order codes after `Nr.` need no cue word (`Nr. RE-2023-4528`,
# `Nr. GS-2024-0912` in a list of credit notes): a letter prefix and two hyphenated number
# groups never stand for a statute (`§ 3 Nr. 2`) or a margin number.
CODED_NUMBER_RE = re.compile(r"Nr\.\s?(?P<number>[A-Z]{1,4}-\d{2,4}-\d{2,8})(?![\w-])")


def is_valid_iban(value: str) -> bool:
    """ISO 13616 checksum (mod 97 of the rearranged digits is 1)."""
    compact = value.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    digits = "".join(str(int(c, 36)) for c in compact[4:] + compact[:4])
    return int(digits) % 97 == 1


def find_ibans(text: str) -> list[Span]:
    return [
        rule_span(*m.span(), "id-number", "high")
        for m in IBAN_RE.finditer(text)
        if is_valid_iban(m.group(0))
    ]


def find_emails(text: str) -> list[Span]:
    return [rule_span(*m.span(), "id-number", "high") for m in EMAIL_RE.finditer(text)]


def find_registers(text: str) -> list[Span]:
    return [rule_span(*m.span(), "jur-idx", "medium") for m in REGISTER_RE.finditer(text)]


def find_phones(text: str) -> list[Span]:
    return [rule_span(*m.span("number"), "id-number", "high") for m in PHONE_RE.finditer(text)]


def find_plates(text: str) -> list[Span]:
    out = []
    for m in PLATE_RE.finditer(text):
        if re.match(r"^\s*[,)]", text[m.end() : m.end() + 3]) or in_citation(text, *m.span()):
            continue  # `NJW-RR 1998, 699`
        bounds = m.span("plate") if m.group("plate") else m.span()
        out.append(rule_span(*bounds, "car-idx", "high"))
    return out


def find_cued_numbers(text: str) -> list[Span]:
    """Contract, policy, claim, customer numbers after their cue words; coded invoice and
    credit-note numbers after ``Nr.``."""
    found = [m.span("number") for m in CUED_NUMBER_RE.finditer(text)]
    found += [m.span("number") for m in CODED_NUMBER_RE.finditer(text)]
    return [rule_span(*bounds, "id-number", "high") for bounds in sorted(set(found))]
