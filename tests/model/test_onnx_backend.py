"""The optional ONNX Runtime backend: export, parity with torch, caching and the flags."""

from __future__ import annotations

import json
import sys

import pytest
import torch

from hf_anon.apply.anonymize import Anonymizer
from hf_anon.cli import main
from hf_anon.model.backends.onnx import onnx_available
from hf_anon.model.detection import SpanDetector, batches_by_length
from hf_anon.model.loading import resolve_backend
from hf_anon.text.data import Document, load_jsonl, validate_document

needs_onnx = pytest.mark.skipif(
    not onnx_available(),
    reason='onnxruntime/onnx not installed (pip install "hf-anon[onnx]" or the dev extra)',
)

SENTENCE = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München. "
TEXTS = [SENTENCE * 40, SENTENCE, "", "   ", "Kurz.", SENTENCE * 3 + "Ende"]


@pytest.fixture(scope="module", autouse=True)
def onnx_cache(tmp_path_factory):
    """Exports go to a temporary cache, shared by the tests of this module."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("hf-anon-cache")
        patch.setenv("HF_ANON_CACHE", str(folder))
        yield folder


def _key(spans):
    return [[(s.start, s.end, s.label, s.risk) for s in doc] for doc in spans]


@needs_onnx
def test_fp32_export_gives_the_torch_logits(tiny_model_dir, tmp_path):
    from hf_anon.model.backends.onnx import OnnxEncoderModel, export_onnx
    from hf_anon.model.modeling import AnonConfig

    path = export_onnx(tiny_model_dir, tmp_path / "model.onnx", quantize=False)
    onnx_model = OnnxEncoderModel(path, AnonConfig.from_pretrained(str(tiny_model_dir)))
    detector = SpanDetector.from_pretrained(tiny_model_dir, max_length=32, stride=8)
    from hf_anon.model.alignment import encode_documents

    encoded = encode_documents(
        [Document(str(i), t) for i, t in enumerate(TEXTS)],
        detector.tokenizer,
        detector.labels,
        max_length=32,
        stride=8,
    )
    batches = list(batches_by_length(encoded, 5, detector.tokenizer.pad_token_id))
    assert any(not b.attention_mask.all() for b in batches), "some batch is padded"
    for batch in batches:
        with torch.no_grad():
            want = detector.model(input_ids=batch.input_ids, attention_mask=batch.attention_mask)
        got = onnx_model(input_ids=batch.input_ids, attention_mask=batch.attention_mask)
        valid = batch.attention_mask.bool()
        for name in ("span_logits", "label_logits", "risk_logits"):
            assert getattr(got, name).shape == getattr(want, name).shape
            torch.testing.assert_close(
                getattr(got, name)[valid], getattr(want, name)[valid], atol=1e-4, rtol=0
            )


@needs_onnx
def test_onnx_spans_are_the_torch_spans(tiny_model_dir):
    torch_detector = SpanDetector.from_pretrained(tiny_model_dir, max_length=32, stride=8)
    onnx_detector = SpanDetector.from_pretrained(
        tiny_model_dir, max_length=32, stride=8, backend="onnx"
    )
    assert onnx_detector.device.type == "cpu"
    assert onnx_detector.labels == torch_detector.labels
    want = torch_detector.detect(TEXTS, batch_size=4)
    got = onnx_detector.detect(TEXTS, batch_size=3)
    assert want[0], "the tiny model finds something"
    assert _key(got) == _key(want)
    for doc_got, doc_want in zip(got, want, strict=True):
        for a, b in zip(doc_got, doc_want, strict=True):
            assert a.score == pytest.approx(b.score, abs=1e-4)


@needs_onnx
def test_quantized_model_runs_and_gives_valid_spans(tiny_model_dir, onnx_cache):
    detector = SpanDetector.from_pretrained(
        tiny_model_dir, max_length=32, stride=8, backend="onnx", quantize=True
    )
    assert detector.model.path.name == "model.int8.onnx"
    assert detector.model.path.is_relative_to(onnx_cache)
    docs = [Document(str(i), t) for i, t in enumerate(TEXTS)]
    for encoded, tags, labels, risks in detector.predict_probabilities(docs, batch_size=4):
        if tags is None:
            continue
        assert tags.shape == (encoded.num_tokens, 3)
        assert labels.shape == (encoded.num_tokens, len(detector.labels))
        assert risks.shape == (encoded.num_tokens, len(detector.labels.risks))
        assert abs(tags.sum(axis=1) - 1).max() < 1e-5
    spans = detector.detect(TEXTS)
    assert spans[0]
    for text, found in zip(TEXTS, spans, strict=True):
        validate_document(Document("d", text, found), require_risk=True)


@needs_onnx
def test_int8_covers_every_encoder_matrix_with_per_channel_scales(tiny_model_dir, tmp_path):
    import onnx

    from hf_anon.model.backends.onnx import export_onnx

    graph = onnx.load(str(export_onnx(tiny_model_dir, tmp_path / "q.onnx"))).graph
    float_matmuls = [n.name for n in graph.node if n.op_type == "MatMul"]
    # only the three heads stay float32; the feed-forward output layers are int8 too
    assert float_matmuls and all("_head/" in name for name in float_matmuls), float_matmuls
    assert not any("/output/dense/" in name for name in float_matmuls)
    # activations are quantized at run time; the stored scales are the weights', one per
    # output channel (a vector), not one per matrix (a scalar)
    weight_scales = [t for t in graph.initializer if t.name.endswith("_scale")]
    assert weight_scales and all(len(t.dims) == 1 and t.dims[0] > 1 for t in weight_scales)


@needs_onnx
def test_exports_are_cached_per_model(tiny_model_dir, monkeypatch):
    from hf_anon.model.backends import onnx as onnx_backend

    SpanDetector.from_pretrained(tiny_model_dir, backend="onnx")

    def no_export(*args, **kwargs):
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_backend, "export_onnx", no_export)
    SpanDetector.from_pretrained(tiny_model_dir, backend="onnx")  # from the cache
    assert onnx_backend.model_fingerprint(tiny_model_dir) == onnx_backend.model_fingerprint(
        str(tiny_model_dir)
    )


@needs_onnx
def test_anonymizer_backend_flag(tiny_model_dir):
    torch_anonymizer = Anonymizer.from_pretrained(tiny_model_dir, max_length=32, stride=8)
    onnx_anonymizer = Anonymizer.from_pretrained(
        tiny_model_dir, max_length=32, stride=8, backend="onnx"
    )
    text = SENTENCE * 5
    want = torch_anonymizer.anonymize(text, mode="label")
    got = onnx_anonymizer.anonymize(text, mode="label")
    assert got.text == want.text and got.text != text
    with pytest.raises(ValueError, match="torch backend"):
        Anonymizer.from_pretrained(tiny_model_dir, backend="onnx", dtype="bfloat16")
    with pytest.raises(ValueError, match="CPU only"):
        Anonymizer.from_pretrained(tiny_model_dir, backend="onnx", device="cuda")


@needs_onnx
def test_detect_and_anonymize_commands_take_the_backend(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    rows = [{"id": "a", "text": SENTENCE * 5}, {"id": "b", "text": "Kurz."}]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    common = ["detect", "--model", str(tiny_model_dir), "--input", str(source), "--no-progress"]
    assert main([*common, "--output", str(tmp_path / "torch.jsonl")]) == 0
    assert main([*common, "--output", str(tmp_path / "onnx.jsonl"), "--backend", "onnx"]) == 0
    want, got = load_jsonl(tmp_path / "torch.jsonl"), load_jsonl(tmp_path / "onnx.jsonl")
    assert _key([d.spans for d in got]) == _key([d.spans for d in want])
    quantized = ["--output", str(tmp_path / "q.jsonl"), "--backend", "onnx", "--quantize"]
    assert main([*common, *quantized]) == 0
    assert load_jsonl(tmp_path / "q.jsonl")[0].spans

    (tmp_path / "doc.txt").write_text(SENTENCE * 20, encoding="utf-8")
    args = ["anonymize", str(tmp_path / "doc.txt"), "--model", str(tiny_model_dir)]
    args += ["--output", str(tmp_path / "out"), "--mode", "label", "--no-progress"]
    assert main([*args, "--backend", "onnx", "--quantize"]) == 0
    assert (tmp_path / "out" / "doc.txt").read_text(encoding="utf-8") != SENTENCE * 20
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([*args, "--backend", "tensorflow"])


def test_a_missing_onnxruntime_is_a_clear_error(tiny_model_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    with pytest.raises(ImportError, match=r'pip install "hf-anon\[onnx\]"'):
        SpanDetector.from_pretrained(tiny_model_dir, backend="onnx")
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": SENTENCE}) + "\n")
    args = ["detect", "--model", str(tiny_model_dir), "--input", str(source)]
    assert main([*args, "--output", str(tmp_path / "o.jsonl"), "--backend", "onnx"]) == 2
    assert 'pip install "hf-anon[onnx]"' in capsys.readouterr().err


def test_an_unknown_backend_is_an_error(tiny_model_dir):
    with pytest.raises(ValueError, match="backend must be one of auto, torch, onnx"):
        SpanDetector.from_pretrained(tiny_model_dir, backend="tensorflow")


@needs_onnx
def test_auto_runs_onnx_on_the_cpu_and_torch_elsewhere(
    tiny_model_dir, tmp_path, monkeypatch, capsys
):
    monkeypatch.delenv("HF_ANON_BACKEND")  # the tests pin torch (conftest)
    assert resolve_backend() == "onnx"
    assert resolve_backend(device="cuda") == "torch"
    assert resolve_backend("torch") == "torch"
    assert SpanDetector.from_pretrained(tiny_model_dir).backend == "onnx"
    assert SpanDetector.from_pretrained(tiny_model_dir, quantize=True).backend == "onnx-int8"
    half = Anonymizer.from_pretrained(tiny_model_dir, dtype="bfloat16")
    assert half.detector.backend == "torch"
    (tmp_path / "doc.txt").write_text(SENTENCE, encoding="utf-8")
    args = ["anonymize", str(tmp_path / "doc.txt"), "--model", str(tiny_model_dir)]
    assert main([*args, "--output", str(tmp_path / "out"), "--no-progress"]) == 0
    assert "; backend onnx)" in capsys.readouterr().err
    monkeypatch.setenv("HF_ANON_BACKEND", "torch")
    assert resolve_backend() == "torch" and resolve_backend("onnx") == "onnx"
    monkeypatch.setenv("HF_ANON_BACKEND", "tensorflow")
    with pytest.raises(ValueError, match="HF_ANON_BACKEND must be one of"):
        resolve_backend()


def test_auto_runs_torch_without_onnxruntime(tiny_model_dir, monkeypatch):
    monkeypatch.delenv("HF_ANON_BACKEND")
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    assert resolve_backend() == "torch"
    assert SpanDetector.from_pretrained(tiny_model_dir).backend == "torch"


@needs_onnx
def test_auto_falls_back_to_torch_where_a_model_does_not_export(tiny_model_dir, monkeypatch):
    import hf_anon.model.backends.onnx

    def broken(*args, **kwargs):
        raise RuntimeError("ONNX export of span_logits differs from torch by 1.0e+00")

    monkeypatch.delenv("HF_ANON_BACKEND")
    monkeypatch.setattr(hf_anon.model.backends.onnx, "load_onnx_model", broken)
    with pytest.warns(UserWarning, match="running it with torch"):
        assert SpanDetector.from_pretrained(tiny_model_dir).backend == "torch"
    with pytest.raises(RuntimeError, match="differs from torch"):
        SpanDetector.from_pretrained(tiny_model_dir, backend="onnx")
