"""Authors of cited books and articles are no spans; people of the case stay
(``hf_anon.model.recognizers.literature``, dropped by ``drop_cited``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.model.recognizers import drop_cited
from hf_anon.model.recognizers.literature import is_cited_author
from hf_anon.text.data import Span


def name_in(text: str, name: str, label: str = "nat-name") -> Span:
    start = text.index(name)
    return Span(start, start + len(name), label, "high", 0.9)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("(so auch Blomeyer RdA 2000, 279, 286; Höfer BetrAVG I)", "Blomeyer"),
        ("(Schmitz, in: Stelkens/Bonk/Sachs, VwVfG, 7. Aufl. 2008, § 23)", "Schmitz"),
        ("vgl. Stollmann, a.a.O., S. 218. Ein unverhältnismäßiger", "Stollmann"),
        ("(Keim, ZEV 2022, 600) beabsichtigt haben", "Keim"),
        ("Britz in Radtke/Hohmann, StPO, § 213 Rn. 17 f.", "Britz"),
        ("Wollenschläger, VerwArch 102 (2011), 20 ff.", "Wollenschläger"),
        ("(vgl. Lindemann, Kommentar zum Informationsfreiheitsgesetz, S. 12)", "Lindemann"),
        ("(so: Gaentzsch, Berliner Kommentar zum Baugesetzbuch, 2005, § 10 Rn. 3)", "Gaentzsch"),
        ("ebenso: Jürgen Müller, a.a.O., Seite 188", "Jürgen Müller"),
        ("(so Marschner in: Kreikebohm, SGB IV, 2008, § 8a RdNr 6)", "Marschner"),
    ],
)
def test_the_author_of_cited_literature_is_no_span(text, name):
    span = name_in(text, name)
    assert is_cited_author(text, span)
    assert drop_cited(text, [span]) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Der Kläger Max Müller veröffentlicht seit 2019 einen Blog.", "Max Müller"),
        ("Rechtsanwalt Schmidt in Frankfurt/Main vertritt die Beklagte.", "Schmidt"),
        ("Die Zeugin Weber, die in Köln wohnt, sagte aus.", "Weber"),
        ("die Eheleute Huber, wohnhaft Lindenstraße 4, 80331 München", "Huber"),
        ("Frau Keller, 1981 geboren, war dort beschäftigt.", "Keller"),
    ],
)
def test_people_of_the_case_stay(text, name):
    span = name_in(text, name)
    assert not is_cited_author(text, span)
    assert drop_cited(text, [span]) == [span]


def test_only_names_of_people_are_read_as_authors():
    text = "(Blomeyer RdA 2000, 279)"
    assert not is_cited_author(text, name_in(text, "Blomeyer", "jur-name"))
    assert is_cited_author(text, name_in(text, "Blomeyer", "nat-jur"))


@given(st.text(alphabet="AaBb ,.:/0123456789()§in", max_size=60), st.integers(0, 60))
def test_is_cited_author_reads_any_text_without_error(text, at):
    at = min(at, len(text))
    assert isinstance(is_cited_author(text, Span(0, at, "nat-name")), bool)
