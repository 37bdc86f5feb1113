"""hf-anon inside Microsoft Presidio (hf_anon.distribution.presidio): analyzer, mapping,
anonymizer."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest

from hf_anon.corpora.synthetic import generate_documents
from hf_anon.text.labels import DEFAULT_LABELS


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


HAS_PRESIDIO = _installed("presidio_analyzer") and _installed("presidio_anonymizer")
needs_presidio = pytest.mark.skipif(
    not HAS_PRESIDIO,
    reason='presidio-analyzer and presidio-anonymizer are not installed (pip install -e ".[dev]")',
)


@pytest.fixture(scope="module")
def decision():
    return generate_documents(1, seed=11)[0]


@pytest.fixture(scope="module")
def engine():
    from hf_anon.distribution.presidio import analyzer_engine

    return analyzer_engine()  # the bundled default model


@needs_presidio
def test_analyzer_finds_mapped_entities_at_the_right_offsets(engine, decision):
    from hf_anon.distribution.presidio import presidio_entity

    text = decision.text
    results = engine.analyze(text, language="de", return_decision_process=True)
    assert results
    entities = {r.entity_type for r in results}
    assert {"PERSON", "LOCATION", "DATE_TIME", "court-docket", "court-name"} <= entities
    assert not entities & {"nat-name", "nat-jur", "address-name", "date-fact", "date-world"}
    gold = {(s.start, s.end): s.label for s in decision.spans}
    for r in results:
        label = r.recognition_metadata["hf_anon_label"]
        assert label in DEFAULT_LABELS
        assert r.recognition_metadata["hf_anon_risk"] in DEFAULT_LABELS.risks
        assert r.entity_type == presidio_entity(label, text[r.start : r.end])
        assert 0 < r.score <= 1
        assert 0 <= r.start < r.end <= len(text)
        span_text = text[r.start : r.end]
        assert span_text == span_text.strip()
        assert "hf-anon model" in r.analysis_explanation.textual_explanation
        assert r.analysis_explanation.recognizer == "HfAnonRecognizer"
    # the offsets are the document's: most gold names come back exactly
    names = [k for k, label in gold.items() if label == "nat-name"]
    exact = {(r.start, r.end) for r in results if r.entity_type == "PERSON"}
    assert names and sum(k in exact for k in names) >= len(names) / 2


@needs_presidio
def test_anonymizer_engine_replaces_what_the_analyzer_found(engine, decision):
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import OperatorConfig

    text = decision.text
    results = engine.analyze(text, language="de", entities=["PERSON", "LOCATION"])
    assert results and {r.entity_type for r in results} == {"PERSON", "LOCATION"}
    out = AnonymizerEngine().anonymize(
        text, results, operators={"LOCATION": OperatorConfig("replace", {"new_value": "[ORT]"})}
    )
    assert "<PERSON>" in out.text and "[ORT]" in out.text
    for r in results:
        if r.entity_type == "PERSON":
            assert text[r.start : r.end] not in out.text.split()
    assert len(out.items) == len(results)


@needs_presidio
def test_keep_labels_with_a_model_folder(tiny_model_dir):
    from hf_anon.distribution.presidio import HfAnonRecognizer, analyzer_engine

    recognizer = HfAnonRecognizer(str(tiny_model_dir), keep_labels=True, threshold=0.0)
    assert set(recognizer.supported_entities) == set(DEFAULT_LABELS.names)
    assert recognizer.supported_language == "de"
    engine = analyzer_engine(recognizer)
    text = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München."
    results = engine.analyze(text, language="de")
    assert results
    for r in results:
        assert r.entity_type in DEFAULT_LABELS
        assert r.entity_type == r.recognition_metadata["hf_anon_label"]


@needs_presidio
def test_a_callable_detector_works_as_well():
    from hf_anon.distribution.presidio import analyzer_engine
    from hf_anon.text.data import Span

    text = "Zahlung auf DE89 3704 0044 0532 0130 00, Rückruf unter 0171 2345678."

    def detector(texts):
        return [
            [
                Span(t.index("DE89"), t.index("DE89") + 27, "id-number"),
                Span(t.index("0171"), t.index("0171") + 12, "id-number", "high", 0.7),
            ]
            for t in texts
        ]

    results = sorted(analyzer_engine(detector).analyze(text, language="de"), key=lambda r: r.start)
    assert [(r.entity_type, text[r.start : r.end], r.score) for r in results] == [
        ("IBAN_CODE", "DE89 3704 0044 0532 0130 00", 1.0),
        ("PHONE_NUMBER", "0171 2345678", 0.7),
    ]


@needs_presidio
@pytest.mark.parametrize(
    ("label", "text", "entity"),
    [
        ("nat-name", "Hans Müller", "PERSON"),
        ("nat-jur", "Bauer", "PERSON"),
        ("jur-name", "Schmidt Immobilien", "ORGANIZATION"),
        ("address-name", "80331 München", "LOCATION"),
        ("date-fact", "3. März 2021", "DATE_TIME"),
        ("date-world", "5.7.2022", "DATE_TIME"),
        ("id-number", "m.huber@example.de", "EMAIL_ADDRESS"),
        ("id-number", "www.huber-bau.de", "URL"),
        ("id-number", "DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
        ("id-number", "+49 (0)171 / 234-5678", "PHONE_NUMBER"),
        ("id-number", "VS-2021/88412", "id-number"),
        ("id-number", "1234567", "id-number"),
        ("court-name", "Amtsgericht München", "court-name"),
        ("nat-idx", "Oberarzt am Klinikum", "nat-idx"),
        ("car-idx", "M-AB 1234", "car-idx"),
    ],
)
def test_label_to_entity_table(label, text, entity):
    from hf_anon.distribution.presidio import presidio_entity

    assert presidio_entity(label, text) == entity
    assert presidio_entity(label, text, keep_labels=True) == label


@needs_presidio
def test_predefined_german_recognizers_load_offline():
    from hf_anon.distribution.presidio import predefined_recognizers

    recognizers = predefined_recognizers("de")
    names = {r.name for r in recognizers}
    assert {"IbanRecognizer", "EmailRecognizer", "PhoneRecognizer", "DeKfzRecognizer"} <= names
    assert all(r.supported_language == "de" for r in recognizers)


def test_a_clear_error_without_presidio(monkeypatch):
    monkeypatch.setitem(sys.modules, "presidio_analyzer", None)
    monkeypatch.delitem(sys.modules, "hf_anon.distribution.presidio", raising=False)
    with pytest.raises(ImportError, match=r"pip install \"hf-anon\[presidio\]\""):
        importlib.import_module("hf_anon.distribution.presidio")
