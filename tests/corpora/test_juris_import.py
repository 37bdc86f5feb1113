"""Decisions saved from juris become corpus rows with the court's text only."""

# ruff: noqa: E501 (pages as juris saves them)

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
from import_juris_exports import read_decision
from prepare_unseen_courts import main as prepare_unseen

PRINT_VIEW = """<html><body>
<h1 class="unsichtbar">juris.de: Druckansicht Einzeldokument</h1>
<div class="documentHeader"><table><tbody>
<tr><td class="TD30"><strong>Gericht:</strong></td><td class="TD70">LG Neustadt 8. Kammer f\u00fcr Handelssachen</td></tr>
<tr><td class="TD30"><strong>Entscheidungsdatum:</strong></td><td class="TD70">04.05.2012</td></tr>
<tr><td class="TD30"><strong>Aktenzeichen:</strong></td><td class="TD70">7 O 436/11</td></tr>
<tr><td class="TD30"><strong>Normen:</strong></td><td class="TD70">\u00a7 33 GWB ... mehr</td></tr>
<tr><td class="TD30"><strong>Zitiervorschlag:</strong></td><td class="TD70">LG Neustadt, Urteil vom 4. Mai 2012 \u2013 7 O 436/11 \u2013, juris</td></tr>
</tbody></table></div>
<div class="docLayoutTitel">Kartellschaden: ein Titel der Redaktion</div>
<div class="docLayoutText doktyp-juris-r"><h4 class="doc">Orientierungssatz</h4>
<div>Ein Satz, den die Redaktion geschrieben hat.</div></div>
<div class="docLayoutMinMaxText"><h4 class="suppressed_klappbox">Verfahrensgang</h4></div>
<div class="docLayoutText"><h4 class="doc">Tenor</h4><p>Die Klage wird abgewiesen.</p></div>
<div class="docLayoutText"><h4 class="doc">Gr\u00fcnde</h4>
<dl class="RspDL"><dt><span class="unsichtbar">Randnummer</span><a name="rd_1">1</a></dt>
<dd><p>Die Kl\u00e4gerin <em>ist</em> die Y-GmbH.</p><p>Sie hat ihren Sitz in X.</p></dd></dl>
<dl class="RspDL"><dt><span class="unsichtbar">Randnummer</span><a name="rd_2">2</a></dt>
<dd><p>Die Ent\u00adscheidung ergeht am 04.05.2012.</p></dd></dl>
</div>
<div class="docLayoutCopyright"></div>
<span title="rft_id=https%3A%2F%2Fwww.juris.de%2Fperma%3Fd%3DKORE213052012"></span>
</body></html>"""

TEXT_EXPORT = (
    "\ufeff\n\n\u00a0\nGericht:\nLG Neustadt 28. Zivil\u00adkammer\nEntschei\u00addungs\u00addatum:\n"
    "27.04.2016\nAkten\u00adzeichen:\n28 O 379/15\nDokumenttyp:\nUrteil\n\n\u00a0\nQuelle:\n\n"
    "Zitier\u00advor\u00adschlag:\nLG Neustadt, Urteil vom 27. April 2016 \u2013 28 O 379/15 \u2013, juris\n\n\n"
    "\tRecht am eigenen Bild: ein Titel der Redaktion\n\u00a0 \nOrientierungssatz\n"
    "\t1. Ein Leitgedanke der Redaktion.(Rn.30)\nVerfahrensgang\n"
    "nachgehend OLG Neustadt 15. Zivilsenat, 19. Januar 2017, Az: 15 U 88/16, Urteil\n"
    "Tenor\n\t1. Die Beklagte wird verurteilt.\nTatbestand\n"
    "1\tDer Kl\u00e4ger ist C. Die Beklagte verlegt die Zeitung \u201eP\u201c.\n"
    "Entscheidungsgr\u00fcnde\n2\tDie Klage ist begr\u00fcndet.\n\u00a9 juris GmbH\n"
)


def test_a_print_view_keeps_the_head_tenor_and_reasons_with_their_numbers():
    decision = read_decision("antitrust_decisions/LG_Neustadt_7_O_436.htm", PRINT_VIEW)

    assert decision.id == "juris:KORE213052012"
    assert decision.court == "LG Neustadt 8. Kammer für Handelssachen"
    assert decision.court_type == "Landgericht"
    assert decision.date == "2012-05-04"
    assert decision.text.startswith("Gericht: LG Neustadt 8. Kammer für Handelssachen\n")
    assert "Normen: § 33 GWB\n" in decision.text  # the page's "... mehr" is not the court's
    assert "\nTenor\n\nDie Klage wird abgewiesen.\n" in decision.text
    # a margin number starts its paragraph; inline markup does not break the line
    assert "[1] Die Klägerin ist die Y-GmbH.\nSie hat ihren Sitz in X.\n" in decision.text
    assert "[2] Die Entscheidung ergeht am 04.05.2012." in decision.text  # soft hyphen out


def test_what_the_editors_wrote_is_left_out():
    for path, raw in (("a.htm", PRINT_VIEW), ("b_JURE180000258.txt", TEXT_EXPORT)):
        text = read_decision(path, raw).text
        assert "Redaktion" not in text, path
        assert "Randnummer" not in text and "juris GmbH" not in text
        assert "OLG Neustadt 15. Zivilsenat" not in text  # the procedural history is juris's


def test_a_text_export_reads_like_a_print_view():
    decision = read_decision("presslaw/LG_Neustadt_28_O_379-15_JURE180000258.txt", TEXT_EXPORT)

    assert decision.id == "juris:JURE180000258"  # from the file name
    assert decision.date == "2016-04-27"
    assert decision.text.splitlines()[:4] == [
        "Gericht: LG Neustadt 28. Zivilkammer",
        "Entscheidungsdatum: 27.04.2016",
        "Aktenzeichen: 28 O 379/15",
        "Dokumenttyp: Urteil",
    ]
    assert "[1] Der Kläger ist C. Die Beklagte verlegt die Zeitung „P“." in decision.text
    assert "\nEntscheidungsgründe\n\n[2] Die Klage ist begründet.\n" in decision.text


def test_a_page_without_reasons_or_court_is_no_decision():
    assert read_decision("x.htm", PRINT_VIEW.replace("Gr\u00fcnde", "Anmerkung")) is None
    assert read_decision("y_JURE1.txt", "Tenor\nDie Klage wird abgewiesen.\n") is None


def test_the_unseen_court_draw_reads_another_corpus(tmp_path):
    decision = read_decision("antitrust_decisions/LG_Neustadt_7_O_436.htm", PRINT_VIEW)
    # an id no selection has taken yet (the real KORE213052012 is in unseen-courts-juris)
    row = decision.record() | {"id": "juris:KORE000000001", "text": decision.text + "Text. " * 500}
    corpus = tmp_path / "juris.jsonl"
    corpus.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    out = tmp_path / "unseen-courts-juris"

    assert prepare_unseen(["--corpus", str(corpus), "--out", str(out)]) == 0

    (chosen,) = [json.loads(line) for line in (out / "selection.jsonl").open(encoding="utf-8")]
    assert chosen["court_identity"] == "LG Neustadt"
    assert chosen["licence"].startswith("texts § 5 UrhG")
    assert (out / "pass1" / "juris_KORE000000001.txt").exists()


def test_a_corpus_round_keeps_the_unseen_tests_courts_and_taken_decisions_out():
    from prepare_corpus_round import eligible, unseen_test_courts

    from hf_anon.corpora.courts import court_identity

    real = Path(__file__).resolve().parents[2] / "data" / "real"
    kept_out = unseen_test_courts(real)
    assert {"LG Dortmund", "OVG Niedersachsen"} <= kept_out  # both unseen-court tests
    text = "Die Klage wird abgewiesen. " * 200
    rows = [
        {"id": "a", "court": "LG Köln 28. Zivilkammer", "text": text},
        {"id": "b", "court": "LG Dortmund 8. Zivilkammer", "text": text},  # a test's court
        {"id": "c", "court": "LG Köln 8. Kammer für Handelssachen", "text": text},  # taken
        {"id": "d", "court": None, "text": text},  # no court: cannot be kept out
        {"id": "e", "court": "LG Köln", "text": text * 20},  # too long
    ]

    chosen = eligible(rows, kept_out=kept_out, taken={"c"}, longest=100_000)

    assert [row["id"] for row in chosen] == ["a"]
    assert court_identity(chosen[0]["court"]) not in kept_out
