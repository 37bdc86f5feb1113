"""Variants of gold documents: capitals, line breaks, hyphens, hard negatives, spans exact."""

import random

from hypothesis import given
from hypothesis import strategies as st

from hf_anon.corpora.augment import (
    AugmentConfig,
    add_everyday_negatives,
    add_hard_negatives,
    augment,
    break_lines,
    check_spans,
    citation,
    everyday_nouns,
    everyday_sentence,
    hyphenate,
    insert,
    rule_sentence,
    shout,
    upper_keep_length,
)
from hf_anon.corpora.synthetic import generate_document
from hf_anon.text.data import Document, Span, validate_document


def _doc() -> Document:
    text = "Kläger: Hans Straßburger, Weißdornweg 3, 80331 München\n\nGründe\n\nDer Kläger zahlte."
    spans = [Span(8, 24, "nat-name", "high"), Span(26, 39, "address-name", "medium")]
    return Document("d", text, spans)


def test_capitals_keep_every_offset():
    doc = shout(_doc())
    assert len(doc.text) == len(_doc().text)
    assert doc.span_text(doc.spans[0]) == "HANS STRAßBURGER"
    assert upper_keep_length("Fuß") == "FUß"


@given(st.text(max_size=60), st.integers(0, 60), st.text(max_size=5))
def test_insert_moves_later_spans_and_grows_those_around_it(prefix, at, piece):
    text = prefix + "Anna Berg" + " rest"
    doc = Document("d", text, [Span(len(prefix), len(prefix) + 9, "nat-name", "high")])
    at = min(at, len(text))
    out = insert(doc, at, piece)
    assert out.text == text[:at] + piece + text[at:]
    span = out.spans[0]
    if at <= len(prefix):
        assert out.span_text(span) == "Anna Berg"
    elif at >= len(prefix) + 9:
        assert span == doc.spans[0]
    else:
        k = at - len(prefix)  # the piece lands inside the name, at k
        assert out.span_text(span) == "Anna Berg"[:k] + piece + "Anna Berg"[k:]


@given(
    st.lists(st.sampled_from(["Wort", "Hans", "Leistungen", "\n", "a"]), max_size=40),
    st.integers(5, 30),
)
def test_break_lines_keeps_length_and_wraps(words, width):
    doc = Document("d", " ".join(words), [])
    out = break_lines(doc, width)
    assert len(out.text) == len(doc.text)
    assert out.text.replace("\n", " ") == doc.text.replace("\n", " ")
    assert all(
        len(line) <= max(width, max(map(len, words), default=0)) + 1
        for line in out.text.split("\n")
    )


def test_hyphens_inside_a_name_stay_inside_its_span():
    doc = Document("d", "Frau Wiesenthalerin kam.", [Span(5, 19, "nat-name", "high")])
    out = hyphenate(doc, random.Random(0), share=1.0)
    assert "-\n" in out.span_text(out.spans[0])
    check_spans(out, doc)


def test_hard_negatives_add_text_but_no_spans():
    doc = _doc()
    out = add_hard_negatives(doc, random.Random(1), 3, lambda: "Schenke")
    assert len(out.text) > len(doc.text)
    assert len(out.spans) == len(doc.spans)
    check_spans(out, doc)


def test_everyday_nouns_stand_in_grammatical_sentences_where_names_stand():
    rng = random.Random(7)
    sentences = [everyday_sentence(rng) for _ in range(300)]
    assert all(s.endswith(".") and s[0].isupper() for s in sentences)
    # the article agrees with the noun's gender: `einem Reh`, `im Innenhof`
    genders = {nominative: gender for gender, nominative, _, _ in everyday_nouns()}
    assert genders["Reh"] == "n" and genders["Innenhof"] == "m"
    for sentence in sentences:
        for article, gender in (("einer ", "f"), ("einem ", "mn"), ("im ", "mn")):
            if article in sentence:
                noun = sentence.split(article, 1)[1].split()[0].strip(".,;")
                if noun in genders:
                    assert genders[noun] in gender, sentence


def test_everyday_negatives_leave_out_names_people_and_floors():
    nominatives = {row[1] for row in everyday_nouns()}
    assert {"Reh", "Innenhof", "Bankett", "Niederwild"} <= nominatives
    # a name's form, a person, a floor (an address-idx in real decisions) are no negatives
    assert not {"Gelb", "Schreiner", "Zeugin", "Journalistin", "Obergeschoss"} & nominatives


def test_rule_times_and_statute_dates_are_no_facts():
    rng = random.Random(2)
    sentences = [rule_sentence(rng) for _ in range(40)]
    assert any("Uhr bis" in s or "Uhr und" in s for s in sentences)
    assert any("in Kraft" in s or "Wirkung" in s or "Übergangs" in s for s in sentences)


def test_everyday_negatives_add_paragraphs_but_no_spans():
    doc = _doc()
    out = add_everyday_negatives(doc, random.Random(4), 5)
    assert out.text.count("\n\n") == doc.text.count("\n\n") + 5
    assert len(out.spans) == len(doc.spans)
    check_spans(out, doc)


def test_everyday_negatives_are_off_by_default_so_old_corpora_regenerate():
    doc = generate_document(3, seed=2)
    plain = augment(doc, random.Random("a"))
    assert augment(doc, random.Random("a"), AugmentConfig()) == plain
    varied = augment(doc, random.Random("a"), AugmentConfig(everyday_negatives=1.0))
    assert len(varied.text) > len(plain.text)
    check_spans(varied, doc)


def test_a_citation_names_court_date_and_docket():
    found = citation(random.Random(3))
    assert "vom" in found or "v." in found
    assert any(c.isdigit() for c in found)


def test_augmented_synthetic_decisions_keep_exact_spans():
    for index in range(1, 30):
        doc = generate_document(index, seed=5)
        out = augment(doc, random.Random(index))
        check_spans(out, doc)
        validate_document(out)  # still a valid gold document
