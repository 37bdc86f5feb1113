"""The remote code of a model folder, generated from the library.

A model folder carries three Python files that transformers runs with
``trust_remote_code=True`` where hf-anon is not installed: ``modeling.py`` (the model, a
copy of :mod:`hf_anon.model.modeling`), ``pipeline.py`` (the ``anonymization`` pipeline, a
copy of :mod:`hf_anon.distribution.pipeline_code`) and ``pipeline_decoding.py`` (its
model-only decoding, :mod:`hf_anon.distribution.pipeline_decoding`). A copy made by hand goes
stale the day the library changes, and a stale ``modeling.py`` loads weights the library
no longer writes; so the copies are only ever written by :func:`write_remote_code`
(``hf-anon remote-code``), and :func:`stale_remote_code` (``--check``, and a test for every
bundled model) says which differ byte for byte.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
#: The files of a model folder → the library file each is a copy of.
REMOTE_CODE = {
    "modeling.py": _PACKAGE / "model" / "modeling.py",
    "pipeline.py": _PACKAGE / "distribution" / "pipeline_code.py",
    "pipeline_decoding.py": _PACKAGE / "distribution" / "pipeline_decoding.py",
}


def _model_folder(folder: str | Path) -> Path:
    folder = Path(folder)
    if not (folder / "config.json").is_file():
        raise ValueError(f"{folder}: not a model folder (no config.json)")
    return folder


def stale_remote_code(folder: str | Path) -> list[str]:
    """The remote-code files of ``folder`` that are missing or differ from the library's."""
    folder = _model_folder(folder)
    return [
        name
        for name, source in REMOTE_CODE.items()
        if not (folder / name).is_file() or (folder / name).read_bytes() != source.read_bytes()
    ]


def write_remote_code(folder: str | Path) -> list[str]:
    """Write the library's remote code into ``folder``; return the names that changed."""
    folder = _model_folder(folder)
    stale = stale_remote_code(folder)
    for name in stale:
        (folder / name).write_bytes(REMOTE_CODE[name].read_bytes())
    return stale
