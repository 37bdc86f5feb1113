"""Messy files through ``hf-anon anonymize`` with the bundled model (issue 14): names
injected in normal case and in capitals never survive, nothing crashes, every valid file
has an output. A small version of ``benchmarks/messy_bench.py`` (300 files)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from hf_anon.model.model_folder import DEFAULT_MODEL_NAME, REPO_ROOT

BENCH = REPO_ROOT / "benchmarks" / "messy_bench.py"


@pytest.fixture(scope="module")
def messy_bench():
    if not (REPO_ROOT / "models" / DEFAULT_MODEL_NAME / "model.safetensors").is_file():
        pytest.fail("the default model is missing")
    spec = importlib.util.spec_from_file_location("messy_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_injected_names_never_survive_messy_files(messy_bench, tmp_path):
    cases = messy_bench.make_corpus(tmp_path / "in", 16, seed=3)
    messes = {mess for case in cases for mess in case.mess}
    assert messes >= {
        "empty", "invalid utf-8", "all-caps document", "long line", "crlf", "bom",
        "unicode", "control",
    }  # fmt: skip
    assert any(case.caps and "all-caps document" not in case.mess for case in cases)
    figures = messy_bench.check(tmp_path / "in", tmp_path / "out", cases)
    assert figures.people >= 20 and figures.people_caps >= 5
    assert figures.crashes == 0 and figures.refused_valid == 0, figures.examples
    assert figures.missing_outputs == 0 and figures.invalid_with_output == 0
    assert figures.left == 0, figures.examples
    empty = [c for c in cases if "empty" in c.mess]
    for case in empty:  # an empty file is valid: its output is the same bytes
        assert (tmp_path / "out" / case.path).read_bytes() == (
            tmp_path / "in" / case.path
        ).read_bytes()
