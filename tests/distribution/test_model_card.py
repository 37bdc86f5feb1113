"""Model cards are generated from the model folder, the training run and the report."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from hf_anon.apply.report import build_report, write_report
from hf_anon.cli import main
from hf_anon.distribution.model_card import AnonModelCardData, generate_model_card
from hf_anon.distribution.models import release_model


@pytest.fixture
def model_with_report(tiny_model_dir, sample_gold, tmp_path):
    from hf_anon.model.detection import SpanDetector

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
    assert meta["datasets"] == ["ler", "synthetic"] and meta["widget"]
    # a random local encoder is on no hub: no base_model (the card used to claim e5-small)
    assert "base_model" not in meta
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

    from hf_anon.model.detection import SpanDetector

    out = release_model(tiny_model_dir, tmp_path / "release")
    with safe_open(str(out / "model.safetensors"), framework="pt") as f:
        assert {f.get_tensor(k).dtype for k in f.keys()} == {torch.float16}  # noqa: SIM118
    assert (out / "README.md").read_text().startswith("---\n")
    released = SpanDetector.from_pretrained(out)
    assert next(released.model.parameters()).dtype == torch.float32
    original = SpanDetector.from_pretrained(tiny_model_dir)
    texts = ["Der Kläger Jonas Weber wohnt in 80331 München."]
    assert len(released.detect(texts)[0]) == len(original.detect(texts)[0])


def test_release_over_a_folder_with_a_citation_filter_says_it_was_fitted_before(
    tiny_model_dir, tmp_path
):
    from hf_anon.model.recognizers.cited_filter import CitedFilter, CitedFilterConfig
    from hf_anon.text.data import Span

    out = release_model(tiny_model_dir, tmp_path / "release")
    cited, own = "Vgl. BGH, Urteil vom 1.2.2003, juris.", "Der Kläger zog am 1.2.2003 aus."
    spans = [
        [Span(t.index("1.2"), t.index("1.2") + 8, "date-fact", "medium")] for t in (cited, own)
    ]
    fitted = CitedFilter.fit([cited, own], spans, [[], spans[1]], CitedFilterConfig(buckets=64))
    fitted.save_pretrained(out)
    with pytest.warns(UserWarning, match="fit it again"):
        release_model(tiny_model_dir, out)
    assert CitedFilter.from_folder(out) is not None  # kept: it still works


def test_cli_card_regenerates_readme(model_with_report, capsys):
    folder, _ = model_with_report
    assert main(["card", "--model", str(folder), "--repo-id", "org/model"]) == 0
    assert "org/model" in (folder / "README.md").read_text()
    assert "model card written" in capsys.readouterr().out


def test_card_data_is_one_typed_object_filled_from_the_folder(model_with_report):
    folder, report = model_with_report
    data = AnonModelCardData.from_folder(folder, repo_id="org/model")
    assert (data.model_name, data.repo_id, data.license) == ("model", "org/model", "apache-2.0")
    assert [label.name for label in data.labels][:2] == ["nat-name", "nat-idx"]
    assert data.encoder_type == "bert" and data.num_layers == 2
    assert data.train_sources == ["corpora/synthetic", "corpora/ler"]
    assert data.datasets == ["ler", "synthetic"]
    assert data.hyperparameters["max_steps"] == 400 and data.best_metric == "lenient_recall"
    assert data.train_command == "python train.py --config configs/stage-2.yaml"
    assert data.training_info["minutes"] == 60
    assert [s["name"] for s in data.eval_sets] == ["dev"] and data.decoding == report.decoding
    assert data.parameters.endswith("M") and data.weight_dtype == "f32"
    assert data.base_model is None and data.window_max_length is None
    assert data.render() == generate_model_card(folder, repo_id="org/model")


def test_a_step_chosen_after_training_says_how_it_was_chosen(model_with_report):
    folder, _ = model_with_report
    info = json.loads((folder / "training_info.json").read_text())
    rule = "the calibration's rule (high-risk recall up to 0.99, then F2)"
    (folder / "training_info.json").write_text(json.dumps({**info, "selected_by": rule}))
    scores = {"step": 100, "lenient_recall": 0.96, "recall_high": 0.99}
    (folder / "eval_results.json").write_text(json.dumps(scores))
    assert AnonModelCardData.from_folder(folder).best_metric == rule
    assert f"by {rule} on the validation sets" in generate_model_card(folder)


def set_config(folder, **settings):
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **settings}))


def test_card_shows_the_inference_settings_of_the_config(model_with_report):
    folder, _ = model_with_report
    card = generate_model_card(folder)
    assert "512 tokens overlapping by 64 (hf-anon's default" in card
    assert "each token takes its most likely tag" in card
    assert "no deterministic recognizers" in card
    set_config(
        folder,
        window_max_length=256,
        window_stride=32,
        label_thresholds={"nat-name": 0.05, "court-name": 0.9},
        recognizers=["dates", "courts"],
    )
    card = generate_model_card(folder)
    assert "windows of at most 256 tokens overlapping by 32 (those it was trained on)" in card
    assert "| `nat-name` | 0.05 |\n| `court-name` | 0.9 |" in card  # in label order
    assert "merged with its spans: dates, courts" in card


def test_card_names_the_learned_citation_filter_where_the_folder_has_one(model_with_report):
    from hf_anon.model.recognizers.cited_filter import CitedFilter, CitedFilterConfig
    from hf_anon.text.data import Span

    folder, _ = model_with_report
    assert "citation filter" not in generate_model_card(folder)
    cited, own = "Vgl. BGH, Urteil vom 1.2.2003, juris.", "Der Kläger zog am 1.2.2003 aus."
    spans = [
        [Span(t.index("1.2"), t.index("1.2") + 8, "date-fact", "medium")] for t in (cited, own)
    ]
    config = CitedFilterConfig(buckets=64, trained_on="2 decisions of a test")
    CitedFilter.fit([cited, own], spans, [[], spans[1]], config).save_pretrained(folder)
    card = generate_model_card(folder)
    assert "a learned citation filter" in card
    assert "2 decisions of a test (2 spans, 1 of them outside every gold span)" in card
    assert "at least 0.97 sure" in card


def test_card_windows_of_an_older_folder_come_from_its_training_config(model_with_report):
    folder, _ = model_with_report
    config = json.loads((folder / "training_config.json").read_text())
    (folder / "training_config.json").write_text(json.dumps({**config, "max_length": 128}))
    data = AnonModelCardData.from_folder(folder)
    assert data.window_max_length == 128 and data.hyperparameters["max_length"] == 128


def test_card_base_model_is_what_training_recorded(model_with_report):
    folder, _ = model_with_report
    set_config(folder, base_model="deepset/gbert-base")
    card = generate_model_card(folder)
    assert front_matter(card)["base_model"] == "deepset/gbert-base"
    assert "on **deepset/gbert-base** cut to its first 2 layers" in card
    # given explicitly (hf-anon card --base-model), it wins
    meta = front_matter(generate_model_card(folder, base_model="org/encoder"))
    assert meta["base_model"] == "org/encoder"


def test_card_without_a_recorded_base_model_keeps_the_one_of_its_card(model_with_report):
    """Folders saved before training recorded ``base_model`` (the bundled model) keep what
    their card says; a folder whose card says nothing has none."""
    folder, _ = model_with_report
    card = generate_model_card(folder)
    assert "on a 2-layer bert encoder that is not on the Hub" in card
    (folder / "README.md").write_text(card.replace("language:", "base_model: org/e5\nlanguage:"))
    assert front_matter(generate_model_card(folder))["base_model"] == "org/e5"
    assert main(["card", "--model", str(folder), "--base-model", "org/other"]) == 0
    assert front_matter((folder / "README.md").read_text())["base_model"] == "org/other"


def test_release_writes_what_an_older_folder_kept_aside_into_the_config(tiny_model_dir, tmp_path):
    """Windows from training_config.json and the base model of the folder's card."""
    old = tmp_path / "old"
    shutil.copytree(tiny_model_dir, old)
    (old / "training_config.json").write_text(json.dumps({"max_length": 64, "stride": 8}))
    card = generate_model_card(old)
    (old / "README.md").write_text(card.replace("language:", "base_model: org/e5\nlanguage:"))
    out = release_model(old, tmp_path / "release")
    config = json.loads((out / "config.json").read_text())
    assert (config["window_max_length"], config["window_stride"]) == (64, 8)
    assert config["base_model"] == "org/e5"
    assert front_matter((out / "README.md").read_text())["base_model"] == "org/e5"


def test_a_training_file_listed_several_times_is_named_once_with_its_count():
    from hf_anon.distribution.model_card import counted_sources

    assert counted_sources(["gold.jsonl", "gold.jsonl", "corpora/synthetic"]) == [
        "gold.jsonl (2 times)",
        "corpora/synthetic",
    ]


def test_a_json_lines_training_file_is_named_with_its_folder(model_with_report):
    folder, _ = model_with_report
    data = AnonModelCardData.from_folder(folder, repo_id="org/model")
    data.train_sources = ["data/ja/real/train.jsonl", "corpora/ja_synthetic:train"]
    assert data.datasets == ["ja_synthetic", "real_train"]


def test_a_japanese_card_says_whether_its_real_precedents_were_annotated_by_hand(
    model_with_report,
):
    folder, _ = model_with_report
    data = AnonModelCardData.from_folder(folder, repo_id="org/model")
    data.language = ["ja"]
    data.train_sources = ["data/ja/real/train.jsonl", "corpora/ja_synthetic:train"]
    assert "annotated exhaustively by hand" in data.render()
    data.train_sources = ["corpora/ja_real:train", "corpora/ja_synthetic:train"]
    card = data.render()
    assert "annotated exhaustively by hand" not in card and "labelled by rule" in card
    assert "line ends of the PDF's wrapping" not in card
    data.unwrap_lines = True  # a model trained with train.py --unwrap_lines says how it reads
    assert "line ends of the PDF's wrapping" in data.render()


def test_the_unseen_court_sets_of_a_report_are_described_in_the_card(
    tiny_model_dir, sample_gold, tmp_path
):
    """A reader of the card learns that these figures are of courts the model never saw."""
    from hf_anon.model.detection import SpanDetector

    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    detector = SpanDetector.from_pretrained(folder)
    sets = [("unseen-courts", "u.jsonl", sample_gold), ("unseen-juris", "j.jsonl", sample_gold)]
    write_report(build_report(detector, sets, model_name="m"), folder / "report")
    card = generate_model_card(folder)
    assert "that no training split, choice, threshold or rule has seen" in card
    assert "Landgerichte as juris published them" in card
