"""The model's dates, courts and dockets inside references to other texts are dropped;
this case's own stay (``hf_anon.model.recognizers.citations``)."""

import re
import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from hf_anon.model.recognizers import drop_cited, is_cited
from hf_anon.model.recognizers.citations import in_labelled_court_address
from hf_anon.model.recognizers.literature import is_cited_author
from hf_anon.text.data import Span


def span_of(text: str, part: str, label: str, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return Span(start, start + len(part), label, "medium", 0.9)


def cited(text: str, part: str, label: str = "date-fact", nth: int = 0) -> bool:
    return is_cited(text, span_of(text, part, label, nth), own_dockets=set())


@pytest.mark.parametrize(
    ("text", "part", "label"),
    [
        # another decision, with its docket and a publication
        (
            "(BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris Rn. 12).",
            "12. Mai 2020",
            "date-world",
        ),
        ("so auch LAG Nürnberg 30.09.2010 – 5 Ta 135/10; LAG München", "30.09.2010", "date-fact"),
        (
            "vgl. OLG München, Urt. vom 14.7.2016, Az. 23 U 3764/15, ZVertriebsR",
            "14.7.2016",
            "date-fact",
        ),
        ("(vgl. BSG vom 18.11.2003, aaO., Rn. 8)", "18.11.2003", "date-fact"),
        (
            "vgl. OLG Frankfurt, Urteil vom 3. Mai 2019 – 2 U 1/18 – mwN.",
            "OLG Frankfurt",
            "court-name",
        ),
        ("dagegen LAG Sachsen 02.11.2007 – 7 SaGa 19/07; BAG", "7 SaGa 19/07", "court-docket"),
        # statutes, gazettes, the dates laws came into force, commentaries
        ("der Richtlinie 2003/4/EG vom 28.1.2003 über den Zugang", "28.1.2003", "date-fact"),
        (
            "Verordnung (EU) 2019/1148 des Europäischen Parlaments und des Rates "
            "vom 20. Juni 2019 über",
            "20. Juni 2019",
            "date-fact",
        ),
        (
            "der Vorgängerrichtlinie 90/313/EWG vom 7.6.1990 (ABl. L 158, 56) entsprach",
            "7.6.1990",
            "date-fact",
        ),
        ("§ 68 GKG in der ab dem 01.01.2026 gültigen Fassung", "01.01.2026", "date-fact"),
        (
            "weil § 555a RVO bereits zum 31.12.1996 außer Kraft getreten ist",
            "31.12.1996",
            "date-fact",
        ),
        (
            "aufgrund des Inkrafttretens des Konsumcannabisgesetzes (KCanG) zum 01.04.2024 ist",
            "01.04.2024",
            "date-fact",
        ),
        (
            "Kluth/Bohley, BeckOK Ausländerrecht, Stand: 01.01.2026, § 22 Rn. 4",
            "01.01.2026",
            "date-fact",
        ),
        ("Schoch/Schneider, 48. EL Juli 2025, VwGO § 161", "Juli 2025", "date-fact"),
        # a print header of a web copy
        (
            "Seite 1 von 3Verwaltungsgericht Minden, 11 K 32/05 26.03.2011http://www.justiz.nrw.de",
            "26.03.2011",
            "date-fact",
        ),
        # a publication in brackets, a gazette's page, a cited docket before the date
        (
            "hat das Bundesverfassungsgericht mit Urteil vom 6. Dezember 2016 (BVerfGE 143, 246)",
            "6. Dezember 2016",
            "date-world",
        ),
        ("(ABl. L 186 vom 11.7.2019, S. 1; L 231 vom 6.9.2019, S. 30)", "6.9.2019", "date-fact"),
        (
            "OLG München - 29 W 2325/07 -, Beschluss vom 16. Oktober 2007). Dabei",
            "16. Oktober 2007",
            "date-world",
        ),
        # the constitutional and European courts are never this case's instance
        (
            "eine Auswertung des Urteils des Bundesverfassungsgerichts vom 9. November 2011 und",
            "9. November 2011",
            "date-world",
        ),
        ("nach dem Urteil des EuGH vom 3. Oktober 2019 ist", "3. Oktober 2019", "date-world"),
        # a cited court by its full name, a compared decision, the senate's precedent
        (
            "; Hanseatisches Oberlandesgericht Hamburg, Beschluss vom 05.05.2025 – 12 UF 21/25 ;",
            "12 UF 21/25",
            "court-docket",
        ),
        ("; Kammergericht, Beschluss vom 22.12.2022 – 3 UF 87/21 )", "3 UF 87/21", "court-docket"),
        (
            "(vgl. LSG Nordrhein-Westfalen, Ur-teil vom 19.02.2013, Az.: L 2 AS 2081/12;",
            "L 2 AS 2081/12",
            "court-docket",
        ),
        (
            "vom BSG nicht beanstandet worden (vgl. Urteil vom 3. Dezember 1997, Az. 6 RKa 74/96,",
            "6 RKa 74/96",
            "court-docket",
        ),
        (
            "mit Urteil des Senats vom 26. Juni 2023 in der Sache VIa ZR 335/21 aufgestellten",
            "VIa ZR 335/21",
            "court-docket",
        ),
        (
            "mit Urteil des Senats vom 26. Juni 2023 in der Sache VIa ZR 335/21 aufgestellten",
            "26. Juni 2023",
            "date-world",
        ),
        # the date a rule changed, in the clause that names the rule
        (
            "seit 01.07.2011 nicht mehr dem Betäubungsmittelgesetz unterstellt",
            "01.07.2011",
            "date-fact",
        ),
        ("Seit dem 01.04.2024 stellt sich die Rechtslage wie folgt dar", "01.04.2024", "date-fact"),
        (
            "zwischen dem 01.03.2020 und dem 31.12.2022 eine Übergangsregelung",
            "31.12.2022",
            "date-fact",
        ),
        ("nach dem relevanten Stichtag, dem 31.12.1998, erfolgte", "31.12.1998", "date-fact"),
    ],
)
def test_references_are_cited(text, part, label):
    assert cited(text, part, label)


@pytest.mark.parametrize(
    ("text", "part", "label"),
    [
        # the facts and this case's proceedings
        (
            "Mit Schreiben vom 27. September 2007 teilte die Beklagte mit",
            "27. September 2007",
            "date-fact",
        ),
        ("Durch Arbeitsvertrag vom 2. Mai 1988 erhielt er den Status", "2. Mai 1988", "date-fact"),
        (
            "den Widerspruch gegen die Eintragungsanordnung vom 23.07.2013 zurück.",
            "23.07.2013",
            "date-fact",
        ),
        (
            "Das Landgericht hat mit Urteil vom 21. Januar 2025 die Berufung verworfen.",
            "21. Januar 2025",
            "date-world",
        ),
        # this case's earlier instances, named in prose or in the procedural history
        (
            "gegen das Urteil des Niedersächsischen Finanzgerichts "
            "vom 19. Mai 2017 2 K 154/15 wird",
            "19. Mai 2017",
            "date-world",
        ),
        (
            "gegen das Urteil des Niedersächsischen Finanzgerichts "
            "vom 19. Mai 2017 2 K 154/15 wird",
            "Niedersächsischen Finanzgerichts",
            "court-name",
        ),
        (
            "in Vollzug des Urteils des VGH Baden-Württemberg vom 30.07.2014 (1 S 1352/13) für",
            "30.07.2014",
            "date-world",
        ),
        (
            "in Vollzug des Urteils des VGH Baden-Württemberg vom 30.07.2014 (1 S 1352/13) für",
            "1 S 1352/13",
            "court-docket",
        ),
        (
            "Verfahrensgang\nvorgehend VG Schwerin, 11. Dezember 2025, 1 B 3859/25 SN, Beschluss",
            "11. Dezember 2025",
            "date-world",
        ),
        # a page of this case's earlier decision is no gazette
        (
            "Urteil des Oberverwaltungsgerichts Berlin-Brandenburg vom 14. Mai 2012, S. 9 des "
            "Entscheidungsabdrucks",
            "14. Mai 2012",
            "date-world",
        ),
        # the parties' related case named by its date; the law a party applied under;
        # an amount fixed (`festgesetzt`), not a statute (`Gesetz`)
        (
            "des Oberverwaltungsgerichts Berlin-Brandenburg vom 14. Mai 2012 in der Sache "
            "OVG 12 S 12.12 genannten Unterlagen",
            "14. Mai 2012",
            "date-world",
        ),
        (
            "auf seine Anträge vom 15. März 2007 und 29. März 2007 auf Informationszugang nach "
            "dem Informationsfreiheitsgesetz",
            "29. März 2007",
            "date-fact",
        ),
        ("der Beitrag wurde zum 30.07.2021 festgesetzt", "30.07.2021", "date-fact"),
        ("(Stichtagsmonat September 2008)", "September 2008", "date-fact"),
        # labels a reference does not contain are never dropped
        ("(vgl. Müller, NJW 2020, 12)", "Müller", "nat-name"),
    ],
)
def test_this_case_is_not_cited(text, part, label):
    assert not cited(text, part, label)


def test_the_case_s_own_docket_stays_even_when_a_publication_follows():
    text = "Az.: 3 K 12/21\nUrteil\n… wie im Verfahren 3 K 12/21, juris, entschieden."
    docket = span_of(text, "3 K 12/21", "court-docket", nth=1)
    assert is_cited(text, docket, own_dockets=set())
    assert drop_cited(text, [docket]) == [docket]  # the rubrum makes it this case's


def test_drop_cited_keeps_order_and_other_spans():
    text = "Am 3. März 2021 kündigte Huber (BGH, Urteil vom 12. Mai 2020 – VIII ZR 1/19 –, NJW)."
    spans = [
        span_of(text, "3. März 2021", "date-fact"),
        span_of(text, "Huber", "nat-name"),
        span_of(text, "12. Mai 2020", "date-world"),
    ]
    assert drop_cited(text, spans) == spans[:2]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 80),
            st.integers(1, 20),
            st.sampled_from(
                ["date-fact", "date-world", "court-name", "court-docket", "nat-name", "jur-name"]
            ),
        ),
        max_size=8,
    )
)
def test_drop_cited_returns_a_subset_and_never_touches_other_labels(raw):
    text = (
        "Das VG München (BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris) am 1.2.2020 ja " * 2
    )
    spans = [Span(a, min(a + n, len(text)), label, "low", 0.5) for a, n, label in raw]
    kept = drop_cited(text, spans)
    assert all(s in spans for s in kept)
    assert [s for s in spans if s.label == "jur-name"] == [s for s in kept if s.label == "jur-name"]
    # a name goes only where a reference follows it (the author of cited literature)
    assert [s for s in spans if s.label == "nat-name" and not is_cited_author(text, s)] == [
        s for s in kept if s.label == "nat-name"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "bei dem Verwaltungsgericht Hamburg, Lübeckertordamm 4, 20099 Hamburg, einzulegen.",
        "beim Oberverwaltungsgericht für das Land NRW, Aegidiikirchplatz 5, 48143 Münster,",
        "beim Verwaltungsgericht Frankfurt am Main Adalbertstraße 18, 60486 Frankfurt schriftlich",
    ],
)
def test_a_court_s_postal_address_is_no_span(text):
    street = re.search(r"[A-ZÄÖÜ][\w-]+(?:straße|damm|platz) \d+", text).group(0)
    city = re.search(r"\d{5} [\w ]+?(?=,| schriftlich)", text).group(0)
    spans = [span_of(text, street, "address-name"), span_of(text, city, "address-name")]
    assert drop_cited(text, spans) == []


BAVARIAN_INSTRUCTIONS = (
    "Die Berufung ist beim Bayerischen Verwaltungsgericht Ansbach, Hausanschrift: Promenade "
    "24 - 28, 91522 Ansbach, oder Postfachanschrift: Postfach 616, 91511 Ansbach, zu "
    "beantragen. Sie ist beim Bayerischen Verwaltungsgerichtshof, Hausanschrift in München:\n"
    "Ludwigstraße 23, 80539 München; Postfachanschrift: Postfach 34 01 48, 80098 München; in "
    "Ansbach: Montgelasplatz 1, 91522 Ansbach, einzureichen."
)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            BAVARIAN_INSTRUCTIONS,
            [
                ("Promenade 24 - 28", 0),
                ("91522 Ansbach", 0),
                ("91511 Ansbach", 0),
                ("Ludwigstraße 23", 0),
                ("80539 München", 0),
                ("80098 München", 0),
                ("Ansbach", 3),
                ("Montgelasplatz 1", 0),
                ("91522 Ansbach", 1),
            ],  # 3: `in Ansbach`
        ),
        (
            "beim Bundesverwaltungsgericht, Simsonplatz 1, 04107 Leipzig (Postfachanschrift: "
            "Postfach 10 08 54, 04008 Leipzig), einzulegen.",
            [("04008 Leipzig", 0)],
        ),
        (
            "beim Verwaltungsgerichtshof Baden-Württemberg, Schubertstraße 11, 68165 Mannheim, "
            "oder Postfach 10 32 64, 68032 Mannheim, einzulegen.",
            [("Postfach 10 32 64", 0), ("68032 Mannheim", 0)],
        ),
    ],
)
def test_a_court_s_labelled_address_block_is_no_span(text, parts):
    # labels (`Hausanschrift`, `Postfach`) and a line end inside the block: still the court's
    spans = [span_of(text, part, "address-name", nth) for part, nth in parts]
    assert drop_cited(text, spans) == []


@pytest.mark.parametrize(
    "text",
    [
        # a rubrum: the court's name, then the party on the next line
        "Verwaltungsgericht Ansbach\nKläger: Max Müller, Hausanschrift: Hauptstraße 5",
        # a label, but in a sentence about the party
        "Das Landgericht hat festgestellt, dass die Anschrift des Klägers Hauptstraße 5 ist.",
        # the block ends a sentence before the party's address
        "beim Landgericht, Postfach 12 34, 90402 Nürnberg. Der Kläger wohnt Hauptstraße 5",
    ],
)
def test_a_party_s_address_near_a_court_stays(text):
    street = span_of(text, "Hauptstraße 5", "address-name")
    assert drop_cited(text, [street]) == [street]


def test_a_long_run_of_block_words_is_read_in_linear_time():
    # one pattern over the whole block would backtrack without end on this
    text = "beim Landgericht" + " in" * 70 + " in Hauptstraße 5"
    street = span_of(text, "Hauptstraße 5", "address-name")
    assert drop_cited(text, [street]) == [street]  # no label: `in` alone makes no block
    labelled = "beim Landgericht, Postanschrift" + " in" * 70 + " Hauptstraße 5"
    assert drop_cited(labelled, [span_of(labelled, "Hauptstraße 5", "address-name")]) == []


def test_a_party_s_address_stays():
    text = "Der Kläger wohnt in der Lindenstraße 4, 20099 Hamburg, und klagt vor dem Amtsgericht."
    spans = [
        span_of(text, "Lindenstraße 4", "address-name"),
        span_of(text, "20099 Hamburg", "address-name"),
    ]
    assert drop_cited(text, spans) == spans


def test_decomposed_umlauts_read_like_composed_ones():
    # LegalQuAD decisions write `ü` as `u` and a combining diaeresis
    text = unicodedata.normalize("NFD", "in der ab dem 01.01.2026 gültigen Fassung. Übrigens")
    date = span_of(text, "01.01.2026", "date-fact")
    assert drop_cited(text, [date]) == []


@given(st.text(max_size=240), st.text(max_size=30))
def test_without_a_court_s_name_nothing_is_a_court_s_labelled_address(before, span_text):
    assume("gericht" not in before.lower())
    assert not in_labelled_court_address(before, span_text)


NAME = st.from_regex(r"[A-ZÄÖÜ][a-zäöüß]{2,12}", fullmatch=True)


@given(
    NAME,
    NAME,
    st.integers(1, 999),
    st.integers(10000, 99999),
    st.sampled_from(
        ["Hausanschrift: ", "Postanschrift: ", "Hausanschrift in München: ", "(Postfachanschrift: "]
    ),
)
def test_any_street_and_town_in_a_court_s_labelled_block_are_the_court_s(
    seat, street, number, postcode, label
):
    before = f"beim Landgericht {seat}, {label}{street}straße {number}, "
    assert in_labelled_court_address(before, f"{postcode} {seat}")
    assert in_labelled_court_address(f"{before}{postcode} {seat}; oder ", "Postfach 12 34")
