"""A model folder's ``anonymization`` pipeline run where hf_anon cannot be imported: what a
user of the remote code gets with transformers alone (the pipeline and remote-code tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: Runs the pipeline in a Python that cannot import hf_anon (installed here, editable):
#: an import hook refuses it, and the script checks that it does.
WITHOUT_HF_ANON = r"""
import importlib.abc
import json
import sys


class NoHfAnon(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "hf_anon":
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None


sys.meta_path.insert(0, NoHfAnon())
try:
    import hf_anon  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("hf_anon is importable")

from transformers import pipeline

folder, text, out = sys.argv[1:]
anonymize = pipeline("anonymization", model=folder, trust_remote_code=True)
result = {
    "decoding": anonymize.decoding,
    "spans": anonymize(text),
    "label": anonymize(text, mode="label"),
    "redact": anonymize([text, ""], mode="redact", batch_size=2),
    "hf_anon": sorted(m for m in sys.modules if m.partition(".")[0] == "hf_anon"),
}
with open(out, "w", encoding="utf-8") as f:
    json.dump(result, f)
"""


def run_without_hf_anon(
    folder: str | Path, text: str, tmp_path: Path, timeout: float = 120
) -> dict:
    """The pipeline's results on ``text`` in a fresh Python that cannot import hf_anon:
    ``decoding``, ``spans``, ``label`` and ``redact`` (of ``[text, ""]``), and the hf_anon
    modules it imported (none)."""
    out = tmp_path / "out.json"
    script = tmp_path / "run.py"
    script.write_text(WITHOUT_HF_ANON, encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_MODULES_CACHE": str(tmp_path / "modules")}
    done = subprocess.run(
        [sys.executable, "-I", str(script), str(folder), text, str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))
