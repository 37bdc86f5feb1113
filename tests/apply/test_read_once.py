"""Where a text enters the Anonymizer it is read once (hf_anon.text.views.TextView); the
model, the decoder, the operators and the leak repairs all use that one reading."""

from __future__ import annotations

import pytest

from hf_anon.apply.anonymize import Anonymizer
from hf_anon.text import views
from hf_anon.text.data import Span

TEXTS = [
    "Der Kläger HANS\x00MÜLLER wohnt in der Bahnhofstraße 12 in 80331 München.",
    "Zeuge M a r t i n  S c h u l z sagte aus; Hans Müller schwieg.",
]


@pytest.fixture
def readings(monkeypatch):
    """How often each view is computed, per text."""
    counts = {"detection": [], "case": []}
    detection, case = views.detection_view, views.case_view
    monkeypatch.setattr(
        views, "detection_view", lambda t: counts["detection"].append(t) or detection(t)
    )
    monkeypatch.setattr(views, "case_view", lambda t: counts["case"].append(t) or case(t))
    return counts


def test_the_model_path_reads_each_text_once(tiny_model_dir, readings):
    anonymizer = Anonymizer.from_pretrained(
        tiny_model_dir, backend="torch", max_length=32, stride=8
    )

    results = anonymizer.anonymize(TEXTS, seed=1, mode="label")

    assert len(results) == 2
    assert len(readings["detection"]) == 2 and len(readings["case"]) == 2


def test_a_callable_detector_and_the_operators_share_the_reading(readings):
    def detector(texts):
        # the callable gets the detection view: control characters are spaces
        assert "\x00" not in texts[0]
        start = texts[0].index("HANS")
        return [[Span(start, start + 11, "nat-name", "high", 0.9)], []]

    anonymizer = Anonymizer(detector)
    first, second = anonymizer.anonymize(TEXTS, seed=1, mode="label")

    assert "HANS" not in first.text and "MÜLLER" not in first.text
    assert second.text == TEXTS[1]  # nothing found, nothing changed
    assert len(readings["detection"]) == 2
    assert readings["case"] == []  # nothing read the model view: nothing computed it
