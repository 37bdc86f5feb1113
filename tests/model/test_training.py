"""Training: config parsing, batches, masking schemes, LoRA, and train.py end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.model.detection import SpanDetector
from hf_anon.model.training import (
    IGNORE_INDEX,
    MASKING_SCHEMES,
    TrainingConfig,
    WindowCollator,
    build_model,
    is_better,
    load_documents,
    mergeable,
    parse_config,
    read_id_files,
    tiny_random_encoder,
    unwrapped_documents,
    window_features,
    without_ids,
)
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in München."
DOC = Document("d", TEXT, [Span(11, 22, "nat-name", "high"), Span(36, 52, "address-name", "high")])


@pytest.fixture(scope="module")
def encoder_dir(tmp_path_factory):
    return tiny_random_encoder(tmp_path_factory.mktemp("enc"), [TEXT] * 30, vocab_size=150)


def test_config_comes_from_a_yaml_file_and_flags_win(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("model_name_or_path: some/encoder\nlearning_rate: 0.001\nmax_steps: 7\n")
    config = parse_config(["--config", str(path), "--max_steps", "9"])
    assert config.model_name_or_path == "some/encoder"
    assert config.learning_rate == 0.001 and config.max_steps == 9
    path.write_text("model_name_or_path: x\nlearning_rat: 0.1\n")
    with pytest.raises(ValueError, match="unknown settings"):
        parse_config(["--config", str(path)])
    with pytest.raises(ValueError, match="masking"):
        parse_config(["--model_name_or_path", "x", "--masking", "M9"])


def test_corpus_folders_give_only_the_requested_split(tmp_path):
    from hf_anon.corpora.corpus import save_corpus

    splits = {"train": [DOC], "test": [Document("t", "Nur Test.", [])]}
    save_corpus(splits, tmp_path / "corpus")
    assert [d.id for d in load_documents([str(tmp_path / "corpus")], DEFAULT_LABELS)] == ["d"]
    assert [d.id for d in load_documents([f"{tmp_path / 'corpus'}:test"], DEFAULT_LABELS)] == ["t"]
    with pytest.raises(ValueError, match="no split 'validation'"):
        load_documents([str(tmp_path / "corpus")], DEFAULT_LABELS, split="validation")


def test_an_id_file_keeps_calibration_documents_out_of_training(tmp_path):
    ids = tmp_path / "calibration_ids.txt"
    ids.write_text("# kept for calibration\njla-2\n\njla-3  # and this one\n", encoding="utf-8")
    documents = [Document(f"jla-{n}", "Text.", []) for n in range(1, 5)]
    assert [d.id for d in without_ids(documents, read_id_files([ids]))] == ["jla-1", "jla-4"]
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no document ids"):
        read_id_files([ids, empty])
    config = parse_config(["--model_name_or_path", "x", "--exclude_ids_files", str(ids)])
    assert config.exclude_ids_files == [str(ids)]


def test_a_model_that_reads_unwrapped_text_is_trained_on_unwrapped_text():
    text = "原告は，令和２年５月１日，海事鑑定人が右チー・リ\nンと控訴人の折衝の場で会った。\n"
    start = text.index("チー")
    doc = Document("d", text, [Span(start, start + 6, "jur-name", "high")])
    (read,) = unwrapped_documents([doc], "ja")

    assert read.text == text.replace("リ\nン", "リン")
    assert [read.text[s.start : s.end] for s in read.spans] == ["チー・リン"]
    config = parse_config(["--model_name_or_path", "x", "--unwrap_lines", "true"])
    assert config.unwrap_lines


@given(
    st.text(alphabet=st.sampled_from("あいう。第１\n"), min_size=1, max_size=60),
    st.data(),
)
def test_unwrapping_keeps_every_span_on_its_characters(text, data):
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    doc = Document("d", text, [Span(start, end, "nat-name", "high")])
    (read,) = unwrapped_documents([doc], "ja")
    (span,) = read.spans
    # the span covers the same characters; only the line ends the wrapping made are gone
    assert read.text[span.start : span.end].replace("\n", "") == text[start:end].replace("\n", "")


def test_windows_and_collator_pad_targets(encoder_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(encoder_dir))
    features = window_features([DOC, DOC], tokenizer, DEFAULT_LABELS, max_length=12, stride=2)
    assert len(features) > 2 and all(len(f["input_ids"]) <= 12 for f in features)
    batch = WindowCollator(pad_token_id=tokenizer.pad_token_id)(features)
    width = max(len(f["input_ids"]) for f in features)
    assert batch["input_ids"].shape == (len(features), width)
    short = min(range(len(features)), key=lambda i: len(features[i]["input_ids"]))
    n = len(features[short]["input_ids"])
    assert batch["attention_mask"][short, n:].sum() == 0
    assert (batch["span_tags"][short, n:] == IGNORE_INDEX).all()


@pytest.mark.parametrize("scheme", sorted(MASKING_SCHEMES))
def test_masking_schemes_train_only_on_candidates(encoder_dir, scheme):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(encoder_dir))
    features = window_features([DOC], tokenizer, DEFAULT_LABELS, max_length=64, stride=0)
    collator = WindowCollator(
        pad_token_id=tokenizer.pad_token_id,
        masking=scheme,
        mask_token_id=tokenizer.mask_token_id,
        vocab_size=len(tokenizer),
        candidate_probability=0.0,
        seed=1,
    )
    plain = WindowCollator(pad_token_id=tokenizer.pad_token_id)(features)
    batch = collator(features)
    in_span = plain["span_tags"][0] > 0
    # With no random candidates, the loss sees exactly the placeholder (span) tokens.
    assert torch.equal(batch["span_tags"][0] != IGNORE_INDEX, in_span)
    changed = batch["input_ids"][0] != plain["input_ids"][0]
    assert not changed[~in_span].any()  # only candidates are ever masked
    if scheme == "M7":
        assert (batch["input_ids"][0][in_span] == tokenizer.mask_token_id).all()
    if scheme == "M3":
        assert not (batch["input_ids"][0] == tokenizer.mask_token_id).any()


def test_best_checkpoint_prefers_high_risk_recall_then_lenient_f1():
    a = {"recall_high": 0.9, "lenient_f1": 0.5}
    assert is_better(a, None, "recall_high")
    assert is_better({"recall_high": 0.95, "lenient_f1": 0.1}, a, "recall_high")
    assert is_better({"recall_high": 0.9, "lenient_f1": 0.6}, a, "recall_high")
    assert not is_better({"recall_high": 0.9, "lenient_f1": 0.4}, a, "recall_high")


def test_a_trained_model_can_be_cut_to_its_first_layers(tiny_model_dir):
    from hf_anon.model.modeling import AnonModel

    full = AnonModel.from_pretrained(str(tiny_model_dir)).eval()
    config = TrainingConfig(model_name_or_path=str(tiny_model_dir), num_hidden_layers=1)
    cut = build_model(config, DEFAULT_LABELS).eval()
    assert len(cut.encoder.encoder.layer) == 1 and cut.config.encoder["num_hidden_layers"] == 1
    # the kept layer and the heads are the trained ones, not new random weights
    kept = full.encoder.encoder.layer[0].state_dict()
    for name, tensor in cut.encoder.encoder.layer[0].state_dict().items():
        assert torch.equal(tensor, kept[name]), name
    assert torch.equal(cut.span_head.weight, full.span_head.weight)
    with pytest.raises(ValueError, match="between 1 and 2"):
        build_model(
            TrainingConfig(model_name_or_path=str(tiny_model_dir), num_hidden_layers=3),
            DEFAULT_LABELS,
        )


def test_the_model_config_carries_the_training_windows(encoder_dir, tiny_model_dir):
    config = TrainingConfig(model_name_or_path=str(encoder_dir), max_length=64, stride=8)
    model = build_model(config, DEFAULT_LABELS)
    assert (model.config.window_max_length, model.config.window_stride) == (64, 8)
    assert model.config.base_encoder == str(encoder_dir) and model.config.base_model is None
    # a later stage records its own windows
    config = TrainingConfig(model_name_or_path=str(tiny_model_dir), max_length=32, stride=4)
    assert build_model(config, DEFAULT_LABELS).config.window_max_length == 32


def test_a_later_stage_trains_with_its_own_entity_weights(tiny_model_dir):
    config = TrainingConfig(model_name_or_path=str(tiny_model_dir), span_class_weights=[1, 6, 6])
    model = build_model(config, DEFAULT_LABELS)
    assert model.config.span_class_weights == [1, 6, 6]  # not the parent's [1, 3, 3]
    parent = build_model(TrainingConfig(model_name_or_path=str(tiny_model_dir)), DEFAULT_LABELS)
    assert parent.config.span_class_weights == [1.0, 3.0, 3.0]


def test_lora_adapters_merge_into_a_plain_model(encoder_dir):
    config = TrainingConfig(model_name_or_path=str(encoder_dir), lora_r=4)
    model = build_model(config, DEFAULT_LABELS)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert any("lora_" in n for n in trainable)
    assert not any("word_embeddings" in n for n in trainable)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if "lora_B" in name:
                parameter.add_(0.01)
    model.eval()
    ids = torch.tensor([[2, 10, 11, 12, 3]])
    before = model(input_ids=ids).span_logits
    merged = mergeable(model)
    assert not any("lora_" in n for n, _ in merged.named_parameters())
    assert torch.allclose(merged(input_ids=ids).span_logits, before, atol=1e-5)


def run_train(*args: str, launcher: list[str] | None = None, timeout: int = 300):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    command = [*(launcher or [sys.executable]), str(ROOT / "train.py"), *args]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_tiny_config_trains_loss_falls_and_reloads_identically(tmp_path):
    out = tmp_path / "tiny"
    run_train("--config", "configs/tiny.yaml", "--output_dir", str(out), "--report_to", "none")
    history = [json.loads(line) for line in (out / "log_history.jsonl").read_text().splitlines()]
    assert history[-1]["loss"] < history[0]["loss"]
    best = out / "best"
    assert (best / "model.safetensors").exists() and (best / "training_config.json").exists()
    assert json.loads((best / "eval_results.json").read_text())["step"] in (30, 60)
    # the windows it was trained on travel in config.json (configs/tiny.yaml: 128, 16)
    saved = json.loads((best / "config.json").read_text())
    assert (saved["window_max_length"], saved["window_stride"]) == (128, 16)
    texts = ["Der Kläger Jonas Weber wohnt in der Gartenstraße 3 in 80331 München.", "Kurz."]
    first = SpanDetector.from_pretrained(best).detect(texts)
    again = SpanDetector.from_pretrained(best).detect(texts)
    assert first == again
    # Resume from the last checkpoint continues to the configured number of steps.
    assert (out / "checkpoint-60").exists()
    run_train(
        "--config",
        "configs/tiny.yaml",
        "--output_dir",
        str(out),
        "--report_to",
        "none",
        "--max_steps",
        "70",
        "--eval_steps",
        "10",
        "--resume_from_checkpoint",
        "latest",
    )
    steps = [
        json.loads(line)["step"] for line in (out / "log_history.jsonl").read_text().splitlines()
    ]
    assert steps[-1] == 70 and steps.count(70) == 1 and 10 not in steps[steps.index(60) :]


def test_a_second_stage_cuts_a_trained_model_and_counts_both_trainings(tmp_path):
    common = ["--config", "configs/tiny.yaml", "--report_to", "none", "--eval_steps", "6"]
    one = ["--output_dir", str(tmp_path / "one"), "--max_steps", "6"]
    run_train(*common, *one, "--save_each_evaluation", "true")
    first = json.loads((tmp_path / "one" / "best" / "training_info.json").read_text())
    # every evaluation also left a model folder, to choose the step afterwards
    at_six = tmp_path / "one" / "step-6"
    assert json.loads((at_six / "eval_results.json").read_text())["step"] == 6
    texts = ["Herr Jonas Weber wohnt in der Gartenstraße 3 in 80331 München."]
    best_six = SpanDetector.from_pretrained(tmp_path / "one" / "best").detect(texts)
    assert SpanDetector.from_pretrained(at_six).detect(texts) == best_six  # the same weights
    start = str(tmp_path / "one" / "best")
    stage_two = ["--model_name_or_path", start, "--num_hidden_layers", "1", "--max_steps", "6"]
    run_train(*common, "--output_dir", str(tmp_path / "two"), *stage_two)
    best = tmp_path / "two" / "best"
    config = json.loads((best / "config.json").read_text())
    assert config["encoder"]["num_hidden_layers"] == 1
    info = json.loads((best / "training_info.json").read_text())
    assert info["command"].startswith("python train.py --config configs/tiny.yaml")
    assert "--num_hidden_layers 1" in info["command"]
    assert info["total_seconds"] == pytest.approx(info["train_seconds"] + first["train_seconds"])
    assert (
        "Retrain: `python train.py --config configs/tiny.yaml" in (best / "README.md").read_text()
    )


def test_two_cpu_processes_with_accelerate_launch(tmp_path):
    out = tmp_path / "ddp"
    launcher = [sys.executable, "-m", "accelerate.commands.launch", "--num_processes", "2", "--cpu"]
    run_train(
        "--config",
        "configs/tiny.yaml",
        "--output_dir",
        str(out),
        "--report_to",
        "none",
        "--max_steps",
        "12",
        "--eval_steps",
        "6",
        launcher=launcher,
    )
    assert (out / "best" / "model.safetensors").exists()
    assert (out / "checkpoint-12").exists()


def test_a_court_adapter_is_trained_saved_alone_and_loaded_on_its_base(
    tiny_model_dir, sample_gold, tmp_path
):
    """train.py --save_adapter: a few decisions of one court → a PEFT adapter (no merged
    weights), its card, loadable with adapter= and pushable as an adapter repo."""
    from hf_anon.cli.main import main as cli_main
    from hf_anon.distribution.models import plan_model_push
    from hf_anon.text.data import save_jsonl

    court = tmp_path / "court.jsonl"
    save_jsonl(sample_gold, court)
    out = tmp_path / "adapter"
    run_train(
        "--config", "configs/court_adapter.yaml", "--model_name_or_path", str(tiny_model_dir),
        "--train_files", str(court), "--output_dir", str(out), "--max_steps", "6",
        "--max_length", "64", "--stride", "8", "--lora_r", "4", "--learning_rate", "0.01",
        "--head_learning_rate", "0.01",
    )  # fmt: skip

    best = out / "best"
    assert (best / "adapter_config.json").is_file()
    assert (best / "adapter_model.safetensors").is_file()
    assert not (best / "model.safetensors").exists()  # the adapter alone, not a model
    card = (best / "README.md").read_text()
    assert f"base_model: {tiny_model_dir}" in card and "`court.jsonl`" in card
    text = [Document("d", sample_gold[0].text)]
    adapted = SpanDetector.from_pretrained(tiny_model_dir, adapter=best)
    base = SpanDetector.from_pretrained(tiny_model_dir, backend="torch")
    ((_, tags_adapted, *_),) = adapted.predict_probabilities(text)
    ((_, tags_base, *_),) = base.predict_probabilities(text)
    assert not torch.allclose(torch.from_numpy(tags_adapted), torch.from_numpy(tags_base))
    # calibrated for itself: the thresholds go into the adapter, the base model is untouched
    assert adapted.label_thresholds == base.label_thresholds  # none of its own yet
    base_config = (tiny_model_dir / "config.json").read_text()
    assert cli_main(["calibrate", "--model", str(tiny_model_dir), "--adapter", str(best),
                     "--gold", str(court), "--write", "--no-progress"]) == 0  # fmt: skip
    assert (tiny_model_dir / "config.json").read_text() == base_config
    own = json.loads((best / "calibration.json").read_text())["thresholds"]
    assert SpanDetector.from_pretrained(tiny_model_dir, adapter=best).label_thresholds == own
    plan = plan_model_push(best, "court/adapter", token="hf_x")
    assert sorted(f.path_in_repo for f in plan.files) == [
        "README.md",
        "adapter_config.json",
        "adapter_model.safetensors",
        "calibration.json",
        "training_config.json",
        "training_info.json",
    ]


def test_an_adapter_needs_lora(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "train.py"), "--config", "configs/tiny.yaml",
         "--save_adapter", "true", "--output_dir", str(tmp_path / "x")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode != 0 and "--save_adapter needs LoRA" in result.stderr


def test_a_corpus_that_was_never_built_stops_the_run_before_anything_loads(tmp_path):
    built = tmp_path / "built.jsonl"
    built.write_text("", encoding="utf-8")
    (tmp_path / "corpus").mkdir()
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        "# Build the corpus first:\n"
        "#   python datasets_scripts/generate_synthetic.py --num-documents 20 \\\n"
        "#       --output corpora/not_built\n"
        "model_name_or_path: some/encoder\n"
        f"train_files: [{built}, corpora/not_built, corpora/not_built]\n"
        f"validation_files: ['{tmp_path / 'corpus'}:validation']\n",
        encoding="utf-8",
    )
    with pytest.raises(FileNotFoundError) as refused:
        parse_config(["--config", str(recipe)])

    message = str(refused.value)
    assert message.startswith("not there: corpora/not_built.")  # named once
    assert "generate_synthetic.py --num-documents 20" in message  # how to build it
    assert "--output corpora/not_built" in message
    assert str(built) not in message
    assert ":validation" not in message  # a folder's split is there when its folder is
    with pytest.raises(FileNotFoundError, match=r"other\.jsonl"):
        parse_config(["--model_name_or_path", "x", "--validation_files", "other.jsonl"])
