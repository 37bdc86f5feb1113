"""Model cards, generated from what a model folder knows about itself.

As in SpanMarker and SetFit, the card is never written by hand: one typed object,
:class:`AnonModelCardData`, holds everything the card says. A few fields are the user's
(repo id, license, base model, the command to retrain); the rest is filled from the folder
through :class:`~hf_anon.model.model_folder.ModelFolder`: the config (labels, the inference
settings: windows, thresholds, recognizers; the encoder it was built on),
``training_config.json`` (data and hyperparameters), ``training_info.json`` (hardware and
time, written by ``train.py``), ``eval_results.json`` (the checkpoint's validation scores)
and ``report/report.json`` (``hf-anon report``). It renders through
``huggingface_hub.ModelCard.from_template``; the YAML front matter carries a
``model-index``, so that the hub shows the scores.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from hf_anon.model.model_folder import ModelFolder
from hf_anon.model.placeholder_tagger import HEAD_CONFIG as TAGGER_CONFIG
from hf_anon.model.recognizers.cited_filter import CONFIG_FILE as CITED_FILTER_CONFIG
from hf_anon.text.labels import DEFAULT_LABELS, Label, LabelSet

TEMPLATE = Path(__file__).with_name("model_card_template.md")
#: The card template of each language's models (``config.language``).
TEMPLATES = {"de": TEMPLATE, "ja": Path(__file__).with_name("model_card_template_ja.md")}
#: The project's license (``pyproject.toml``), as the hub spells it.
LICENSE = "apache-2.0"

#: Widget examples: short fictional sentences, as in the demo.
WIDGET = (
    "Der Kläger Jonas Weber, wohnhaft Gartenstraße 3, 80331 München, fuhr am 12.03.2023 "
    "mit seinem VW Golf (M-JW 4711) auf die Kreuzung.",
    "Die Beklagte, die Hausverwaltung Sommer Immobilien GmbH, vertreten durch Rechtsanwältin "
    "Dr. Petra Schulz, bestreitet den Zugang des Schreibens vom 4. Mai 2022.",
)

#: Widget examples of Japanese models.
WIDGET_JA = (
    "被告人田中太郎は、令和３年５月２日午後１１時頃、東京都足立区千住三丁目４番５号において、",
)
#: What each kind of gold set is, for the card (matched on the report's set name).
SET_DESCRIPTIONS = {
    "ja-validation": "Japanese precedent passages written by hand for hf-anon (criminal, "
    "traffic, civil, family; data/ja/passages.txt), annotated after data/ja/GUIDE.md; this "
    "half chose the placeholder rules, the span edges and the checkpoint; never trained on.",
    "ja-test": "The test half of the same hand-written Japanese passages: never used for "
    "any choice.",
    "dev": "Fictional German decisions annotated by hand after the project's guidelines "
    "(never used for training or model selection).",
    "real-validation": "Real published German decisions (64 in all, federal to local courts), "
    "annotated by hand in two passes after the project's guidelines, placeholders filled with "
    "invented values (data/real/); this validation split chose the checkpoint, the per-label "
    "thresholds and the rules.",
    "real-test": "The test split of the same real gold set: never used for any choice.",
    "unseen-courts": "Real published German decisions of courts that no training split, "
    "choice, threshold or rule has seen (data/real/unseen_courts.jsonl: 16 decisions of 12 "
    "courts, mostly administrative), annotated by hand after the project's guidelines: how "
    "the model does on a court it has never seen.",
    "unseen-juris": "Decisions of Landgerichte as juris published them, of courts no other "
    "part has (data/real/unseen_courts_juris.jsonl: 8 decisions of 6 courts; civil chambers: "
    "cartel damages, press and personality law), annotated by hand after the project's "
    "guidelines; never used for any choice.",
    "ler": "Test split of LER (German federal decisions, Leitner et al. 2019), its entity "
    "classes mapped to hf-anon labels; scored only on the labels LER annotates. LER follows "
    "other guidelines: it marks every court (also `BGH` in a citation) and every "
    "organisation (also public authorities), which hf-anon's guidelines leave in clear "
    "text, so recall here is a lower bound (see the per-label table: court-name).",
}


def _r(x: float) -> str:
    return f"{x:.3f}"


def _describe(name: str) -> str:
    for key, text in SET_DESCRIPTIONS.items():
        if name.startswith(key):
            return text
    return ""


def _dataset_name(path: Path) -> str:
    if path.suffix in (".jsonl", ".json") and path.parent.name:
        return f"{path.parent.name}_{path.stem}"
    return path.name


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


def counted_sources(files: list[str]) -> list[str]:
    """``data/real/train.jsonl (8 times)``: a file listed several times to weigh more."""
    return [name if n == 1 else f"{name} ({n} times)" for name, n in Counter(files).items()]


def _hyperparameters(training: dict) -> dict[str, Any]:
    keys = (
        "model_name_or_path", "num_hidden_layers", "max_steps", "num_train_epochs",
        "per_device_train_batch_size", "gradient_accumulation_steps", "learning_rate",
        "head_learning_rate", "weight_decay",
        "warmup_ratio", "max_length", "stride", "freeze_embeddings", "span_class_weights",
        "masking", "lora_r", "mixed_precision", "seed",
    )  # fmt: skip
    return {k: training[k] for k in keys if k in training}


def base_model_of(model: str | Path | ModelFolder) -> str | None:
    """The hub id of the encoder a model was trained from: what training recorded in its
    config (``base_model``), else, for folders saved before it did (the bundled model),
    the ``base_model`` of the folder's own card; None if neither says."""
    folder = ModelFolder(model)
    if folder.config.base_model:
        return folder.config.base_model
    card = folder.file("README.md")
    if card is None:
        return None
    from huggingface_hub import ModelCard

    try:
        return ModelCard.load(card).data.to_dict().get("base_model")
    except (OSError, ValueError):
        return None


@dataclass
class AnonModelCardData:
    """Everything an hf-anon model card says (SpanMarker's and SetFit's ``ModelCardData``).

    :meth:`from_folder` fills it from a model folder or hub id; :meth:`render` writes the
    card. ``labels`` are :class:`~hf_anon.text.labels.Label` objects; ``eval_sets`` are the
    report's gold sets with scores formatted for the tables.
    """

    # --- the user's (keywords of generate_model_card, flags of hf-anon card)
    model_name: str
    repo_id: str
    license: str = LICENSE
    language: list[str] = field(default_factory=lambda: ["de"])
    #: hub id of the pretrained encoder (front matter ``base_model``); None: not on the hub
    base_model: str | None = None
    train_command: str = "python train.py --config configs/e5_small.yaml"
    # --- the model (config.json)
    labels: list[Label] = field(default_factory=list)
    encoder_type: str | None = None
    num_layers: int | None = None
    window_max_length: int | None = None
    window_stride: int | None = None
    label_thresholds: dict[str, float] = field(default_factory=dict)
    recognizers: list[str] = field(default_factory=list)
    #: the learned citation filter's settings (``cited_filter.json``), None: the folder has none
    cited_filter: dict[str, Any] | None = None
    #: the placeholder tagger's settings (``placeholder_head.json``), None: no tagger
    placeholder_tagger: dict[str, Any] | None = None
    #: the Japanese analyzer that keeps name spans to words (config.word_analyzer)
    word_analyzer: str | None = None
    #: the model reads texts without the line ends of a PDF's wrapping (config.unwrap_lines)
    unwrap_lines: bool = False
    parameters: str = "unknown"
    weight_dtype: str = "unknown"
    # --- the training run (training_config.json, training_info.json, eval_results.json)
    train_sources: list[str] = field(default_factory=list)
    validation_sources: list[str] = field(default_factory=list)
    hyperparameters: dict[str, Any] = field(default_factory=dict)
    best_metric: str = "recall_high"
    validation: dict[str, Any] | None = None
    training_info: dict[str, Any] | None = None
    versions: dict[str, str] = field(default_factory=dict)
    # --- the evaluation (report/report.json)
    decoding: str | None = None
    eval_sets: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_folder(
        cls,
        model: str | Path | ModelFolder,
        *,
        repo_id: str | None = None,
        train_command: str | None = None,
        base_model: str | None = None,
        license: str = LICENSE,
    ) -> AnonModelCardData:
        """The card data of an hf-anon model (folder or hub id); a ``ValueError`` if it is
        none. ``base_model`` not given: the one training recorded in the config."""
        folder = ModelFolder(model)
        raw = folder.check()
        config = folder.config
        labels = LabelSet.from_dict(raw["label_set"]) if raw.get("label_set") else DEFAULT_LABELS
        training, info = folder.training_config, folder.training_info
        validation = folder.eval_results
        parameters, dtype = _weights_summary(folder.weights_file())
        encoder = config.encoder or {}
        return cls(
            model_name=repo_id.split("/")[-1] if repo_id else folder.name,
            repo_id=repo_id or folder.source,
            license=license,
            language=[getattr(config, "language", None) or "de"],
            base_model=base_model or base_model_of(folder),
            train_command=train_command or (info or {}).get("command") or cls.train_command,
            labels=list(labels.labels),
            encoder_type=encoder.get("model_type"),
            num_layers=encoder.get("num_hidden_layers"),
            window_max_length=config.window_max_length,
            window_stride=config.window_stride,
            label_thresholds={  # in the order of the labels
                name: value
                for name in labels.names
                if (value := (config.label_thresholds or {}).get(name)) is not None
            },
            recognizers=list(config.recognizers or []),
            cited_filter=folder.read_json(CITED_FILTER_CONFIG),
            placeholder_tagger=folder.read_json(TAGGER_CONFIG),
            word_analyzer=getattr(config, "word_analyzer", None),
            unwrap_lines=bool(getattr(config, "unwrap_lines", False)),
            parameters=f"{parameters / 1e6:.1f}M" if parameters else "unknown",
            weight_dtype=dtype,
            train_sources=list(training.get("train_files", [])),
            validation_sources=list(training.get("validation_files", [])),
            hyperparameters=_hyperparameters(training),
            # a step chosen after training (each step calibrated, then the calibration's
            # rule) says so in training_info.json's "selected_by"; else the trainer's metric
            best_metric=(info or {}).get("selected_by")
            or training.get("best_metric", "recall_high"),
            validation=validation
            and {k: _r(v) if isinstance(v, float) else v for k, v in validation.items()},
            training_info=info
            and {
                **info,
                "minutes": max(1, round(info["train_seconds"] / 60)),
                "total_minutes": round(info.get("total_seconds", 0) / 60),
            },
            versions={**_installed_versions(), **(info or {}).get("versions", {})},
            decoding=(folder.report or {}).get("decoding"),
            eval_sets=_eval_sets(folder.report),
        )

    @property
    def datasets(self) -> list[str]:
        """Names of the training corpora (``corpora/ler:train`` → ``ler``); a JSON Lines
        file is named with its folder (``data/ja/real/train.jsonl`` → ``real_train``), since
        ``train.jsonl`` alone says nothing."""
        return sorted({_dataset_name(Path(p.split(":")[0])) for p in self.train_sources})

    def metadata(self):
        """The YAML front matter: hub metadata and the ``model-index`` of the scores."""
        from huggingface_hub import ModelCardData

        return ModelCardData(
            language=self.language,
            license=self.license,
            library_name="hf-anon",
            pipeline_tag="token-classification",
            tags=[
                "anonymization",
                "pseudonymization",
                "legal",
                "japanese" if self.language == ["ja"] else "german",
                "ner",
                "hf-anon",
            ],
            base_model=self.base_model,
            datasets=self.datasets or None,
            metrics=["precision", "recall", "f1"],
            widget=[{"text": text} for text in (WIDGET_JA if self.language == ["ja"] else WIDGET)],
            model_name=self.model_name,
            eval_results=_eval_results(self.model_name, self.eval_sets) or None,
        )

    def render(self) -> str:
        """The card (README.md text), from ``model_card_template.md``."""
        from huggingface_hub import ModelCard

        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["train_sources"] = counted_sources(self.train_sources)  # a file listed N times, once
        # real Japanese precedents annotated by hand (data/ja/real/train.jsonl), not silver ones
        values["exhaustive_ja"] = any("ja/real/train" in p for p in self.train_sources)
        template = TEMPLATES.get(self.language[0], TEMPLATE)
        card = ModelCard.from_template(self.metadata(), template_path=str(template), **values)
        return str(card)


def generate_model_card(
    model_dir: str | Path | ModelFolder,
    *,
    repo_id: str | None = None,
    train_command: str | None = None,
    base_model: str | None = None,
    license: str = LICENSE,
) -> str:
    """The card (README.md text) for an hf-anon model folder or hub id."""
    return AnonModelCardData.from_folder(
        model_dir,
        repo_id=repo_id,
        train_command=train_command,
        base_model=base_model,
        license=license,
    ).render()


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


def _weights_summary(path: Path | None) -> tuple[int, str]:
    """Number of parameters and the weights' dtype(s) of a safetensors file."""
    if path is None or path.suffix != ".safetensors":
        return 0, "unknown"
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        slices = [f.get_slice(key) for key in f.keys()]  # noqa: SIM118 - no __iter__
        total = sum(math.prod(s.get_shape()) for s in slices)
        dtypes = {s.get_dtype() for s in slices}
    return total, "/".join(sorted(dtypes)).lower()


def write_model_card(model_dir: str | Path, **kwargs) -> Path:
    """Render the card into ``model_dir/README.md`` (a local folder); keywords as for
    :func:`generate_model_card`."""
    path = Path(model_dir) / "README.md"
    path.write_text(generate_model_card(model_dir, **kwargs), encoding="utf-8")
    return path
