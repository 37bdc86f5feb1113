"""Deterministic recognizers for sensitive spans that have a grammar.

Dates, times, docket numbers, court names and the names after a judge's or lawyer's
title follow patterns that a model learns slowly from few examples but a rule states
exactly. Each recognizer is a small object with a name, the label it emits and a
``find(text)`` that returns :class:`~hf_anon.text.data.Span`\\ s (characters, end exclusive);
:data:`RECOGNIZERS` is the registry (like the anonymizer's operators): users switch
recognizers off by name or register their own.

The rules aim at precision first (they label training text and are merged with the
model's spans): everything inside a citation of another decision (``BGH, Urteil vom
12. Mai 2020 – VIII ZR 1/19``), statutes and their dates, and publication references
are skipped, following the clarifications for real decisions in the annotation
guidelines. Their precision and recall on the real gold validation split are measured
by ``datasets_scripts/build_real_corpus.py --measure``.

One module per family of rules: :mod:`~hf_anon.model.recognizers.dates` (dates and times),
:mod:`~hf_anon.model.recognizers.dockets`, :mod:`~hf_anon.model.recognizers.courts`,
:mod:`~hf_anon.model.recognizers.jurists` (names after titles, signatures),
:mod:`~hf_anon.model.recognizers.identifiers` (IBANs, e-mails, registers, phones, plates,
contract numbers); the word lists they match in :mod:`~hf_anon.text.tables`, the
citation and rubrum context in :mod:`~hf_anon.model.recognizers.context`, the
:class:`Recognizer` type in :mod:`~hf_anon.model.recognizers.base`, the registry in
:mod:`~hf_anon.model.recognizers.registry` and the merge with a model's spans in
:mod:`~hf_anon.model.recognizers.merge`; the model's own dates, courts and dockets inside
citations and statutes are dropped before the merge by
:mod:`~hf_anon.model.recognizers.citations`, with the names of cited authors
(:mod:`~hf_anon.model.recognizers.literature`); last in decoding, a classifier learned from
annotated decisions judges every date, court and docket again
(:mod:`~hf_anon.model.recognizers.cited_filter`, where the model folder has one).
"""

from hf_anon.model.recognizers.base import Recognizer, nfc_view, rule_span
from hf_anon.model.recognizers.citations import cited_flags, drop_cited, is_cited
from hf_anon.model.recognizers.context import in_citation
from hf_anon.model.recognizers.courts import find_courts
from hf_anon.model.recognizers.dates import find_dates, find_times
from hf_anon.model.recognizers.dockets import find_dockets
from hf_anon.model.recognizers.identifiers import (
    find_cued_numbers,
    find_emails,
    find_ibans,
    find_phones,
    find_plates,
    find_registers,
    is_valid_iban,
)
from hf_anon.model.recognizers.jurists import find_jurists, find_signatures
from hf_anon.model.recognizers.merge import merge_with_rules
from hf_anon.model.recognizers.registry import (
    DEFAULT_RECOGNIZERS,
    DEFAULT_RECOGNIZERS_BY_LANGUAGE,
    RECOGNIZERS,
    recognize,
    recognize_cached,
    register,
    resolve_overlaps,
)

__all__ = [
    "DEFAULT_RECOGNIZERS",
    "DEFAULT_RECOGNIZERS_BY_LANGUAGE",
    "RECOGNIZERS",
    "Recognizer",
    "cited_flags",
    "drop_cited",
    "find_courts",
    "find_cued_numbers",
    "find_dates",
    "find_dockets",
    "find_emails",
    "find_ibans",
    "find_jurists",
    "find_phones",
    "find_plates",
    "find_registers",
    "find_signatures",
    "find_times",
    "in_citation",
    "is_cited",
    "is_valid_iban",
    "merge_with_rules",
    "nfc_view",
    "recognize",
    "recognize_cached",
    "register",
    "resolve_overlaps",
    "rule_span",
]
