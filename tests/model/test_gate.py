"""The gate on a candidate's recall: a loss on courts nobody chose on refuses it."""

from __future__ import annotations

import pytest

from hf_anon.model.gate import Gate, best_winner
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS


class Finds:
    """A detector that finds the gold names of a document, except those it was told to miss."""

    labels = DEFAULT_LABELS

    def __init__(self, documents, missed=frozenset()):
        self.gold = {d.text: d.spans for d in documents}
        self.missed = missed

    def detect(self, texts):
        return [
            [
                Span(s.start, s.end, s.label)
                for s in self.gold[t]
                if t[s.start : s.end] not in self.missed
            ]
            for t in texts
        ]


def precedents(count: int) -> list[Document]:
    """``count`` documents of four high-risk names each (one of them, ``Yamada``, everywhere)."""
    docs = []
    for i in range(count):
        names = ["Yamada", f"Sato{i}", f"Suzuki{i}", f"Tanaka{i}"]
        text = " und ".join(names) + "."
        spans, at = [], 0
        for name in names:
            spans.append(Span(at, at + len(name), "nat-name", risk="high"))
            at += len(name) + len(" und ")
        docs.append(Document(id=f"d{i}", text=text, spans=spans))
    return docs


def test_a_candidate_that_misses_on_every_gate_precedent_is_refused():
    docs = precedents(12)
    result = Gate(Finds(docs), docs, samples=200).check(Finds(docs, missed={"Yamada"}))
    assert result.high_risk.incumbent == 1.0
    assert result.high_risk.candidate == pytest.approx(0.75)
    assert result.high_risk.high < 0 and not result.passed


def test_an_equal_candidate_passes_and_a_loss_in_one_precedent_is_noise():
    docs = precedents(12)
    gate = Gate(Finds(docs), docs, samples=200)  # the incumbent read once, for every candidate
    assert gate.check(Finds(docs)).passed
    # one name of one precedent: most draws leave that precedent out or hold it once
    one = gate.check(Finds(docs, missed={"Sato3"}))
    assert one.high_risk.difference < 0 and one.recall.difference < 0 and one.passed


def test_a_gate_without_documents_is_refused():
    with pytest.raises(ValueError, match="no documents"):
        Gate(Finds([]), [])


def test_a_candidate_that_keeps_its_high_risk_names_but_loses_the_rest_is_refused():
    """Recall counts beside high-risk recall: the dates a candidate stops finding are
    published as surely as a name would be."""
    docs = []
    for i in range(12):
        text = f"Yamada{i} kam am 3. Mai 2021 und am 4. Mai 2021."
        spans = [
            Span(0, len(f"Yamada{i}"), "nat-name", risk="high"),
            Span(text.index("3. Mai"), text.index("3. Mai") + 11, "date-fact", risk="low"),
            Span(text.index("4. Mai"), text.index("4. Mai") + 11, "date-fact", risk="low"),
        ]
        docs.append(Document(id=f"d{i}", text=text, spans=spans))
    result = Gate(Finds(docs), docs, samples=200).check(Finds(docs, missed={"3. Mai 2021"}))
    assert result.high_risk.difference == 0 and not result.high_risk.lost
    assert result.recall.candidate == pytest.approx(2 / 3) and result.recall.lost
    assert not result.passed
    assert "recall 0.667 against 1.000" in result.describe()


# --- choosing on the gate's documents (hf-anon calibrate --choose-on) ------------------------


class Marks(Finds):
    """A detector that finds the gold names and also marks every ``und`` (a false span)."""

    def detect(self, texts):
        found = super().detect(texts)
        for spans, t in zip(found, texts, strict=True):
            at = t.find(" und ")
            while at >= 0:
                spans.append(Span(at + 1, at + 4, "nat-name"))
                at = t.find(" und ", at + 1)
        return found


def test_a_candidate_that_finds_what_the_model_in_use_misses_everywhere_wins():
    docs = precedents(12)
    gate = Gate(Finds(docs, missed={"Yamada"}), docs, samples=200)
    result = gate.check(Finds(docs))
    assert result.gain.difference > 0 and result.gain.low > 0
    assert result.passed and result.wins
    assert "F-beta" in result.describe()


def test_the_same_model_ties_and_a_tie_keeps_the_model_in_use():
    docs = precedents(12)
    gate = Gate(Finds(docs), docs, samples=200)
    same = gate.check(Finds(docs))
    assert same.gain.difference == 0 and not same.wins
    assert best_winner({"same": same}) is None


def test_precision_lost_everywhere_loses_f_beta_and_does_not_win():
    docs = precedents(12)
    gate = Gate(Finds(docs), docs, samples=200, beta=2.0)
    noisy = gate.check(Marks(docs))
    assert noisy.passed  # nothing of the gold is lost ...
    assert noisy.gain.high < 0 and not noisy.wins  # ... but F2 falls on every draw


def test_of_several_winners_the_highest_f_beta_is_chosen():
    docs = precedents(12)
    gate = Gate(Finds(docs, missed={"Yamada", "Sato0", "Suzuki1"}), docs, samples=200)
    results = {
        "a little better": gate.check(Finds(docs, missed={"Sato0", "Suzuki1"})),
        "much better": gate.check(Finds(docs)),
        "the same": gate.check(Finds(docs, missed={"Yamada", "Sato0", "Suzuki1"})),
    }
    assert results["a little better"].wins and results["much better"].wins
    assert best_winner(results) == "much better"


def test_the_paired_choice_benchmark_reads_a_model_against_itself_as_a_tie(
    tiny_model_dir, tmp_path, capsys
):
    """``benchmarks/paired_choice.py``: what ``--choose-on`` reads, written out; the same
    model as incumbent and candidate differs by nothing, on every figure and every draw."""
    import importlib
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    script = importlib.import_module("paired_choice")
    gold = tmp_path / "gold.jsonl"
    text = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München."
    spans = [{"start": 11, "end": 22, "label": "nat-name", "risk": "high"}]
    gold.write_text(
        "".join(json.dumps({"id": f"d{i}", "text": text, "spans": spans}) + "\n" for i in range(3))
    )
    out = tmp_path / "pairs.json"
    args = ["--incumbent", str(tiny_model_dir), "--candidates", str(tiny_model_dir)]
    assert script.main([*args, "--gold", str(gold), "--samples", "50", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["documents"] == 3
    figures = record["pairs"][str(tiny_model_dir)]
    assert set(figures) >= {"lenient_recall", "recall_high", "lenient_f_beta"}
    assert all(f["difference"] == 0 and f["low"] == f["high"] == 0 for f in figures.values())
    assert "lenient_f_beta" in capsys.readouterr().out
