"""One name per court: what splits and selections by court rely on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.corpora.courts import (
    TRAINED_BY_BUNDLED,
    court_identity,
    court_key,
    court_type,
    courts_of,
    folds_by_court,
    normalize_court,
    without_folds,
)

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


def test_every_decision_of_a_court_falls_in_one_fold_whatever_its_spelling():
    from hf_anon.text.data import Document

    decisions = [
        Document(id="openjur:1", text="…", meta={"court": "Oberlandesgericht Köln"}),
        Document(id="openjur:2", text="…", meta={"court": "OLG Köln 19. Zivilsenat"}),
        Document(id="juris:3", text="…", meta={"court": "Bundesgerichtshof XI. Zivilsenat"}),
        Document(id="juris:4", text="…", meta={"court": "BGH"}),
    ]

    folds = folds_by_court(decisions, 5)

    assert folds[0] == folds[1] and folds[2] == folds[3]
    assert all(0 <= f < 5 for f in folds)
    assert folds_by_court(decisions, 5) == folds  # a hash, not a draw


def test_a_decision_without_a_court_is_folded_by_its_source():
    from hf_anon.text.data import Document

    unnamed = [Document(id=f"bverwg:{i}", text="…") for i in range(3)]

    assert len(set(folds_by_court(unnamed, 7))) == 1


@given(
    st.lists(st.sampled_from(["VG Mainz", "LG Kassel", "BGH", None]), max_size=20),
    st.integers(1, 9),
)
def test_folds_are_counted_from_zero_below_their_number(courts, folds):
    from hf_anon.text.data import Document

    decisions = [Document(id=f"src:{i}", text="…", meta={"court": c}) for i, c in enumerate(courts)]

    assert all(0 <= f < folds for f in folds_by_court(decisions, folds))


def test_no_folds_is_an_error():
    with pytest.raises(ValueError, match="at least 1"):
        folds_by_court([], 0)


def test_the_bundled_models_trained_fold_is_left_out_of_the_filters_decisions():
    """The citation filter learns from decisions the model never trained on: the bundled
    model trained on fold 1 of rounds 4-9, so the filter reads folds 2-5 only, and no court
    of fold 1 is among them."""
    from train_cited_filter import ROUNDS, training_decisions

    real = Path(__file__).resolve().parents[2] / "data" / "real" / "train.jsonl"
    every = training_decisions(ROUNDS, real)
    kept = training_decisions(ROUNDS, real, TRAINED_BY_BUNDLED)

    trained_courts = {
        court_key(d)
        for d, k in zip(every, folds_by_court(every, 5), strict=True)
        if k + 1 in TRAINED_BY_BUNDLED
    }
    assert len(every) == 341 and len(kept) == 192
    assert not trained_courts & {court_key(d) for d in kept}


def test_the_fold_benchmarks_leave_out_what_the_bundled_model_trained_on_folds_keeping_numbers():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from rules_cv import fold_pool

    every, every_fold = fold_pool(leave_out=())
    unseen, unseen_fold = fold_pool()

    assert TRAINED_BY_BUNDLED == (1,)
    assert sorted(set(every_fold)) == [0, 1, 2, 3, 4]
    assert sorted(set(unseen_fold)) == [1, 2, 3, 4]  # fold 2 is still fold 2
    trained = {d.id for d, k in zip(every, every_fold, strict=True) if k == 0}
    assert len(every) == 341 and len(unseen) == 192
    assert not trained & {d.id for d in unseen}


def test_a_fold_benchmark_of_other_fold_counts_still_leaves_out_what_the_bundled_model_saw():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from rules_cv import fold_pool

    every, every_fold = fold_pool(leave_out=())
    trained = {d.id for d, k in zip(every, every_fold, strict=True) if k + 1 in TRAINED_BY_BUNDLED}
    three, three_fold = fold_pool(3)

    assert len(three) == 192 and not trained & {d.id for d in three}
    assert sorted(set(three_fold)) == [0, 1, 2]  # the rest split into three, none left empty


def test_leaving_a_fold_out_keeps_the_other_folds_numbers():
    from hf_anon.text.data import Document

    decisions = [
        Document(id=f"src:{i}", text="…", meta={"court": c})
        for i, c in enumerate(["VG Mainz", "LG Kassel", "BGH", "OLG Köln", "AG Fürth"] * 2)
    ]
    every = folds_by_court(decisions, 5)
    left_out = every[0] + 1  # VG Mainz's fold, counted from 1

    kept, folds = without_folds(decisions, [left_out])

    assert all(f + 1 != left_out for f in folds)
    assert [every[decisions.index(d)] for d in kept] == folds
    assert len(kept) == sum(f + 1 != left_out for f in every)
