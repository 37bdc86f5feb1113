"""The registry of recognizers (:data:`RECOGNIZERS`, like the anonymizer's operators):
the built-in rules in their order, :func:`register` for a user's own, and
:func:`recognize`, which runs the chosen ones and resolves their overlaps."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from hf_anon.model.recognizers.base import Recognizer
from hf_anon.model.recognizers.companies import find_companies
from hf_anon.model.recognizers.courts import find_courts
from hf_anon.model.recognizers.dates import find_dates, find_times
from hf_anon.model.recognizers.dockets import find_dockets
from hf_anon.model.recognizers.identifier_forms import (
    find_insurance_numbers,
    find_named_numbers,
    find_phone_forms,
)
from hf_anon.model.recognizers.identifiers import (
    find_cued_numbers,
    find_emails,
    find_ibans,
    find_phones,
    find_plates,
    find_registers,
)
from hf_anon.model.recognizers.japanese_ip import find_japanese_ip_numbers
from hf_anon.model.recognizers.jurists import find_jurists, find_signatures
from hf_anon.text.data import Span
from hf_anon.text.languages import find_japanese_dates

RECOGNIZERS: dict[str, Recognizer] = {}


def register(recognizer: Recognizer) -> Recognizer:
    """Add (or replace) a recognizer in the registry under its name."""
    RECOGNIZERS[recognizer.name] = recognizer
    recognize_cached.cache_clear()
    return recognizer


@lru_cache(maxsize=128)
def recognize_cached(text: str, names: tuple[str, ...]) -> tuple[Span, ...]:
    """:func:`recognize` on ``text`` and on its ALL-CAPS :func:`~hf_anon.text.views.case_view`
    (``VERWALTUNGSGERICHT MÜNCHEN`` read as a court name too), overlaps resolved;
    remembered for the last texts, so that decoding one model pass at many thresholds
    (``hf-anon report``, ``hf-anon calibrate``) runs the rules once per text."""
    from hf_anon.text.views import case_view

    found = recognize(text, names)
    view = case_view(text)
    if view is not text:
        found = resolve_overlaps([*found, *recognize(view, names)])
    return tuple(found)


def recognize(text: str, names: Iterable[str] | None = None) -> list[Span]:
    """Spans of the chosen recognizers (default: all registered), overlaps resolved.

    Where two rules overlap, the longer span wins (ties: the rule registered first).
    """
    chosen = list(RECOGNIZERS) if names is None else list(names)
    unknown = [n for n in chosen if n not in RECOGNIZERS]
    if unknown:
        raise KeyError(f"unknown recognizers {unknown}; known: {sorted(RECOGNIZERS)}")
    found = [(s, k) for k, name in enumerate(chosen) for s in RECOGNIZERS[name](text)]
    return resolve_overlaps([s for s, _ in sorted(found, key=lambda t: (-_len(t[0]), t[1]))])


def _len(span: Span) -> int:
    return span.end - span.start


def resolve_overlaps(spans_by_priority: Sequence[Span]) -> list[Span]:
    """Keep spans in priority order, dropping each that overlaps one already kept."""
    kept: list[Span] = []
    for span in spans_by_priority:
        if all(span.end <= k.start or span.start >= k.end for k in kept):
            kept.append(span)
    return sorted(kept)


for _recognizer in (
    Recognizer("dates", ("date-fact", "date-world"), find_dates, "dates with an attached time"),
    Recognizer("times", ("date-fact",), find_times, "times of day"),
    Recognizer("dockets", ("court-docket",), find_dockets, "this case's docket numbers"),
    Recognizer("courts", ("court-name",), find_courts, "court names with a place"),
    Recognizer("jurists", ("nat-jur",), find_jurists, "names after judicial titles"),
    Recognizer("signatures", ("nat-jur",), find_signatures, "judges' names signing the decision"),
    Recognizer("ibans", ("id-number",), find_ibans, "IBANs with a valid checksum"),
    Recognizer("emails", ("id-number",), find_emails, "e-mail addresses"),
    Recognizer("registers", ("jur-idx",), find_registers, "commercial register numbers"),
    Recognizer("phones", ("id-number",), find_phones, "phone numbers after their cue"),
    Recognizer("plates", ("car-idx",), find_plates, "German licence plates"),
    Recognizer("numbers", ("id-number",), find_cued_numbers, "contract/policy/claim numbers"),
    Recognizer(
        "phone_forms",
        ("id-number",),
        find_phone_forms,
        "phone numbers as written: +49 (0)2241 / 38 77-0, (030) 4 56 78-9, +1 (762) 418-3095",
    ),
    Recognizer(
        "named_numbers",
        ("id-number", "court-docket"),
        find_named_numbers,
        "any number after a word naming it (Kindergeld-Nr., Sendungsnummer)",
    ),
    Recognizer(
        "insurance_numbers",
        ("id-number",),
        find_insurance_numbers,
        "pension insurance numbers (12 150385 M 013)",
    ),
    Recognizer("companies", ("jur-name",), find_companies, "company names before a legal form"),
    Recognizer(
        "ja-dates",
        ("date-fact", "nat-idx"),
        find_japanese_dates,
        "Japanese dates, era and relative (同年８月１４日, 同日午前３時)",
    ),
    Recognizer(
        "ja-ip-numbers",
        ("id-number", "court-docket"),
        find_japanese_ip_numbers,
        "Japanese patents, applications and Patent Office appeals (特許第４９７４９７１号)",
    ),
):
    register(_recognizer)

#: The recognizers ``hf-anon calibrate`` runs beside a model of each language
#: (:data:`DEFAULT_RECOGNIZERS` for German): German rules on Japanese text find nothing
#: right, and their names in a Japanese model's config would be wrong
DEFAULT_RECOGNIZERS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {"ja": ("ja-dates", "ja-ip-numbers")}

#: Those that earn their place or cost nothing measurable (``benchmarks/rules_cv.py
#: --verdicts``, session 52): ``signatures`` and ``plates`` stay registered, off by default,
#: as do ``named_numbers`` and ``insurance_numbers``; ``phone_forms`` earned its place.
#: ``jurists`` is off since session 59: with the fold-1 model it lowers F2 on folds where it
#: acts and, switched off, loses recall on none (real folds 2-5 and the third batch of
#: originals; ``reports/capacity/README.md``, "Rules asked again with step 440").
DEFAULT_RECOGNIZERS = (
    "dates",
    "times",
    "dockets",
    "courts",
    "ibans",
    "emails",
    "registers",
    "phones",
    "numbers",
    "phone_forms",
    "companies",
)
DEFAULT_RECOGNIZERS_BY_LANGUAGE["de"] = DEFAULT_RECOGNIZERS
