"""Deterministic recognizers: what they find, what they leave alone, the registry."""

from __future__ import annotations

import unicodedata
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.model.recognizers import RECOGNIZERS, Recognizer, is_valid_iban, recognize, register
from hf_anon.text.data import Span


def found(name: str, text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.label) for s in RECOGNIZERS[name](text)]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "dates",
            "Am 3. März 2021, 14:30 Uhr kam es zum Unfall.",
            [("3. März 2021, 14:30 Uhr", "date-fact")],
        ),
        (
            "dates",
            "Mit Bescheid vom 12.03.2019 lehnte die Behörde ab.",
            [("12.03.2019", "date-fact")],
        ),
        ("dates", "Er zog im Sommer 2021 um.", [("Sommer 2021", "date-fact")]),
        ("dates", "seit März 2019 verheiratet", [("März 2019", "date-fact")]),
        (
            "dates",
            "Das Urteil des Landgerichts Bayreuth vom 1. August 2017 wird aufgehoben.",
            [("1. August 2017", "date-world")],
        ),
        (
            "dates",
            "Der Kläger hat am 4. März 2008 Klage erhoben.",
            [("4. März 2008", "date-world")],
        ),
        ("dates", "am 5./6. Juni 2020 feierten sie", [("5./6. Juni 2020", "date-fact")]),
        (
            "dates",
            "Seite 1 von 3 http://www.justiz.nrw.de/nrwe/ovgs/vg_muenster/j2008/1_K_592_08urteil20080811",
            [("20080811", "date-world")],
        ),
        ("times", "Gegen 16.15 Uhr rief er an.", [("16.15 Uhr", "date-fact")]),
        (
            "dockets",
            "Verwaltungsgericht München\nM 12 K 20.1234\nIn der Verwaltungsstreitsache",
            [("M 12 K 20.1234", "court-docket")],
        ),
        ("dockets", "Landesarbeitsgericht\n3 Sa 118/21\nUrteil", [("3 Sa 118/21", "court-docket")]),
        (
            "dockets",
            "BUNDESVERWALTUNGSGERICHT\nBESCHLUSS\nBVerwG 4 B 17.22\nIn der",
            [("4 B 17.22", "court-docket")],
        ),
        ("dockets", "Die Akte (Az. 5 Js 123/21) lag vor.", [("5 Js 123/21", "court-docket")]),
        ("dockets", "BGH\nVI ZR 3/20\nUrteil vom", [("VI ZR 3/20", "court-docket")]),
        ("dockets", "BGH\nVIa ZR 335/21\nUrteil vom", [("VIa ZR 335/21", "court-docket")]),
        ("courts", "Das Amtsgericht Fürth hat entschieden.", [("Amtsgericht Fürth", "court-name")]),
        (
            "courts",
            "Auf die Beschwerde gegen den Beschluss des VG Regensburg",
            [("VG Regensburg", "court-name")],
        ),
        (
            "courts",
            "Urteil des Landgerichts Frankfurt am Main",
            [("Landgerichts Frankfurt am Main", "court-name")],
        ),
        (
            "courts",
            "BAYERISCHER VERWALTUNGSGERICHTSHOF\nBayerischer Verwaltungsgerichtshof\nIn der",
            [("Bayerischer Verwaltungsgerichtshof", "court-name")],
        ),
        ("jurists", "durch die Richterin am Amtsgericht Schulz", [("Schulz", "nat-jur")]),
        ("jurists", "vertreten durch Rechtsanwalt Dr. Bauer, München", [("Bauer", "nat-jur")]),
        (
            "jurists",
            "und die Richter am Bundesverwaltungsgericht Krauß und Guttenberger beschlossen",
            [("Krauß", "nat-jur"), ("Guttenberger", "nat-jur")],
        ),
        (
            "signatures",
            "Die Kosten trägt der Kläger.\nSailer Krauß Guttenberger",
            [("Sailer", "nat-jur"), ("Krauß", "nat-jur"), ("Guttenberger", "nat-jur")],
        ),
        (
            "signatures",
            "entnommen.\nSchäfer\nK. Schmidt\nGrube",
            [("Schäfer", "nat-jur"), ("K. Schmidt", "nat-jur"), ("Grube", "nat-jur")],
        ),
        (
            "ibans",
            "auf das Konto DE89 3704 0044 0532 0130 00 zu zahlen",
            [("DE89 3704 0044 0532 0130 00", "id-number")],
        ),
        (
            "emails",
            "per E-Mail an m.huber@example.de schrieb",
            [("m.huber@example.de", "id-number")],
        ),
        ("registers", "eingetragen unter HRB 123456 beim", [("HRB 123456", "jur-idx")]),
        ("phones", "Tel.: 0171 2345678 erreichbar", [("0171 2345678", "id-number")]),
        ("plates", "mit dem amtlichen Kennzeichen M-AB 1234 fuhr", [("M-AB 1234", "car-idx")]),
        (
            "numbers",
            "unter der Versicherungsnummer 12 345 678/9 geführt",
            [("12 345 678/9", "id-number")],
        ),
        (
            "numbers",
            "mit den Gutschriften Nr. GS-2022-0117 und Nr. GS-2022-0118 korrigiert",
            [("GS-2022-0117", "id-number"), ("GS-2022-0118", "id-number")],
        ),
        ("numbers", "laut Rechnungsnummer RG-20231 vom", [("RG-20231", "id-number")]),
        # any number after a word that names it one, whatever the word
        (
            "named_numbers",
            "Kindergeld-Nr. 118FK302447, Steuer-ID 61 774 028 935, BG-Nummer: 35302//0041827.",
            [
                ("118FK302447", "id-number"),
                ("61 774 028 935", "id-number"),
                ("35302//0041827", "id-number"),
            ],
        ),
        (
            "named_numbers",
            "mit der Sendungsnummer RB 6048 1173 7DE an die Personal-Nr. LPP 4471 geschickt",
            [("RB 6048 1173 7DE", "id-number"), ("LPP 4471", "id-number")],
        ),
        (
            "named_numbers",
            "unter der Vorgangsnummer 2023/117845 geführt",
            [("2023/117845", "court-docket")],
        ),
        (
            "insurance_numbers",
            "Versicherungsnummer 65 280773 S 519, früher 12150385M013",
            [("65 280773 S 519", "id-number"), ("12150385M013", "id-number")],
        ),
        (
            "phone_forms",
            "Tel. +49 (0)2241 / 38 77-0 · Fax (0221) 4 56 78-9",
            [("+49 (0)2241 / 38 77-0", "id-number"), ("(0221) 4 56 78-9", "id-number")],
        ),
        (
            "phone_forms",
            "schrieb ihm von +1 (762) 418-3095 aus, die Durchwahl 089-12345",
            [("+1 (762) 418-3095", "id-number"), ("089-12345", "id-number")],
        ),
    ],
)
def test_each_recognizer_finds_its_shapes(name, text, expected):
    assert found(name, text) == expected


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # citations of other decisions, statutes and publications are not this case
        ("dates", "(BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris Rn. 12)"),
        ("dates", "nach dem Gesetz vom 5. Mai 2004 (BGBl. I S. 718)"),
        ("dates", "(BAG 17.05.2011 – 1 AZR 473/09)"),
        ("dates", "in der bis zum 31.03.2024 geltenden Fassung"),
        ("dates", "vgl. Nr. 12.3.4 der Richtlinie"),
        ("courts", "(OVG Münster, Beschluss vom 3.2.2020 – 15 A 1/19 –)"),
        ("courts", "(OLG Celle, NStZ 2013, 360)"),
        ("courts", "das Landgericht hat die Berufung zurückgewiesen"),
        ("courts", "durch den Richter am Bundesverwaltungsgericht Sailer"),
        ("jurists", "der Kläger begehrt als Richter Einsicht in die Akten"),
        ("signatures", "Die Kosten trägt der Kläger.\nDie Revision wird nicht zugelassen."),
        ("ibans", "die Nummer DE89 3704 0044 0532 0130 01 ist falsch"),
        ("plates", "(BGH, NJW-RR 1998, 699)"),
        ("numbers", "nach § 3 Nr. 2 BtMG und Nr. 12.3 der Richtlinie"),
        # numbers a word names, but no person's: margins, houses, printed papers; short ones
        ("named_numbers", "Randnummer 1234, Hausnummer 1234, Drucksachennummer 19/1234"),
        ("named_numbers", "unter der Kundennummer 123 geführt"),
        ("named_numbers", "nach § 3 Nr. 2 BtMG und Nr. 1234 der Anlage"),
        # a date part that is no date; a docket is no insurance number
        ("insurance_numbers", "die Zahl 12 153385 M 013 ist keine"),
        ("insurance_numbers", "im Verfahren 12 150385 M 0134"),
        # too few digits for a phone number; a year after the cue
        ("phone_forms", "Tel. 0171 und Fax 089"),
    ],
)
def test_look_alikes_are_left_alone(name, text):
    assert found(name, text) == []


def test_only_the_case_s_own_dockets_count_in_running_text():
    text = (
        "Sozialgericht Köln\nS 4 AS 1/20\nGründe\n"
        + "Der Senat folgt der Rechtsprechung. " * 30
        + "(LSG NRW, Urteil vom 10.06.2016 – L 11 AS 1788/15 –). Im Verfahren S 4 AS 1/20 gilt das."
    )
    assert [d for d, _ in found("dockets", text)] == ["S 4 AS 1/20", "S 4 AS 1/20"]


def test_iban_checksum():
    assert is_valid_iban("DE89 3704 0044 0532 0130 00")
    assert not is_valid_iban("DE88 3704 0044 0532 0130 00")


def test_decomposed_umlauts_are_matched_and_offsets_stay_on_the_original():
    text = unicodedata.normalize("NFD", "Das Amtsgericht Fürth entschied am 3. März 2021.")
    spans = recognize(text, ["courts", "dates"])
    assert [unicodedata.normalize("NFC", text[s.start : s.end]) for s in spans] == [
        "Amtsgericht Fürth",
        "3. März 2021",
    ]


def test_users_switch_recognizers_off_and_add_their_own():
    text = "Akte KD-2024-0815 vom 3. März 2021"
    assert [text[s.start : s.end] for s in recognize(text, ["dates"])] == ["3. März 2021"]

    def kd_numbers(t: str) -> list[Span]:
        import re

        return [
            Span(*m.span(), "id-number", "high", 1.0) for m in re.finditer(r"KD-\d{4}-\d{4}", t)
        ]

    register(Recognizer("kd-numbers", ("id-number",), kd_numbers, "our own case numbers"))
    try:
        assert [text[s.start : s.end] for s in recognize(text, ["dates", "kd-numbers"])] == [
            "KD-2024-0815",
            "3. März 2021",
        ]
    finally:
        del RECOGNIZERS["kd-numbers"]
    with pytest.raises(KeyError, match="kd-numbers"):
        recognize(text, ["kd-numbers"])


def test_the_registry_holds_one_recognizer_per_rule_family_in_order():
    """The built-in rules, each from its family module, registered in the order that
    breaks ties between overlapping spans of equal length."""
    from hf_anon.model.recognizers import DEFAULT_RECOGNIZERS, courts, dates, identifiers, jurists

    assert [n for n in RECOGNIZERS if n in DEFAULT_RECOGNIZERS] == list(DEFAULT_RECOGNIZERS)
    assert RECOGNIZERS["dates"].find is dates.find_dates
    assert RECOGNIZERS["courts"].find is courts.find_courts
    assert RECOGNIZERS["signatures"].find is jurists.find_signatures
    assert RECOGNIZERS["ibans"].find is identifiers.find_ibans
    for name in DEFAULT_RECOGNIZERS:
        recognizer = RECOGNIZERS[name]
        assert recognizer.labels and recognizer.description


def test_overlapping_rules_keep_the_longer_span():
    text = "Am 3. März 2021, 14:30 Uhr"
    assert [text[s.start : s.end] for s in recognize(text, ["times", "dates"])] == [
        "3. März 2021, 14:30 Uhr"
    ]


PIECES = [
    *"AaBbDrRGgez.:-–/ ,\n0123456789",
    *["Richter am VG ", "Dr. ", "gez. ", "März ", "2021", "Az. ", "BGH ", "ÄÖÜß", "\u0308"],
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_recognizers_never_crash_and_give_valid_spans(text):
    spans = recognize(text)
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
    assert all(a.end <= b.start for a, b in pairwise(spans))
