"""Decoding that respects words, merges the recognizers and uses calibrated thresholds."""

from __future__ import annotations

import json
import shutil
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.model.calibration import calibrate, write_calibration
from hf_anon.model.decoding.edges import trim_edges
from hf_anon.model.detection import SpanDetector
from hf_anon.model.recognizers import merge_with_rules
from hf_anon.text.data import Span
from hf_anon.text.lexicon import is_closed_class


def texts(text: str, spans: list[Span]) -> list[str]:
    return [text[s.start : s.end] for s in spans]


@pytest.mark.parametrize(
    ("text", "part", "label", "expected"),
    [
        (
            "wohnt in der Bahnhofstraße 12.",
            "in der Bahnhofstraße 12",
            "address-name",
            ["Bahnhofstraße 12"],
        ),
        (
            "Bahnhofstraße 12 in München",
            "Bahnhofstraße 12 in",
            "address-name",
            ["Bahnhofstraße 12"],
        ),
        ("Die Kündigung der Wohnung", "der", "address-name", []),
        ("Am 3. März 2021 kam er", "Am 3. März 2021", "date-fact", ["3. März 2021"]),
        (
            "WOHNHAFT IN DER HAUPTSTRASSE 5",
            "IN DER HAUPTSTRASSE 5",
            "address-name",
            ["HAUPTSTRASSE 5"],
        ),
        (
            "Frau Oberpaur, Am Kugelfang 3, 82041",
            "Am Kugelfang 3",
            "address-name",
            ["Am Kugelfang 3"],
        ),
        ("An der Alster 5 wohnt", "An der Alster 5", "address-name", ["An der Alster 5"]),
        ("durch Richter von der Au entschieden", "von der Au", "nat-jur", ["von der Au"]),
        ("die Moderatorin Anne Will sagte", "Anne Will", "nat-name", ["Anne Will"]),
        ("Herr Weil und", "Weil", "nat-name", ["Weil"]),
        # a role-like surname after a role is a name, not a role
        ("dem vernommenen Zeugen Richter sowie", "Richter", "nat-name", ["Richter"]),
        ("der Polizeibeamte Richter sagte", "Richter", "nat-name", ["Richter"]),
        ("sagte der Hauswart aus", "Hauswart", "nat-name", []),
        ("Der Kläger trägt die Kosten", "Kläger", "nat-name", []),
        ("Tenor\n\nDie Klage", "Tenor", "nat-name", []),
        ("Tenor\nI\nDer Beklagte", "Tenor\nI", "nat-name", []),
        ("GRÜNDE\nHans Huber", "GRÜNDE\nHans Huber", "nat-name", ["Hans Huber"]),
        # a verb or other lower-case word at the edge of a name or an address
        ("Tobias Wendrich bog ab.", "Tobias Wendrich bog", "nat-name", ["Tobias Wendrich"]),
        ("Dann sagte Hans Müller aus.", "sagte Hans Müller", "nat-name", ["Hans Müller"]),
        (
            "die Allersberger Straße stadteinwärts",
            "Allersberger Straße stadteinwärts",
            "address-name",
            ["Allersberger Straße"],
        ),
        ("Bahnhofstraße 12 a", "Bahnhofstraße 12 a", "address-name", ["Bahnhofstraße 12 a"]),
        ("Herr Jan van Dijk", "Jan van Dijk", "nat-name", ["Jan van Dijk"]),
        ("durch den entgangene Gewinn", "entgangene", "nat-name", []),
        ("wohnhaft ebenda", "ebenda", "address-name", []),
        # salutations, titles and roles are outside a person's name
        ("wie Frau Brandstätters Antrag", "Frau Brandstätters", "nat-name", ["Brandstätters"]),
        ("Mutter Katharina Moser", "Mutter Katharina Moser", "nat-name", ["Katharina Moser"]),
        ("die Familie Kowalczyk", "Familie Kowalczyk", "nat-name", ["Kowalczyk"]),
        ("Dr. Hans Müller", "Dr. Hans Müller", "nat-name", ["Hans Müller"]),
        ("Richter, Anna", "Richter, Anna", "nat-name", ["Richter, Anna"]),
        ("die Mutter sagte", "Mutter", "nat-name", []),
        # common nouns of legal prose and lone weekdays are no span
        ("nebst Zinsen in Höhe von 5 Prozentpunkten", "Höhe", "address-name", []),
        ("Blatt 61 der Akte I. Instanz", "Instanz", "nat-name", []),
        ("bis Freitag, 13.2.2026, mitzuteilen", "Freitag", "date-fact", []),
        ("durch Richterin Freitag entschieden", "Freitag", "nat-jur", ["Freitag"]),
        ("in der Nacht zum 3. Mai", "Nacht zum 3. Mai", "date-fact", ["Nacht zum 3. Mai"]),
        # signs without letters and dangling brackets are no edge of a span
        (
            "Landgericht Passau – 3 O 118/22",
            "Landgericht Passau –",
            "court-name",
            ["Landgericht Passau"],
        ),
        (
            "mit einem Ford Transit (Kennzeichen OBS-TW 77)",
            "Ford Transit (Kennzeichen",
            "car-name",
            ["Ford Transit"],
        ),
        (
            "lehnte das Bundessozialgericht (BSG) die Beschwerde ab",
            "Bundessozialgericht (BSG",
            "court-name",
            ["Bundessozialgericht (BSG"],
        ),
        (
            "Frau Anna Weber (geb. Huber)",
            "Anna Weber (geb. Huber)",
            "nat-name",
            ["Anna Weber (geb. Huber)"],
        ),
        # a court by its type alone, a chamber: no court name; with a place it is one
        ("verurteilte das Arbeitsgericht den Beklagten", "Arbeitsgericht", "court-name", []),
        ("beim SG mündliche Verhandlung", "SG", "court-name", []),
        ("Spruchkörper: 21. Senat", "21. Senat", "court-docket", []),
        (
            "das Arbeitsgericht Nordhausen",
            "Arbeitsgericht Nordhausen",
            "court-name",
            ["Arbeitsgericht Nordhausen"],
        ),
        (
            "das Bundesarbeitsgericht",
            "Bundesarbeitsgericht",
            "court-name",
            ["Bundesarbeitsgericht"],
        ),
        # a court name ends on a name, not on a verb; a plural names no court
        ("Das Arbeitsgericht hob das Urteil auf", "Arbeitsgericht hob", "court-name", []),
        (
            "des Sächsischen Ober-\nverwaltungsgerichts",
            "Sächsischen Ober-\nverwaltungsgerichts",
            "court-name",
            ["Sächsischen Ober-\nverwaltungsgerichts"],
        ),
        (
            "Bei den hessischen Verwaltungsgerichten",
            "hessischen Verwaltungsgerichten",
            "court-name",
            [],
        ),
        # every docket joins numbers by a slash, dot, underscore or dash
        ("Der Antrag Nr. 9a ist unzulässig", "9a", "court-docket", []),
        ("die als Anlage AST 3 beigebrachte Vorlage", "AST 3", "court-docket", []),
        ("hat die Zivilkammer 15 des Landgerichts", "Zivilkammer 15", "court-docket", []),
        ("Az. M 12 K 20.1234", "M 12 K 20.1234", "court-docket", ["M 12 K 20.1234"]),
        ("/j2008/1_K_592_08urteil", "1_K_592_08", "court-docket", ["1_K_592_08"]),
        # a date has a number or a calendar word; a bare number is a day, an hour or
        # opens a range
        ("äußere seit etwa drei Monaten", "drei Monaten", "date-fact", []),
        ("Ordnungshaft bis zu 6 Monaten", "6", "date-fact", []),
        (
            "im Sommer vor der Jahrtausendwende",
            "Jahrtausendwende",
            "date-fact",
            ["Jahrtausendwende"],
        ),
        ("am 10.03.2004 um 13.30 Uhr", "13", "date-fact", ["13"]),
        ("für die Monate 9 - 12/2025", "9", "date-fact", ["9"]),
        ("vom 3. bis zum 7. Mai 2019", "3", "date-fact", ["3"]),
        ("am 5./6. Juni 2020", "5", "date-fact", ["5"]),
        ("am 31. 3. und am 16. 4.", "31", "date-fact", ["31"]),
        ("ab dem 1. Januar", "1", "date-fact", ["1"]),
        ("um 05:45 Uhr", "05", "date-fact", ["05"]),
        # a list's or a chamber's number is no day
        ("den Anträgen zu 1. bis 8.: 9. die Beklagte", "8", "date-fact", []),
        ("zu zahlen; 12. die Beklagte zu verurteilen", "12", "date-fact", []),
        ("das Urteil des 18a. Zivilsenats", "18a", "date-world", []),
        # a floor or flat: no measure without its dwelling, no direction alone, no annex
        ("Die Wohnung ist mit 78,5 m² groß", "78,5 m²", "address-idx", []),
        (
            "Er bewohnt eine 48 qm große Erdgeschosswohnung",
            "48 qm große Erdgeschosswohnung",
            "address-idx",
            ["48 qm große Erdgeschosswohnung"],
        ),
        ("Der Kläger lenkte nach links", "links", "address-idx", []),
        ("Aus der Rechnung (Anlage K 6) folgt", "K 6", "address-idx", []),
        ("in der Wohnung im 3. OG links", "3. OG links", "address-idx", ["3. OG links"]),
        # phrases may begin with a preposition, never end with one
        (
            "seit Mai 2018 verheiratet",
            "seit Mai 2018 verheiratet",
            "nat-idx",
            ["seit Mai 2018 verheiratet"],
        ),
        (
            "Pflegefachkraft auf der Intensivstation der Klinik",
            "Pflegefachkraft auf der Intensivstation der",
            "nat-idx",
            ["Pflegefachkraft auf der Intensivstation"],
        ),
    ],
)
def test_span_edges_never_hold_closed_class_words_verbs_or_roles(text, part, label, expected):
    start = text.index(part)
    span = Span(start, start + len(part), label, "high", 0.9)
    assert texts(text, trim_edges(text, [span])) == expected


def test_closed_class_words_come_from_the_maintained_list():
    assert all(is_closed_class(w) for w in ["der", "in", "und", "ihm", "wird", "Am", "DER"])
    assert not any(is_closed_class(w) for w in ["Will", "Weil", "Müller", "Bahnhofstraße", "weg"])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab der in Müller.,\n", max_size=40), st.data())
def test_trimmed_spans_stay_inside_and_never_edge_on_a_closed_class_word(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    if start == end or text[start].isspace() or text[end - 1].isspace():
        return
    for span in trim_edges(text, [Span(start, end, "address-name", "high")]):
        assert start <= span.start < span.end <= end
        words = text[span.start : span.end].split()
        assert not is_closed_class(words[0]) and not is_closed_class(words[-1])


def test_rules_add_what_the_model_missed_and_the_model_keeps_its_label():
    text = "Amtsgericht Fürth, Az. 3 C 1234/21 – Herr Weber"
    model = [Span(0, 11, "court-name", "low", 0.8), Span(42, 47, "nat-name", "high", 0.9)]
    rules = [Span(0, 17, "court-name", "low", 1.0), Span(23, 34, "court-docket", "medium", 1.0)]
    merged = merge_with_rules(model, rules, text)
    assert [(text[s.start : s.end], s.label) for s in merged] == [
        ("Amtsgericht Fürth", "court-name"),  # union of both edges
        ("3 C 1234/21", "court-docket"),  # the rule alone
        ("Weber", "nat-name"),  # the model alone
    ]
    date_as_fact = [Span(5, 15, "date-fact", "medium", 0.7)]
    date_as_world = [Span(5, 15, "date-world", "low", 1.0)]
    assert merge_with_rules(date_as_fact, date_as_world, "x" * 20)[0].label == "date-fact"


def test_a_model_span_over_two_rule_spans_is_cut_at_their_edges():
    text = "Verwaltungsgericht München\nM 12 K 20.1234\nIn der Sache"
    one = [Span(0, 41, "court-docket", "medium", 0.9)]
    rules = [Span(0, 26, "court-name", "low", 1.0), Span(27, 41, "court-docket", "medium", 1.0)]
    assert [(text[s.start : s.end], s.label) for s in merge_with_rules(one, rules, text)] == [
        ("Verwaltungsgericht München", "court-name"),
        ("M 12 K 20.1234", "court-docket"),
    ]


DOCKET_TEXT = "Verwaltungsgericht Regensburg\nRO 5 S 19.611\nIn der Verwaltungsstreitsache"


def test_the_detector_merges_recognizers_named_in_its_config(tiny_model_dir, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    plain = SpanDetector.from_pretrained(folder, recognizers=())
    assert "RO 5 S 19.611" not in texts(DOCKET_TEXT, plain.detect([DOCKET_TEXT])[0])

    config = json.loads((folder / "config.json").read_text())
    config["recognizers"] = ["dockets", "courts"]
    (folder / "config.json").write_text(json.dumps(config))
    hybrid = SpanDetector.from_pretrained(folder)
    assert hybrid.recognizers == ("dockets", "courts")
    found = texts(DOCKET_TEXT, hybrid.detect([DOCKET_TEXT])[0])
    assert any("RO 5 S 19.611" in f for f in found)
    assert any("Verwaltungsgericht Regensburg" in f for f in found)
    with pytest.raises(ValueError, match="unknown recognizers"):
        SpanDetector.from_pretrained(folder, recognizers=["no-such-rule"])


def test_calibration_is_written_to_the_config_and_used_by_every_entry_point(
    tiny_model_dir, tmp_path, sample_gold
):
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    detector = SpanDetector.from_pretrained(folder, recognizers=["dates"])
    result = calibrate(detector, sample_gold, grid=(0.3, 0.6), rounds=1)
    assert set(result.thresholds) == set(detector.labels.names)
    assert (
        result.after["f_beta"] >= result.before["f_beta"] - 1e-9
        or result.after["recall_high"] > result.before["recall_high"]
    )
    write_calibration(folder, result, "sample")
    reloaded = SpanDetector.from_pretrained(folder)
    assert reloaded.label_thresholds == result.thresholds
    assert reloaded.recognizers == ("dates",)
    assert json.loads((folder / "calibration.json").read_text())["gold"] == "sample"
    # an explicit threshold still overrides the calibrated ones (report's threshold curve)
    assert reloaded.detect([sample_gold[0].text], threshold=0.0)[0]
    # a recalibration starts from the stored thresholds too: it never ends below them
    again = calibrate(reloaded, sample_gold, grid=(0.9,), rounds=1)
    assert (again.after["recall_high"], again.after["f_beta"]) >= (
        result.after["recall_high"],
        result.after["f_beta"],
    )


def test_names_in_capitals_are_read_in_title_case_and_acronyms_stay():
    from hf_anon.text.views import case_view, model_view

    assert case_view("IM NAMEN DES VOLKES") == "Im Namen Des Volkes"
    text = "Die Forderung ging an MICAEL MEADOWS, laut BGH und VW Golf; HANS-PETER MÜLLER kam."
    assert case_view(text) == (
        "Die Forderung ging an Micael Meadows, laut BGH und VW Golf; Hans-Peter Müller kam."
    )
    cited = (
        "So hat es der Bundesgerichtshof entschieden (Urteil vom 20.01.2016 – VIII ZR 93/15), "
        "und die Zahlung auf das Konto mit der IBAN DE87 7425 ging ein (vgl. BGH NJW 2005)."
    )
    assert case_view(cited) == cited
    assert model_view("HANS\x00MÜLLER kam") == "Hans Müller kam"
    assert len(model_view(text)) == len(text)


def test_words_in_capitals_with_a_sharp_s_are_capitals():
    from hf_anon.text.lexicon import is_all_caps
    from hf_anon.text.views import case_view

    assert is_all_caps("AUßERDEM") and is_all_caps("STRAßE") and not is_all_caps("ß")
    text = "GELADEN WAR AUßERDEM TUTKUN LANCISI, DER NICHT ERSCHIEN."
    assert case_view(text) == "Geladen War Außerdem Tutkun Lancisi, Der Nicht Erschien."


def test_decomposed_umlauts_are_the_same_words():
    text = unicodedata.normalize("NFD", "nebst Zinsen in Höhe von 5 Prozent für die Klägerin")
    height = text.index("H")
    spans = [
        Span(
            height,
            height + len(unicodedata.normalize("NFD", "Höhe")),
            "address-name",
            "medium",
            0.9,
        )
    ]
    assert trim_edges(text, spans) == []
    assert is_closed_class(unicodedata.normalize("NFD", "für"))
