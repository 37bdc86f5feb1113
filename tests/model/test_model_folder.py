"""``ModelFolder``: one reader of an hf-anon model's files, for a folder or a hub id."""

from __future__ import annotations

import json
import shutil

import pytest

from hf_anon.model.detection import SpanDetector
from hf_anon.model.model_folder import ModelFolder, default_model


@pytest.fixture
def folder(tiny_model_dir, tmp_path):
    """A copy of the tiny model, free to be changed."""
    return shutil.copytree(tiny_model_dir, tmp_path / "model")


def write_config(folder, **settings):
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **settings}))


def test_a_local_folder_and_its_files(folder):
    model = ModelFolder(folder)
    assert model.is_local and model.name == "model" and str(model) == str(folder)
    assert ModelFolder(model).source == model.source  # a ModelFolder passes through
    assert model.file("config.json") == folder / "config.json"
    assert model.weights_file() == folder / "model.safetensors"
    assert model.file("training_config.json") is None and model.training_config == {}
    assert model.training_info is None and model.eval_results is None and model.report is None
    assert model.check()["model_type"] == "hf-anon"


def test_side_files_that_are_not_json_objects_read_as_absent(folder):
    (folder / "eval_results.json").write_text("[1, 2]")
    (folder / "training_info.json").write_text("{broken")
    (folder / "training_config.json").write_text('{"max_length": 64}')
    model = ModelFolder(folder)
    assert model.eval_results is None and model.training_info is None
    assert model.training_config == {"max_length": 64}


def test_no_argument_is_the_default_model(monkeypatch):
    monkeypatch.setenv("HF_ANON_MODEL", "org/other")
    assert ModelFolder().source == default_model() == "org/other"


def test_the_tests_run_with_the_hub_offline():
    """conftest sets ``HF_HUB_OFFLINE`` before anything imports huggingface_hub, which
    reads it once: the setting is in force, not merely in the environment."""
    import os

    from huggingface_hub import constants

    in_environment = os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}
    assert constants.HF_HUB_OFFLINE is in_environment


def test_a_hub_id_without_the_file_or_the_network_gives_none(monkeypatch):
    # offline (as conftest makes every test; set here too so that this test holds when
    # huggingface_hub was imported first): nothing cached, nothing fetched, no error
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)
    model = ModelFolder("hf-anon/not-a-model")
    assert not model.is_local
    assert model.file("config.json") is None and model.training_config == {}
    assert ModelFolder("/no/such/folder").file("config.json") is None  # no valid repo id


def test_check_refuses_what_is_no_hf_anon_model(tmp_path):
    with pytest.raises(ValueError, match="not an hf-anon model folder"):
        ModelFolder(tmp_path).check()
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')
    with pytest.raises(ValueError, match="not an hf-anon model folder"):
        ModelFolder(tmp_path).check()


def test_the_config_carries_the_inference_settings(folder):
    write_config(folder, window_max_length=64, window_stride=8, recognizers=["dates"])
    config = ModelFolder(folder).config
    assert (config.window_max_length, config.window_stride) == (64, 8)
    assert config.recognizers == ["dates"]
    detector = SpanDetector.from_pretrained(folder)
    assert (detector.max_length, detector.stride, detector.recognizers) == (64, 8, ("dates",))
    # the config wins over training_config.json, which older folders were read from
    (folder / "training_config.json").write_text(json.dumps({"max_length": 128, "stride": 16}))
    assert ModelFolder(folder).config.window_max_length == 64
    # keywords win over both
    assert SpanDetector.from_pretrained(folder, max_length=32).max_length == 32


def test_an_older_folder_keeps_its_windows_in_training_config(folder):
    (folder / "training_config.json").write_text(json.dumps({"max_length": 128, "stride": 16}))
    config = ModelFolder(folder).config
    assert (config.window_max_length, config.window_stride) == (128, 16)
    (folder / "training_config.json").write_text(json.dumps({"max_length": True, "stride": "8"}))
    config = ModelFolder(folder).config
    assert (config.window_max_length, config.window_stride) == (None, None)


def test_the_bundled_model_carries_its_windows_and_older_folders_still_read(tmp_path):
    """Folders saved before the windows moved into config.json read them from
    training_config.json."""
    model = ModelFolder()
    if not model.is_local:
        pytest.skip("no bundled model in this checkout")
    config = model.config
    assert (config.window_max_length, config.window_stride) == (256, 32)
    assert config.label_thresholds and config.recognizers
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    for name in ("config.json", "training_config.json"):
        shutil.copy(model.file(name), legacy / name)
    raw = json.loads((legacy / "config.json").read_text())
    raw.pop("window_max_length", None)
    raw.pop("window_stride", None)
    (legacy / "config.json").write_text(json.dumps(raw))
    old = ModelFolder(str(legacy))
    assert "window_max_length" not in old.check()
    assert (old.config.window_max_length, old.config.window_stride) == (256, 32)
