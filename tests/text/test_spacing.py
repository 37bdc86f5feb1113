"""Letter-spaced words (Sperrsatz, PDF extraction) read as words, offsets kept."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.text.data import Span
from hf_anon.text.spacing import (
    collapse_letter_spacing,
    kept_characters,
    letter_spaced_runs,
    spans_to_view,
    to_original,
)

RUBRUM = "In Sachen\nM a r t i n  S c h u l z, Kläger,\ng e g e n\ndie Stadt Augsburg"


def test_letter_spaced_words_are_closed_up():
    view, index = collapse_letter_spacing(RUBRUM)

    assert view == "In Sachen\nMartin  Schulz, Kläger,\ngegen\ndie Stadt Augsburg"
    assert [RUBRUM[a:b] for a, b in letter_spaced_runs(RUBRUM)] == [
        "M a r t i n",
        "S c h u l z",
        "g e g e n",
    ]
    # every character of the view is the original character at its index
    assert all(view[i] == RUBRUM[index[i]] for i in range(len(view)))


def test_a_token_over_the_closed_word_covers_the_spaced_letters():
    view, index = collapse_letter_spacing(RUBRUM)
    start = view.index("Martin")
    tokens = np.array([[start, start + 6], [start + 8, start + 14], [0, 0]])

    original = to_original(tokens, index)

    assert RUBRUM[original[0, 0] : original[0, 1]] == "M a r t i n"
    assert RUBRUM[original[1, 0] : original[1, 1]] == "S c h u l z"
    assert original[2, 0] == original[2, 1]  # an empty token stays empty


def test_ordinary_text_is_left_alone():
    for text in ("a) und b) sowie c)", "Anlage K 1 und K 2", "i. V. m. § 3", "A, B und C"):
        assert collapse_letter_spacing(text) == (text, None)
    # two single letters are no letter-spaced word (the initials of a name, "z B")
    assert letter_spaced_runs("z B") == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab Äß\n,.1", max_size=60))
def test_the_index_maps_every_view_character_back(text):
    view, index = collapse_letter_spacing(text)
    if index is None:
        assert view == text
        return
    assert len(index) == len(view) + 1 and index[-1] == len(text)
    assert all(view[i] == text[index[i]] for i in range(len(view)))
    assert list(index) == sorted(set(index.tolist()))  # strictly increasing
    # only spaces were dropped
    dropped = set(range(len(text))) - set(index[:-1].tolist())
    assert all(text[i] == " " for i in dropped)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab Ä\n", max_size=40), st.data())
def test_mapped_token_offsets_stay_inside_the_text_and_in_order(text, data):
    view, index = collapse_letter_spacing(text)
    if index is None or not view:
        return
    start = data.draw(st.integers(0, len(view) - 1))
    end = data.draw(st.integers(start, len(view)))

    ((a, b),) = to_original(np.array([[start, end]]), index)

    assert 0 <= a <= b <= len(text)
    if end > start:  # the original span holds the token's characters, spaces aside
        assert text[a:b].replace(" ", "") == view[start:end].replace(" ", "")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab \n", max_size=40), st.data())
def test_a_span_moved_onto_the_view_holds_its_kept_characters(text, data):
    """A training target on the view (a Japanese tagger reads through a PDF's line ends):
    each span keeps exactly the view characters whose original lies inside it."""
    keep = np.array([c != "\n" for c in text], dtype=bool)
    view, index = kept_characters(text, keep)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    span = Span(start, end, "nat-name") if end > start else None
    moved = spans_to_view([span] if span else [], index)
    expected = text[start:end].replace("\n", "") if span else ""
    if expected:
        (got,) = moved
        assert view[got.start : got.end] == expected and got.label == "nat-name"
    else:
        assert moved == []
    # the round trip: the moved span's characters map back inside the original span
    for got in moved:
        back = to_original(np.array([[got.start, got.end]]), index)[0]
        assert start <= back[0] < back[1] <= end


def test_spans_stay_where_the_view_is_the_text():
    spans = [Span(0, 3, "nat-name")]
    assert spans_to_view(spans, None) == spans
