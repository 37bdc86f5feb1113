"""The tuned placeholder tagger: its encoder trained with a LoRA adapter, saved beside the
span model, loaded back, and resumed from its checkpoint."""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import replace

import numpy as np
import pytest
import torch

from hf_anon.model.placeholder_tagger import (
    ADAPTER_FOLDER,
    HEAD_CONFIG,
    PlaceholderTagger,
    TaggerConfig,
)
from hf_anon.model.placeholder_tuning import (
    TuningConfig,
    batches,
    save_tuned,
    training_windows,
    tune,
)
from hf_anon.text.data import Document, Span

TEXT = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München. "
PUBLISHED = "Der Kläger A. wohnt in der X-Straße 12 in 00000 B-Stadt. "


def documents() -> list[Document]:
    """Published text with its placeholders (every repetition), and text with none."""
    text = PUBLISHED * 3
    spans = []
    for surface, label in (("A.", "nat-name"), ("X-Straße 12", "address-name")):
        spans += [Span(m.start(), m.end(), label) for m in re.finditer(re.escape(surface), text)]
    spans += [Span(m.start(), m.end(), "address-name") for m in re.finditer("00000 B-Stadt", text)]
    return [Document(f"d{i}", text, sorted(spans)) for i in range(4)] + [
        Document("clear", TEXT * 3, [])
    ]


@pytest.fixture(scope="module")
def frozen(tiny_model_dir):
    tagger = PlaceholderTagger.from_pretrained(tiny_model_dir, require_head=False)
    tagger.config = TaggerConfig(tagger.config.hidden_size, head_units=0)
    return tagger


@pytest.fixture(scope="module")
def windows(frozen):
    return training_windows(
        documents(), frozen.tokenizer, frozen.labels, keep_empty=1.0, rng=random.Random(0)
    )


def test_windows_carry_tags_and_the_hidden_label(windows):
    assert any(w.has_placeholder for w in windows)
    assert any(not w.has_placeholder for w in windows)  # the clear text is kept (keep_empty=1)
    for w in windows:
        assert len(w.input_ids) == len(w.tags) == len(w.label_ids)
    ids, mask, tags, labels = next(batches(windows, 3, 0, random.Random(0)))
    assert ids.shape == mask.shape == tags.shape == labels.shape
    assert (tags[mask == 0] == -100).all()  # padding is never a target


@pytest.fixture(scope="module")
def tuned_folder(tiny_model_dir, frozen, windows, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tuned") / "model"
    shutil.copytree(tiny_model_dir, folder)
    config = TuningConfig(epochs=1, batch_size=2, lr=5e-3, lora_r=4, save_every=1)
    tuned = tune(frozen, windows, config, folder / "checkpoint", progress=False)
    save_tuned(folder, tuned, frozen)
    return folder, tuned


def test_tuning_changes_the_adapter_and_saves_a_checkpoint(tuned_folder):
    folder, tuned = tuned_folder
    lora_b = [p for n, p in tuned.encoder.named_parameters() if "lora_B" in n]
    assert lora_b and any(p.abs().sum() > 0 for p in lora_b)  # LoRA's B starts at zero
    for name in ("heads.pt", "optimizer.pt", f"{ADAPTER_FOLDER}/adapter_config.json"):
        assert (folder / "checkpoint" / name).exists()
    saved = json.loads((folder / HEAD_CONFIG).read_text())
    assert saved["adapter"] and saved["token_labels"]


def test_the_tuned_tagger_loads_and_reads_with_its_own_encoder(tuned_folder, frozen):
    folder, tuned = tuned_folder
    tagger = PlaceholderTagger.from_pretrained(folder)
    assert tagger.encoder is not tagger.model.encoder
    assert tagger.token_label_head is not None
    ((_offsets, hidden, label_probs),) = tagger.encode([PUBLISHED])
    ((_, frozen_hidden, _),) = frozen.encode([PUBLISHED])
    assert not np.allclose(hidden, frozen_hidden, atol=1e-4)  # the adapter is merged in
    # the merged encoder reads as the trained one did, labels from the tagger's own head
    ids = tagger.tokenizer(PUBLISHED, return_tensors="pt")
    with torch.no_grad():
        _tag_logits, label_logits = tuned(ids["input_ids"], ids["attention_mask"])
    expected = torch.softmax(label_logits[0, 1:-1], dim=-1).numpy()
    assert np.allclose(label_probs, expected, atol=1e-4)
    for span in tagger.predict([PUBLISHED])[0]:
        assert span.label in tagger.labels
        assert PUBLISHED[span.start : span.end].strip() == PUBLISHED[span.start : span.end]


def test_the_span_models_encoder_is_untouched(tuned_folder, tiny_model_dir):
    folder, _ = tuned_folder
    tagger = PlaceholderTagger.from_pretrained(folder)
    plain = PlaceholderTagger.from_pretrained(tiny_model_dir, require_head=False)
    theirs = plain.model.encoder.state_dict()
    for name, weights in tagger.model.encoder.state_dict().items():
        assert torch.equal(weights, theirs[name]), name


def test_resume_goes_on_from_the_checkpoint(tuned_folder, frozen, windows):
    folder, _ = tuned_folder
    checkpoint = folder / "checkpoint"
    before = torch.load(checkpoint / "heads.pt")["state"]
    assert before == {"epoch": 1, "step": 0}
    config = TuningConfig(epochs=2, batch_size=2, lr=5e-3, lora_r=4, save_every=100)
    tune(frozen, windows, config, checkpoint, resume=True, progress=False)
    assert torch.load(checkpoint / "heads.pt")["state"] == {"epoch": 2, "step": 0}


def test_a_folder_missing_its_adapter_says_so(tuned_folder, tmp_path):
    folder, _ = tuned_folder
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    shutil.rmtree(broken / ADAPTER_FOLDER)
    with pytest.raises(ValueError, match=ADAPTER_FOLDER):
        PlaceholderTagger.from_pretrained(broken)


def test_the_tuning_script_chooses_german_settings_on_the_validation_key(tiny_model_dir, tmp_path):
    """``tune_placeholder_tagger.py`` end to end on a tiny model (German, the default):
    annotated decisions masked as courts mask and the training key tune an adapter; the
    threshold and label scope are chosen on the validation key."""
    import importlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
    script = importlib.import_module("tune_placeholder_tagger")
    start = TEXT.index("Hans Müller")
    gold = {"id": "g", "text": TEXT, "spans": [
        {"start": start, "end": start + 11, "label": "nat-name"},
    ]}  # fmt: skip
    doc = documents()[0]
    key = {"id": "k", "text": doc.text, "placeholders": [
        {"start": s.start, "end": s.end, "label": s.label} for s in doc.spans
    ]}  # fmt: skip
    for name, row in (("train.jsonl", gold), ("train.key.jsonl", key), ("val.key.jsonl", key)):
        (tmp_path / name).write_text(json.dumps(row, ensure_ascii=False) + "\n")
    out = tmp_path / "tuned"
    args = ["--model", str(tiny_model_dir), "--output", str(out), "--silver", "0",
            "--train", str(tmp_path / "train.jsonl"),
            "--train-key", str(tmp_path / "train.key.jsonl"),
            "--validation-key", str(tmp_path / "val.key.jsonl"), "--batch-size", "2",
            "--lora-r", "2", "--save-every", "1"]  # fmt: skip
    assert script.main(args) == 0
    saved = json.loads((out / HEAD_CONFIG).read_text())
    assert saved["language"] == "de" and saved["adapter"]
    record = json.loads((out / "placeholder_tuning.json").read_text())
    assert record["texts"] == 2 + 2 and "combination" not in record  # German: third key
    assert record["threshold"] == saved["threshold"]


def test_tuning_again_with_the_same_seed_gives_the_same_tagger(frozen, windows, tmp_path):
    """A tagger that ships can be rebuilt from its recipe: the adapter's and heads' first
    weights and the dropout are drawn from the config's seed, not from whatever ran before."""
    config = TuningConfig(epochs=1, batch_size=2, lr=5e-3, lora_r=4, save_every=100, seed=3)
    first = tune(frozen, windows, config, tmp_path / "a", progress=False)
    torch.rand(7)  # whatever else drew from torch's generator in between
    second = tune(frozen, windows, config, tmp_path / "b", progress=False)
    other = tune(frozen, windows, replace(config, seed=4), tmp_path / "c", progress=False)

    a, b, c = (t.state_dict() for t in (first, second, other))
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)
