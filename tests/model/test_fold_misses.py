"""The miss analysis of ``benchmarks/fold_misses.py``: lenient misses and spreading."""

import sys
from pathlib import Path

from hf_anon.text.data import Document, Span

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from fold_misses import misses, spread, spreading


def _span(text, words, label="jur-name", start=0):
    at = text.index(words, start)
    return Span(at, at + len(words), label, "medium")


def test_a_gold_span_any_prediction_overlaps_is_not_missed():
    text = "Die DTAG verlangte von der Firma Meyer GmbH zu viel."
    doc = Document(id="d", text=text, spans=[_span(text, "DTAG"), _span(text, "Meyer GmbH")])
    found = [Span(text.index("Meyer"), text.index("Meyer") + 5, "nat-name", "high")]

    gold, missed = misses([doc], [found])

    assert gold["jur-name"] == 2 and missed["jur-name"] == 1  # DTAG; Meyer overlaps


def test_spreading_copies_a_found_span_onto_its_other_whole_word_mentions_only():
    text = "Die DTAG klagt. Die DTAG-Tochter und DTAGS nicht, aber DTAG erneut."
    first = _span(text, "DTAG")

    added = spread(text, [first])

    assert [text[s:e] for s, e, _ in added] == ["DTAG", "DTAG"]  # the hyphen is a word edge
    assert all(label == "jur-name" for *_, label in added)
    assert spread("Ab AG an AG.", [_span("Ab AG an AG.", "AG")]) == []  # too short to spread


def test_spreading_counts_reached_gold_and_false_spans_apart():
    text = "Die DTAG klagt. Später zahlte die DTAG. Waren wurden geliefert, Waren fehlten."
    gold = [_span(text, "DTAG"), _span(text, "DTAG", start=10)]
    doc = Document(id="d", text=text, spans=gold)
    found = [_span(text, "DTAG"), _span(text, "Waren")]

    result = spreading([doc], [found])

    assert result["reached"] == {"jur-name": 1}
    assert result["false"] == {"jur-name": 1} and result["false_examples"] == [["Waren", 1]]
