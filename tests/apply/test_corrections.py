"""A reviewer's corrections of one decision (hf_anon.apply.corrections): accept, reject,
relabel, add; the published text, the key and the corrected annotation follow."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.apply.anonymize import restore
from hf_anon.apply.corrections import Correction
from hf_anon.text.data import Span

TEXT = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12. Zeugin ist Petra Kowalski."


def record(*spans: tuple[str, str, float | None, str | None]) -> dict:
    out = []
    for found, label, score, doubt in spans:
        start = TEXT.index(found)
        out.append({"start": start, "end": start + len(found), "label": label, "risk": "high",
                    "score": score, "source": "detector", "doubt": doubt})  # fmt: skip
    return {"spans": out}


@pytest.fixture
def review():
    return Correction.start(
        TEXT,
        record(
            ("Hans Müller", "nat-name", 0.98, None),
            ("Bahnhofstraße 12", "address-name", 0.55, "near threshold"),
        ),
    )


def test_doubtful_spans_come_first_and_open_ones_are_counted(review):
    assert [TEXT[i.span.start : i.span.end] for i in review.items] == [
        "Bahnhofstraße 12",
        "Hans Müller",
    ]
    assert review.open == 2
    review.accept(0)
    assert review.open == 1


def test_corrections_reach_the_published_text_and_the_annotation(review):
    review.reject(0)  # the street is not sensitive here, says the reviewer
    start = TEXT.index(" Petra")  # a space before: trimmed
    added = review.add(start, start + len(" Petra Kowalski"), "nat-name")
    review.relabel(1, risk="medium")

    published = review.publish(mode="label")

    assert published.text == (
        "Der Kläger <nat-name-1> wohnt in der Bahnhofstraße 12. Zeugin ist <nat-name-2>."
    )
    assert restore(published.text, published.key()) == TEXT
    gold = review.gold("d1")
    assert [(TEXT[s.start : s.end], s.label, s.risk) for s in gold.spans] == [
        ("Hans Müller", "nat-name", "medium"),
        ("Petra Kowalski", "nat-name", "high"),
    ]
    assert review.items[added].status == "added" and review.open == 0


def test_open_spans_stay_replaced_and_bad_corrections_are_refused(review):
    assert "Bahnhofstraße" not in review.publish(mode="label").text  # unreviewed: replaced
    with pytest.raises(ValueError, match="overlaps the span 'Hans Müller'"):
        review.add(TEXT.index("Müller"), TEXT.index("Müller") + 6, "nat-name")
    with pytest.raises(ValueError, match="unknown label 'name'"):
        review.relabel(0, label="name")
    with pytest.raises(ValueError, match="no span #3"):
        review.reject(2)
    with pytest.raises(ValueError, match="select the text"):
        review.add(5, 5, "nat-name")


def test_a_review_survives_its_dict(review):
    review.reject(0)
    again = Correction.from_dict(review.to_dict())
    assert again.to_dict() == review.to_dict()
    assert again.publish().text == review.publish().text


@given(st.integers(0, len(TEXT)), st.integers(0, len(TEXT)))
def test_an_added_span_lies_on_its_text(start, end):
    review = Correction(TEXT)
    if start > end:
        start, end = end, start
    try:
        index = review.add(start, end, "nat-name")
    except ValueError:
        assert not TEXT[start:end].strip()
        return
    span: Span = review.items[index].span
    assert TEXT[span.start : span.end] == TEXT[start:end].strip()
