"""The uniform soup of ``benchmarks/weight_soup.py siblings`` (issue 31): the mean of sibling
fine-tunes, tensor by tensor, in the models' own dtype."""

import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from weight_soup import uniform_soup


def test_a_soup_is_the_mean_of_its_models_in_their_dtype():
    a = {"w": torch.tensor([1.0, 2.0], dtype=torch.float16), "b": torch.tensor([0.0])}
    b = {"w": torch.tensor([3.0, 4.0], dtype=torch.float16), "b": torch.tensor([1.0])}
    c = {"w": torch.tensor([5.0, 0.0], dtype=torch.float16), "b": torch.tensor([2.0])}
    soup = uniform_soup([a, b, c])
    assert soup["w"].dtype == torch.float16
    assert soup["w"].tolist() == [3.0, 2.0]
    assert soup["b"].tolist() == [1.0]


def test_models_of_other_shapes_or_tensors_make_no_soup():
    a = {"w": torch.zeros(2)}
    with pytest.raises(SystemExit, match="shapes"):
        uniform_soup([a, {"w": torch.zeros(3)}])
    with pytest.raises(SystemExit, match="different tensors"):
        uniform_soup([a, {"v": torch.zeros(2)}])
    with pytest.raises(SystemExit, match="at least two"):
        uniform_soup([a])
