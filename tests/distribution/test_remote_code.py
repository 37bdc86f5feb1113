"""The remote code of every bundled model is the library's, byte for byte, and runs where
hf-anon is not installed (``hf-anon remote-code``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from without_hf_anon import run_without_hf_anon

from hf_anon.cli import main
from hf_anon.cli.remote_code import bundled_model_folders
from hf_anon.distribution.remote_code import REMOTE_CODE, stale_remote_code, write_remote_code

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = {Path(folder).name: Path(folder) for folder in bundled_model_folders()}


TEXTS = {
    "hf-anon-de-e5-small": "Der Kläger Hans Huber wohnt in der Bahnhofstraße 12 in 80331 München.",
    "hf-anon-ja-e5-small": (
        "被告人山田太郎は、東京都新宿区西新宿二丁目において、被害者に対し暴行を加えた。"
    ),
}


def test_both_bundled_models_are_checked():
    assert sorted(BUNDLED) == sorted(TEXTS)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_bundled_remote_code_is_the_librarys(name):
    folder = BUNDLED[name]
    assert stale_remote_code(folder) == []
    for file, source in REMOTE_CODE.items():
        assert (folder / file).read_bytes() == source.read_bytes()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_bundled_model_runs_without_hf_anon(name, tmp_path):
    result = run_without_hf_anon(BUNDLED[name], TEXTS[name], tmp_path, timeout=300)
    assert result["decoding"] == "model" and result["hf_anon"] == []
    replaced = result["label"]
    assert replaced["spans"], "the bundled model finds the person in its own example"
    assert all(s["replacement"].startswith("<") for s in replaced["spans"])
    assert "Huber" not in replaced["text"] and "山田太郎" not in replaced["text"]


def test_the_command_finds_and_mends_a_stale_copy(tmp_path, capsys):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    assert main(["remote-code", "--check", str(folder)]) == 1  # nothing there yet
    assert "modeling.py, pipeline.py, pipeline_decoding.py differs" in capsys.readouterr().out

    assert main(["remote-code", str(folder)]) == 0
    assert stale_remote_code(folder) == []
    (folder / "pipeline.py").write_text("# edited by hand\n", encoding="utf-8")
    assert main(["remote-code", "--check", str(folder)]) == 1
    assert capsys.readouterr().out.endswith("pipeline.py differs\n")
    assert write_remote_code(folder) == ["pipeline.py"]
    assert main(["remote-code", "--check", str(folder)]) == 0


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path, capsys):
    assert main(["remote-code", str(tmp_path)]) == 2
    assert "not a model folder (no config.json)" in capsys.readouterr().err


def test_a_saved_model_carries_the_remote_code(tmp_path):
    """``save_pretrained`` writes the same files the command writes."""
    from hf_anon.model.modeling import AnonModel

    model = AnonModel.from_pretrained(BUNDLED["hf-anon-de-e5-small"])
    model.save_pretrained(tmp_path / "saved")
    assert stale_remote_code(tmp_path / "saved") == []
    shutil.rmtree(tmp_path / "saved")
