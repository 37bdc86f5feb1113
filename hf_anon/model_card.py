"""Model cards, generated from what a model folder knows about itself.

As in SpanMarker and SetFit, the card is never written by hand: it is rendered from the
model's config (labels), ``training_config.json`` (data and hyperparameters),
``training_info.json`` (hardware and time, written by ``train.py``), ``eval_results.json``
(the checkpoint's validation scores) and ``report/report.json`` (``hf-anon report``).
The YAML front matter carries a ``model-index``, so that the hub shows the scores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hf_anon.labels import DEFAULT_LABELS, LabelSet

TEMPLATE = Path(__file__).with_name("model_card_template.md")

#: Widget examples: short fictional sentences, as in the demo.
WIDGET = (
    "Der Kläger Jonas Weber, wohnhaft Gartenstraße 3, 80331 München, fuhr am 12.03.2023 "
    "mit seinem VW Golf (M-JW 4711) auf die Kreuzung.",
    "Die Beklagte, die Hausverwaltung Sommer Immobilien GmbH, vertreten durch Rechtsanwältin "
    "Dr. Petra Schulz, bestreitet den Zugang des Schreibens vom 4. Mai 2022.",
)

#: What each kind of gold set is, for the card (matched on the report's set name).
SET_DESCRIPTIONS = {
    "dev": "Fictional German decisions annotated by hand after the project's guidelines "
    "(never used for training or model selection).",
    "real-validation": "Real published German decisions (64 in all, federal to local courts), "
    "annotated by hand in two passes after the project's guidelines, placeholders filled with "
    "invented values (data/real/); this validation split chose the checkpoint, the per-label "
    "thresholds and the rules.",
    "real-test": "The test split of the same real gold set: never used for any choice.",
    "ler": "Test split of LER (German federal decisions, Leitner et al. 2019), its entity "
    "classes mapped to hf-anon labels; scored only on the labels LER annotates. LER follows "
    "other guidelines: it marks every court (also `BGH` in a citation) and every "
    "organisation (also public authorities), which hf-anon's guidelines leave in clear "
    "text, so recall here is a lower bound (see the per-label table: court-name).",
}


def _read_json(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _r(x: float) -> str:
    return f"{x:.3f}"


def _describe(name: str) -> str:
    for key, text in SET_DESCRIPTIONS.items():
        if name.startswith(key):
            return text
    return ""


def _eval_sets(report: dict | None) -> list[dict[str, Any]]:
    if not report:
        return []
    out = []
    for s in report["sets"]:
        sc = s["scores"]
        target = s.get("high_risk_target")
        out.append(
            {
                "name": s["name"],
                "source": s["source"],
                "description": _describe(s["name"]),
                **{
                    k: {m: _r(v) for m, v in sc[k].items()}
                    for k in ("strict", "strict_typed", "lenient")
                },
                "recall_high": sc["recall_by_risk"].get("high"),
                "by_risk": ", ".join(
                    f"{risk} {_r(value)} ({sc['support_by_risk'][risk]} spans)"
                    for risk, value in sc["recall_by_risk"].items()
                    if sc["support_by_risk"][risk]
                ),
                "target": target
                and {
                    **target,
                    "precision": _r(target["precision"]),
                    "recall": _r(target["recall"]),
                },
                "labels": [
                    {
                        "name": label,
                        **{m: _r(v) if isinstance(v, float) else v for m, v in row.items()},
                    }
                    for label, row in sc["by_label"].items()
                    if label in s["labels_evaluated"]
                ],
            }
        )
    return out


def _eval_results(model_name: str, sets: Sequence[dict]):
    from huggingface_hub import EvalResult

    results = []
    for s in sets:
        for metric, value, name in (
            ("recall", s["lenient"]["recall"], "lenient recall"),
            ("precision", s["lenient"]["precision"], "lenient precision"),
            ("f1", s["lenient"]["f1"], "lenient F1"),
            ("f1", s["strict"]["f1"], "strict F1"),
            ("recall", s["recall_high"], "recall on high-risk spans"),
        ):
            if value is None:
                continue
            results.append(
                EvalResult(
                    task_type="token-classification",
                    task_name="Anonymization (span detection)",
                    dataset_type=s["name"],
                    dataset_name=s["name"],
                    metric_type=metric,
                    metric_name=name,
                    metric_value=round(float(value), 4),
                )
            )
    return results


def _hyperparameters(training: dict) -> dict[str, Any]:
    keys = (
        "model_name_or_path", "num_hidden_layers", "max_steps", "num_train_epochs",
        "per_device_train_batch_size", "gradient_accumulation_steps", "learning_rate",
        "head_learning_rate", "weight_decay",
        "warmup_ratio", "max_length", "stride", "freeze_embeddings", "span_class_weights",
        "masking", "lora_r", "mixed_precision", "seed",
    )  # fmt: skip
    return {k: training[k] for k in keys if k in training}


def generate_model_card(
    model_dir: str | Path,
    *,
    repo_id: str | None = None,
    train_command: str | None = None,
    base_model: str = "intfloat/multilingual-e5-small",
    license: str = "apache-2.0",
) -> str:
    """The card (README.md text) for an hf-anon model folder."""
    from huggingface_hub import ModelCard, ModelCardData

    model_dir = Path(model_dir)
    config = _read_json(model_dir / "config.json")
    if not config or config.get("model_type") != "hf-anon":
        raise ValueError(f"{model_dir}: not an hf-anon model folder (config.json)")
    labels = LabelSet.from_dict(config["label_set"]) if config.get("label_set") else DEFAULT_LABELS
    training = _read_json(model_dir / "training_config.json") or {}
    info = _read_json(model_dir / "training_info.json")
    validation = _read_json(model_dir / "eval_results.json")
    report = _read_json(model_dir / "report" / "report.json")
    name = repo_id.split("/")[-1] if repo_id else model_dir.name
    repo_id = repo_id or str(model_dir)
    sets = _eval_sets(report)
    encoder = config.get("encoder", {}) or {}
    datasets = sorted({Path(p.split(":")[0]).name for p in training.get("train_files", [])})
    card_data = ModelCardData(
        language=["de"],
        license=license,
        library_name="hf-anon",
        pipeline_tag="token-classification",
        tags=["anonymization", "pseudonymization", "legal", "german", "ner", "hf-anon"],
        base_model=base_model,
        datasets=datasets or None,
        metrics=["precision", "recall", "f1"],
        widget=[{"text": text} for text in WIDGET],
        model_name=name,
        eval_results=_eval_results(name, sets) or None,
    )
    weights = model_dir / "model.safetensors"
    parameters, dtype = _weights_summary(weights)
    versions = {**_installed_versions(), **(info or {}).get("versions", {})}
    card = ModelCard.from_template(
        card_data,
        template_path=str(TEMPLATE),
        model_name=name,
        repo_id=repo_id,
        base_model=base_model,
        num_layers=encoder.get("num_hidden_layers"),
        labels=labels.labels,
        threshold=config.get("threshold"),
        decoding=(report or {}).get("decoding"),
        eval_sets=sets,
        train_sources=training.get("train_files", []),
        validation_sources=training.get("validation_files", []),
        train_command=train_command
        or (info or {}).get("command")
        or "python train.py --config configs/e5_small.yaml",
        hyperparameters=_hyperparameters(training),
        validation=validation
        and {k: _r(v) if isinstance(v, float) else v for k, v in validation.items()},
        best_metric=training.get("best_metric", "recall_high"),
        training_info=info
        and {
            **info,
            "minutes": round(info["train_seconds"] / 60),
            "total_minutes": round(info.get("total_seconds", 0) / 60),
        },
        parameters=f"{parameters / 1e6:.1f}M" if parameters else "unknown",
        weight_dtype=dtype,
        versions=versions,
    )
    return str(card)


def _installed_versions() -> dict[str, str]:
    """Versions of the card's environment (the training run's, if recorded, win)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for package in ("hf-anon", "torch", "transformers", "tokenizers", "huggingface-hub"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            continue
    return out


def _weights_summary(path: Path) -> tuple[int, str]:
    if not path.is_file():
        return 0, "unknown"
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        slices = [f.get_slice(key) for key in f.keys()]  # noqa: SIM118 - no __iter__
        total = sum(math.prod(s.get_shape()) for s in slices)
        dtypes = {s.get_dtype() for s in slices}
    return total, "/".join(sorted(dtypes)).lower()


def write_model_card(model_dir: str | Path, **kwargs) -> Path:
    """Render the card into ``model_dir/README.md``."""
    path = Path(model_dir) / "README.md"
    path.write_text(generate_model_card(model_dir, **kwargs), encoding="utf-8")
    return path
