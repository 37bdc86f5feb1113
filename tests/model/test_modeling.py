"""The multi-task model: heads, loss, save/load round trip, Auto classes."""

from __future__ import annotations

import pytest
import torch
from transformers import AutoConfig, AutoModel

from hf_anon.model.modeling import AnonConfig, AnonModel
from hf_anon.model.training import tiny_random_encoder
from hf_anon.text.labels import DEFAULT_LABELS

TEXTS = ["Herr Hans Müller wohnt in der Bahnhofstraße 12, 80331 München.", "Az. 5 C 12/21"]


@pytest.fixture(scope="module")
def encoder_dir(tmp_path_factory):
    return tiny_random_encoder(tmp_path_factory.mktemp("encoder"), TEXTS * 20, vocab_size=200)


@pytest.fixture(scope="module")
def model(encoder_dir):
    torch.manual_seed(0)
    return AnonModel.from_encoder(
        str(encoder_dir),
        DEFAULT_LABELS.names,
        list(DEFAULT_LABELS.risks),
        label_set=DEFAULT_LABELS.to_dict(),
    ).eval()


def inputs(encoder_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(encoder_dir))
    batch = tokenizer(TEXTS, padding=True, return_tensors="pt")
    batch.pop("token_type_ids", None)
    return batch


def test_three_heads_give_per_token_logits(model, encoder_dir):
    batch = inputs(encoder_dir)
    out = model(**batch)
    n, width = batch["input_ids"].shape
    assert out.span_logits.shape == (n, width, 3)
    assert out.label_logits.shape == (n, width, 14)
    assert out.risk_logits.shape == (n, width, 3)
    assert out.loss is None


def test_encoder_keeps_its_pretrained_weights(model, encoder_dir):
    pretrained = AutoModel.from_pretrained(str(encoder_dir))
    assert torch.equal(
        model.encoder.embeddings.word_embeddings.weight,
        pretrained.embeddings.word_embeddings.weight,
    )


def test_loss_weighs_heads_and_ignores_tokens_outside_spans(model, encoder_dir):
    batch = inputs(encoder_dir)
    tags = torch.zeros_like(batch["input_ids"])
    tags[0, 2], tags[0, 3] = 1, 2
    labels = torch.full_like(tags, -100)
    labels[0, 2:4] = 0
    risks = torch.full_like(tags, -100)
    risks[0, 2:4] = 2
    out = model(**batch, span_tags=tags, label_ids=labels, risk_ids=risks)
    weights = model.config.loss_weights
    expected = sum(weights[k] * v for k, v in out.losses.items())
    assert torch.allclose(out.loss, expected)
    no_spans = model(
        **batch,
        span_tags=torch.zeros_like(tags),
        label_ids=torch.full_like(tags, -100),
        risk_ids=torch.full_like(tags, -100),
    )
    assert no_spans.losses["label"].item() == 0.0  # no NaN from an empty mean


def test_span_loss_weighs_span_tokens_more_to_favour_recall(model, encoder_dir):
    batch = inputs(encoder_dir)
    tags = torch.zeros_like(batch["input_ids"])
    tags[:, 1] = 1  # one B token per window, the rest O
    out = model(**batch)
    loss = model.losses(out, tags, None, None)["span"]
    per_token = torch.nn.functional.cross_entropy(
        out.span_logits.flatten(0, 1), tags.flatten(), reduction="none"
    )
    weights = torch.tensor(model.config.span_class_weights)[tags.flatten()]
    assert weights.max() == 3.0
    assert torch.allclose(loss, (per_token * weights).sum() / weights.sum())


def test_save_and_reload_give_identical_predictions(model, encoder_dir, tmp_path):
    batch = inputs(encoder_dir)
    before = model(**batch)
    model.save_pretrained(tmp_path)
    assert (tmp_path / "model.safetensors").exists()
    assert not list(tmp_path.glob("*.bin"))  # safetensors only
    assert (tmp_path / "modeling.py").exists()  # remote code for the hub
    for reloaded in (AnonModel.from_pretrained(tmp_path), AutoModel.from_pretrained(tmp_path)):
        reloaded.eval()
        assert isinstance(reloaded, AnonModel)
        after = reloaded(**batch)
        for name in ("span_logits", "label_logits", "risk_logits"):
            assert torch.equal(getattr(before, name), getattr(after, name))
    config = AutoConfig.from_pretrained(tmp_path)
    assert isinstance(config, AnonConfig) and config.labels == DEFAULT_LABELS.names
    assert config.auto_map["AutoModel"].endswith("AnonModel")


def test_cutting_layers_keeps_the_first_ones(encoder_dir):
    full = AutoModel.from_pretrained(str(encoder_dir))
    cut = AnonModel.from_encoder(str(encoder_dir), DEFAULT_LABELS.names, num_hidden_layers=1)
    assert cut.encoder.config.num_hidden_layers == 1
    assert torch.equal(
        cut.encoder.encoder.layer[0].attention.self.query.weight,
        full.encoder.layer[0].attention.self.query.weight,
    )


def test_a_base_stored_in_float16_trains_in_float32(encoder_dir, tmp_path):
    # hf-anon base-model build --dtype float16 makes a base small enough to carry to a GPU
    AutoModel.from_pretrained(str(encoder_dir)).half().save_pretrained(tmp_path / "half")
    model = AnonModel.from_encoder(str(tmp_path / "half"), DEFAULT_LABELS.names)
    assert {p.dtype for p in model.parameters()} == {torch.float32}
    out = model(**inputs(encoder_dir))  # heads and encoder meet in one dtype
    assert out.span_logits.dtype == torch.float32


def test_export_for_the_standard_token_classification_pipeline(model, encoder_dir, tmp_path):
    from transformers import AutoModelForTokenClassification, AutoTokenizer, pipeline

    from hf_anon.model.modeling import bio_labels, export_token_classification

    tokenizer = AutoTokenizer.from_pretrained(str(encoder_dir))
    batch = inputs(encoder_dir)
    export_token_classification(model, tmp_path, tokenizer, calibration=batch)
    plain = AutoModelForTokenClassification.from_pretrained(tmp_path).eval()  # no remote code
    assert plain.config.id2label[1] == "B-nat-name" and len(plain.config.id2label) == 29
    assert bio_labels(["a"]) == ["O", "B-a", "I-a"]
    logits = plain(**batch).logits
    ours = model(**batch)
    # B-L and I-L logits are exactly span(B|I) + label(L).
    expected = ours.span_logits[..., 1] + ours.label_logits[..., 0]
    assert torch.allclose(logits[..., 1], expected, atol=1e-5)
    tagger = pipeline("token-classification", model=str(tmp_path), aggregation_strategy="simple")
    entities = tagger(TEXTS[0])
    assert all(e["entity_group"] in DEFAULT_LABELS.names for e in entities)


def test_the_config_records_the_encoder_and_its_hub_id(encoder_dir, tmp_path):
    local = AnonModel.from_encoder(str(encoder_dir), DEFAULT_LABELS.names)
    assert local.config.base_encoder == str(encoder_dir)
    assert local.config.base_model is None  # a random local encoder has no hub id
    # a folder that declares its origin (hf-anon base-model build writes base_model)
    declared = tmp_path / "declared"
    encoder = AutoModel.from_pretrained(str(encoder_dir))
    encoder.config.base_model = "intfloat/multilingual-e5-small"
    encoder.save_pretrained(declared)
    model = AnonModel.from_encoder(str(declared), DEFAULT_LABELS.names)
    assert model.config.base_model == "intfloat/multilingual-e5-small"
    assert AutoConfig.from_pretrained(str(declared)).base_model == model.config.base_model
    model.save_pretrained(tmp_path / "model")
    reloaded = AnonModel.from_pretrained(tmp_path / "model").config
    assert (reloaded.base_encoder, reloaded.base_model) == (str(declared), model.config.base_model)
