"""The multi-task anonymization model of seeds 001/002: one encoder, three token heads.

- span head: BIO tags of sensitive spans (``O``, ``B``, ``I``),
- label head: the information category of a token inside a span,
- risk head: the re-identification risk of that occurrence.

The encoder is any ``AutoModel`` (BERT, XLM-R, e5, …). The heads share it, so the
category and risk tasks shape the representation the span head sees (the "combined
model" of seed 001 [24]). The loss favours recall: ``B`` and ``I`` errors weigh more
than ``O`` errors (``span_class_weights``).

This file imports only torch and transformers: saved with ``register_for_auto_class``
it travels with the weights, so ``AutoModel.from_pretrained(repo, trust_remote_code=True)``
works without hf-anon installed. So does the ``anonymization`` pipeline
(``hf_anon/distribution/pipeline_code.py``), which :meth:`AnonModel.save_pretrained` writes
beside it as ``pipeline.py`` and registers in config.json's ``custom_pipelines``:
``transformers.pipeline("anonymization", model=repo, trust_remote_code=True)``.
"""

from __future__ import annotations

import copy
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn
from transformers import AutoConfig, AutoModel, PretrainedConfig, PreTrainedModel
from transformers.utils import ModelOutput

BIO = ("O", "B", "I")

#: The custom ``transformers`` pipeline a saved model carries: its file in a model folder,
#: the task it is registered for, and config.json's ``custom_pipelines`` entry that
#: ``transformers.pipeline(task, model=…, trust_remote_code=True)`` resolves (the class
#: from ``pipeline.py`` of the repo, the model through ``AutoModel``).
PIPELINE_FILE = "pipeline.py"
#: The model-only decoding that ``pipeline.py`` imports, saved beside it.
PIPELINE_DECODING_FILE = "pipeline_decoding.py"
PIPELINE_TASK = "anonymization"
CUSTOM_PIPELINES = {
    PIPELINE_TASK: {"impl": "pipeline.AnonymizationPipeline", "pt": ["AutoModel"]},
}
#: Where the pipeline's source is, from this file's folder: ``distribution/pipeline_code.py``
#: in the hf_anon package (this file is ``model/modeling.py``), ``pipeline.py`` beside it in a
#: model folder (or the copy transformers loads remote code from).
_PIPELINE_SOURCES = ("../distribution/pipeline_code.py", PIPELINE_FILE)


def pipeline_source(model_path: str | os.PathLike | None = None) -> Path | None:
    """The file to save as ``pipeline.py``: beside this module, else in ``model_path``
    (the folder a model was loaded from); None if there is none (remote code loaded
    without the pipeline)."""
    here = Path(__file__).resolve().parent
    candidates = [(here / name).resolve() for name in _PIPELINE_SOURCES]
    if model_path and os.path.isdir(model_path):
        candidates.append(Path(model_path) / PIPELINE_FILE)
    return next((path for path in candidates if path.is_file()), None)


class AnonConfig(PretrainedConfig):
    """Labels, risks, head and loss settings, the encoder's own config (a dict), and how
    to run the model: a saved folder describes itself, no side file decides how it runs.

    Inference settings, read by every entry point (``SpanDetector``, the ONNX backend,
    ``Anonymizer``, the CLI, ``app.py``) and shown on the model card:

    - ``window_max_length`` and ``window_stride`` (tokens): the windows the model was
      trained on (``train.py`` writes its ``max_length`` and ``stride`` here; not
      ``max_length``, which transformers reserves for generation). A model detects best on
      windows as long as those it was trained on: the bundled e5 model, trained on 256
      tokens, finds markedly fewer spans in 512-token windows, and they cost more
      (attention grows with the square of the length). None: not recorded (folders saved
      before these fields existed keep them in ``training_config.json``, see
      :class:`hf_anon.model.model_folder.ModelFolder`; else 512 and 64).
    - ``label_thresholds``: a minimum span score per label, and ``recognizers``: the
      deterministic recognizers merged with the model's spans (None: none); both written
      by ``hf-anon calibrate``.
    - ``language``: the language of the text the model was trained on (``de``, ``ja``);
      detection applies that language's span boundaries (:mod:`hf_anon.text.languages`).
    - ``word_analyzer``: for Japanese, the morphological analyzer (``sudachi``, ``janome``)
      that keeps name spans to words (:mod:`hf_anon.text.japanese_words`); None: no check.
    - ``unwrap_lines``: the model was trained on, and reads, texts without the line ends
      of a PDF's wrapping (:func:`hf_anon.text.views.without_wrapped_line_ends`).

    Provenance, for the model card: ``base_encoder`` is the encoder the model was built
    on (a hub id or a folder, as given to :meth:`AnonModel.from_encoder`), ``base_model``
    its hub id where there is one (None for a local or random encoder).
    """

    model_type = "hf-anon"

    def __init__(
        self,
        encoder: dict | None = None,
        labels: list[str] | None = None,
        risks: list[str] | None = None,
        label_set: dict | None = None,
        classifier_dropout: float = 0.1,
        span_class_weights: list[float] | None = None,
        loss_weights: dict[str, float] | None = None,
        label_thresholds: dict[str, float] | None = None,
        recognizers: list[str] | None = None,
        window_max_length: int | None = None,
        window_stride: int | None = None,
        base_encoder: str | None = None,
        base_model: str | None = None,
        language: str = "de",
        word_analyzer: str | None = None,
        unwrap_lines: bool = False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.language = language
        self.word_analyzer = word_analyzer
        self.unwrap_lines = unwrap_lines
        self.window_max_length = window_max_length
        self.window_stride = window_stride
        self.label_thresholds = dict(label_thresholds) if label_thresholds else None
        self.recognizers = list(recognizers) if recognizers is not None else None
        self.base_encoder = base_encoder
        self.base_model = base_model
        self.encoder = encoder or {}
        self.labels = list(labels or [])
        self.risks = list(risks or ["low", "medium", "high"])
        # The full label set (descriptions, colours), so a model card or demo needs nothing else.
        self.label_set = label_set
        self.classifier_dropout = classifier_dropout
        self.span_class_weights = list(span_class_weights or [1.0, 3.0, 3.0])
        self.loss_weights = dict(loss_weights or {"span": 1.0, "label": 0.5, "risk": 0.3})

    def encoder_config(self) -> PretrainedConfig:
        config = dict(self.encoder)
        return AutoConfig.for_model(config.pop("model_type"), **config)


@dataclass
class AnonOutput(ModelOutput):
    """Per-token logits of the three heads; ``loss`` when targets were given."""

    loss: torch.FloatTensor | None = None
    span_logits: torch.FloatTensor | None = None
    label_logits: torch.FloatTensor | None = None
    risk_logits: torch.FloatTensor | None = None
    losses: dict | None = None


def _encoder_from_config(config: PretrainedConfig) -> PreTrainedModel:
    """The bare encoder; BERT-like models without their unused pooler."""
    try:
        return AutoModel.from_config(config, add_pooling_layer=False)
    except TypeError:
        return AutoModel.from_config(config)


class AnonModel(PreTrainedModel):
    """Encoder + span, label and risk heads over every token."""

    config_class = AnonConfig
    base_model_prefix = "encoder"
    supports_gradient_checkpointing = True

    def __init__(self, config: AnonConfig):
        super().__init__(config)
        self.encoder = _encoder_from_config(config.encoder_config())
        hidden = self.encoder.config.hidden_size
        self.dropout = nn.Dropout(config.classifier_dropout)
        self.span_head = nn.Linear(hidden, len(BIO))
        self.label_head = nn.Linear(hidden, len(config.labels))
        self.risk_head = nn.Linear(hidden, len(config.risks))
        self.post_init()

    def save_pretrained(self, save_directory, is_main_process: bool = True, **kwargs):
        """Save as transformers does (weights, config.json, this file as ``modeling.py``),
        and the ``anonymization`` pipeline: ``pipeline.py`` (with ``pipeline_decoding.py``,
        which it imports) and config.json's
        ``custom_pipelines`` (:data:`CUSTOM_PIPELINES`). Where the pipeline's source cannot
        be found (:func:`pipeline_source`), the config loses its entry rather than name a
        file the folder lacks."""
        source = pipeline_source(getattr(self, "name_or_path", None))
        if source is None:
            if hasattr(self.config, "custom_pipelines"):
                del self.config.custom_pipelines
        else:
            self.config.custom_pipelines = copy.deepcopy(CUSTOM_PIPELINES)
            if is_main_process:
                # before the model: save_pretrained(push_to_hub=True) uploads the folder
                os.makedirs(save_directory, exist_ok=True)
                copies = {
                    PIPELINE_FILE: source,
                    PIPELINE_DECODING_FILE: source.with_name(PIPELINE_DECODING_FILE),
                }
                for name, path in copies.items():
                    target = Path(save_directory) / name
                    if not target.exists() or not target.samefile(path):
                        shutil.copyfile(path, target)
        return super().save_pretrained(save_directory, is_main_process=is_main_process, **kwargs)

    def _init_weights(self, module: nn.Module) -> None:
        if isinstance(module, nn.Linear) and module in (
            self.span_head,
            self.label_head,
            self.risk_head,
        ):
            module.weight.data.normal_(mean=0.0, std=0.02)
            module.bias.data.zero_()
        elif hasattr(self.encoder, "_init_weights"):
            self.encoder._init_weights(module)

    @classmethod
    def from_encoder(
        cls,
        encoder_name_or_path: str,
        labels: list[str],
        risks: list[str] | None = None,
        *,
        num_hidden_layers: int | None = None,
        label_set: dict | None = None,
        **config_kwargs,
    ) -> AnonModel:
        """A new model on a pretrained encoder (a hub id or a local folder).

        ``num_hidden_layers`` keeps only the first N layers: the top layers of
        contrastively trained encoders such as e5 are collapsed and learn rare classes
        badly (docs/model.md, "The default model"), so hf-anon trains e5 from 8 layers.

        The config records where the encoder came from (``base_encoder``) and its hub id
        (``base_model``): the name itself for a hub id, the ``base_model`` a local folder's
        config declares (``hf-anon base-model build`` writes one), else None.
        """
        extra = {} if num_hidden_layers is None else {"num_hidden_layers": num_hidden_layers}
        # float32 whatever the folder stores: a base saved in float16 to travel light would
        # otherwise meet the float32 heads as half-precision activations
        encoder = AutoModel.from_pretrained(encoder_name_or_path, dtype=torch.float32, **extra)
        name = str(encoder_name_or_path)
        declared = getattr(encoder.config, "base_model", None)
        config_kwargs.setdefault("base_model", declared or (None if os.path.isdir(name) else name))
        config = AnonConfig(
            encoder=encoder.config.to_dict(),
            labels=labels,
            risks=risks,
            label_set=label_set,
            base_encoder=name,
            **config_kwargs,
        )
        model = cls(config)
        missing, unexpected = model.encoder.load_state_dict(encoder.state_dict(), strict=False)
        if missing or any(not key.startswith("pooler.") for key in unexpected):
            raise ValueError(
                f"encoder weights do not fit: missing {missing}, unexpected {unexpected}"
            )
        return model

    def forward(
        self,
        input_ids: torch.LongTensor | None = None,
        attention_mask: torch.Tensor | None = None,
        token_type_ids: torch.LongTensor | None = None,
        inputs_embeds: torch.FloatTensor | None = None,
        span_tags: torch.LongTensor | None = None,
        label_ids: torch.LongTensor | None = None,
        risk_ids: torch.LongTensor | None = None,
        **kwargs,
    ) -> AnonOutput:
        encoder_inputs = {"attention_mask": attention_mask, "inputs_embeds": inputs_embeds}
        if token_type_ids is not None:
            encoder_inputs["token_type_ids"] = token_type_ids
        hidden = self.encoder(input_ids=input_ids, **encoder_inputs).last_hidden_state
        hidden = self.dropout(hidden)
        output = AnonOutput(
            span_logits=self.span_head(hidden),
            label_logits=self.label_head(hidden),
            risk_logits=self.risk_head(hidden),
        )
        if span_tags is not None:
            output.losses = self.losses(output, span_tags, label_ids, risk_ids)
            weights = self.config.loss_weights
            output.loss = sum(
                weights.get(name, 1.0) * value for name, value in output.losses.items()
            )
        return output

    def losses(
        self,
        output: AnonOutput,
        span_tags: torch.LongTensor,
        label_ids: torch.LongTensor | None,
        risk_ids: torch.LongTensor | None,
    ) -> dict[str, torch.Tensor]:
        """Cross-entropy per head; label and risk only on tokens inside spans."""
        span_weights = torch.tensor(
            self.config.span_class_weights, dtype=output.span_logits.dtype, device=span_tags.device
        )
        losses = {
            "span": nn.functional.cross_entropy(
                output.span_logits.flatten(0, 1),
                span_tags.flatten(),
                weight=span_weights,
                ignore_index=-100,
            )
        }
        for name, logits, targets in (
            ("label", output.label_logits, label_ids),
            ("risk", output.risk_logits, risk_ids),
        ):
            if targets is None:
                continue
            flat = targets.flatten()
            total = nn.functional.cross_entropy(
                logits.flatten(0, 1), flat, ignore_index=-100, reduction="sum"
            )
            # Mean over tokens inside spans; a batch without spans contributes zero.
            losses[name] = total / (flat != -100).sum().clamp(min=1)
        return losses


AutoConfig.register(AnonConfig.model_type, AnonConfig, exist_ok=True)
AutoModel.register(AnonConfig, AnonModel, exist_ok=True)
# Saved models carry this file and an auto_map: loadable from the hub with
# trust_remote_code=True where hf-anon is not installed.
AnonConfig.register_for_auto_class()
AnonModel.register_for_auto_class("AutoModel")


def bio_labels(labels: list[str]) -> list[str]:
    """``O``, then ``B-label`` and ``I-label`` for each category (the pipeline's tagset)."""
    return ["O"] + [f"{prefix}-{label}" for label in labels for prefix in ("B", "I")]


@torch.no_grad()
def export_token_classification(model: AnonModel, out_dir, tokenizer=None, calibration=None):
    """Save a plain ``AutoModelForTokenClassification`` with BIO-with-category labels.

    Its logits are ``span(O) + c`` for ``O`` and ``span(B|I) + label(L)`` for
    ``B-L``/``I-L``: one linear layer, so the standard
    ``pipeline("token-classification")`` loads it without remote code. The exact
    factorised decision would need ``c = max_L label(L)``, which is not linear; the
    export uses the mean label logit plus a constant fitted on ``calibration`` (input
    ids of typical text) instead, so it agrees with hf-anon's own decoding on most but
    not all tokens. The risk head is not exported.
    """
    from transformers import AutoModelForTokenClassification

    names = bio_labels(model.config.labels)
    config = model.encoder.config.__class__.from_dict(
        {
            **model.encoder.config.to_dict(),
            "id2label": dict(enumerate(names)),
            "label2id": {name: i for i, name in enumerate(names)},
        }
    )
    exported = AutoModelForTokenClassification.from_config(config)
    base = getattr(exported, exported.base_model_prefix)
    missing, unexpected = base.load_state_dict(model.encoder.state_dict(), strict=False)
    if unexpected or any(not key.startswith("pooler.") for key in missing):
        raise ValueError(f"encoder does not fit: missing {missing}, unexpected {unexpected}")
    span_w, span_b = model.span_head.weight, model.span_head.bias
    label_w, label_b = model.label_head.weight, model.label_head.bias
    offset = 0.0
    if calibration is not None:
        model.eval()
        out = model(**calibration)
        gap = out.label_logits.max(-1).values - out.label_logits.mean(-1)
        offset = float(gap[calibration["attention_mask"].bool()].mean())
    weight = [span_w[0] + label_w.mean(0)]
    bias = [span_b[0] + label_b.mean() + offset]
    for k in range(len(model.config.labels)):
        for tag in (1, 2):
            weight.append(span_w[tag] + label_w[k])
            bias.append(span_b[tag] + label_b[k])
    classifier = exported.classifier
    classifier.weight.copy_(torch.stack(weight))
    classifier.bias.copy_(torch.stack(bias))
    exported.save_pretrained(str(out_dir), safe_serialization=True)
    if tokenizer is not None:
        tokenizer.save_pretrained(str(out_dir))
    return exported
