"""Masking an annotated decision the way a court would: the tuned tagger's training text."""

from __future__ import annotations

import random
import re

import pytest
from documents import spans_of
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.corpora.placeholders.masking import (
    NAME_STYLES,
    Convention,
    mask_decision,
    mask_surface,
)
from hf_anon.text.data import Span

DECISION = (
    "In der Verwaltungsrechtssache des Herrn Dr. Hans Müller, Bahnhofstraße 12, 80331 München,"
    " gegen die Bauhaus Müller GmbH hat das Verwaltungsgericht Mainz am 3. März 2021"
    " entschieden. Herr Dr. Hans Müller ist am 12.05.1970 geboren."
)


GOLD = spans_of(
    DECISION,
    ("Dr. Hans Müller", "nat-name", 0),
    ("Bahnhofstraße 12", "address-name", 0),
    ("80331 München", "address-name", 0),
    ("Bauhaus Müller GmbH", "jur-name", 0),
    ("Verwaltungsgericht Mainz", "court-name", 0),
    ("3. März 2021", "date-world", 0),
    ("Dr. Hans Müller", "nat-name", 1),
    ("12.05.1970", "nat-idx", 0),
)
EVERYTHING = dict.fromkeys(
    ("nat-name", "address-name", "jur-name", "court-name", "date-world", "nat-idx"), 1.0
)


def test_a_court_masks_parties_keeps_titles_and_legal_forms_in_clear():
    convention = Convention("initial", letters="order", digit_mask="x", seed=1)
    text, placeholders = mask_decision(DECISION, GOLD, random.Random(0), convention, EVERYTHING)
    surfaces = [(text[p.start : p.end], p.label) for p in placeholders]
    assert ("A.", "nat-name") in surfaces
    assert "Herrn Dr. A.," in text and "Herr Dr. A. ist" in text  # one person, one letter
    assert "B-Straße 12" in text or "B-Straße xx" in text
    assert re.search(r"\b[C-Z]\. GmbH", text)  # the legal form outside the placeholder
    assert "Verwaltungsgericht" in text  # a court keeps its kind, loses its place
    assert "xx.xx.1970" in text  # digits masked, the year kept
    assert "Müller" not in text and "München" not in text


@pytest.mark.parametrize("style", NAME_STYLES)
def test_every_convention_writes_a_stand_in_of_one_line(style):
    convention = Convention(style, seed=3)
    for label in ("nat-name", "jur-name", "address-name", "id-number", "date-fact", "nat-idx"):
        rng = random.Random(0)
        surfaces = ("Hans Müller", "Bahnhofstraße 12", "80331 München", "DE12 3456", "1.2.2020")
        for surface in surfaces:
            new = mask_surface(surface, label, convention, rng)
            assert new.strip() == new and new and "\n" not in new, (style, label, surface, new)


def test_one_entity_keeps_its_stand_in_in_every_style():
    for style in NAME_STYLES:
        convention = Convention(style, seed=7)
        rng = random.Random(1)
        first = mask_surface("Hans Müller", "nat-name", convention, rng)
        again = mask_surface("Hans Müller", "nat-name", convention, rng)
        assert first == again, style


@st.composite
def decisions(draw):
    words = ["Herr", "Müller", "wohnt", "in", "Mainz", "am", "3.4.2020", "die", "Bau GmbH", "."]
    labels = {"Müller": "nat-name", "Mainz": "address-name", "3.4.2020": "date-fact"}
    labels["Bau GmbH"] = "jur-name"
    chosen = draw(st.lists(st.sampled_from(words), min_size=1, max_size=25))
    text, spans = "", []
    for word in chosen:
        text += " " if text else ""
        if word in labels and draw(st.booleans()):
            spans.append(Span(len(text), len(text) + len(word), labels[word]))
        text += word
    return text, spans


@settings(max_examples=150, deadline=None)
@given(decisions(), st.integers(0, 10_000))
def test_text_outside_the_placeholders_is_the_decisions_own(case, seed):
    text, spans = case
    rng = random.Random(seed)
    masked, placeholders = mask_decision(text, spans, rng)
    assert len(placeholders) <= len(spans)
    labels = {s.label for s in spans}
    position = 0
    rest = []
    for p in placeholders:
        assert 0 <= p.start < p.end <= len(masked) and p.start >= position
        assert p.label in labels
        rest.append(masked[position : p.start])
        position = p.end
    rest.append(masked[position:])
    # every stretch between placeholders is a stretch of the original, in order
    cursor = 0
    for piece in rest:
        found = text.find(piece, cursor)
        assert found >= 0, (piece, text)
        cursor = found + len(piece)
