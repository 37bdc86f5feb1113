"""One hf-anon model, a local folder or a hub id: where it is and what its files say.

The detector, the ONNX backend, the model card and the CLI read a model through
:class:`ModelFolder` only, so that a folder and a hub repo give the same answers and no
caller spells out file names or hub downloads of its own. A model folder holds:

- ``config.json``: the :class:`~hf_anon.model.modeling.AnonConfig`: labels, heads, and the
  inference settings every entry point reads (windows, thresholds, recognizers);
- the weights (``model.safetensors``) and the tokenizer files;
- what training and evaluation wrote beside them: ``training_config.json`` (the run's
  settings), ``training_info.json`` (hardware, time, command), ``eval_results.json`` (the
  checkpoint's validation scores), ``calibration.json`` and ``report/report.json``.

Models saved before the windows moved into ``config.json`` carry them only in
``training_config.json``; :meth:`ModelFolder.config` reads them from there, so those
folders (the bundled model among them) keep working unchanged.
"""

from __future__ import annotations

import json
import os
from functools import cached_property
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MODEL_NAME = "hf-anon-de-e5-small"
DEFAULT_HUB_ID = f"hf-anon/{DEFAULT_MODEL_NAME}"
#: The bundled model of each language (``models/NAME``; on the hub ``hf-anon/NAME``).
DEFAULT_MODEL_NAMES = {"de": DEFAULT_MODEL_NAME, "ja": "hf-anon-ja-e5-small"}
#: Environment variables that override each language's default model.
MODEL_ENV = {"de": "HF_ANON_MODEL", "ja": "HF_ANON_MODEL_JA"}
#: The inference settings that older folders kept in ``training_config.json`` only:
#: their names there → in ``config.json``.
WINDOW_SETTINGS = {"max_length": "window_max_length", "stride": "window_stride"}


def default_model(language: str = "de") -> str:
    """The default model of a language: ``$HF_ANON_MODEL`` (``$HF_ANON_MODEL_JA`` for
    Japanese), else the bundled ``models/hf-anon-de-e5-small`` (``hf-anon-ja-e5-small``),
    else its hub id."""
    if language not in DEFAULT_MODEL_NAMES:
        raise ValueError(f"no default model for language {language!r}")
    override = os.environ.get(MODEL_ENV[language])
    if override:
        return override
    name = DEFAULT_MODEL_NAMES[language]
    local = REPO_ROOT / "models" / name
    return str(local) if (local / "config.json").is_file() else f"hf-anon/{name}"


class ModelFolder:
    """An hf-anon model by folder or hub id (None: :func:`default_model`).

    Files are read from the folder, or fetched from the hub (and its cache) with
    ``huggingface_hub``; a file the model does not have is ``None``, not an error.
    """

    def __init__(self, source: str | os.PathLike | ModelFolder | None = None):
        if isinstance(source, ModelFolder):
            source = source.source
        self.source = default_model() if source is None else str(source)

    def __repr__(self) -> str:
        return f"ModelFolder({self.source!r})"

    def __str__(self) -> str:
        return self.source

    @property
    def is_local(self) -> bool:
        """A folder on this machine (else a hub id)."""
        return Path(self.source).is_dir()

    @property
    def name(self) -> str:
        """The last part of the folder or hub id (``hf-anon-de-e5-small``)."""
        return Path(self.source.rstrip("/")).name

    # ------------------------------------------------------------------------- files

    def file(self, name: str) -> Path | None:
        """The local path of one of the model's files (downloaded into the hub cache for a
        hub id), or None if the model has no such file or it cannot be fetched."""
        if self.is_local:
            path = Path(self.source) / name
            return path if path.is_file() else None
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError

        try:
            return Path(hf_hub_download(self.source, name))
        except (EntryNotFoundError, OSError, ValueError):
            # missing file or repo, offline without a cached copy, or not a valid repo id
            return None

    def read_json(self, name: str) -> dict[str, Any] | None:
        """One of the model's JSON files as a dict; None if absent, unreadable or not a
        JSON object."""
        path = self.file(name)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    @cached_property
    def training_config(self) -> dict[str, Any]:
        """The run's settings (``training_config.json``, written by ``train.py``); {}."""
        return self.read_json("training_config.json") or {}

    @cached_property
    def training_info(self) -> dict[str, Any] | None:
        """Hardware, time and command of the run (``training_info.json``)."""
        return self.read_json("training_info.json")

    @cached_property
    def eval_results(self) -> dict[str, Any] | None:
        """The saved checkpoint's validation scores (``eval_results.json``)."""
        return self.read_json("eval_results.json")

    @cached_property
    def report(self) -> dict[str, Any] | None:
        """``hf-anon report``'s results (``report/report.json``)."""
        return self.read_json("report/report.json")

    def weights_file(self) -> Path | None:
        """``model.safetensors`` (or a legacy ``pytorch_model.bin``)."""
        return self.file("model.safetensors") or self.file("pytorch_model.bin")

    # ------------------------------------------------------------------------ config

    def check(self) -> dict[str, Any]:
        """The raw ``config.json``; a ``ValueError`` unless it is an hf-anon model's."""
        from hf_anon.model.modeling import AnonConfig

        config = self.read_json("config.json")
        if not config or config.get("model_type") != AnonConfig.model_type:
            raise ValueError(f"{self.source}: not an hf-anon model folder (config.json)")
        return config

    def legacy_windows(self) -> dict[str, int]:
        """``window_max_length`` and ``window_stride`` from ``training_config.json``'s
        ``max_length`` and ``stride`` ({} if none): where folders saved before the windows
        moved into ``config.json`` keep them."""
        return {
            setting: value
            for key, setting in WINDOW_SETTINGS.items()
            if isinstance(value := self.training_config.get(key), int)
            and not isinstance(value, bool)
        }

    @cached_property
    def config(self):
        """The :class:`~hf_anon.model.modeling.AnonConfig` with its inference settings, those of
        an older folder completed from ``training_config.json``."""
        from hf_anon.model.modeling import AnonConfig

        config = AnonConfig.from_pretrained(self.source)
        for key, value in self.legacy_windows().items():
            if getattr(config, key, None) is None:
                setattr(config, key, value)
        return config

    # ----------------------------------------------------------------------- loading

    def load_model(self, **kwargs):
        """The :class:`~hf_anon.model.modeling.AnonModel` in float32 whatever the saved dtype
        (the default model ships in fp16 to stay small; half precision on a CPU is slow
        and loses accuracy), with :attr:`config` as its config."""
        import torch

        from hf_anon.model.modeling import AnonModel

        kwargs.setdefault("dtype", torch.float32)
        return AnonModel.from_pretrained(self.source, config=self.config, **kwargs)

    def load_tokenizer(self):
        """The model's tokenizer (a fast one: detection needs character offsets)."""
        from transformers import AutoTokenizer

        # AutoTokenizer reads config.json through AutoConfig: with hf-anon's config class
        # registered it uses it, instead of asking whether to run the folder's remote code.
        import hf_anon.model.modeling  # noqa: F401

        return AutoTokenizer.from_pretrained(self.source)
