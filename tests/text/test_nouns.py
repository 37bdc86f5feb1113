"""A dictionary noun is no name (``hf_anon.text.nouns``): one-word names that German writes as
common nouns are dropped unless the text names them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.text.data import Span
from hf_anon.text.nouns import common_nouns, drop_common_nouns, is_common_noun


def span_of(text: str, part: str, label: str = "nat-name", nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return Span(start, start + len(part), label, "high", 0.9)


def kept(text: str, spans: list[Span]) -> list[str]:
    return [text[s.start : s.end] for s in drop_common_nouns(text, spans)]


@pytest.mark.parametrize(
    "word",
    ["Reh", "Rehe", "Honig", "Hausverwaltung", "HAUSVERWALTUNG", "Treppenhausreinigung", "Reh,"],
)
def test_common_nouns_and_their_compounds_are_no_names(word):
    assert is_common_noun(word)


@pytest.mark.parametrize(
    # surnames and first names Wiktionary or Faker know, places, compound surnames with a
    # concrete head, invented names
    "word",
    ["Müller", "Gelb", "Schreiner", "Wolf", "Essen", "Kesselring", "Rosenbaum", "Nordmark", "Hr"],
)
def test_names_are_not_common_nouns(word):
    assert not is_common_noun(word)


def test_the_lexicon_is_bundled_and_holds_no_name_forms():
    nouns = common_nouns()
    assert len(nouns) > 200_000
    assert "Hausverwaltung" in nouns and "Müller" not in nouns


def test_a_common_noun_read_as_a_name_is_dropped():
    text = "Unmittelbar vor seinem Fahrzeug sei ein ausgewachsenes Reh über die Straße gelaufen."
    assert kept(text, [span_of(text, "Reh")]) == []


def test_a_company_s_generic_noun_is_dropped_its_name_stays():
    text = "Die Steinle Hausverwaltung GmbH rechnete ab. Später rechnete die Hausverwaltung neu."
    spans = [
        span_of(text, "Steinle Hausverwaltung", "jur-name"),
        span_of(text, "Hausverwaltung", "jur-name", 1),
    ]
    assert kept(text, spans) == ["Steinle Hausverwaltung"]


@pytest.mark.parametrize(
    ("text", "part"),
    [
        # the same word as a surname elsewhere in the text
        ("Die Zeugin Anna Honig sagte aus. Honig blieb dabei.", "Honig"),
        # (a surname that is also a dictionary noun: the text decides)
        ("Anna Morgenstern sagte aus. Morgenstern blieb dabei.", "Morgenstern"),
        # a salutation, title or role right before it
        ("Dazu hat die Zeugin Honig ausgesagt.", "Honig"),
        ("Dazu hat Herr Dr. Reh ausgesagt.", "Reh"),
        # the noun that introduces a name
        ("ein Artikel im Nachrichtenmagazin Kompass erschien", "Kompass"),
    ],
)
def test_a_word_the_text_names_stays(text, part):
    spans = [span_of(text, part, nth=text.count(part) - 1)]
    if text.startswith(("Die Zeugin Anna", "Anna")):
        spans.insert(0, span_of(text, "Anna " + part))
    assert part in kept(text, spans)


def test_other_labels_and_longer_spans_are_never_touched():
    text = "Der Zeuge fuhr nach links in die Hausverwaltung Süd. Er ist Schreiner."
    spans = [
        span_of(text, "links", "address-idx"),
        span_of(text, "Hausverwaltung Süd", "jur-name"),
        span_of(text, "Schreiner", "nat-idx"),
    ]
    assert drop_common_nouns(text, spans) == spans


@given(
    st.lists(
        st.tuples(
            st.integers(0, 60),
            st.integers(1, 15),
            st.sampled_from(["nat-name", "jur-name", "nat-jur", "date-fact"]),
        ),
        max_size=8,
    )
)
def test_drop_common_nouns_only_removes_and_keeps_order(raw):
    text = "Das Reh lief zur Hausverwaltung; Zeugin Honig und Hans Müller sahen es am 3. Mai."
    spans = sorted(
        Span(a, min(a + n, len(text)), label, "high", 0.5) for a, n, label in raw if a < len(text)
    )
    out = drop_common_nouns(text, spans)
    assert [s for s in spans if s in out] == out
    assert all(s.label in {"nat-name", "jur-name"} for s in spans if s not in out)


def test_a_short_company_name_stays_even_if_it_is_a_dictionary_word():
    # brands are short words (`Schott`, `Kompass`); generic business nouns are compounds
    text = "Anlagenkonvolut: Annex A: Schott. Die Kaskoversicherung zahlte nicht."
    spans = [span_of(text, "Schott", "jur-name"), span_of(text, "Kaskoversicherung", "jur-name")]
    assert kept(text, spans) == ["Schott"]


@pytest.mark.parametrize(
    "text",
    [
        "Schmalz\nMit Schreiben vom 10. Januar 2013 kündigte der Kläger.",  # a judge's line
        "D16 Anlagenkonvolut:\nAnnex A: Schmalz\n",  # a list after a colon
    ],
)
def test_a_dictionary_noun_where_names_are_listed_stays(text):
    assert kept(text, [span_of(text, "Schmalz")]) == ["Schmalz"]


def test_a_dictionary_noun_at_the_head_of_a_sentence_goes():
    text = "Mangels Zustimmung\nSchmalz wird aus Schweinefett gewonnen."
    assert kept(text, [span_of(text, "Schmalz")]) == []
