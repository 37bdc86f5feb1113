"""The ONNX Runtime backend for detection on the CPU (the default there, see
:func:`hf_anon.model.loading.resolve_backend`).

:func:`export_onnx` writes an :class:`~hf_anon.model.modeling.AnonModel` as an ONNX graph
(inputs ``input_ids`` and ``attention_mask``, dynamic batch and sequence axes; outputs
``span_logits``, ``label_logits`` and ``risk_logits``), fuses it with ONNX Runtime's
transformer optimizer (fused attention, ``SkipLayerNormalization`` and ``BiasGelu``
kernels) and, with ``quantize=True``, quantizes the encoder's matrix multiplications to
int8 (dynamic quantization of the activations, one scale per output channel of the
weights; the small heads stay float32: see :data:`FLOAT_NODES`).

:class:`OnnxEncoderModel` wraps the ``InferenceSession`` so that
:class:`~hf_anon.model.detection.SpanDetector` uses it like the torch model.
:func:`load_onnx_model` exports once per model and caches the files under
``~/.cache/hf-anon/onnx/<hash of the weights>/`` (``HF_ANON_CACHE`` moves the root),
never inside the model folder or a hub cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import warnings
from pathlib import Path
from types import SimpleNamespace

import torch

from hf_anon.model.model_folder import ModelFolder

INPUT_NAMES = ("input_ids", "attention_mask")
OUTPUT_NAMES = ("span_logits", "label_logits", "risk_logits")
#: Bumped whenever the export changes, so that stale cached files are not reused.
EXPORT_VERSION = 2
INSTALL_HINT = (
    "the ONNX backend needs onnxruntime and onnx (hf-anon dependencies): "
    'pip install "hf-anon[onnx]"'
)


class OnnxUnavailableError(ImportError, ValueError):
    """onnxruntime (or onnx) is not installed; a ValueError too, so that CLIs report it."""


def _require(module: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise OnnxUnavailableError(f"{INSTALL_HINT} ({err})") from None


def require_onnx() -> None:
    """Raise :class:`OnnxUnavailableError` (with the install hint) unless onnxruntime and
    onnx can be imported."""
    _require("onnxruntime")
    _require("onnx")


def onnx_available() -> bool:
    """Whether onnxruntime and onnx can be imported."""
    try:
        require_onnx()
    except OnnxUnavailableError:
        return False
    return True


class _Logits(torch.nn.Module):
    """The model with positional inputs and a tuple of logits (what the exporter traces)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask)
        return out.span_logits, out.label_logits, out.risk_logits


def _sample_inputs(vocab_size: int, batch: int = 2, length: int = 37):
    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(5, max(6, vocab_size), (batch, length), generator=generator)
    mask = torch.ones_like(ids)
    mask[-1, length * 3 // 4 :] = 0  # one padded row: the mask path must be traced
    return ids, mask


@contextlib.contextmanager
def _eager_attention(model):
    """Plain matmul-softmax attention while exporting: the pattern ONNX Runtime fuses."""
    encoder = model.encoder
    before = getattr(encoder.config, "_attn_implementation", None)
    switch = hasattr(encoder, "set_attn_implementation") and before not in (None, "eager")
    if switch:
        encoder.set_attn_implementation("eager")
    try:
        yield
    finally:
        if switch:
            encoder.set_attn_implementation(before)


def _torch_export(model, path: Path) -> None:
    model = model.float().cpu().eval()
    # The wrapper must be in eval mode too: traced in training mode, dropout is exported.
    wrapper = _Logits(model).eval()
    ids, mask = _sample_inputs(model.encoder.config.vocab_size)
    axes = {name: {0: "batch", 1: "sequence"} for name in INPUT_NAMES + OUTPUT_NAMES}
    with warnings.catch_warnings(), _eager_attention(model), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            wrapper,
            (ids, mask),
            str(path),
            input_names=list(INPUT_NAMES),
            output_names=list(OUTPUT_NAMES),
            dynamic_axes=axes,
            opset_version=17,
            do_constant_folding=True,
            dynamo=False,
        )


def _fuse(path: Path, encoder_config, *, separate_qkv: bool = False) -> None:
    """ONNX Runtime's offline transformer fusions, in place (skipped where unsupported).

    By default the query, key and value projections become one ``Attention`` node (the
    fastest float32 form); ``separate_qkv`` keeps them as MatMuls around a
    ``MultiHeadAttention`` node, which int8 runs faster than ``QAttention``.
    """
    if getattr(encoder_config, "model_type", None) not in ("bert", "roberta", "xlm-roberta"):
        return
    try:
        from onnxruntime.transformers.fusion_options import FusionOptions
        from onnxruntime.transformers.optimizer import optimize_model
    except ImportError:  # pragma: no cover - part of the onnxruntime wheel
        return
    options = FusionOptions("bert")
    options.use_multi_head_attention = separate_qkv
    with warnings.catch_warnings(), _quiet_loggers():
        warnings.simplefilter("ignore")
        optimized = optimize_model(
            str(path),
            model_type="bert",
            num_heads=encoder_config.num_attention_heads,
            hidden_size=encoder_config.hidden_size,
            opt_level=0,
            optimization_options=options,
        )
    optimized.save_model_to_file(str(path))


#: Nodes left in float32 by :func:`_quantize`: the heads (a sliver of the time). The
#: second matrix of each feed-forward block reads GELU outputs with outliers of 30-60
#: standard deviations; with one scale per weight tensor, int8 there lost spans, with one
#: per output channel (``per_channel``) it keeps the default model's dev recall.
FLOAT_NODES = re.compile(r"(span|label|risk)_head/")


def _quantize(
    source: Path,
    target: Path,
    *,
    weight_type: str = "QInt8",
    per_channel: bool = True,
    keep_float: re.Pattern | None = FLOAT_NODES,
) -> None:
    """Dynamic int8 quantization of the encoder's MatMul and Attention nodes except those
    whose names match ``keep_float``."""
    onnx = _require("onnx")
    quantization = _require("onnxruntime.quantization")

    nodes = onnx.load(str(source), load_external_data=False).graph.node
    excluded = [n.name for n in nodes if keep_float is not None and keep_float.search(n.name)]
    with warnings.catch_warnings(), _quiet_loggers():
        warnings.simplefilter("ignore")
        quantization.quantize_dynamic(
            str(source),
            str(target),
            op_types_to_quantize=["MatMul", "Attention"],
            per_channel=per_channel,
            weight_type=getattr(quantization.QuantType, weight_type),
            nodes_to_exclude=excluded,
            # fused contrib ops (Attention, SkipLayerNormalization) defeat shape inference
            extra_options={
                "MatMulConstBOnly": True,
                "DefaultTensorType": onnx.TensorProto.FLOAT,
            },
        )


@contextlib.contextmanager
def _quiet_loggers():
    """ONNX Runtime's optimizer and quantizer log advice (on the root logger too)."""
    loggers = [logging.getLogger(), logging.getLogger("onnxruntime")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _check(path: Path, model, *, atol: float) -> None:
    """The ONNX graph gives the torch model's logits on a sample batch (or an error)."""
    ort = _require("onnxruntime")
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ids, mask = _sample_inputs(model.encoder.config.vocab_size, batch=3, length=29)
    feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
    got = session.run(list(OUTPUT_NAMES), feeds)
    with torch.no_grad():
        want = _Logits(model.float().eval())(ids, mask)
    valid = mask.bool()
    for name, g, w in zip(OUTPUT_NAMES, got, want, strict=True):
        error = float((torch.from_numpy(g) - w)[valid].abs().max())
        if not error <= atol:
            raise RuntimeError(f"ONNX export of {name} differs from torch by {error:.2e}")


def export_onnx(
    model_dir,
    out_path: str | Path,
    *,
    quantize: bool = True,
    weight_type: str = "QInt8",
    per_channel: bool = True,
    fuse: bool = True,
    keep_float: re.Pattern | None = FLOAT_NODES,
) -> Path:
    """Export an hf-anon model (a folder, hub id or loaded ``AnonModel``) to ``out_path``.

    The fused float32 graph is checked against torch before it is (optionally) quantized.
    ``weight_type`` is ``QInt8`` or ``QUInt8``; nodes whose names match ``keep_float``
    stay float32 (:data:`FLOAT_NODES`: the heads). Files are written atomically.
    """
    require_onnx()
    model = (
        model_dir if isinstance(model_dir, torch.nn.Module) else ModelFolder(model_dir).load_model()
    )
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_path.parent, prefix=".export-") as tmp:
        raw = Path(tmp) / "raw.onnx"
        _torch_export(model, raw)
        final = Path(tmp) / ("model.int8.onnx" if quantize else "model.onnx")
        fused = Path(tmp) / "fused.onnx"
        shutil.copyfile(raw, fused)
        if fuse:
            _fuse(fused, model.encoder.config, separate_qkv=quantize)
        _check(fused, model, atol=1e-3)
        if quantize:
            _quantize(
                fused,
                final,
                weight_type=weight_type,
                per_channel=per_channel,
                keep_float=keep_float,
            )
        else:
            os.replace(fused, final)
        os.replace(final, out_path)
    return out_path


def cache_root() -> Path:
    """``$HF_ANON_CACHE/onnx``, else ``$XDG_CACHE_HOME/hf-anon/onnx`` (``~/.cache``)."""
    if os.environ.get("HF_ANON_CACHE"):
        return Path(os.environ["HF_ANON_CACHE"]) / "onnx"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "hf-anon" / "onnx"


def model_fingerprint(path: str | Path | ModelFolder) -> str:
    """A hash of the model's weights and config (names the cache folder)."""
    folder = ModelFolder(path)
    digest = hashlib.sha256(f"hf-anon-onnx-v{EXPORT_VERSION}".encode())
    weights = folder.weights_file()
    if weights is None:
        raise ValueError(f"no model.safetensors or pytorch_model.bin found for {folder}")
    with open(weights, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    config = folder.file("config.json")
    if config is not None:
        digest.update(config.read_bytes())
    return digest.hexdigest()[:16]


class OnnxEncoderModel:
    """An ONNX Runtime session that :class:`~hf_anon.model.detection.SpanDetector` calls like
    the torch model: logits as torch tensors, ``config``, ``encoder.config``, ``eval()``
    and a CPU ``parameters()``."""

    def __init__(self, path: str | Path, config, *, num_threads: int | None = None):
        ort = _require("onnxruntime")
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = num_threads or torch.get_num_threads() or os.cpu_count()
        options.inter_op_num_threads = 1
        self.path = Path(path)
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.config = config
        self.encoder = SimpleNamespace(config=config.encoder_config())
        self._device = torch.empty(0)

    def eval(self) -> OnnxEncoderModel:
        return self

    def parameters(self):
        yield self._device

    def to(self, device=None, *args, **kwargs) -> OnnxEncoderModel:
        if isinstance(device, torch.dtype) or any(isinstance(a, torch.dtype) for a in args):
            raise ValueError("the ONNX backend runs in float32 (or int8 with quantize)")
        if device is not None and torch.device(device).type != "cpu":
            raise ValueError("the ONNX backend runs on the CPU only")
        return self

    def __call__(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **kwargs):
        from hf_anon.model.modeling import AnonOutput

        feeds = {
            "input_ids": input_ids.detach().cpu().numpy().astype("int64", copy=False),
            "attention_mask": attention_mask.detach().cpu().numpy().astype("int64", copy=False),
        }
        span, label, risk = self.session.run(list(OUTPUT_NAMES), feeds)
        return AnonOutput(
            span_logits=torch.from_numpy(span),
            label_logits=torch.from_numpy(label),
            risk_logits=torch.from_numpy(risk),
        )

    def __repr__(self) -> str:
        return f"OnnxEncoderModel({str(self.path)!r})"


def load_onnx_model(
    path: str | Path | ModelFolder,
    *,
    quantize: bool = False,
    model=None,
    cache_dir: str | Path | None = None,
    num_threads: int | None = None,
) -> OnnxEncoderModel:
    """The ONNX model of an hf-anon model folder or hub id, exported on first use.

    ``model`` (the loaded torch ``AnonModel``) saves loading it again on a cache miss. The
    session's ``config`` is the folder's (:attr:`ModelFolder.config`: labels and the
    inference settings, windows included).
    """
    require_onnx()
    folder = ModelFolder(path)
    cache = (Path(cache_dir) if cache_dir else cache_root()) / model_fingerprint(folder)
    target = cache / ("model.int8.onnx" if quantize else "model.onnx")
    if not target.is_file():
        export_onnx(model if model is not None else folder, target, quantize=quantize)
        info = {"source": folder.source, "export_version": EXPORT_VERSION}
        with contextlib.suppress(OSError):
            (cache / "source.json").write_text(json.dumps(info, indent=2) + "\n")
    config = model.config if model is not None else folder.config
    return OnnxEncoderModel(target, config, num_threads=num_threads)
