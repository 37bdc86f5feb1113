"""What the review experiments of issue 33 share: the decisions the shipped model never trained
on, a LoRA adapter trained on some of them by ``train.py``, and paired scores with and
without it.

Imported by ``benchmarks/court_adapters.py`` (an adapter per court) and
``benchmarks/select_vs_random.py`` (which decisions to annotate next). Both start from the
exhaustively annotated decisions of training rounds 4 to 9 that the shipped model never
trained on (``rules_cv.fold_pool``: all but fold 1), so these decisions are, for it, what
corrected decisions of a court are for a clerk: new, and annotated by the guidelines.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rules_cv import fold_pool

ROOT = Path(__file__).resolve().parents[1]
#: The headline figures the reports show, in their order, with their names there.
FIGURES = {
    "lenient_recall": "recall",
    "recall_high": "high-risk recall",
    "lenient_precision": "precision",
    "strict_f1": "strict F1",
}
SHIPPED = ROOT / "models" / "hf-anon-de-e5-small"
ADAPTER_CONFIG = ROOT / "configs" / "court_adapter.yaml"


def unseen_by_shipped() -> list:
    """The annotated training decisions the shipped model never trained on: rounds 4-9
    without the folds it trained on (``rules_cv.fold_pool``)."""
    return fold_pool()[0]


def seen_by_shipped() -> list:
    """The annotated decisions the shipped model trained or was chosen on (the rest of the
    training rounds and the validation split): their courts are the courts it has seen."""
    from hf_anon.text.data import load_jsonl

    unseen, real = {d.id for d in unseen_by_shipped()}, ROOT / "data" / "real"
    train = [d for d in load_jsonl(real / "train.jsonl") if d.id not in unseen]
    return train + load_jsonl(real / "validation.jsonl")


@dataclass
class AdapterRun:
    """One adapter trained by ``train.py``: where it is, its size and its training time."""

    folder: Path
    adapter_bytes: int
    train_seconds: float
    train_documents: int

    def to_dict(self) -> dict:
        return {
            "folder": str(
                self.folder.relative_to(ROOT) if self.folder.is_relative_to(ROOT) else self.folder
            ),
            "adapter_megabytes": round(self.adapter_bytes / 1e6, 2),
            "train_minutes": round(self.train_seconds / 60, 1),
            "train_documents": self.train_documents,
        }


def train_adapter(train_file: Path, output_dir: Path, documents: int, *extra: str) -> AdapterRun:
    """A LoRA adapter on ``train_file`` with ``configs/court_adapter.yaml`` (the recipe a
    court would use), or the one already trained there: a finished run is not repeated,
    an interrupted one resumes from its last checkpoint."""
    best = output_dir / "best"
    if not (best / "adapter_model.safetensors").is_file():
        run_train(
            output_dir, "--config", str(ADAPTER_CONFIG), "--train_files", str(train_file), *extra
        )
    state = json.loads((output_dir / "trainer_state.json").read_text())
    return AdapterRun(
        folder=best,
        adapter_bytes=(best / "adapter_model.safetensors").stat().st_size,
        train_seconds=float(state.get("train_seconds", 0.0)),
        train_documents=documents,
    )


def run_train(output_dir: Path, *arguments: str) -> None:
    """``train.py`` with ``arguments`` into ``output_dir``, resumed from its last checkpoint
    where an earlier run was interrupted (a session may end in the middle of one)."""
    command = [sys.executable, str(ROOT / "train.py"), "--output_dir", str(output_dir), *arguments]
    if any(output_dir.glob("checkpoint-*")):
        command += ["--resume_from_checkpoint", "latest"]
    started = time.monotonic()
    subprocess.run(command, check=True, cwd=ROOT)
    print(f"{output_dir}: trained in {time.monotonic() - started:.0f} s", file=sys.stderr)


def per_document_scores(detector, documents) -> list:
    """One ``SpanScorer`` per document, the unit of every bootstrap draw."""
    from hf_anon.model.metrics import document_scorers

    predicted = detector.detect([d.text for d in documents])
    return document_scorers(detector.labels, documents, predicted)


def calibrate_adapter(folder: Path) -> dict:
    """Thresholds for the shipped model with the adapter at ``folder``, chosen as the
    shipped model's were (``hf-anon calibrate``'s rule, on the real validation split) and
    stored in the adapter (``calibration.json``); kept where already there."""
    from hf_anon.model.calibration import calibrate, write_calibration
    from hf_anon.text.data import load_jsonl

    record = folder / "calibration.json"
    if not record.is_file():
        validation = ROOT / "data" / "real" / "validation.jsonl"
        result = calibrate(detector(folder), load_jsonl(validation))
        write_calibration(folder, result, str(validation.relative_to(ROOT)))
    return json.loads(record.read_text())["thresholds"]


def detector(adapter: Path | None = None):
    """The shipped model with torch (an adapter runs with torch, so the comparison without
    it does too), with ``adapter`` merged when given and read with its own thresholds."""
    from hf_anon.model.detection import SpanDetector

    return SpanDetector.from_pretrained(SHIPPED, backend="torch", adapter=adapter)


def write_report(results: dict, json_path: Path, markdown_path: Path, table: str) -> None:
    """Every figure as JSON, the tables as Markdown (also printed)."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    markdown_path.write_text(table)
    print(table)


def fmt(value: float, interval: tuple[float, float], signed: bool = False) -> str:
    """``0.912 (0.881–0.940)``, or ``+0.012 (-0.004 to +0.030)`` for a difference."""
    low, high = interval
    if signed:
        return f"{value:+.3f} ({low:+.3f} to {high:+.3f})"
    return f"{value:.3f} ({low:.3f}–{high:.3f})"
