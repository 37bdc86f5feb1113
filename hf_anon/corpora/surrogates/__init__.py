"""Realistic surrogates, and pseudonymization of span documents with them.

Seed 002 (AnGer guidelines, B.1) asks for pseudonyms that a reader does not notice:
surnames replace surnames and first names first names, the order and structure of a
name (double names, ``Nachname, Vorname``) are kept, first and last name sound like
one person, and the same person gets the same pseudonym throughout a decision. The
same holds for every other category: a street stays a street with a house number, a
partly masked date keeps its visible year, a register number its ``HRB``.

:class:`SurrogateFactory` makes single values (Faker-backed names and towns, German
formats for everything else); :class:`Pseudonymizer` replaces the spans of a document
(placeholders of a published decision or real gold spans) with consistent surrogates
and returns a new document whose spans sit exactly on them. Both are deterministic:
all randomness comes from one ``random.Random``.

The package: :mod:`~hf_anon.corpora.surrogates.tables` (the word tables values are drawn from),
:mod:`~hf_anon.corpora.surrogates.factory` (:class:`SurrogateFactory`),
:mod:`~hf_anon.corpora.surrogates.namebook` (people's names in one document, :class:`NameBook`),
:mod:`~hf_anon.corpora.surrogates.document` (what one document's surrogates share),
:mod:`~hf_anon.corpora.surrogates.registry` (label → rule, :func:`register_surrogate`), one
module of rules per kind of label (:mod:`~hf_anon.corpora.surrogates.persons`,
:mod:`~hf_anon.corpora.surrogates.organizations`, :mod:`~hf_anon.corpora.surrogates.places`,
:mod:`~hf_anon.corpora.surrogates.vehicles`, :mod:`~hf_anon.corpora.surrogates.courts`,
:mod:`~hf_anon.corpora.surrogates.identifiers`, :mod:`~hf_anon.corpora.surrogates.dates`) and
:mod:`~hf_anon.corpora.surrogates.pseudonymizer` (:class:`Pseudonymizer`).
"""

# The rule modules register themselves on import (one per kind of label).
# moved to hf_anon.text.names and hf_anon.corpora.placeholders (kept importable from here)
from hf_anon.corpora.placeholders.shapes import looks_like_placeholder, placeholder_kind
from hf_anon.corpora.surrogates import (  # noqa: F401
    courts,
    dates,
    identifiers,
    organizations,
    persons,
    places,
    vehicles,
)
from hf_anon.corpora.surrogates.document import DocumentSurrogates
from hf_anon.corpora.surrogates.factory import (
    PersonName,
    SurrogateFactory,
    format_date,
    iban_check_digits,
    is_valid_iban,
)
from hf_anon.corpora.surrogates.namebook import NameBook, NameMention
from hf_anon.corpora.surrogates.pseudonymizer import Pseudonymizer, pseudonymize_documents
from hf_anon.corpora.surrogates.registry import SURROGATES, register_surrogate, supported_labels
from hf_anon.corpora.surrogates.tables import (
    DATE_STYLES,
    GENDERS,
    LANDGERICHTE,
    MONTHS,
    OBERLANDESGERICHTE,
    PLATE_RE,
    VIN_RE,
)
from hf_anon.text.names import NAME_LOCALES, genitive

#: Labels the :class:`Pseudonymizer` knows how to fill (the default label set).
SUPPORTED_LABELS = supported_labels()

__all__ = [
    "DATE_STYLES",
    "GENDERS",
    "LANDGERICHTE",
    "MONTHS",
    "NAME_LOCALES",
    "OBERLANDESGERICHTE",
    "PLATE_RE",
    "SUPPORTED_LABELS",
    "SURROGATES",
    "VIN_RE",
    "DocumentSurrogates",
    "NameBook",
    "NameMention",
    "PersonName",
    "Pseudonymizer",
    "SurrogateFactory",
    "format_date",
    "genitive",
    "iban_check_digits",
    "is_valid_iban",
    "looks_like_placeholder",
    "placeholder_kind",
    "pseudonymize_documents",
    "register_surrogate",
    "supported_labels",
]
