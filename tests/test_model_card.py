"""Model cards are generated from the model folder, the training run and the report."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from hf_anon.cli import main
from hf_anon.hub import release_model
from hf_anon.model_card import generate_model_card
from hf_anon.report import build_report, write_report


@pytest.fixture
def model_with_report(tiny_model_dir, sample_gold, tmp_path):
    from hf_anon.detection import SpanDetector

    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "training_config.json").write_text(
        json.dumps(
            {
                "train_files": ["corpora/synthetic", "corpora/ler"],
                "model_name_or_path": "outputs/stage-1/best",
                "num_hidden_layers": 6,
                "max_steps": 400,
                "learning_rate": 1e-4,
                "best_metric": "lenient_recall",
            }
        )
    )
    (folder / "training_info.json").write_text(
        json.dumps(
            {
                "command": "python train.py --config configs/stage-2.yaml",
                "train_seconds": 3600.0,
                "hardware": "x86_64 CPU, 2 threads",
                "num_processes": 1,
                "mixed_precision": "no",
                "versions": {"torch": "2.13.0"},
            }
        )
    )
    detector = SpanDetector.from_pretrained(folder)
    report = build_report(detector, [("dev", "gold.jsonl", sample_gold)], model_name="m")
    write_report(report, folder / "report")
    return folder, report


def front_matter(card: str) -> dict:
    assert card.startswith("---\n")
    return yaml.safe_load(card.split("---\n")[1])


def test_card_front_matter_carries_hub_metadata_and_the_model_index(model_with_report):
    folder, report = model_with_report
    card = generate_model_card(folder, repo_id="org/model")
    meta = front_matter(card)
    assert meta["language"] == ["de"] and meta["library_name"] == "hf-anon"
    assert meta["pipeline_tag"] == "token-classification"
    assert meta["base_model"] and meta["datasets"] == ["ler", "synthetic"] and meta["widget"]
    (result,) = meta["model-index"][0]["results"]
    values = {m["name"]: m["value"] for m in result["metrics"]}
    lenient = report.sets[0].scores["lenient"]
    assert values["lenient recall"] == pytest.approx(lenient["recall"], abs=5e-4)
    assert values["lenient precision"] == pytest.approx(lenient["precision"], abs=5e-4)


def test_card_body_has_the_sections_users_need(model_with_report):
    folder, _ = model_with_report
    card = generate_model_card(folder, repo_id="org/model")
    for section in (
        "## Usage",
        "## Intended use",
        "Out of scope",
        "## Labels and risk levels",
        "## Evaluation",
        "## Training data",
        "## Training procedure",
        "## Limitations and bias",
        "## Environmental impact",
        "## Framework versions",
        "## Citation",
    ):
        assert section in card, section
    assert 'Anonymizer.from_pretrained("org/model")' in card
    assert "| `nat-name` | high |" in card
    assert "Trained for 60 minutes on x86_64 CPU, 2 threads" in card
    assert "- `corpora/ler`" in card and "| max_steps | 400 |" in card
    # where training started (a trained model cut to 6 layers) and how to run it again
    assert "| model_name_or_path | outputs/stage-1/best |" in card
    assert "| num_hidden_layers | 6 |" in card
    assert "Retrain: `python train.py --config configs/stage-2.yaml`" in card
    assert "not a guarantee of anonymity" in card.lower()


def test_card_without_report_or_training_files_still_renders(tiny_model_dir):
    card = generate_model_card(tiny_model_dir)
    assert "model-index" not in front_matter(card)
    assert "Training time was not recorded" in card


def test_card_refuses_a_folder_that_is_no_hf_anon_model(tmp_path):
    with pytest.raises(ValueError, match="not an hf-anon model"):
        generate_model_card(tmp_path)


def test_release_writes_fp16_weights_and_a_card_that_loads_back(tiny_model_dir, tmp_path):
    import torch
    from safetensors import safe_open

    from hf_anon.detection import SpanDetector

    out = release_model(tiny_model_dir, tmp_path / "release")
    with safe_open(str(out / "model.safetensors"), framework="pt") as f:
        assert {f.get_tensor(k).dtype for k in f.keys()} == {torch.float16}  # noqa: SIM118
    assert (out / "README.md").read_text().startswith("---\n")
    released = SpanDetector.from_pretrained(out)
    assert next(released.model.parameters()).dtype == torch.float32
    original = SpanDetector.from_pretrained(tiny_model_dir)
    texts = ["Der Kläger Jonas Weber wohnt in 80331 München."]
    assert len(released.detect(texts)[0]) == len(original.detect(texts)[0])


def test_cli_card_regenerates_readme(model_with_report, capsys):
    folder, _ = model_with_report
    assert main(["card", "--model", str(folder), "--repo-id", "org/model"]) == 0
    assert "org/model" in (folder / "README.md").read_text()
    assert "model card written" in capsys.readouterr().out
