"""Placeholder detection in published decisions: every pattern, every look-alike."""

from __future__ import annotations

import pytest

from hf_anon.corpora.placeholders import UNKNOWN, find_placeholders, score_placeholders
from hf_anon.text.data import Span


def found(text: str) -> list[tuple[str, str]]:
    """(placeholder text, label) pairs, as a reader would check them."""
    return [(text[p.start : p.end], p.label) for p in find_placeholders(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # special ellipses, alone and glued to letters
        ("Die Beklagte mietete mit Vertrag vom ... eine Wohnung.", [("...", "date-fact")]),
        ("Mit Schreiben vom … lehnte sie ab.", [("…", "date-fact")]),
        ("Der Zeuge H... O... sagte aus.", [("H... O...", "nat-name")]),
        ("„Frau B...s Beschwerden haben wir erhalten.“", [("B...s", "nat-name")]),
        ("wohnhaft …straße …, …", [("…straße …", "address-name"), ("…", "address-name")]),
        # repeated letters, also with a suffix and at the end of a sentence
        ("Das Gericht hat die Zeugin Yyyyy vernommen.", [("Yyyyy", "nat-name")]),
        ("Erlaubnis zur Untervermietung an Herrn Zzzzz.", [("Zzzzz", "nat-name")]),
        ("Sie wohnt in der Xxxx-Allee.", [("Xxxx-Allee", "address-name")]),
        # letters and ellipses in quotes
        ("unter der Bezeichnung „Y“ vermarktet er Honig", [("Y", "jur-name")]),
        ('Der Kläger nannte ihn "A." und ging.', [("A.", "nat-name")]),
        ('Er schrieb "..." an den Rand.', [("...", UNKNOWN)]),
        # single letters with and without period or suffix
        (
            "Der Kläger, Herr A., wohnt in der B-Straße 12 in C.",
            [
                ("A.", "nat-name"),
                ("B-Straße 12", "address-name"),
                ("C.", "address-name"),
            ],
        ),
        ("vernommen wurden die Zeugen D. und E..", [("D.", "nat-name"), ("E.", "nat-name")]),
        ("Die Zeugin C., Sachbearbeiterin, sagte aus.", [("C.", "nat-name")]),
        ("Er fuhr von X nach Y.", [("X", "address-name"), ("Y.", "address-name")]),
        # companies
        ("gegen die X GmbH, vertreten durch", [("X", "jur-name")]),
        ("die Y GmbH & Co. KG hat geliefert", [("Y", "jur-name")]),
        ("Die Beklagte ist Ärztin der Klinik X und arbeitet nachts.", [("X", "jur-name")]),
        ("eine Rechnung der Firma W vom 19.05.2022", [("W", "jur-name")]),
        ("die D P T S GmbH ist Beklagte", [("D P T S", "jur-name")]),
        # single-letter e-mail addresses and URLs
        ("an die Adresse a@x.de geschrieben", [("a@x.de", "id-number")]),
        ("per E-Mail an user@l.de", [("user@l.de", "id-number")]),
        ("Er inserierte unter www.x.de.", [("www.x.de", "id-number")]),
        ("abrufbar unter http://a/impressum", [("http://a/impressum", "id-number")]),
        # masked dates, postcodes, plates, IBANs, registers
        ("Die Beklagten sind seit dem xx.xx.2016 Mieter.", [("xx.xx.2016", "date-fact")]),
        (
            "Der Zeuge D. hat im … 2023 selbst erklärt",
            [("D.", "nat-name"), ("… 2023", "date-fact")],
        ),
        ("Kind, geboren am ... 2015, wohnt", [("... 2015", "nat-idx")]),
        (
            "H... O..., X-Straße 1, 00000 Y-Stadt",
            [
                ("H... O...", "nat-name"),
                ("X-Straße 1", "address-name"),
                ("00000 Y-Stadt", "address-name"),
            ],
        ),
        (
            "Xxxxx, A-Straße 1, xxxxx Regensburg",
            [
                ("Xxxxx", "nat-name"),
                ("A-Straße 1", "address-name"),
                ("xxxxx Regensburg", "address-name"),
            ],
        ),
        ("amtliches Kennzeichen N-XX 0000, und", [("N-XX 0000", "car-idx")]),
        ("mit dem Kennzeichen FÜ-XX 00.", [("FÜ-XX 00", "car-idx")]),
        (
            "auf ihr Konto mit der IBAN DE00 0000 0000 0000 0000 00.",
            [
                ("DE00 0000 0000 0000 0000 00", "id-number"),
            ],
        ),
        ("im Handelsregister unter HRB … eingetragen", [("…", "jur-idx")]),
        # full-width letters and other scripts used as placeholders (seed 004)
        ("Der Angeklagte Ａ wurde verurteilt.", [("Ａ", "nat-name")]),
        ("Zeugin ＡＢ erschien.", [("ＡＢ", "nat-name")]),
        ("Der Kläger *** erschien nicht.", [("***", "nat-name")]),
        # labels from context cues
        (
            "vertreten durch Rechtsanwalt Dr. ..., Y-Straße 2",
            [
                ("...", "nat-jur"),
                ("Y-Straße 2", "address-name"),
            ],
        ),
        ("durch die Richterin am Amtsgericht Dr. ... auf Grund", [("...", "nat-jur")]),
        ("gez.\n…\nRichter am Amtsgericht", [("…", "nat-jur")]),
        ("Verkündet am 06.08.2024\n…, JSekr'in", [("…", "nat-jur")]),
        ("unter der Vorgangsnummer … aufgenommen", [("…", "court-docket")]),
        ("eine Beistandschaft (Az. ...).", [("...", "court-docket")]),
        ("Fahrzeug-Identifizierungsnummer ..., eine Teilkasko", [("...", "car-idx")]),
        ("(Vertragsnummer …) leisten", [("…", "id-number")]),
        ("gab er seine Mobilnummer ... an", [("...", "id-number")]),
        ("Der Antragsgegner ist ... und arbeitet", [("...", "nat-idx")]),
        ("Der ... Kläger, ein ..., unterhält", [("...", "nat-idx"), ("...", "nat-idx")]),
        ("Von ... bis ... zahlte sie weniger.", [("...", "date-fact"), ("...", "date-fact")]),
        (
            "Zweizimmerwohnung im ... des Anwesens Z-Straße 3 in ...",
            [
                ("...", "address-idx"),
                ("Z-Straße 3", "address-name"),
                ("...", "address-name"),
            ],
        ),
        ("erlässt das Amtsgericht … durch", [("…", "court-name")]),
        ("Er will den Vorgang vergessen: ….", [("…", UNKNOWN)]),
        # real published decisions: masked numbers, zero dates, dotted years, XY in quotes
        ("die leiblichen Eltern des am xx geborenen Kindes", [("xx", "date-fact")]),
        ("Stellungnahme des Arztes vom 00.00.00. Danach habe er", [("00.00.00", "date-fact")]),
        ("eine im Jahre 19.. erlittene Verletzung", [("19..", "date-fact")]),
        ("Ermittlungen zum Komplex „XY“ wegen Untreue", [("XY", "nat-name")]),
        ("das Aufenthaltsbestimmungsrecht für J..\n2\nDie Beteiligten", [("J.", "nat-name")]),
        # an ellipsis alone on a line between the signature cues hides a judge
        ("gez.\n…\nRichter am Amtsgericht", [("…", "nat-jur")]),
        ("die Beschränkung auf die E'er Adresse", [("E'er", "address-name")]),
    ],
)
def test_placeholder_patterns(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # abbreviations, compact and spaced
        "Das ist i.d.R. so (a.a.O.), vgl. z.B. BGH.",
        # real published decisions: decision abbreviations in citations, knock-out pills,
        # figure and outline references, letter-spaced headings, formulas, state names
        "(BVerwG, U. v. 31.01.1969 – IV C 83.66 –, juris; OVG Münster, B. v. 10.11.1997)",
        "eine K. O.-Tablette zu verabreichen",
        "die beiden mit B bezeichneten Kontaktfedern",
        "wie oben B III. a) ausgeführt",
        "festgesetzt.\nG r ü n d e :\nDie Beschwerde",
        "mit der Beschriftung „HK + S + KNO3“",
        "in das Amt A 9z LBesG M-V befördert",
        "Das beklagte Amt. Es trägt die Kosten.",
        "verfügt\n\n...\n\n1.2 wie nachstehend wiedergegeben",
        "the feedback circuits S1, S2 and S3...",
        "Die Information ist nach dem IF G – wie auch die Ablehnung – zu erteilen.",
        "vgl. dazu VG Frankfurt a. M., Urteil vom 18.02.2009",
        "Fahrerlaubnis der Klassen C, C1, CE, C1E, D, D1, DE, D1E",
        "vorzutragen. C. FischerBrenneisenKatzenstein OstwaldtTausch",
        "Dies gilt u. a. auch hier, a. a. O., m. w. N.",
        "Der Mieter trägt die Kosten i. V. m. § 556 BGB, d. h. alle.",
        "Bl. 5 d. A. enthält das Protokoll.",
        # enumerations and outline numbering
        "A. Tatbestand\n\nDie Parteien streiten.",
        "B. Entscheidungsgründe\n\nDie Klage ist zulässig.",
        "A. Die Klage ist begründet.",
        "I. Die Klägerin kann Zahlung verlangen.\nII. Der Zinsanspruch folgt aus § 288 BGB.",
        "wie unter II. A. 2. ausgeführt",
        "a) mit den zugehörigen Feststellungen aufgehoben",
        # annex, page and statute references
        "Aus der Rechnung (Anlage K 6) ergibt sich das.",
        "Vorgelegt als Anl. K 3 und Anl. B 12.",
        "Siehe Palandt, S. 28 ff. und Anhang A 34.",
        "§ 8 Abs. 3 Ziffer 2 UWG und Art. 3 Abs. 1 GG, Nr. 1 lit. a",
        "Nach Ziffer A.2.2.1.4 der AKB ist das versichert.",
        "Führerschein der Klasse B, Teil A, Typ C, Variante B, Vitamin C.",
        "Die Bundesstraße B 12 war gesperrt.",
        # quoted omissions
        "Er sagte: „Ich habe [...] nichts gesehen.“",
        "Der Zeuge bekundete, er habe (...) nicht aufgepasst.",
        # ordinary words that look like placeholders
        "Es verbleibt eine Nachforderung. Am Ende zahlt er.",
        "Per E-Mail und mit der U-Bahn, im T-Shirt, mit dem E-Bike.",
        "Landgericht München I, Prielmayerstraße 7, 80335 München",
        "BGH, Urteil vom 20.01.2016 – VIII ZR 93/15; III ZR 12/19; XII ZR 225/03",
        "Er zahlte 1.024,00 € am 17.08.2023.",
        "Die Akte 5 Js 123/21 wurde eingestellt.",
        "",
        "   \n\n  ",
    ],
)
def test_look_alikes_are_not_placeholders(text):
    assert found(text) == []


def test_tokenized_ler_forms():
    text = "Der Kläger , Herr G . , wohnt in der A-Straße in X ."
    assert found(text) == [("G", "nat-name"), ("A-Straße", "address-name"), ("X", "address-name")]


def test_an_enumeration_letter_can_still_be_a_name_after_a_person_cue():
    text = "Rubrum\n\nA., …, …\n- Kläger -\n\ngegen\n\n1. B., …, …"
    assert [t for t, _ in found(text)] == ["A.", "…", "…", "B.", "…", "…"]
    assert {label for _, label in found(text)[1:3]} == {"address-name"}


def test_every_placeholder_span_is_trimmed_and_sorted():
    text = "Herr A.. Frau B... sagte: „...“ (Az. ...). Die X GmbH."
    placeholders = find_placeholders(text)
    spans = [(p.start, p.end) for p in placeholders]
    assert spans == sorted(spans)
    for p in placeholders:
        piece = text[p.start : p.end]
        assert (piece == piece.strip() and not piece.endswith("..")) or piece.endswith("...")


def test_scores_count_overlaps_and_element_negatives():
    text = "Herr A. traf Frau B. und C. in X."
    key = [Span(5, 7, "nat-name"), Span(18, 20, "nat-name"), Span(25, 27, "nat-name")]
    pred = [Span(5, 7, "nat-name"), Span(18, 20, "jur-name"), Span(31, 32, "address-name")]
    scores = score_placeholders([(text, key, pred)])
    assert (scores.tp, scores.fn, scores.fp) == (2, 1, 1)
    assert scores.precision == pytest.approx(2 / 3)
    assert scores.recall == pytest.approx(2 / 3)
    assert scores.label_accuracy == pytest.approx(1 / 2)
    # elements: Herr A. traf Frau B. und C. in X. → 9, of which 4 touch a placeholder
    assert scores.tn == 5
    assert scores.specificity == pytest.approx(5 / 6)
    assert scores.accuracy == pytest.approx((2 + 5) / (2 + 5 + 1 + 1))


def test_an_ellipsis_inside_a_quotation_is_an_omission_unless_a_cue_names_it():
    assert found("Er sagte: „Ich habe ... nichts gesehen.“ Dann ging er.") == []
    assert found("Sie schrieb: „Herr ... hat die Miete nicht gezahlt.“") == [("...", "nat-name")]
    assert found('Er schrieb "..." an den Rand.') == [("...", UNKNOWN)]


def test_real_plates_and_names_in_an_original_decision_are_not_placeholders():
    text = (
        "Der Kläger Hans Müller fuhr mit seinem VW Golf, amtliches Kennzeichen N-PF 4471, "
        "am 3. März 2021 um 14:30 Uhr in die Bahnhofstraße 12, 90402 Nürnberg."
    )
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "vgl. BSG, Urteil vom 28. Juni 2000 - B 9 SB 2/00 R - NJW 2001, 1966",
        "BFH-Urteil vom 17. November 2015 X R 53/13, BFH/NV 2016, 549",
        "OLG Düsseldorf, Beschluss vom 5. März 2012 - III-1 Ws 62/12",
        "die Frist des § 44 Abs 4 SGB X ist gewahrt",
        "bei 700 bis 900 ° C getempert",
        "Der Patentanspruch 1 gemäß Hilfsantrag A ist neu.",
        "BT-Plenarprot 11/174 S 13106 < A > und (B)",
        "Aufwendungen i. S. des § 33b Abs. 1 EStG; a. A. BFH",
        "Webstationen (WWW) und Ratings wie AAA",
        "aaa) Bereits der Wortlaut; bbb), ccc) und Art. 24 Buchst. iii PCT",
        "an das E-Shop-System, via X-ray diffraction, mit einem E-Motor 17",
    ],
)
def test_citation_and_technical_look_alikes_from_federal_decisions(text):
    assert found(text) == []


def test_letter_compounds_naming_places_and_companies_are_placeholders():
    text = "Der Kläger wohnte in A-M und war Gesellschafter der M-GmbH, die zur X-Gruppe gehört."
    assert found(text) == [
        ("A-M", "address-name"),
        ("M-GmbH", "jur-name"),
        ("X-Gruppe", "jur-name"),
    ]


def test_letters_listed_after_a_reference_noun_are_references():
    text = (
        "Hauptteile A bis D, Hilfsanträge A, B und C, die Merkzeichen „G“ und „H“, "
        "Vokale „a“ und „o“."
    )
    assert found(text) == []


def test_an_ellipsis_closing_a_quotation_is_an_omission():
    assert found("Dort heißt es: Die Zulage wird gezahlt … “ Das genügt.") == []
    assert found("und in einer Kugelmühle gemischt …“ (vgl. D1, S. 9).") == []


def test_the_shapes_of_the_three_readers_live_in_one_module():
    from hf_anon.corpora.placeholders import shapes

    # tokens of spans the surrogates replace: two dots already mask
    assert [shapes.placeholder_kind(t) for t in ("A.", "B...s", "..", "Xxxxx", "xxxxx")] == [
        "initial",
        "genitive",
        "ellipsis",
        "repeated",
        "masked",
    ]
    assert shapes.has_mask("xx.xx.2016") and not shapes.has_mask("C 12/21")
    assert shapes.looks_like_placeholder("A-Straße 1") and not shapes.looks_like_placeholder(
        "VW Golf"
    )
    # parts of LER mentions: no context, legal forms are never parts
    assert shapes.is_placeholder_mention("A. B.") and not shapes.is_placeholder_mention(
        "K. Schmidt"
    )
    assert shapes.placeholder_parts("VEB Elektronik G.") == [(15, 17)]
    assert shapes.placeholder_parts("X e. V.") == [(0, 1)]
    # elements of published decisions: three dots make an ellipsis, two do not
    assert shapes.RE_ELLIPSIS.match("...") and not shapes.RE_ELLIPSIS.match("..")
