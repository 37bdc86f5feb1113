"""Label-specific span edges of the annotation guidelines
(``hf_anon.model.decoding.boundaries``): each example is a mistake the default model made on real
decisions."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.model.decoding.boundaries import (
    fix_boundaries,
    split_courts,
    split_lines,
    split_ranges,
)
from hf_anon.text.data import Span


def marked(text: str, part: str, label: str) -> Span:
    start = text.index(part)
    return Span(start, start + len(part), label, "medium", 0.9)


def fixed(text: str, part: str, label: str) -> list[tuple[str, str]]:
    return [
        (text[s.start : s.end], s.label) for s in fix_boundaries(text, [marked(text, part, label)])
    ]


@pytest.mark.parametrize(
    ("text", "part", "label", "expected"),
    [
        # a range is two spans; the ISO form and a date with its time are one
        ("von 1970-1993 tätig", "1970-1993", "date-fact", ["1970", "1993"]),
        ("(6.9.2024 - 18.8.2025)", "6.9.2024 - 18.8.2025", "date-fact", ["6.9.2024", "18.8.2025"]),
        ("am 2020-05-03 um", "2020-05-03", "date-fact", ["2020-05-03"]),
        (
            "bis zum 12. Juni 2012, 18.00 Uhr, nachkommt",
            "12. Juni 2012, 18.00 Uhr",
            "date-world",
            ["12. Juni 2012, 18.00 Uhr"],
        ),
        ("am 31. 3., 16. 4. und", "31. 3., 16. 4.", "date-fact", ["31. 3.", "16. 4."]),
        # a date may break over a line, a docket may not
        (
            "Dienstag, den 17. Februar\n2026, 12.00 Uhr",
            "17. Februar\n2026, 12.00 Uhr",
            "date-world",
            ["17. Februar\n2026, 12.00 Uhr"],
        ),
        ("Az. 1 F 320/18.\n4\nDer", "1 F 320/18.\n4", "court-docket", ["1 F 320/18"]),
        (
            "5 C 08.1191\nAu 4 K 07.1771\nG r o ß e s",
            "5 C 08.1191\nAu 4 K 07.1771\nG r o ß e s",
            "court-docket",
            ["5 C 08.1191", "Au 4 K 07.1771"],
        ),
        # the kind of decision on its own line belongs to no span
        (
            "BUNDESVERWALTUNGSGERICHT\nBESCHLUSS\nBVerwG 7 B 28.10",
            "BUNDESVERWALTUNGSGERICHT\nBESCHLUSS",
            "court-name",
            ["BUNDESVERWALTUNGSGERICHT"],
        ),
        (
            "6 OWi 660 Js 13408/25\nTenor\n",
            "6 OWi 660 Js 13408/25\nTenor",
            "court-docket",
            ["6 OWi 660 Js 13408/25"],
        ),
        # a date's introducing noun, an authority's noun, an area, an authority's number
        ("im Jahre 1989 zog", "Jahre 1989", "date-fact", ["1989"]),
        ("die Samtgemeinde Dörpen", "Samtgemeinde Dörpen", "address-name", ["Dörpen"]),
        ("im Querfurter Raum", "Querfurter Raum", "address-name", ["Querfurter"]),
        ("Staatsanwaltschaft München I", "München I", "address-name", ["München"]),
        ("die Samtgemeinde hat", "Samtgemeinde", "address-name", []),
        # a company's name without its business noun, legal form or origin
        ("die Nordmark Bank AG", "Nordmark Bank", "jur-name", ["Nordmark"]),
        ("der Kaulwerk-Gruppe", "Kaulwerk-Gruppe", "jur-name", ["Kaulwerk"]),
        ("die Nordkamp Limited", "Nordkamp Limited", "jur-name", ["Nordkamp"]),
        ("der litauischen Nordlita Bank", "litauischen Nordlita Bank", "jur-name", ["Nordlita"]),
        (
            "Förderverein Jugendhilfe e. V.",
            "Förderverein Jugendhilfe e",
            "jur-name",
            ["Förderverein Jugendhilfe"],
        ),
        (
            "VEB Hochfrequenzbau Frankfurt/Oder",
            "VEB Hochfrequenzbau Frankfurt/Oder",
            "jur-name",
            ["Hochfrequenzbau Frankfurt/Oder"],
        ),
        # an insurer's name keeps its `Versicherung` (the fictional dev set)
        (
            "Donau-Inn Versicherung AG",
            "Donau-Inn Versicherung",
            "jur-name",
            ["Donau-Inn Versicherung"],
        ),
        # a page number glued to a court; a judge's role after it
        (
            "Seite 2 von 3Verwaltungsgericht Münster",
            "3Verwaltungsgericht Münster",
            "court-name",
            ["Verwaltungsgericht Münster"],
        ),
        (
            "Amtsgericht Neu-Ulm - Jugendrichter -",
            "Amtsgericht Neu-Ulm - Jugendrichter",
            "court-name",
            ["Amtsgericht Neu-Ulm"],
        ),
        # a docket without the print date, place or paragraph after it
        (
            "26 K 1871/04 27.11.2009http://",
            "26 K 1871/04 27.11.2009",
            "court-docket",
            ["26 K 1871/04"],
        ),
        ("VG 3 L 21/26 Berlin", "VG 3 L 21/26 Berlin", "court-docket", ["VG 3 L 21/26"]),
        ("VG 3 M 12/12 Nr. 1.13", "VG 3 M 12/12 Nr. 1.13", "court-docket", ["VG 3 M 12/12"]),
        ("15 K 874/10 AO", "15 K 874/10 AO", "court-docket", ["15 K 874/10 AO"]),
    ],
)
def test_edges_follow_the_guidelines(text, part, label, expected):
    assert [piece for piece, _ in fixed(text, part, label)] == expected


def test_a_docket_and_its_court_are_two_spans():
    text = "im Verfahren 13 K 4303/06 VG Köln durch"
    assert fixed(text, "13 K 4303/06 VG Köln", "court-docket") == [
        ("13 K 4303/06", "court-docket"),
        ("VG Köln", "court-name"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "den Richter am Verwaltungsgericht Engel am 4. Dezember",
        "durch den Präsidenten des Verwaltungsgerichtshofs Engel, den Richter",
    ],
)
def test_a_court_type_after_a_judge_s_title_is_the_title(text):
    court = text[text.index("Verwaltungs") : text.index("Engel") + 5]
    assert fixed(text, court, "court-name") == [("Engel", "nat-jur")]


def test_a_court_with_its_place_after_a_title_stays_a_court():
    text = "die Richterin am Amtsgericht Schulz und das Amtsgericht München"
    assert fixed(text, "Amtsgericht München", "court-name") == [
        ("Amtsgericht München", "court-name")
    ]


_PIECES = st.sampled_from(
    [
        "Samtgemeinde", "Dörpen", "1970", "-", "1993", "\n", "BESCHLUSS", " ", "Bank",
        "Nordmark", "3", "Verwaltungsgericht", "Münster", ",", "16.", "4.", "Jahre", "I",
        "VG", "Köln", "13 K 4303/06", "e", ". V.", "Tenor", "Richter am ",
    ]
)  # fmt: skip
_LABELS = st.sampled_from(
    ["date-fact", "address-name", "jur-name", "court-name", "court-docket", "nat-name"]
)


@given(st.lists(_PIECES, min_size=1, max_size=12), _LABELS, st.data())
def test_spans_only_shrink_split_or_relabel(pieces, label, data):
    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    span = Span(start, end, label, "medium", 0.5)
    out = fix_boundaries(text, [span])
    for s in out:
        assert start <= s.start < s.end <= end
    assert all(a.end <= b.start for a, b in itertools.pairwise(out))
    for split in (split_lines, split_ranges, split_courts):
        assert all(start <= s.start < s.end <= end for s in split(text, [span]))
