"""Names of people: titles, particles, parts, genitive, sentence ends, gender cues."""

from __future__ import annotations

import pytest

from hf_anon.text.lexicon import PARTY_ROLES, ROLE_NOUNS
from hf_anon.text.names import (
    NAME_PARTICLES,
    TITLES,
    ends_sentence,
    first_name_genders,
    gender_after,
    gender_cue,
    gender_near,
    genitive,
    known_last_names,
    parse_name,
    split_name,
    split_titles,
)


@pytest.mark.parametrize(
    ("surface", "parsed"),
    [
        ("Dr. Hans Müller", ("Dr. ", ["Hans"], "Müller", False)),
        ("Hans Peter von Müller", ("", ["Hans", "Peter"], "von Müller", False)),
        ("Müller, Hans", ("", ["Hans"], "Müller", True)),
        ("Herrn Prof. Dr. med. Weiß", ("Herrn Prof. Dr. med. ", [], "Weiß", False)),
        ("Anna zur Linde", ("", ["Anna"], "zur Linde", False)),
        ("Müller", ("", [], "Müller", False)),
    ],
)
def test_a_name_splits_into_titles_first_names_and_surname(surface, parsed):
    assert parse_name(surface) == parsed


def test_only_titles_and_salutations_are_split_off():
    assert split_titles("Dipl.-Ing. Eva Roth") == ("Dipl.-Ing. ", "Eva Roth")
    assert split_titles("Abs. 3 Müller") == ("", "Abs. 3 Müller")  # not a title
    assert split_titles("Dr.") == ("", "Dr.")  # nothing left to be the name
    assert split_name("van der Berg") == (["van"], "der Berg", False)  # one first word stays


def test_one_list_of_titles_and_particles():
    assert {"dr.", "prof.", "dipl.-ing.", "ll.m.", "habil."} <= TITLES
    assert {"von", "van", "de", "zur", "ter"} <= NAME_PARTICLES
    assert PARTY_ROLES <= ROLE_NOUNS


def test_genitive_and_sentence_ends():
    assert genitive("Müller") == "Müllers"
    assert genitive("Weiß") == "Weiß'"
    assert ends_sentence(" Die Klage ist begründet.")
    assert ends_sentence("\nII.")
    assert not ends_sentence(" entschieden.")
    assert not ends_sentence(" Bahnhofstraße 12")


def test_the_words_around_a_name_tell_its_gender():
    assert gender_cue("Die Zeugin") == "f"
    assert gender_cue("des Klägers") == "m"
    assert gender_cue("vertreten durch Herrn Dr.") == "m"
    assert gender_cue("der Beklagte") == "m" and gender_cue("die Beklagte") == "f"
    assert gender_cue("mit") is None
    assert gender_near("Frau Meier ist die Mutter von") == "f"
    assert gender_after(", Bahnhofstraße 12, München\n- Klägerin -\n") == "f"


def test_faker_lexicons_know_common_names():
    assert first_name_genders()["Hans"] == "m"
    assert "Müller" in known_last_names()
