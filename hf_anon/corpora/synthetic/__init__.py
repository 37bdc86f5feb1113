"""Synthetic German decisions with gold spans, for what the public corpus lacks.

Published decisions (LER) hide exactly what a model must learn to find: Rubrum parties
with addresses, lawyers, flats and floors, licence plates, IBANs, phone numbers. This
package writes Amtsgericht decisions in tenancy (``mietrecht``) and traffic
(``verkehrsrecht``) cases, or passages of them, with gold spans that follow the annotation
guidelines (``ANNOTATION.md``; the documentation's "Data format" page):
titles, roles, legal forms and ``Az.`` stay outside, a genitive ``s`` inside, date and
attached time form one span. Text is built by appending pieces, and a span is recorded
when its piece is appended, so offsets are exact by construction.

The wording is data (:mod:`~hf_anon.corpora.synthetic.templates`: sentence templates and
word tables, per section and per domain); the code fills the templates' fields and
decides which fields are spans: :mod:`~hf_anon.corpora.synthetic.frame` (the sections
every decision has), :mod:`~hf_anon.corpora.synthetic.tenancy` and
:mod:`~hf_anon.corpora.synthetic.traffic` (each domain's cast and facts),
:mod:`~hf_anon.corpora.synthetic.people` (personal circumstances), on top of
:class:`~hf_anon.corpora.synthetic.decision.Decision` (draws, cast, timeline, mentions)
and :class:`~hf_anon.corpora.synthetic.writer.Writer` (text and spans).

Values come from :class:`hf_anon.corpora.surrogates.SurrogateFactory`. Risk is the
label's usual risk except for these rules, taken from the annotated dev decisions:

- ``date-fact`` is ``low`` for interest start dates, billing periods and payment
  deadlines (they say little about a person);
- ``address-name`` is ``medium`` for accident places (a street without house number, a
  town of passage) and ``low`` for towns of employers and workshops;
- ``jur-name`` is ``medium`` for businesses that only appear in the facts (a workshop,
  a bakery at the accident site), not as parties;
- ``nat-idx`` is ``low`` for household details (``zwei Kleinkindern``).

A document depends only on the seed and its index, and on the templates: the draws follow
the tables, so the same seed gives the same corpus byte for byte.
"""

from __future__ import annotations

import random

from hf_anon.corpora.synthetic import tenancy, traffic
from hf_anon.corpora.synthetic.decision import Decision
from hf_anon.corpora.synthetic.frame import SECTIONS
from hf_anon.corpora.synthetic.writer import Part, Piece, Writer
from hf_anon.text.data import Document

#: The legal domains and the module that makes each one's cast and facts (the order is
#: part of the draws).
DOMAIN_MODULES = {"mietrecht": tenancy, "verkehrsrecht": traffic}
DOMAINS = tuple(DOMAIN_MODULES)


def generate_document(index: int, seed: int = 0) -> Document:
    """The ``index``-th synthetic document (``synthetic-000001`` for 1); it depends only on
    ``seed`` and ``index``, so any slice of a corpus can be regenerated alone."""
    rng = random.Random(f"synthetic\x00{seed}\x00{index}")
    return Decision(rng, f"synthetic-{index:06d}", DOMAIN_MODULES).build(SECTIONS)


def generate_documents(n: int, seed: int = 0) -> list[Document]:
    """``n`` synthetic documents with gold spans, ids ``synthetic-000001`` …"""
    return [generate_document(i, seed) for i in range(1, n + 1)]


__all__ = [
    "DOMAINS",
    "DOMAIN_MODULES",
    "Decision",
    "Part",
    "Piece",
    "Writer",
    "generate_document",
    "generate_documents",
]
