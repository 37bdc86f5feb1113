"""What to annotate next (hf-anon select): doubt and unseen courts first, spread over
courts, the budget kept."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hf_anon.apply.selection import Ranked, novelty, rank_documents, select, tag_entropy
from hf_anon.cli.main import main
from hf_anon.model.detection import SpanDetector
from hf_anon.text.data import Document

SURE = np.array([[0.0, 0.0, 1.0]] * 4)
UNSURE = np.array([[1 / 3, 1 / 3, 1 / 3]] * 4)


def test_entropy_runs_from_sure_to_unsure():
    assert tag_entropy(SURE) == pytest.approx(0.0, abs=1e-9)
    assert tag_entropy(UNSURE) == pytest.approx(1.0)
    assert 0 < tag_entropy(np.array([[0.1, 0.1, 0.8]])) < 1


def test_an_unseen_court_counts_more_than_a_seen_one():
    assert novelty("VG Wiesbaden", {"VG Köln"}) == 1.0
    assert novelty("VG Köln", {"VG Köln"}) == 0.0
    assert novelty(None, {"VG Köln"}) == 0.5
    # one court, whatever the spelling: a chamber or the long name is no new court
    assert novelty("Verwaltungsgericht Köln 5. Kammer", {"VG Köln"}) == 0.0
    assert novelty("BGH", {"Bundesgerichtshof XI. Zivilsenat"}) == 0.0


def ranked(*items: tuple[str, str | None, float]) -> list[Ranked]:
    return [Ranked(i, court, score, 0.0, score) for i, court, score in items]


def test_the_budget_is_spread_over_courts_first():
    ranking = ranked(("a1", "A", 0.9), ("a2", "A", 0.8), ("a3", "A", 0.7), ("b1", "B", 0.5))

    assert [r.id for r in select(ranking, 2, per_court=1)] == ["a1", "b1"]
    assert [r.id for r in select(ranking, 3, per_court=1)] == ["a1", "b1", "a2"]
    assert [r.id for r in select(ranking, 9, per_court=1)] == ["a1", "b1", "a2", "a3"]
    with pytest.raises(ValueError, match="at least 1"):
        select(ranking, 0)


def test_two_chambers_of_one_court_share_its_turn():
    ranking = ranked(
        ("s1", "Oberverwaltungsgericht des Saarlandes 1. Senat", 0.9),
        ("s2", "Oberverwaltungsgericht des Saarlandes 2. Senat", 0.8),
        ("k1", "VG Koblenz 4. Kammer", 0.5),
    )

    assert [r.id for r in select(ranking, 2, per_court=1)] == ["s1", "k1"]


def test_the_model_ranks_a_corpus(tiny_model_dir):
    detector = SpanDetector.from_pretrained(tiny_model_dir, max_length=32, stride=8)
    text = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München."
    documents = [
        Document("seen", text, meta={"court": "VG Köln"}),
        Document("unseen", text, meta={"court": "VG Wiesbaden"}),
        Document("unnamed", text),
    ]

    ranking = rank_documents(detector, documents, {"VG Köln"})

    # the same text: the same doubt; the court decides
    assert [r.id for r in ranking] == ["unseen", "unnamed", "seen"]
    assert len({r.doubt for r in ranking}) == 1 and 0 <= ranking[0].doubt <= 1


def test_the_command_writes_the_chosen_ids(tiny_model_dir, tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    training = tmp_path / "train.jsonl"
    text = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12."
    rows = [{"id": f"d{i}", "text": text, "court": court} for i, court in
            enumerate(["VG Köln", "VG Köln", "VG Wiesbaden", "OLG Celle"])]  # fmt: skip
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    training.write_text(json.dumps({"id": "t", "text": "x", "court": "VG Köln"}) + "\n")
    out, scores = tmp_path / "chosen.txt", tmp_path / "scores.jsonl"

    code = main(["select", "--input", str(corpus), "--budget", "2", "--output", str(out),
                 "--model", str(tiny_model_dir), "--training", str(training),
                 "--scores", str(scores), "--no-progress"])  # fmt: skip

    assert code == 0
    assert sorted(out.read_text().split()) == ["d2", "d3"]  # the two unseen courts
    assert len(scores.read_text().splitlines()) == 4
    assert (
        "2 of 4 decisions chosen (2 of courts the training data lacks)" in capsys.readouterr().err
    )
    assert main(["select", "--input", str(corpus), "--budget", "0", "--output", str(out),
                 "--model", str(tiny_model_dir)]) == 2  # fmt: skip
