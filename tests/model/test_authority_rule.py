"""The authority rule measured in ``benchmarks/authorities_cv.py`` (issue 31; not adopted):
an authority named in clear is no company (rule 7 of the real-decision guide), only the
place in its name is a span, and a ministry without a place is none. Tested so that the
measured rule is the rule described."""

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.text.data import Span

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from authorities_cv import authority_place, drop_authorities


def as_company(text: str, part: str) -> Span:
    start = text.index(part)
    return Span(start, start + len(part), "jur-name", "high", 0.9)


def after_rule(text: str, spans: list[Span]) -> list[tuple[str, str, str | None]]:
    return [(text[s.start : s.end], s.label, s.risk) for s in drop_authorities(text, spans)]


@pytest.mark.parametrize(
    ("authority", "place"),
    [
        ("Landratsamt Cham", "Cham"),
        ("Stadt Mayen", "Mayen"),
        ("Landratsamt des Landkreises Cham", "Cham"),
        ("Regierung von Oberbayern", "Oberbayern"),
        ("Stadt Frankfurt am Main", "Frankfurt am Main"),
        ("Jobcenter Kreis Steinfurt", "Steinfurt"),
        ("Bezirksregierung Detmold", "Detmold"),
        ("Polizeipräsidium Köln", "Köln"),
    ],
)
def test_an_authority_in_clear_becomes_the_place_it_names(authority, place):
    text = f"Der Bescheid des {authority} vom 3. Mai 2021 wird aufgehoben."
    assert after_rule(text, [as_company(text, authority)]) == [(place, "address-name", "medium")]


@pytest.mark.parametrize(
    "authority",
    [
        "Bundesministerium für Arbeit und Soziales",
        "Bundesamt für Migration und Flüchtlinge",
        "Landesamt für Umwelt",
        "Bundesrepublik Deutschland",
        "Stadt",
    ],
)
def test_an_authority_without_a_place_is_no_span(authority):
    text = f"Beklagte ist die {authority}, vertreten durch den Präsidenten."
    assert after_rule(text, [as_company(text, authority)]) == []


@pytest.mark.parametrize(
    "company",
    [
        "Schmidt Immobilien",
        "AOK Bayern",  # a statutory insurer of a party stays a company (ANNOTATION.md)
        "Hausverwaltung Müller",  # a property manager is a company, not an administration
        "Sparkasse der Stadt Köln",  # the municipality word counts only at the start
        "Landratsamt K.",  # a placeholder that hides an authority stays a jur-name
        "Stadt XXX",
    ],
)
def test_companies_and_masked_authorities_stay(company):
    text = f"Die {company} hat den Antrag abgelehnt."
    assert after_rule(text, [as_company(text, company)]) == [(company, "jur-name", "high")]


def test_only_company_spans_are_read():
    text = "Das Landratsamt Cham ist zuständig."
    court = Span(4, 20, "court-name", "medium", 0.9)
    assert authority_place(text, court) is False
    assert drop_authorities(text, [court]) == [court]


def test_a_place_already_marked_is_not_marked_twice():
    text = "Die Stadt Mayen und Mayen selbst."
    whole = as_company(text, "Stadt Mayen")
    place = Span(10, 15, "address-name", "medium", 0.8)
    assert drop_authorities(text, [whole, place]) == [place]


words = st.sampled_from(
    ["Stadt", "Landratsamt", "des", "Landkreises", "für", "Cham", "am", "Main", "K.", "GmbH",
     "Müller", "Bundesamt", "von", "Jobcenter", "Kreis", "und", "X"]
)  # fmt: skip


@given(st.lists(words, min_size=1, max_size=6), st.lists(words, max_size=3))
def test_the_rule_keeps_spans_inside_their_own_and_apart(inside, before):
    prefix = " ".join(before) + " " if before else ""
    name = " ".join(inside)
    text = f"{prefix}{name} hat entschieden."
    span = Span(len(prefix), len(prefix) + len(name), "jur-name", "high", 0.7)
    out = drop_authorities(text, [span])
    assert len(out) <= 1
    for s in out:
        assert span.start <= s.start < s.end <= span.end
        assert text[s.start : s.end] == text[s.start : s.end].strip()
        assert s.label in {"jur-name", "address-name"}
        assert s.score == span.score
