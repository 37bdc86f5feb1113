"""Surrogates of dates (``date-fact``, ``date-world``): the format and visible parts stay,
and hidden dates of the facts follow each other in document order."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import ELLIPSIS_RUN, has_mask, nfkc
from hf_anon.corpora.surrogates.factory import format_date
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate
from hf_anon.corpora.surrogates.tables import MONTHS

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


NUMERIC_DATE = re.compile(
    r"(?P<d>\d{1,2}|[xX]{1,2}|\.\.|…)\.(?P<m>\d{1,2}|[xX]{1,2}|\.\.|…)\.(?P<y>\d{4}|\d{2}|[xX]{2,4})"
)
WORD_DATE = re.compile(
    r"(?:(?P<d>\d{1,2}|[xX]{1,2}|…|\.{2,})\.?\s+)?(?P<m>[A-ZÄÖÜ][a-zäöü]+|…|\.{2,})\s+"
    r"(?P<y>\d{4}|[xX]{4}|…|\.{2,})"
)
TIME_AFTER_DATE = re.compile(r"(?P<date>.+?)(?P<sep>,\s*|\s+(?:um|gegen|ca\.)\s+)(?P<t>\S+\s*Uhr)")


def split_prefix(text: str) -> tuple[str, str]:
    """Lower-case words leading a span (``geboren am``) stay; the rest is replaced."""
    tokens = re.split(r"(\s+)", text)
    n = 0
    while n + 2 < len(tokens) and tokens[n][:1].islower() and not has_mask(tokens[n]):
        n += 2
    return "".join(tokens[:n]), "".join(tokens[n:])


@register_surrogate("date-fact")
def date_fact(doc: DocumentSurrogates, i: int) -> Rule:
    text, _, _ = doc.context(i)
    return date_surrogate(doc, i, text, "date-fact")


@register_surrogate("date-world")
def date_world(doc: DocumentSurrogates, i: int) -> Rule:
    text, _, _ = doc.context(i)
    return date_surrogate(doc, i, text, "date-world")


def date_surrogate(
    doc: DocumentSurrogates, i: int, text: str, label: str, birth: bool = False
) -> Rule:
    """Dates keep their format and visible parts: ``xx.xx.2016`` → a 2016 date written
    ``dd.mm.yyyy``, ``… 2023`` → ``März 2023``, ``3. März 2021, 14:30 Uhr`` → alike.
    Hidden dates of the facts follow each other in document order (a Tatbestand tells
    the story in order), and ``… bis …`` ends after it starts."""
    _, before, after = doc.context(i)
    factory = doc.factory
    norm = nfkc(text).strip()
    key = None if has_mask(norm) else norm
    prefix, core = split_prefix(norm)
    sep, time = "", None
    timed = TIME_AFTER_DATE.fullmatch(core)
    if timed:
        core, sep, time = timed.group("date"), timed.group("sep"), timed.group("t")
    if re.fullmatch(r"(?:\d{1,2}[:.]\d{2}|…|\.{2,}|[xX]{2}[:.][xX]{2})\s*Uhr", core):
        return key, lambda: prefix + factory.time()
    if ELLIPSIS_RUN.fullmatch(core) and re.match(r"\s*Uhr", after):
        return key, lambda: prefix + factory.time().removesuffix(" Uhr")
    if re.fullmatch(r"(?:19|20)\d{2}", core):
        return key, lambda: prefix + str(int(core) + factory.rng.choice((-2, -1, 1, 2)))

    style, visible = doc.date_style, None
    numeric, words = NUMERIC_DATE.fullmatch(core), WORD_DATE.fullmatch(core)
    if numeric:
        padded = len(numeric.group("m")) == 2 or numeric.group("d").startswith("0")
        style = "padded" if padded else "short"
        visible = numeric.group("y")
    elif words and (words.group("m") in MONTHS or has_mask(words.group("m"))):
        on_a_day = re.search(r"\b(?:am|vom|zum|dem)\s*$", (before + " " + prefix).lower())
        style = "long" if words.group("d") or (on_a_day and has_mask(words.group("m"))) else "month"
        visible = words.group("y")
    elif has_mask(core) and re.search(
        r"\b(?:im|monats?|monate|ende|anfang|mitte)\s*$", before.lower()
    ):
        style = "month"
    year = int(visible) if visible and re.fullmatch(r"(?:19|20)\d{2}", visible) else None
    start_of_range = None
    if i > 0 and doc.labels[i - 1] in ("date-fact", "date-world"):
        between = doc.text[doc.spans[i - 1].end : doc.spans[i].start]
        if re.fullmatch(r"\s*(?:bis(?:\s+zum)?|-|–)\s*", between):
            start_of_range = i - 1

    def make() -> str:
        if start_of_range is not None and start_of_range in doc.dates:
            first, first_style = doc.dates[start_of_range]
            date = first + dt.timedelta(days=factory.rng.randint(1, 180))
            chosen = first_style if style == doc.date_style else style
        elif birth:
            date, chosen = factory.date(year or doc.year - factory.rng.randint(18, 80)), style
        else:
            date, chosen = _next_date(doc, label, year), style
        doc.dates[i] = (date, chosen)
        value = format_date(date, chosen)
        if time is not None:
            value += sep + factory.time()
        return prefix + value

    return key, make


def _next_date(doc: DocumentSurrogates, label: str, year: int | None) -> dt.date:
    """The next date of the facts (or of the proceedings, which come after them)."""
    rng = doc.factory.rng
    last = doc.last_dates.get(label)
    if last is None and label == "date-world" and "date-fact" in doc.last_dates:
        last = doc.last_dates["date-fact"] + dt.timedelta(days=rng.randint(20, 200))
    if year is not None:
        if last is not None and last.year == year and last < dt.date(year, 12, 1):
            date = last + dt.timedelta(days=rng.randint(1, (dt.date(year, 12, 31) - last).days))
        else:
            date = doc.factory.date(year)
    elif last is not None:
        date = last + dt.timedelta(days=rng.randint(1, 60 if label == "date-fact" else 120))
    else:
        date = doc.factory.date(doc.year - (label == "date-fact"))
    doc.last_dates[label] = date
    return date
