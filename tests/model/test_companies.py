"""Company names before their legal form are ``jur-name`` spans, without the form, the
article or the role before them (``hf_anon.model.recognizers.companies``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.model.recognizers import RECOGNIZERS, recognize
from hf_anon.model.recognizers.companies import find_companies


def names(text: str) -> list[str]:
    return [text[s.start : s.end] for s in find_companies(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Die Klägerin war bei der Electronicon-GmbH Greiz beschäftigt.", ["Electronicon"]),
        ("sein Vermögen auf die Pallas-AG übertragen", ["Pallas"]),
        ("dass sie der NE AG die Vermittlung schuldete", ["NE"]),
        ("Putzarbeiten übernahm die Firma Bauunternehmung Harms KG.", ["Bauunternehmung Harms"]),
        ("an die Tiefbau Behrens GmbH & Co. KG, Aachen", ["Tiefbau Behrens"]),
        ("Die Beklagte, die Kranbau Nord e. V., trägt vor", ["Kranbau Nord"]),
        ("Gesellschafterin der Nordlicht Solar UG (haftungsbeschränkt)", ["Nordlicht Solar"]),
        ("Die Klägerin Mayer Logistik SE verlangt", ["Mayer Logistik"]),
    ],
)
def test_the_name_before_a_legal_form_is_a_company(text, expected):
    assert names(text) == expected
    assert all(s.label == "jur-name" and s.risk == "high" for s in find_companies(text))


@pytest.mark.parametrize(
    "text",
    [
        "Die Beklagte ist eine GmbH.",  # a form with no name before it
        "Die Klägerin ist eine GmbH & Co. KG, an der die Beklagte beteiligt ist.",
        "(EuGH, Urteil vom 21. Januar 2010 – C-398/08 P –, Audi AG/HABM, juris Rn. 33)",
        "Nach § 13 GmbHG haftet die Gesellschaft.",  # an act, not a form
        "die Ausgleichsabgabe (AG) nach dem Gesetz",  # no capitalised word right before
    ],
)
def test_no_company_without_a_name_before_the_form_or_inside_a_citation(text):
    assert names(text) == []


def test_the_rule_is_registered_and_runs_with_the_others():
    text = "Der Kläger arbeitete seit dem 3. Mai 2021 bei der Electronicon-GmbH in Greiz."
    assert "companies" in RECOGNIZERS
    found = {text[s.start : s.end]: s.label for s in recognize(text, ["dates", "companies"])}
    assert found == {"3. Mai 2021": "date-fact", "Electronicon": "jur-name"}


@given(st.text(alphabet=st.sampled_from(list("Ab Cd-ÄGmbHAGe.V.&Co ,\n")), max_size=80))
def test_spans_lie_inside_the_text_and_end_right_before_a_legal_form(text):
    for span in find_companies(text):
        assert 0 <= span.start < span.end <= len(text)
        assert text[span.start : span.end] == text[span.start : span.end].strip()
        assert text[span.end] in " -"
