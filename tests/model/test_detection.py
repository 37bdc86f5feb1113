"""Detection: documents of any length → spans, batched, and the detect command."""

from __future__ import annotations

import json

import pytest

from hf_anon.cli import main
from hf_anon.model.detection import SpanDetector
from hf_anon.text.data import Document, load_jsonl, validate_document
from hf_anon.text.labels import DEFAULT_LABELS

SENTENCE = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München. "


@pytest.fixture(scope="module")
def model_dir(tiny_model_dir):
    return tiny_model_dir


def test_spans_are_valid_for_long_documents_and_do_not_depend_on_batching(model_dir):
    detector = SpanDetector.from_pretrained(model_dir, max_length=32, stride=8)
    texts = [SENTENCE * 40, SENTENCE, "", "   ", "Kurz."]
    small = detector.detect(texts, batch_size=1)
    large = detector.detect(texts, batch_size=64)
    assert [[(s.start, s.end, s.label) for s in d] for d in small] == [
        [(s.start, s.end, s.label) for s in d] for d in large
    ]
    assert small[2] == [] and small[3] == []
    assert small[0], "the long document got spans from every window"
    assert max(s.end for s in small[0]) > len(SENTENCE) * 30  # the end was not truncated
    for text, spans in zip(texts, small, strict=True):
        validate_document(Document("d", text, spans), require_risk=True)
        assert all(0 < s.score <= 1 for s in spans)


def test_windows_that_cannot_be_planned_are_refused_when_the_model_is_loaded(model_dir):
    # windows of 32 tokens hold 30 of text with [CLS] and [SEP]: they overlap by 15 at most
    assert SpanDetector.from_pretrained(model_dir, max_length=32, stride=15).stride == 15
    with pytest.raises(ValueError, match=r"window_stride.*between 0 and 15, not 16"):
        SpanDetector.from_pretrained(model_dir, max_length=32, stride=16)


def test_threshold_trades_precision_for_recall(model_dir):
    detector = SpanDetector.from_pretrained(model_dir)
    text = SENTENCE * 3
    strict = sum(s.end - s.start for s in detector.detect([text], threshold=0.9)[0])
    loose = sum(s.end - s.start for s in detector.detect([text], threshold=0.1)[0])
    assert loose >= strict


def test_a_bad_model_path_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="cannot load an hf-anon model"):
        SpanDetector.from_pretrained(tmp_path / "missing")


def test_detect_command_writes_gold_format(model_dir, tmp_path, capsys):
    source, out = tmp_path / "in.jsonl", tmp_path / "pred.jsonl"
    rows = [{"id": "a", "text": SENTENCE * 5, "extra": 1}, {"id": "b", "text": ""}]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    args = ["detect", "--model", str(model_dir), "--input", str(source), "--output", str(out)]
    assert main([*args, "--batch-size", "4", "--no-progress"]) == 0
    docs = load_jsonl(out)
    assert [d.id for d in docs] == ["a", "b"]
    assert docs[0].spans and not docs[1].spans  # the tiny model marks something in any text
    assert all(s.risk and s.score is not None for s in docs[0].spans)
    assert all(docs[0].text[s.start : s.end].strip() for s in docs[0].spans)
    assert (
        main(
            [
                "detect",
                "--model",
                str(tmp_path / "nope"),
                "--input",
                str(source),
                "--output",
                str(out),
            ]
        )
        == 2
    )
    assert "cannot load an hf-anon model" in capsys.readouterr().err


def test_export_command_writes_a_pipeline_checkpoint(model_dir, tmp_path):
    from transformers import pipeline

    assert main(["export", "--model", str(model_dir), "--out", str(tmp_path / "plain")]) == 0
    tagger = pipeline("token-classification", model=str(tmp_path / "plain"))
    assert all(e["entity"].split("-", 1)[1] in DEFAULT_LABELS.names for e in tagger(SENTENCE))


def test_windows_default_to_those_the_model_was_trained_with(model_dir, tmp_path):
    import shutil

    assert SpanDetector.from_pretrained(model_dir).max_length == 512  # no training_config
    trained = tmp_path / "trained"
    shutil.copytree(model_dir, trained)
    (trained / "training_config.json").write_text(json.dumps({"max_length": 64, "stride": 8}))
    detector = SpanDetector.from_pretrained(trained)
    assert (detector.max_length, detector.stride) == (64, 8)
    detector = SpanDetector.from_pretrained(trained, max_length=32, stride=None)
    assert (detector.max_length, detector.stride) == (32, 8)
    (trained / "training_config.json").write_text("[]")
    assert SpanDetector.from_pretrained(trained).max_length == 512
