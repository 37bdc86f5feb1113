"""The pieces ``train.py`` calls: configuration, data, batches, masking, evaluation.

``train.py`` keeps the accelerate loop visible (in the manner of transformers'
``run_ner_no_trainer.py``); everything it would otherwise have to spell out lives here,
each piece testable on its own.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import torch

from hf_anon.model.alignment import CUT_WORD, IGNORE_INDEX, cut_scores, encode_documents
from hf_anon.model.metrics import SpanScorer, SpanScores
from hf_anon.text.data import Document, load_jsonl
from hf_anon.text.labels import LabelSet

#: Masking schemes of seed 000, table 5.4: shares of (placeholder-only, random, mask).
MASKING_SCHEMES: dict[str, tuple[float, float, float]] = {
    "M1": (1.0, 0.0, 0.0),
    "M2": (0.1, 0.9, 0.0),
    "M3": (0.0, 1.0, 0.0),
    "M4": (0.25, 0.25, 0.5),
    "M5": (0.25, 0.15, 0.6),
    "M6": (0.0, 0.2, 0.8),
    "M7": (0.0, 0.0, 1.0),
}


@dataclass
class TrainingConfig:
    """Everything a run needs; parsed from the command line and/or a YAML/JSON file."""

    model_name_or_path: str = field(
        default="", metadata={"help": "encoder (hub id or folder) or an hf-anon checkpoint"}
    )
    output_dir: str = field(default="outputs/run", metadata={"help": "where models go"})
    train_files: list[str] = field(
        default_factory=list,
        metadata={"help": "JSON Lines (gold format) or corpus folders (save_corpus)"},
    )
    validation_files: list[str] = field(
        default_factory=list,
        metadata={"help": "gold JSON Lines or corpus folders for evaluation"},
    )
    synthetic_train_documents: int = field(
        default=0, metadata={"help": "add N generated synthetic decisions to training"}
    )
    synthetic_validation_documents: int = field(
        default=0, metadata={"help": "evaluate on N generated synthetic decisions (other seed)"}
    )
    exclude_ids_files: list[str] = field(
        default_factory=list,
        metadata={
            "help": "files of document ids (one a line) left out of training: gold kept "
            "unseen to calibrate or measure on, although the training file holds it"
        },
    )
    max_train_documents: int | None = field(default=None, metadata={"help": "cap, for trials"})
    max_documents_per_file: int | None = field(
        default=None,
        metadata={"help": "use at most N documents of each train file (balances a large corpus)"},
    )
    num_hidden_layers: int | None = field(
        default=None,
        metadata={"help": "keep the first N encoder layers (e5: 8); also cuts a trained model"},
    )
    freeze_embeddings: bool = field(default=True, metadata={"help": "do not train embeddings"})
    max_length: int = field(default=256, metadata={"help": "window length in tokens"})
    stride: int = field(default=32, metadata={"help": "overlap of windows in tokens"})
    per_device_train_batch_size: int = 16
    per_device_eval_batch_size: int = 32
    gradient_accumulation_steps: int = 1
    learning_rate: float = 5e-5
    head_learning_rate: float = 1e-3
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1
    num_train_epochs: float = 3.0
    max_steps: int = field(default=-1, metadata={"help": "overrides num_train_epochs if > 0"})
    logging_steps: int = 20
    eval_steps: int = 200
    best_metric: str = field(
        default="recall_high",
        metadata={
            "help": "recall_high | lenient_f1 | lenient_recall | strict_f1 (ties: lenient F1)"
        },
    )
    early_stopping_patience: int = field(
        default=0, metadata={"help": "stop after N evaluations without improvement (0: never)"}
    )
    save_each_evaluation: bool = field(
        default=False,
        metadata={
            "help": "also keep a model folder step-N at every evaluation, to choose the step "
            "afterwards as the release does (calibrated, with the recognizers)"
        },
    )
    seed: int = 42
    unwrap_lines: bool = field(
        default=False,
        metadata={
            "help": "train on, and have the model read, texts without the line ends of a "
            "PDF's wrapping (Japanese; recorded in the model's config)"
        },
    )
    language: str = field(
        default="de",
        metadata={"help": "language of the text (de | ja): synthetic data and span boundaries"},
    )
    mixed_precision: str = field(default="no", metadata={"help": "no | fp16 | bf16"})
    resume_from_checkpoint: str | None = field(
        default=None, metadata={"help": "a checkpoint folder, or 'latest' in output_dir"}
    )
    report_to: str = field(default="tensorboard", metadata={"help": "tensorboard | none"})
    lora_r: int = field(default=0, metadata={"help": "LoRA rank (0: full fine-tuning)"})
    lora_alpha: int = 16
    lora_dropout: float = 0.1
    save_adapter: bool = field(
        default=False,
        metadata={
            "help": "with lora_r > 0: save the LoRA adapter alone (PEFT, e.g. one court's, "
            "loaded with adapter=), not the merged weights"
        },
    )
    masking: str = field(
        default="none", metadata={"help": "none | M1..M7 (seed 000, for placeholder corpora)"}
    )
    candidate_probability: float = field(
        default=0.02, metadata={"help": "share of other words masked as candidates"}
    )
    span_class_weights: list[float] = field(default_factory=lambda: [1.0, 3.0, 3.0])
    label_set: str | None = field(default=None, metadata={"help": "JSON/YAML label set file"})
    max_eval_documents: int | None = field(
        default=None, metadata={"help": "evaluate on at most N documents of each source"}
    )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")


def parse_config(argv: Sequence[str] | None = None) -> TrainingConfig:
    """``train.py --config FILE.yaml --learning_rate 3e-5``: the file, then the flags."""
    import sys

    import yaml
    from transformers import HfArgumentParser

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = HfArgumentParser(TrainingConfig)
    defaults: dict = {}
    path = None  # the config file, whose header says how its corpora are built
    if "--config" in argv:
        i = argv.index("--config")
        path = Path(argv[i + 1])
        del argv[i : i + 2]
        text = path.read_text(encoding="utf-8")
        defaults = (
            yaml.safe_load(text) if path.suffix in {".yaml", ".yml"} else json.loads(text)
        ) or {}
        unknown = set(defaults) - {f for f in TrainingConfig.__dataclass_fields__}
        if unknown:
            raise ValueError(f"{path}: unknown settings {sorted(unknown)}")
        parser.set_defaults(**defaults)
    (config,) = parser.parse_args_into_dataclasses(args=argv)
    if not config.model_name_or_path:
        raise ValueError("model_name_or_path is required (in the config file or as a flag)")
    from hf_anon.text.languages import LANGUAGES

    if config.language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {config.language!r}")
    if config.masking != "none" and config.masking not in MASKING_SCHEMES:
        raise ValueError(f"masking must be none or one of {sorted(MASKING_SCHEMES)}")
    missing = missing_data_files(
        [*config.train_files, *config.validation_files, *config.exclude_ids_files]
    )
    if missing:
        header = build_commands(path) if path else []
        raise FileNotFoundError(
            f"not there: {', '.join(missing)}. Corpora are built, not committed"
            + (f"; {path} says how:\n" + "\n".join(header) if header else "")
        )
    return config


def missing_data_files(specs: Sequence[str], root: Path = Path()) -> list[str]:
    """The data files of ``specs`` (training, validation and id files; paths under
    ``root``) that do not exist, checked before anything is loaded: a corpus that was never
    built on this machine (they are build outputs, not committed) should stop a run at
    once, not after minutes of model loading, with a traceback from deep in the data code.
    ``DIR:split`` names a folder."""
    out = []
    for spec in specs:
        if not (root / spec).exists() and not (root / spec.partition(":")[0]).exists():
            out.append(spec)
    return list(dict.fromkeys(out))


def build_commands(config_file: Path) -> list[str]:
    """The commands a config's header comment gives for building its corpora (lines
    ``#   python …`` and their continuations), as written there."""
    lines = config_file.read_text(encoding="utf-8").splitlines()
    return [line[1:].rstrip() for line in lines if line.startswith("#   ")]


# --- data ---------------------------------------------------------------------------------


def read_id_files(paths: Sequence[str]) -> set[str]:
    """The ids of files that list one document id a line (``#`` comments, blanks skipped).

    A training file built from the whole annotation folder holds every annotated
    document; an id file keeps some of them out, so that a model can be calibrated or
    measured on them without a second copy of the data.
    """
    ids: set[str] = set()
    for path in paths:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        listed = {line.split("#", 1)[0].strip() for line in lines} - {""}
        if not listed:
            raise ValueError(f"{path}: no document ids (one id a line)")
        ids |= listed
    return ids


def without_ids(documents: Sequence[Document], ids: set[str]) -> list[Document]:
    """The documents whose id is not in ``ids``."""
    return [doc for doc in documents if doc.id not in ids]


def unwrapped_documents(documents: Sequence[Document], language: str) -> list[Document]:
    """The documents as a model with ``unwrap_lines`` reads them: the text without the line
    ends of a PDF's wrapping (:func:`hf_anon.text.views.without_wrapped_line_ends`), each
    span moved onto it. Training must show the model the text it will read."""
    from hf_anon.text.views import TextView

    out = []
    for doc in documents:
        view = TextView(doc.text, language, unwrap_lines=True)
        index = view.model_index
        if index is None:
            out.append(doc)
            continue
        spans = [
            replace(
                s,
                start=int(np.searchsorted(index, s.start)),
                end=int(np.searchsorted(index, s.end)),
            )
            for s in doc.spans
        ]
        out.append(Document(doc.id, view.model, spans, doc.domain, doc.meta))
    return out


def load_documents(paths: Sequence[str], labels: LabelSet, split: str = "train") -> list[Document]:
    """Gold documents from JSON Lines files or corpus folders written by save_corpus.

    From a corpus folder only ``split`` is read (``DIR:test`` picks another split), so
    that a held-out split never leaks into training. Placeholder corpora (a
    ``placeholders`` column) count their placeholders as spans, for training on them
    directly with a masking scheme.
    """
    from datasets import load_from_disk

    from hf_anon.corpora.corpus import load_corpus

    documents: list[Document] = []
    for spec in paths:
        path, _, wanted = spec.partition(":") if not Path(spec).exists() else (spec, "", "")
        path = Path(path)
        if path.is_dir():
            columns = next(iter(load_from_disk(str(path)).values())).column_names
            key = "placeholders" if "placeholders" in columns else "spans"
            extra = ["unknown"] if key == "placeholders" else []
            splits = load_corpus(path, spans_key=key, extra_labels=extra)
            name = wanted or split
            if name not in splits:
                raise ValueError(f"{path}: no split {name!r} (has {sorted(splits)})")
            documents += splits[name]
        else:
            documents += load_jsonl(path, labels, require_risk=False)
    return documents


def synthetic_documents(n: int, seed: int, language: str = "de") -> list[Document]:
    if n <= 0:
        return []
    if language == "ja":
        from hf_anon.corpora.japanese.synthetic import generate_japanese_documents

        return generate_japanese_documents(n, seed=seed)
    from hf_anon.corpora.synthetic import generate_documents

    return generate_documents(n, seed=seed)


def window_features(
    documents: Sequence[Document],
    tokenizer,
    labels: LabelSet,
    *,
    max_length: int,
    stride: int,
) -> list[dict]:
    """Training examples: one per window, with targets and word ids (for masking)."""
    features = []
    for doc in encode_documents(documents, tokenizer, labels, max_length=max_length, stride=stride):
        if not doc.windows:
            continue
        word_ids = np.cumsum(cut_scores(doc.text, doc.offsets) >= CUT_WORD)
        for w in doc.windows:
            pad = [-1] * w.content_offset
            tail = [-1] * (len(w.input_ids) - w.content_offset - (w.token_end - w.token_start))
            features.append(
                {
                    "input_ids": w.input_ids,
                    "span_tags": w.span_tags,
                    "label_ids": w.label_ids,
                    "risk_ids": w.risk_ids,
                    "word_ids": pad + word_ids[w.token_start : w.token_end].tolist() + tail,
                }
            )
    return features


@dataclass
class WindowCollator:
    """Pads windows into tensors; optionally applies a masking scheme of seed 000."""

    pad_token_id: int
    masking: str = "none"
    mask_token_id: int | None = None
    vocab_size: int | None = None
    candidate_probability: float = 0.02
    seed: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def __call__(self, features: Sequence[dict]) -> dict[str, torch.Tensor]:
        width = max(len(f["input_ids"]) for f in features)
        batch = {
            "input_ids": torch.full((len(features), width), self.pad_token_id),
            "attention_mask": torch.zeros((len(features), width), dtype=torch.long),
        }
        for key in ("span_tags", "label_ids", "risk_ids"):
            batch[key] = torch.full((len(features), width), IGNORE_INDEX)
        for row, f in enumerate(features):
            n = len(f["input_ids"])
            batch["input_ids"][row, :n] = torch.tensor(f["input_ids"])
            batch["attention_mask"][row, :n] = 1
            for key in ("span_tags", "label_ids", "risk_ids"):
                batch[key][row, :n] = torch.tensor(f[key])
            if self.masking != "none":
                self._mask(batch, row, f)
        return batch

    def _mask(self, batch: dict[str, torch.Tensor], row: int, feature: dict) -> None:
        """Mask candidate words (all placeholders plus a few other words) and train on
        them only, so that the model cannot tell placeholders by their look."""
        plhr_only, random_share, _ = MASKING_SCHEMES[self.masking]
        words: dict[int, list[int]] = {}
        for position, word in enumerate(feature["word_ids"]):
            if word >= 0:
                words.setdefault(word, []).append(position)
        tags = feature["span_tags"]
        keep_loss = torch.zeros(len(feature["input_ids"]), dtype=torch.bool)
        for positions in words.values():
            is_placeholder = any(tags[p] not in (0, IGNORE_INDEX) for p in positions)
            if not is_placeholder and self.rng.random() >= self.candidate_probability:
                continue
            keep_loss[positions] = True
            roll = self.rng.random()
            if roll < plhr_only:
                if is_placeholder:
                    batch["input_ids"][row, positions] = self.mask_token_id
            elif roll < plhr_only + random_share:
                for p in positions:
                    batch["input_ids"][row, p] = self.rng.randrange(self.vocab_size)
            else:
                batch["input_ids"][row, positions] = self.mask_token_id
        n = len(feature["input_ids"])
        for key in ("span_tags", "label_ids", "risk_ids"):
            batch[key][row, :n][~keep_loss] = IGNORE_INDEX


# --- model ----------------------------------------------------------------------------------


def build_model(config: TrainingConfig, labels: LabelSet):
    """A new model on the encoder, or an hf-anon checkpoint to continue from; embeddings
    frozen and LoRA adapters added as configured."""
    from transformers import AutoConfig

    from hf_anon.model.modeling import AnonConfig, AnonModel

    try:
        existing = AutoConfig.from_pretrained(config.model_name_or_path)
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot load {config.model_name_or_path!r}: {err}") from None
    if isinstance(existing, AnonConfig):
        layers = existing.encoder.get("num_hidden_layers")
        if config.num_hidden_layers is not None:
            if not isinstance(layers, int) or not 1 <= config.num_hidden_layers <= layers:
                raise ValueError(
                    f"num_hidden_layers must be between 1 and {layers} for "
                    f"{config.model_name_or_path}, got {config.num_hidden_layers}"
                )
            # a trained model cut to its first N layers (a faster student that keeps the
            # heads); the weights of the dropped layers are not loaded
            existing.encoder = {**existing.encoder, "num_hidden_layers": config.num_hidden_layers}
        # the loss is the run's, not the parent's: a config that weighs entity tokens
        # differently must train with its weights (they were silently the parent's before)
        existing.span_class_weights = list(config.span_class_weights)
        model = AnonModel.from_pretrained(
            config.model_name_or_path, config=existing, dtype=torch.float32
        )
    else:
        model = AnonModel.from_encoder(
            config.model_name_or_path,
            labels.names,
            list(labels.risks),
            num_hidden_layers=config.num_hidden_layers,
            label_set=labels.to_dict(),
            span_class_weights=config.span_class_weights,
        )
    # the windows it trains on are how it should run: config.json carries them to detection
    model.config.window_max_length, model.config.window_stride = config.max_length, config.stride
    model.config.language = config.language  # detection applies its span boundaries
    model.config.unwrap_lines = config.unwrap_lines  # and reads the text as it trained
    if config.freeze_embeddings:
        for parameter in model.encoder.get_input_embeddings().parameters():
            parameter.requires_grad = False
    if config.lora_r > 0:
        model = add_lora(model, config)
    return model


def add_lora(model, config: TrainingConfig):
    """LoRA adapters on the encoder's attention and feed-forward layers; heads train fully."""
    from peft import LoraConfig, get_peft_model

    lora = LoraConfig(
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=["query", "key", "value", "dense"],
        modules_to_save=["span_head", "label_head", "risk_head"],
    )
    return get_peft_model(model, lora)


def mergeable(model):
    """The plain model to save: LoRA adapters merged into the weights."""
    if hasattr(model, "merge_and_unload"):
        return model.merge_and_unload()
    return model


def optimizer_groups(model, config: TrainingConfig) -> list[dict]:
    """Encoder weights with weight decay (not biases and norms); heads with a higher rate."""
    groups: dict[str, list] = {"decay": [], "no_decay": [], "head": []}
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        if "_head" in name:
            groups["head"].append(parameter)
        elif name.endswith("bias") or "LayerNorm" in name or "layer_norm" in name:
            groups["no_decay"].append(parameter)
        else:
            groups["decay"].append(parameter)
    return [
        {"params": groups["decay"], "weight_decay": config.weight_decay},
        {"params": groups["no_decay"], "weight_decay": 0.0},
        {"params": groups["head"], "weight_decay": 0.0, "lr": config.head_learning_rate},
    ]


def total_steps(config: TrainingConfig, batches_per_epoch: int) -> int:
    if config.max_steps > 0:
        return config.max_steps
    updates = math.ceil(batches_per_epoch / config.gradient_accumulation_steps)
    return max(1, math.ceil(config.num_train_epochs * updates))


# --- evaluation -------------------------------------------------------------------------------


def evaluate_model(
    model, tokenizer, documents: Sequence[Document], config: TrainingConfig
) -> SpanScores:
    """Detect spans on the evaluation documents and score them (strict and lenient)."""
    from hf_anon.model.detection import SpanDetector

    was_training = model.training
    detector = SpanDetector(model, tokenizer, max_length=config.max_length, stride=config.stride)
    predictions = detector.detect(documents, batch_size=config.per_device_eval_batch_size)
    scorer = SpanScorer(detector.labels)
    for doc, spans in zip(documents, predictions, strict=True):
        scorer.add(doc.text, doc.spans, spans)
    model.train(was_training)
    return scorer.result()


def flat_metrics(scores: SpanScores) -> dict[str, float]:
    """The scalars logged to the trackers and used to pick the best checkpoint."""
    out = {}
    for name in ("strict", "strict_typed", "lenient"):
        prf = getattr(scores, name)
        out.update(
            {f"{name}_precision": prf.precision, f"{name}_recall": prf.recall, f"{name}_f1": prf.f1}
        )
    out.update({f"recall_{risk}": value for risk, value in scores.recall_by_risk.items()})
    return out


def is_better(metrics: dict[str, float], best: dict[str, float] | None, key: str) -> bool:
    """Higher ``key`` wins; ties go to the higher lenient F1."""
    if best is None:
        return True
    return (metrics[key], metrics["lenient_f1"]) > (best[key], best["lenient_f1"])


def checkpoints(output_dir: str | Path) -> Iterator[Path]:
    """Checkpoint folders of a run, oldest first."""
    folders = Path(output_dir).glob("checkpoint-*")
    yield from sorted(folders, key=lambda p: int(p.name.split("-")[1]))


def train_wordpiece_tokenizer(texts: Sequence[str], *, vocab_size: int = 2000):
    """A cased BERT-style fast tokenizer trained on ``texts`` (offsets exclude spaces)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from tokenizers.processors import TemplateProcessing
    from transformers import PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    backend = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    backend.normalizer = normalizers.BertNormalizer(lowercase=False)
    backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    backend.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=specials, show_progress=False
    )
    backend.train_from_iterator(texts, trainer)
    cls_id, sep_id = backend.token_to_id("[CLS]"), backend.token_to_id("[SEP]")
    backend.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=512,
    )


def tiny_random_encoder(
    out_dir: str | Path,
    texts: Sequence[str],
    *,
    hidden_size: int = 32,
    num_hidden_layers: int = 2,
    vocab_size: int = 2000,
    seed: int = 0,
) -> Path:
    """A small random BERT with a WordPiece tokenizer trained on ``texts``.

    For smoke tests and ``configs/tiny.yaml``: no download, seconds to build, and a
    real fast tokenizer with character offsets.
    """
    from transformers import BertConfig, BertModel

    out_dir = Path(out_dir)
    tokenizer = train_wordpiece_tokenizer(texts, vocab_size=vocab_size)
    torch.manual_seed(seed)
    encoder = BertModel(
        BertConfig(
            vocab_size=len(tokenizer),
            hidden_size=hidden_size,
            num_hidden_layers=num_hidden_layers,
            num_attention_heads=max(1, hidden_size // 16),
            intermediate_size=hidden_size * 4,
            max_position_embeddings=512,
        )
    )
    encoder.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    return out_dir
