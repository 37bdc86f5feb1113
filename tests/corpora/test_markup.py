"""Inline markup for hand annotation: marks ↔ gold spans and placeholder keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.corpora.markup import MarkupError, parse_markup, to_markup
from hf_anon.text.data import Span

PUBLISHED = "Der Kläger A. wohnt in B-Stadt. Urteil des Amtsgerichts Fürth vom 5.7.2022."


def test_a_marked_decision_gives_gold_and_key():
    marked = parse_markup(
        "Der Kläger [[A.=>Hans Huber|nat-name|high]] wohnt in "
        "[[B-Stadt=>Erlangen|address-name|high]]. Urteil des Amtsgerichts "
        "[[Fürth|address-name|low]] vom [[5.7.2022|date-world|low]]."
    )
    assert marked.published == PUBLISHED
    assert (
        marked.filled
        == "Der Kläger Hans Huber wohnt in Erlangen. Urteil des Amtsgerichts Fürth vom 5.7.2022."
    )

    gold = marked.gold("doc-1", "zivilrecht")
    assert [gold.text[s.start : s.end] for s in gold.spans] == [
        "Hans Huber",
        "Erlangen",
        "Fürth",
        "5.7.2022",
    ]
    key = marked.key("doc-1")
    assert [(p["text"], p["label"]) for p in key["placeholders"]] == [
        ("A.", "nat-name"),
        ("B-Stadt", "address-name"),
    ]
    assert [k["text"] for k in key["kept"]] == ["Fürth", "5.7.2022"]
    assert all(key["text"][p["start"] : p["end"]] == p["text"] for p in key["placeholders"])


def test_a_period_after_the_fill_when_the_placeholder_ended_the_sentence():
    marked = parse_markup("Es sagte die Zeugin [[C.=>Weber|nat-name|high|.]] Dann ging sie.")
    assert marked.published == "Es sagte die Zeugin C. Dann ging sie."
    assert marked.filled == "Es sagte die Zeugin Weber. Dann ging sie."
    (span,) = marked.gold("d").spans
    assert marked.filled[span.start : span.end] == "Weber"


@pytest.mark.parametrize(
    ("markup", "message"),
    [
        ("Herr [[A.|person|high]]", "unknown label"),
        ("Herr [[A.|nat-name|urgent]]", "unknown risk"),
        ("Herr [[A.|nat-name]]", "a mark is"),
        ("Herr [[ A.|nat-name|high]]", "whitespace"),
        ("Herr [[A.=> |nat-name|high]]", "fill"),
        ("Herr [[A.=>|nat-name|high]]", "empty fill"),
        ("Herr [[A.|nat-name|high]] und ]] mehr", "unbalanced"),
        ("Herr [[A. [[B.|nat-name|high]]", "inside a mark"),
        ("Herr [[A.|nat-name|high|.]]", "fourth field"),
        ("Herr [[A.|unknown|high]]", "unknown label"),
    ],
)
def test_broken_marks_are_named_with_their_line(markup, message):
    with pytest.raises(MarkupError, match=message) as error:
        parse_markup(markup)
    assert "line 1" in str(error.value)


def test_unknown_is_allowed_only_in_pre_annotation():
    assert parse_markup("Herr [[A.|unknown|high]]", allow_unknown=True).spans[0].label == "unknown"


@st.composite
def texts_with_spans(draw):
    alphabet = st.characters(blacklist_characters="[]|=\r", blacklist_categories=("Cs",))
    text = draw(st.text(alphabet=alphabet, min_size=0, max_size=80))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8, unique=True)))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        piece = text[start:end]
        if piece and not piece[0].isspace() and not piece[-1].isspace():
            spans.append(Span(start, end, draw(st.sampled_from(["nat-name", "date-fact"])), "high"))
    fills = [draw(st.one_of(st.none(), st.sampled_from(["Huber", "3. März 2021"]))) for _ in spans]
    return text, spans, fills


@settings(max_examples=300, deadline=None)
@given(texts_with_spans())
def test_markup_round_trips_any_text(case):
    text, spans, fills = case
    marked = parse_markup(to_markup(text, spans, fills))
    assert marked.published == text
    assert marked.published_spans() == spans
    gold = marked.gold("d")
    for mark, span, fill in zip(marked.spans, gold.spans, fills, strict=True):
        assert gold.text[span.start : span.end] == (fill if fill is not None else mark.surface)
        assert mark.placeholder == (fill is not None)
