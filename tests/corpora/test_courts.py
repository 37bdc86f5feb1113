"""One name per court: what splits and selections by court rely on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hf_anon.corpora.courts import court_identity, court_type, courts_of, normalize_court

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
from prepare_unseen_courts import draw


@pytest.mark.parametrize(
    ("spelling", "court"),
    [
        ("Verwaltungsgericht Mainz 3. Kammer", "VG Mainz"),
        ("VG Mainz", "VG Mainz"),
        ("Bundesgerichtshof XI. Zivilsenat", "BGH"),
        ("BGH 1. Strafsenat", "BGH"),
        ("Bundesverwaltungsgericht", "BVerwG"),
        ("BPatG München", "BPatG"),
        ("Thüringer Oberlandesgericht 3. Strafsenat", "OLG Thüringen"),
        ("Schleswig-Holsteinisches Oberlandesgericht", "OLG Schleswig-Holstein"),
        ("Hessischer Verwaltungsgerichtshof 8. Senat", "VGH Hessen"),
        ("Hessischer VGH", "VGH Hessen"),
        ("Oberlandesgericht Köln", "OLG Köln"),
        # a chamber named by its matters is the court (juris names the chamber so)
        ("LG Köln 8. Kammer für Handelssachen", "LG Köln"),
        ("LG Berlin Kammer für Handelssachen", "LG Berlin"),
        ("Landgericht Stuttgart 41. Kammer für Handelssachen", "LG Stuttgart"),
        ("OLG Frankfurt 5. Senat für Familiensachen", "OLG Frankfurt"),
    ],
)
def test_every_spelling_of_a_court_gives_one_name(spelling, court):
    assert court_identity(spelling) == court


def test_an_abbreviated_court_gives_the_type_word_the_corpora_use():
    assert court_type("LG Köln 28. Zivilkammer") == "Landgericht"
    assert court_type("OLG Hamm") == "Oberlandesgericht"
    assert court_type("BGH 6. Zivilsenat") == "BGH"  # federal courts are their own type
    assert court_type("") == ""


def test_courts_of_different_states_stay_apart():
    # normalize_court drops the adjective (the placeholder keys were drawn with it);
    # court_identity must not make every Oberlandesgericht one court
    assert normalize_court("Thüringer Oberlandesgericht") == normalize_court(
        "Schleswig-Holsteinisches Oberlandesgericht"
    )
    assert court_identity("Thüringer Oberlandesgericht") != court_identity(
        "Schleswig-Holsteinisches Oberlandesgericht"
    )


def test_a_decision_without_a_court_has_no_identity():
    assert court_identity(None) is None
    assert court_identity("") is None


def decision(id: str, court: str | None, chars: int = 5000) -> dict:
    return {"id": id, "court": court, "text": "x" * chars}


def test_draw_takes_only_unseen_named_courts_a_few_each_keyed_first():
    candidates = [
        (decision("seen", "Verwaltungsgericht Mainz 2. Kammer"), None),
        (decision("no-court", None), None),
        (decision("koeln-1", "Oberlandesgericht Köln"), None),
        (decision("koeln-2", "OLG Köln"), None),
        (decision("koeln-keyed", "Oberlandesgericht Köln"), []),
        (decision("too-long", "VG Kassel", chars=50_000), None),
        (decision("kassel", "VG Kassel"), None),
    ]

    chosen = draw(candidates, {"VG Mainz"}, per_court=2, longest=40_000, seed=0)

    ids = {row["id"] for row, _ in chosen}
    assert "seen" not in ids and "no-court" not in ids and "too-long" not in ids
    assert "kassel" in ids
    assert "koeln-keyed" in ids  # the keyed decision of a court comes first
    assert sum(court_identity(row["court"]) == "OLG Köln" for row, _ in chosen) == 2


def test_courts_of_selections_reads_each_decisions_court_once(tmp_path):
    selection = tmp_path / "selection.jsonl"
    rows = [
        {"id": "a", "court": "Oberlandesgericht Köln"},
        {"id": "b", "court": "OLG Köln"},
        {"id": "c", "court": None},
        {"id": "d", "court": "Bundesgerichtshof XI. Zivilsenat"},
    ]
    selection.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")

    assert courts_of([selection]) == {"OLG Köln", "BGH"}
