"""Every way to load a model to run goes through one LoadOptions: device, dtype, backend,
int8 quantization and a LoRA adapter (hf_anon.model.loading)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from hf_anon.apply.anonymize import Anonymizer
from hf_anon.cli.main import main
from hf_anon.model.detection import SpanDetector
from hf_anon.model.loading import LoadOptions
from hf_anon.model.modeling import AnonModel
from hf_anon.text.data import Document

TEXT = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dtype": "int4"}, "dtype must be one of"),
        ({"backend": "tensorflow"}, "backend must be one of"),
        ({"dtype": "bfloat16", "backend": "onnx"}, "works with the torch backend"),
        ({"dtype": "float16", "quantize": True}, "unquantized"),
        ({"adapter": "court-a", "backend": "onnx"}, "adapter runs with the torch backend"),
        ({"device": "cuda", "backend": "onnx"}, "ONNX backend runs on the CPU only"),
        ({"device": "cuda", "quantize": True}, "quantization runs on the CPU only"),
    ],
)
def test_combinations_that_cannot_run_are_refused_before_loading(options, message):
    with pytest.raises(ValueError, match=message):
        LoadOptions(**options)


def test_auto_takes_torch_where_a_half_dtype_or_an_adapter_asks_for_it():
    assert LoadOptions(dtype="bfloat16").resolved_backend() == "torch"
    assert LoadOptions(adapter="court-a").resolved_backend() == "torch"
    assert LoadOptions(backend="torch").resolved_backend() == "torch"
    assert LoadOptions(backend="onnx").resolved_backend() == "onnx"


def test_options_or_keywords_not_both(tiny_model_dir):
    options = LoadOptions(backend="torch")
    assert SpanDetector.from_pretrained(tiny_model_dir, options=options).backend == "torch"
    with pytest.raises(ValueError, match="either as options= or as keywords"):
        SpanDetector.from_pretrained(tiny_model_dir, options=options, quantize=True)


def test_a_half_dtype_loads_half_weights_with_torch(tiny_model_dir):
    anonymizer = Anonymizer.from_pretrained(tiny_model_dir, dtype="bfloat16")

    assert anonymizer.detector.backend == "torch"
    assert next(anonymizer.detector.model.parameters()).dtype == torch.bfloat16


@pytest.fixture(scope="module")
def court_adapter(tiny_model_dir, tmp_path_factory):
    """A LoRA adapter for the tiny model, with weights that change what it says, saved as
    PEFT saves it; and the same model with the adapter merged, saved as a plain folder."""
    from peft import LoraConfig, get_peft_model

    root = tmp_path_factory.mktemp("adapter")
    torch.manual_seed(7)
    lora = LoraConfig(
        r=4,
        lora_alpha=8,
        target_modules=["query", "value"],
        modules_to_save=["span_head", "label_head", "risk_head"],
    )
    peft_model = get_peft_model(AnonModel.from_pretrained(tiny_model_dir), lora)
    with torch.no_grad():
        for name, parameter in peft_model.named_parameters():
            if "lora_B" in name or ("modules_to_save" in name and "span_head.bias" in name):
                parameter.add_(torch.randn_like(parameter) * 0.5)
    peft_model.save_pretrained(root / "adapter")
    merged = peft_model.merge_and_unload()
    merged.save_pretrained(root / "merged")
    SpanDetector.from_pretrained(tiny_model_dir).tokenizer.save_pretrained(root / "merged")
    return root / "adapter", root / "merged"


def _probabilities(detector: SpanDetector) -> np.ndarray:
    [(_, tags, _, _)] = detector.predict_probabilities([Document("d", TEXT)])
    return tags


def test_an_adapter_is_merged_into_the_model_it_fits(tiny_model_dir, court_adapter):
    adapter, merged = court_adapter

    with_adapter = SpanDetector.from_pretrained(tiny_model_dir, adapter=adapter)
    plain = SpanDetector.from_pretrained(tiny_model_dir, backend="torch")
    reference = SpanDetector.from_pretrained(merged, backend="torch")

    assert with_adapter.backend == "torch"
    assert type(with_adapter.model) is AnonModel  # merged: no PEFT wrapper left to run
    np.testing.assert_allclose(_probabilities(with_adapter), _probabilities(reference), atol=1e-5)
    assert not np.allclose(_probabilities(with_adapter), _probabilities(plain), atol=1e-3)


def test_a_folder_that_is_not_an_adapter_is_named(tiny_model_dir):
    with pytest.raises(ValueError, match="not a LoRA adapter"):
        SpanDetector.from_pretrained(tiny_model_dir, adapter=tiny_model_dir)


def test_the_command_line_takes_an_adapter(tiny_model_dir, court_adapter, tmp_path, capsys):
    adapter, merged = court_adapter
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "d", "text": TEXT}) + "\n")

    def detect(*flags, model=tiny_model_dir):
        out = tmp_path / f"out{len(flags)}.jsonl"
        code = main(
            [
                "detect",
                "--model",
                str(model),
                "--input",
                str(source),
                "--output",
                str(out),
                "--threshold",
                "0.3",
                "--no-progress",
                *flags,
            ]
        )
        return code, out

    code, out = detect("--adapter", str(adapter))
    _, expected = detect("--backend", "torch", model=merged)
    assert code == 0
    assert out.read_text() == expected.read_text()

    code, _ = detect("--adapter", str(adapter), "--backend", "onnx")
    assert code != 0
    assert "adapter runs with the torch backend" in capsys.readouterr().err
