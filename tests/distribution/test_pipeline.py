"""The ``anonymization`` pipeline that saved models carry (``pipeline.py``, registered in
config.json's ``custom_pipelines``): ``transformers.pipeline`` with remote code, with and
without hf-anon."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transformers import AutoTokenizer, pipeline
from without_hf_anon import run_without_hf_anon

from hf_anon.distribution.models import plan_model_push
from hf_anon.distribution.plans import PushError
from hf_anon.model.model_folder import REPO_ROOT, default_model
from hf_anon.model.modeling import CUSTOM_PIPELINES, PIPELINE_FILE, AnonModel
from hf_anon.text.labels import DEFAULT_LABELS

PIPELINE_CODE = REPO_ROOT / "hf_anon" / "distribution" / "pipeline_code.py"
BUNDLED = REPO_ROOT / "models" / "hf-anon-de-e5-small"
DECISION = (REPO_ROOT / "examples" / "decision.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def pipeline_model(tiny_model_dir, tmp_path_factory) -> Path:
    """The tiny model saved again by hf-anon, with 24-token windows (a few sentences
    need several)."""
    model = AnonModel.from_pretrained(tiny_model_dir)
    model.config.window_max_length, model.config.window_stride = 24, 4
    folder = tmp_path_factory.mktemp("pipeline") / "model"
    model.save_pretrained(folder)
    AutoTokenizer.from_pretrained(str(tiny_model_dir)).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def text() -> str:
    from conftest import TINY_MODEL_SENTENCE

    return (TINY_MODEL_SENTENCE * 2 + "\n\n") * 3


def check_spans(text: str, spans: list[dict]) -> None:
    """Character offsets into ``text``, sorted and apart, with every field."""
    previous_end = 0
    for span in spans:
        assert set(span) >= {"label", "risk", "score", "start", "end", "text"}
        assert previous_end <= span["start"] < span["end"] <= len(text)
        assert span["text"] == text[span["start"] : span["end"]]
        assert isinstance(span["score"], float) and 0.0 <= span["score"] <= 1.0
        previous_end = span["end"]


def check_replaced(text: str, result: dict) -> None:
    """The anonymized text is the original with each span's stretch replaced, nothing
    else changed; ``new_start``/``new_end`` say where each replacement went."""
    check_spans(text, result["spans"])
    rebuilt, position = [], 0
    for span in result["spans"]:
        rebuilt += [text[position : span["start"]], span["replacement"]]
        position = span["end"]
        new = result["text"][span["new_start"] : span["new_end"]]
        assert new == span["replacement"]
    assert "".join([*rebuilt, text[position:]]) == result["text"]


def test_saving_writes_the_pipeline_and_its_config_entry(pipeline_model, tmp_path):
    assert (pipeline_model / PIPELINE_FILE).read_bytes() == PIPELINE_CODE.read_bytes()
    config = json.loads((pipeline_model / "config.json").read_text(encoding="utf-8"))
    assert config["custom_pipelines"] == CUSTOM_PIPELINES
    assert config["custom_pipelines"]["anonymization"]["impl"] == "pipeline.AnonymizationPipeline"
    assert config["auto_map"]["AutoModel"] == "modeling.AnonModel"
    # the bundled model carries the same file and entry (its weights unchanged)
    assert (BUNDLED / PIPELINE_FILE).read_bytes() == PIPELINE_CODE.read_bytes()
    bundled = json.loads((BUNDLED / "config.json").read_text(encoding="utf-8"))
    assert bundled["custom_pipelines"] == CUSTOM_PIPELINES
    # a model loaded through the remote code saves the pipeline too
    remote = pipeline("anonymization", model=str(pipeline_model), trust_remote_code=True)
    remote.model.save_pretrained(tmp_path / "again")
    assert (tmp_path / "again" / PIPELINE_FILE).read_bytes() == PIPELINE_CODE.read_bytes()


def test_pipeline_runs_with_transformers_alone(pipeline_model, text, tmp_path):
    result = run_without_hf_anon(pipeline_model, text, tmp_path)
    assert result["decoding"] == "model" and result["hf_anon"] == []
    spans = result["spans"]
    check_spans(text, spans)
    assert len(spans) >= 3  # the tiny model finds something in every window
    assert max(s["end"] for s in spans) > len(text) // 2  # windows reach the end

    labelled = result["label"]
    check_replaced(text, labelled)
    assert [(s["start"], s["end"]) for s in labelled["spans"]] == [
        (s["start"], s["end"]) for s in spans
    ]
    numbers: dict[tuple[str, str], str] = {}
    for span in labelled["spans"]:
        assert span["replacement"].startswith(f"<{span['label']}-")
        key = (span["label"], " ".join(span["text"].split()).casefold())
        assert numbers.setdefault(key, span["replacement"]) == span["replacement"]
    per_label: dict[str, set[str]] = {}
    for (label, _), replacement in numbers.items():
        per_label.setdefault(label, set()).add(replacement)
    for label, replacements in per_label.items():  # <label-1>, <label-2> … one per entity
        assert replacements == {f"<{label}-{n}>" for n in range(1, len(replacements) + 1)}

    redacted, empty = result["redact"]
    check_replaced(text, redacted)
    assert {s["replacement"] for s in redacted["spans"]} == {"[…]"}
    assert empty == {"text": "", "spans": []}

    # the same spans as the model-only decoding in this process
    local = pipeline(
        "anonymization", model=str(pipeline_model), trust_remote_code=True, decoding="model"
    )
    assert local(text) == spans


def test_model_only_decoding_checks_its_options(pipeline_model, text):
    anonymize = pipeline(
        "anonymization", model=str(pipeline_model), trust_remote_code=True, decoding="model"
    )
    with pytest.raises(ValueError, match="without hf-anon"):
        anonymize(text, mode="pseudonym")
    with pytest.raises(ValueError, match="needs hf-anon"):
        anonymize(text, mode="label", secret="s")
    with pytest.raises(ValueError, match="unknown labels"):
        anonymize(text, mode="label", labels=["no-such-label"])
    with pytest.raises(TypeError, match="unknown options"):
        anonymize(text, colour="red")
    names = anonymize(text, mode="redact", labels=["nat-name"])
    check_replaced(text, names)
    assert {s["label"] for s in names["spans"]} <= {"nat-name"}


def test_model_only_replacement_counts_a_span_as_risky_as_its_label():
    """``min_risk`` fails closed as hf-anon's does: a span's risk is the higher of its own
    and its label's usual one; numbers count per label, the same words one entity."""
    from hf_anon.distribution.pipeline_code import replace

    text = "Amtsgericht Köln: Eva Roth, Eva Roth, Amtsgericht Bonn"
    spans = [
        {"start": 0, "end": 16, "label": "court-name", "risk": "high", "score": 0.9},
        {"start": 18, "end": 26, "label": "nat-name", "risk": "low", "score": 0.9},
        {"start": 28, "end": 36, "label": "nat-name", "risk": "low", "score": 0.9},
        {"start": 38, "end": 54, "label": "court-name", "risk": "low", "score": 0.9},
    ]
    risks = list(DEFAULT_LABELS.risks)
    usual = {label.name: label.risk for label in DEFAULT_LABELS.labels}
    result = replace(text, spans, "label", risks, usual)
    assert result["text"] == "<court-name-1>: <nat-name-1>, <nat-name-1>, <court-name-2>"
    assert [s["entity"] for s in result["spans"]] == [1, 2, 2, 3]
    high = replace(text, spans, "label", risks, usual, min_risk="high")
    assert high["text"] == "<court-name-1>: <nat-name-1>, <nat-name-1>, Amtsgericht Bonn"
    names = replace(text, spans, "redact", risks, usual, labels=["nat-name"])
    assert names["text"] == "Amtsgericht Köln: […], […], Amtsgericht Bonn"


@pytest.fixture(scope="module")
def bundled_anonymizer():
    from hf_anon import Anonymizer

    # torch, as the pipeline runs it: the same numbers to the last digit
    return Anonymizer.from_pretrained(BUNDLED, backend="torch")


def test_with_hf_anon_the_pipeline_gives_the_anonymizers_results(bundled_anonymizer):
    anonymize = pipeline("anonymization", model=str(BUNDLED), trust_remote_code=True)
    assert anonymize.decoding == "hf-anon"
    expected = bundled_anonymizer.detect([DECISION])[0]
    got = anonymize(DECISION)
    assert [(s["start"], s["end"], s["label"], s["risk"], s["score"]) for s in got] == [
        (s.start, s.end, s.label, s.risk, s.score) for s in expected
    ]
    check_spans(DECISION, got)
    result = anonymize(DECISION, mode="label", seed=1)
    reference = bundled_anonymizer.anonymize(DECISION, mode="label", seed=1)
    assert result["text"] == reference.text
    check_replaced(DECISION, result)
    assert [s["source"] for s in result["spans"]] == [r.source for r in reference.replacements]


def model_spans(detector, text: str) -> list[tuple]:
    """hf-anon's spans of ``text`` before its rules: the detector's probabilities decoded with
    its thresholds, snapped to words (not in Japanese) and trimmed of punctuation."""
    from hf_anon.model.alignment import decode_spans, snap_to_words, trim_punctuation
    from hf_anon.text.data import Document

    thresholds = detector.label_thresholds
    [(encoded, tags, labels, risks)] = detector.predict_probabilities([Document("0", text)])
    spans = decode_spans(
        encoded.text,
        encoded.offsets,
        tags,
        labels,
        risks,
        detector.labels,
        threshold=min(thresholds.values()),
    )
    if detector.language != "ja":  # no spaces end a Japanese word
        spans = snap_to_words(encoded.text, spans)
    return [
        (s.start, s.end, s.label, s.risk, s.score)
        for s in trim_punctuation(encoded.text, spans)
        if s.score >= thresholds.get(s.label, 0.0)
    ]


def test_model_only_decoding_is_hf_anons_without_its_rules(bundled_anonymizer):
    """Without hf-anon the pipeline decodes as hf-anon's detector does before its rules
    (recognizers, boundary rules, noun filter): the same windows, probabilities, thresholds
    and word snapping give the same spans, on long texts, shouted lines and control
    characters too."""
    from hf_anon.model.detection import SpanDetector

    detector = SpanDetector(
        bundled_anonymizer.detector.model, bundled_anonymizer.detector.tokenizer, recognizers=()
    )
    assert detector.label_thresholds  # the bundled model is calibrated

    texts = [
        DECISION * 2,  # several 256-token windows
        "KLÄGER: HANS HUBER, BAHNHOFSTRASSE 12, 93047 REGENSBURG\n"
        "Der Zeuge Eva\x00Schulz sagte aus.",  # a shouted line, a control character
    ]
    anonymize = pipeline(
        "anonymization", model=default_model(), trust_remote_code=True, decoding="model"
    )
    assert anonymize.decoding == "model" and (anonymize.max_length, anonymize.stride) == (256, 32)
    for text, got in zip(texts, anonymize(texts), strict=True):
        check_spans(text, got)
        assert [(s["start"], s["end"], s["label"], s["risk"], s["score"]) for s in got] == (
            model_spans(detector, text)
        )
    # hf-anon's entities join a surname to its full name; the model-only ones are words
    text = "Der Kläger Müller hat geklagt. Hans Müller wohnt in Regensburg."
    full = bundled_anonymizer.anonymize(text, mode="label", seed=1).text
    assert full == "Der Kläger <nat-name-1> hat geklagt. <nat-name-1> wohnt in <address-name-1>."
    alone = anonymize(text, mode="label")["text"]
    assert alone == "Der Kläger <nat-name-1> hat geklagt. <nat-name-2> wohnt in <address-name-1>."


def test_a_push_carries_the_pipeline(pipeline_model, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(pipeline_model, folder)
    (folder / "README.md").write_text("---\nlicense: apache-2.0\n---\n# tiny\n", encoding="utf-8")
    plan = plan_model_push(folder, "org/tiny")
    assert {"modeling.py", PIPELINE_FILE} <= {f.path_in_repo for f in plan.files}
    (folder / PIPELINE_FILE).unlink()
    with pytest.raises(PushError, match=r"custom_pipelines needs pipeline\.py"):
        plan_model_push(folder, "org/tiny")


@given(st.text(alphabet=st.sampled_from("あ。第１（）\n 　Ａ主文"), max_size=80))
def test_the_standalone_pipeline_unwraps_as_hf_anon_does(text):
    from hf_anon.distribution.pipeline_decoding import to_original, unwrapped
    from hf_anon.text.views import without_wrapped_line_ends

    view, index = unwrapped(text)
    expected, expected_index = without_wrapped_line_ends(text)
    assert view == expected
    if expected_index is not None:
        assert index == expected_index.tolist()
    tokens = [(a, a + 1) for a in range(len(view))]
    assert all(text[a:b] == view[k] for k, (a, b) in enumerate(to_original(tokens, index)))


def test_the_japanese_model_alone_reads_the_text_as_hf_anon_reads_it():
    """The bundled Japanese model trained on text without the PDF's wrapping
    (``unwrap_lines``): its model-only pipeline reads it so too, and gives hf-anon's
    spans before the rules, at the same offsets of the original text."""
    from hf_anon.model.detection import SpanDetector

    detector = SpanDetector.from_pretrained(default_model("ja"), recognizers=())
    assert detector.unwrap_lines
    text = (
        "原告は，令和２年５月１日，東京都内において，被告の従業員である佐藤健\n"
        "一と面会し，その際，被告の代表者である株式会社ミドリ商会の社長と会った。\n"
    ) * 3
    expected = [span[:3] for span in model_spans(detector, text)]
    anonymize = pipeline(
        "anonymization", model=default_model("ja"), trust_remote_code=True, decoding="model"
    )
    got = anonymize(text)
    assert [(s["start"], s["end"], s["label"]) for s in got] == expected
    assert any("\n" in s["text"] for s in got)  # the name broken by the line end, whole
