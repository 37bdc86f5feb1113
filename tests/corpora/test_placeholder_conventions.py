"""Every court's masking convention (issue 30), its look-alikes, and the audit that finds
the conventions the rules do not know yet."""

from __future__ import annotations

import pytest

from hf_anon.corpora.placeholders import find_placeholders
from hf_anon.corpora.placeholders.audit import audit, token_shape
from hf_anon.corpora.placeholders.shapes import RE_MASK_TOKEN


def found(text: str) -> list[tuple[str, str]]:
    return [(text[p.start : p.end], p.label) for p in find_placeholders(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the XXX family: rubrum, bench, signature, dockets, numbers
        (
            "In der Verwaltungsrechtssache\nXXX\n- Antragsteller -\n"
            "Prozessbevollmächtigte:\nXXX\ngegen",
            [("XXX", "nat-name"), ("XXX", "nat-jur")],
        ),
        (
            "hat die 5. Kammer am 31. März 2025 durch\nXXX\nXXX\nXXX\nbeschlossen:",
            [("XXX", "nat-jur")] * 3,
        ),
        (
            "durch die Richterin am Verwaltungsgericht XXX, den Richter am Verwaltungsgericht XXX",
            [("XXX", "nat-jur"), ("XXX", "nat-jur")],
        ),
        ("mit dem Aktenzeichen XXX zu erteilen", [("XXX", "court-docket")]),
        ("des europäischen Patents 2 365 XXX (Klagepatent)", [("XXX", "id-number")]),
        ("Rechtsanwälte XX, Berlin", [("XX", "jur-name")]),  # plural: the firm (decision 6)
        ("Rechtsanwalt XX, Berlin", [("XX", "nat-jur")]),
        ("Auftrag Nr. XXX).", [("XXX", "id-number")]),
        # ### and **** with and without a period, glued to visible letters
        (
            "In der Verwaltungsrechtssache\n###,\n- Antragstellerin -\n"
            "Prozessbevollmächtigte:\n###,",
            [("###", "nat-name"), ("###", "nat-jur")],
        ),
        ("Klage zum Verwaltungsgericht ******. Mit Beschluss", [("******", "court-name")]),
        (
            "Der Kläger ***** *****, *****, *****",
            [("***** *****", "nat-name"), ("*****", "address-name"), ("*****", "address-name")],
        ),
        (
            "Landratsamt S***** und Jobcenter *****",
            [("S*****", "address-name"), ("*****", "address-name")],
        ),
        # partial masks: an IBAN, a URL, dotted dates, a dashed street
        (
            "mit der Kontonummer DE38 XXXX XXXX 31 verfügen Sie",
            [("DE38 XXXX XXXX 31", "id-number")],
        ),
        (
            "auf der Homepage (www.landratsamt-xxx.de) veröffentlicht",
            [("www.landratsamt-xxx.de", "id-number")],
        ),
        ("Der Vertrag vom ....2022 endete.", [("....2022", "date-fact")]),
        (
            "auf dem Grundstück Q.-----weg 29 in S.",
            [("Q.-----weg 29", "address-name"), ("S.", "address-name")],
        ),
        (
            "des Objekts Q-Straße #, #### C für die Dauer",
            [("Q-Straße #", "address-name"), ("#### C", "address-name")],
        ),
        # numbered masks after a person, a name cut out in brackets
        (
            "gegenüber seinem Vorgesetzten, Herrn B1. sowie Herrn B.",
            [("B1.", "nat-name"), ("B.", "nat-name")],
        ),
        ("zeigte sich Rechtsanwalt […] unter Vollmachtsvorlage", [("…", "nat-jur")]),
        # the conventions issue 30 lists
        ("Mietvertrag vom XXX", [("XXX", "date-fact")]),
        ("mit der IBAN XXX überwiesen", [("XXX", "id-number")]),
        (
            "Dr. B., XXX, XXX - Klägerin -",
            [("B.", "nat-name"), ("XXX", "address-name"), ("XXX", "address-name")],
        ),
        (
            "die Häuser Z-weg 01, 02 und 03",
            [("Z-weg 01", "address-name"), ("02", "address-name"), ("03", "address-name")],
        ),
        ("das Grundstück Flur-Nr. xx/001 der Gemarkung", [("xx/001", "address-idx")]),
        ("bei der Firma „Auto- … …“ gekauft", [("… …", "jur-name")]),
        (
            "die Zeugen A, B und C sagten aus",
            [("A", "nat-name"), ("B", "nat-name"), ("C", "nat-name")],
        ),
        (
            "1) A., X-Straße 1, ... - Kläger zu 1) -",
            [("A.", "nat-name"), ("X-Straße 1", "address-name"), ("...", "address-name")],
        ),
        ("wohnhaft Ｘ-Straße 1 in Berlin", [("Ｘ-Straße 1", "address-name")]),
        ("die Zeugin S* wohnt in der …-Straße", [("S*", "nat-name"), ("…-Straße", "address-name")]),
        ("beantragt, [weitere Beteiligte] zu laden", [("[weitere Beteiligte]", "nat-name")]),
        ("vom Facharzt Dr. Y in seiner Stellungnahme", [("Y", "nat-name")]),  # not "Yin"
        # a page number on the next line is no reason to drop a town
        ("der letzte Wohnsitz der Klägerin in S.\n10\nEin Antrag", [("S.", "address-name")]),
    ],
)
def test_every_courts_convention_is_a_placeholder(text, expected):
    got = found(text)
    assert [g[0] for g in got] == [e[0] for e in expected]
    assert [g[1] for g in got] == [e[1] for e in expected]


@pytest.mark.parametrize(
    "text",
    [
        "nach Kapitel XXX der Verordnung",  # a Roman thirty after a numbered noun
        "in den feedback circuits S1, S2 and S3... enthalten",  # a list continued
        "with EDM Q1… Q2) verbunden",
        "gebrauchten Audi A6 Avant",  # a model, no person before it
        "wenn es [...] um Auswirkungen geht",  # an omission in brackets
        "/;###\n/;###/g43/g68/g80",  # a PDF font's glyph codes
        "geändert mit Gesetz vom 16. September 2004 (GVBl. S.\n391) – im Folgenden",
        "Kopp/Schenke, VwGO, 16. A., § 42 Rn. 66",  # an edition
        "der Dienstposten ist nach A 16 zu bewerten",  # a pay grade
        "TAT B E S TAN D\nMit Schriftsatz",  # a letter-spaced heading
        "EuGH, Urteil vom 6. April 1995 - C-241/91 P, Slg. 1995",  # a docket's suffix
        "Außerdem sei in Fig. 4 der Druckschrift",
        'bis auf den Konsonanten "n" in der Marke',  # a letter discussed, not masked
        "Verfahren nach dem Verbraucherinformationsgeset ...\n10. 03. 2017https://www.justiz.nrw.de",
        "Restzeit (R) 1 / 1 / R 1 / 1 / R 2",  # a tariff table
        "nach der S-Entgeltgruppe 4",  # a pay scale
        "vgl. (S. 17 K) dort",
        "Der Wind kam aus Süd.",
        "wie oben B III. a) ausgeführt",  # an outline reference
        "Der Auskunftsanspruch der A ntragstellerin ergibt sich",  # a word split by a PDF
        "die E -Mail-Adresse der Behörde",
        "(Bl. 5 ff. d. erstinstanzl. A.) zugrunde",  # the file (Akte)
        "die Verwaltungsvorgänge (Beiakten A, B, C).",
    ],
)
def test_look_alikes_stay_text(text):
    assert found(text) == []


def test_unmistakable_masks_skip_glyph_codes_and_margin_numbers():
    masks = [
        m.group() for m in RE_MASK_TOKEN.finditer("/;###/g43 XXX ....2022 ....56 ##### xx.xx.2016")
    ]
    assert masks == ["XXX", "....2022", "#####", "xx.xx.2016"]


def test_token_shape_groups_one_convention():
    assert token_shape("XXX") == token_shape("XXX") == "XXX"
    assert token_shape("Xxxxxxxx") == "Xxxx+"
    assert token_shape("xx.xx.2016") == "xx.xx.999+"
    assert token_shape("B1.") == "A9."


def test_audit_counts_masks_outside_placeholders_per_court():
    rows = [
        {
            "id": "a",
            "court": "VG Eins",
            "text": "Richter am Verwaltungsgericht XXX und der Kläger A.",
        },
        {"id": "b", "court": "VG Eins", "text": "Nach Kapitel XXX gilt das. Siehe Anlage K 3."},
        {"id": "c", "court": "VG Zwei", "text": "Der Kläger Herr B. wohnt in der B-Straße 3."},
    ]
    report = audit(rows, "test")
    by_court = {g.group: g for g in report.groups}
    assert (by_court["VG Eins"].masks, by_court["VG Eins"].masks_outside) == (2, 1)
    assert by_court["VG Eins"].documents_with_misses == 1
    assert by_court["VG Eins"].outside["XXX"].count == 1
    assert "Kapitel [XXX]" in by_court["VG Eins"].outside["XXX"].examples[0]
    assert by_court["VG Zwei"].masks == 0 and by_court["VG Zwei"].placeholders == 2
    assert report.outside_share == pytest.approx(0.5)
    rejected = by_court["VG Eins"].rejected
    assert "A" in rejected  # the K of "Anlage K 3"
    markdown = report.to_markdown()
    assert (
        "| VG Eins | 2 | 2 | 1 |" in markdown and "VG Zwei |" not in markdown.split("Candidates")[0]
    )
    assert report.to_dict()["masks_outside"] == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # numbered and glued masks: the dots, a title, a company word or a parcel noun decide
        ("über das Flurstück F3.. angemessen", [("F3.", "address-idx")]),
        ("Aufgabenkreis der X1 AG übertragen", [("X1", "jur-name")]),
        ("Journalist bei der XY AG. Er", [("XY", "jur-name")]),
        ("durch den Richter am Amtsgericht Dr. L2 für Recht", [("L2", "nat-jur")]),
        ("mit der C.bank geschlossenen Darlehen", [("C.bank", "jur-name")]),
        ("die erste Klasse der C.-schule", [("C.-schule", "jur-name")]),
        ("von der D...-AG im Rahmen", [("D...-AG", "jur-name")]),
        ("wurde in („Ort01“) festgenommen", [("Ort01", "address-name")]),
        ("Der Verfolgte wurde am XX. Juli 2022 festgenommen", [("XX.", "date-fact")]),
    ],
)
def test_numbered_and_glued_masks(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "in der Tabelle 11, Zeile X1: control signal",  # a reference, nothing beside it
        "weil das U nterliegen der Antragstellerin",  # a drop capital split off its word
        "anlässlich einer B etriebskontrolle in seiner Spielhalle",
        "Die Beklagte (Bekl.) ist verpflichtet, dem Kläger (Kl.) Auskunft zu geben.",
        "ein Erstattungsanspruch i. H. von 12 EUR",
        "Erfolg.\nB.\n49\nIn der Sache hatte die Berufung",  # an outline letter, margin number
    ],
)
def test_more_look_alikes_stay_text(text):
    assert found(text) == []


def test_a_real_initial_before_a_word_stays_a_placeholder():
    assert found("Der Zeuge B hat ausgesagt.") == [("B", "nat-name")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the plural names the firm, the singular one lawyer (decision 6)
        ("Prozessbevollmächtigte: Rechtsanwälte B., B-Straße", ("B.", "jur-name")),
        ("- Kläger -\nprozessbevollmächtigt:\nXXX\ngegen", ("XXX", "nat-jur")),
        # a place in an authority's name, whatever the mask's shape
        ("Die Kreispolizeibehörde H vernahm die Zeugin.", ("H", "address-name")),
        ("Mit der StA N geht der Senat davon aus", ("N", "address-name")),
        # a number word before a mask or an ellipsis
        ("mit den Rechnungskorrekturen Nr. … (Bl. 32)", ("…", "id-number")),
        ("unter der Betriebsnummer 41****** im Zeitraum", ("41******", "id-number")),
        # the case's expert (court-appointed unless said otherwise)
        ("Auch der SV Dr. P weist darauf hin.", ("P", "nat-jur")),
        ("nach dem Gutachten des Dr. N ist das so", ("N", "nat-jur")),
        # composed and decomposed umlauts read alike
        ("des Sachverständigen L hat", ("L", "nat-jur")),
        ("des Sachversta\u0308ndigen L hat", ("L", "nat-jur")),
    ],
)
def test_labels_from_the_words_around(text, expected):
    assert found(text)[0] == expected


def test_a_guess_takes_the_label_the_decision_gives_the_same_letters_elsewhere():
    text = (
        "Die Antragsgegnerin wirbt mit der Anschrift L. "
        "Sie verwendete die Angabe „L“ auf ihrer Seite."
    )
    assert [label for _, label in found(text)] == ["address-name", "address-name"]
    # masks every entity shares are never linked: each XXX keeps its own reading
    shared = "Herr XXX wohnt dort. Der Vertrag vom XXX gilt."
    assert [label for _, label in found(shared)] == ["nat-name", "date-fact"]


def test_one_entity_keeps_its_letter_across_the_decision():
    # "I" alone reads as a Roman numeral; the company "I AG" decides what it hides here
    text = (
        "Gemeinschaftsunternehmen der I AG (im Folgenden: I) und der J AG. "
        "Die Stimmrechtsmitteilung der I erfolgte später; der K-Erwerb der K GmbH auch. "
        "Gemäß Teil I und Anlage I gilt das.\nI.\nDie Klage ist zulässig."
    )
    got = found(text)
    assert [s for s, _ in got] == ["I", "I", "J", "I", "K", "K"]
    assert {label for _, label in got} == {"jur-name"}


def test_a_decided_letter_stays_text_in_references_lists_and_split_words():
    text = (
        "Die Zeugin Frau B. sagte aus. Die Beiakten A, B, C lagen vor; "
        "die Behörde hat mit B lick auf das Ziel entschieden (vgl. Bl 123 B-Akte). "
        "Herr E. schrieb mit E-Mail."
    )
    assert found(text) == [("B.", "nat-name"), ("E.", "nat-name")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # dates a court letters in order, after a date word (not before a name)
        (
            "Mit Bescheid vom U., eingegangen am V., setzte",
            [("U.", "date-fact"), ("V.", "date-fact")],
        ),
        ("Der Kläger erhob unter dem Z. Widerspruch", [("Z.", "date-fact")]),
        ("Das Schreiben vom A. Müller", [("A.", "nat-name")]),
        # streets the element split misses, masked file numbers, parcel numbers, portal tokens
        (
            "Schmutzwasserkanal X.-straße/T2.-weg",
            [("X.-straße", "address-name"), ("T2.-weg", "address-name")],
        ),
        ('des Vorgangs "M.- weg" betrifft', [("M.- weg", "address-name")]),
        ("ARGE für Beschäftigung A*-Stadt", [("A*-Stadt", "address-name")]),
        ("des Widerspruchsbescheides (W-XX1) sowie", [("W-XX1", "court-docket")]),
        ("auf dem Grundstück FlNr. 4... der Gemarkung", [("4...", "address-idx")]),
    ],
)
def test_conventions_of_the_second_key(text, expected):
    assert found(text) == expected


def test_a_portal_token_is_a_mask():
    assert [s for s, _ in found("nach der Rechtsprechung des Eufach0000000005s gilt")] == [
        "Eufach0000000005s"
    ]
