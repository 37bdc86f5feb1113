"""How a model is loaded to run: every load option in one place.

:class:`LoadOptions` holds the device, the dtype, the backend, int8 quantization and a LoRA
adapter, and refuses the combinations that cannot run when it is built, before anything is
loaded. :func:`load_for_inference` is the one path from a model folder or hub id to a model
ready to run: ``SpanDetector.from_pretrained``, ``Anonymizer.from_pretrained``, the command
line and the demo all go through it, so an option behaves the same wherever it is given.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch

from hf_anon.model.model_folder import ModelFolder

#: Inference backends (``auto``: see :func:`resolve_backend`).
BACKENDS = ("auto", "torch", "onnx")
#: Environment variable that sets the backend ``auto`` stands for (``torch`` or ``onnx``).
BACKEND_ENV = "HF_ANON_BACKEND"
#: Weight dtypes; the half ones run with torch, unquantized (on a GPU they halve memory
#: and time).
DTYPES = ("float32", "bfloat16", "float16")


def resolve_backend(backend: str = "auto", *, device: str | None = None) -> str:
    """The backend that runs: ``torch`` or ``onnx``.

    ``auto`` is :data:`BACKEND_ENV` where set, else ONNX Runtime (float32, fused) on the
    CPU when onnxruntime is installed, else torch. On the real validation split and on dev
    the ONNX float32 graph gives the spans of torch float32 exactly (``hf-anon report
    --backend onnx``; int8 quantization does not: it stays a choice, ``quantize=True``),
    a little faster (6 % on an idle 2-core CPU, more when other jobs share the cores:
    ``benchmarks/anonymize_bench.py``) and with half torch's peak memory on one long text
    (``benchmarks/memory_bench.py --document``). On a GPU: torch.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend != "auto":
        return backend
    chosen = os.environ.get(BACKEND_ENV, "").strip().lower()
    if chosen:
        if chosen not in BACKENDS:
            raise ValueError(f"{BACKEND_ENV} must be one of {', '.join(BACKENDS)}, got {chosen!r}")
        if chosen != "auto":
            return chosen
    if device is not None and torch.device(device).type != "cpu":
        return "torch"
    from hf_anon.model.backends.onnx import onnx_available

    return "onnx" if onnx_available() else "torch"


@dataclass(frozen=True)
class LoadOptions:
    """How to run a model.

    - ``device``: ``cpu``, ``cuda``, ``cuda:1`` … (None: where torch puts it, the CPU).
    - ``dtype``: ``float32`` (None is the same), or ``bfloat16``/``float16``, which halve
      memory and time on a GPU and run with torch, unquantized.
    - ``backend``: ``torch``, ``onnx`` (ONNX Runtime on the CPU) or ``auto``
      (:func:`resolve_backend`; torch where a half dtype or an adapter asks for it).
    - ``quantize``: dynamic int8 linear layers (CPU only; check recall on your data first).
    - ``adapter``: a LoRA adapter (a PEFT folder or hub id, e.g. one court's) merged into
      the model's weights when it loads; runs with torch.
    """

    device: str | None = None
    dtype: str | None = None
    backend: str = "auto"
    quantize: bool = False
    adapter: str | os.PathLike | None = None

    def __post_init__(self):
        if self.dtype is not None and self.dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {self.dtype!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.half and (self.quantize or self.backend == "onnx"):
            raise ValueError(f"dtype {self.dtype} works with the torch backend, unquantized")
        if self.adapter is not None and self.backend == "onnx":
            raise ValueError("a LoRA adapter runs with the torch backend, not onnx")
        on_gpu = self.device is not None and torch.device(self.device).type != "cpu"
        if self.backend == "onnx" and on_gpu:
            raise ValueError("the ONNX backend runs on the CPU only")
        if self.quantize and on_gpu:
            raise ValueError("dynamic int8 quantization runs on the CPU only")

    @property
    def half(self) -> bool:
        return self.dtype not in (None, "float32")

    def resolved_backend(self) -> str:
        """``torch`` or ``onnx``: the backend these options run with."""
        if self.backend == "auto" and (self.half or self.adapter is not None):
            return "torch"
        return resolve_backend(self.backend, device=self.device)


@dataclass
class LoadedModel:
    """What :func:`load_for_inference` gives: the model, its tokenizer and the backend
    that runs it (``torch``, ``onnx``; ``-int8`` when quantized)."""

    model: object
    tokenizer: object
    backend: str


def load_for_inference(
    path: str | Path | ModelFolder | None, options: LoadOptions | None = None
) -> LoadedModel:
    """Load a model folder or hub id (None: the default model) to run as ``options`` say;
    a clear :class:`ValueError` if it cannot.

    ``backend="auto"`` falls back to torch, with a warning, where a model does not export
    to ONNX; an explicit ``"onnx"`` raises instead.
    """
    options = options or LoadOptions()
    folder = ModelFolder(path)
    backend = options.resolved_backend()
    if backend == "onnx":
        from hf_anon.model.backends.onnx import require_onnx

        require_onnx()
    try:
        tokenizer = folder.load_tokenizer()
        model = None
        if backend == "onnx":
            model, backend = _onnx_or_torch(folder, options)
        if model is None:
            model = folder.load_model()
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot load an hf-anon model from {folder}: {err}") from None
    if backend == "torch":
        if options.adapter is not None:
            model = merge_adapter(model, options.adapter)
        if options.device:
            model.to(options.device)
        if options.half:
            model.to(getattr(torch, options.dtype))
        if options.quantize:
            model = _quantize(model)
    return LoadedModel(model, tokenizer, backend + ("-int8" if options.quantize else ""))


def _onnx_or_torch(folder: ModelFolder, options: LoadOptions):
    """The ONNX model, or ``(None, "torch")`` where ``auto`` cannot export it."""
    from hf_anon.model.backends.onnx import load_onnx_model

    try:
        return load_onnx_model(folder, quantize=options.quantize), "onnx"
    except (RuntimeError, ImportError, OSError, ValueError) as err:
        if options.backend != "auto":
            raise
        warnings.warn(
            f"the ONNX export of {folder} failed ({err}); running it with torch", stacklevel=4
        )
        return None, "torch"


def merge_adapter(model, adapter: str | os.PathLike):
    """``model`` with the LoRA adapter at ``adapter`` (folder or hub id, as PEFT saves it)
    merged into its weights: it then runs as fast as the model alone."""
    from peft import PeftModel

    source = str(adapter)
    local = Path(source)
    if local.exists() and not (local / "adapter_config.json").is_file():
        raise ValueError(f"{source} is not a LoRA adapter: it has no adapter_config.json")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # peft warns about the hub when offline
            return PeftModel.from_pretrained(model, source).merge_and_unload()
    except (OSError, ValueError, RuntimeError, KeyError) as err:
        raise ValueError(f"cannot apply the adapter {source} to this model: {err}") from None


#: Where an adapter keeps the thresholds calibrated for it (``hf-anon calibrate --adapter``).
ADAPTER_CALIBRATION = "calibration.json"


def adapter_thresholds(adapter: str | os.PathLike) -> dict[str, float] | None:
    """The per-label thresholds calibrated for ``adapter`` (its ``calibration.json``, in a
    folder or a hub repository), or None where it has none. An adapter moves the model's
    scores, so the base model's thresholds, calibrated for the base, no longer fit it:
    measured on four courts, adapters read with them lost up to 0.20 precision on the
    court's other decisions, with thresholds of their own up to 0.15."""
    local = Path(str(adapter))
    if local.exists():
        path = local / ADAPTER_CALIBRATION
        if not path.is_file():
            return None
    else:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError, LocalEntryNotFoundError

        try:
            path = Path(hf_hub_download(str(adapter), ADAPTER_CALIBRATION))
        except (EntryNotFoundError, LocalEntryNotFoundError, OSError, ValueError):
            return None
    thresholds = json.loads(path.read_text(encoding="utf-8")).get("thresholds")
    return dict(thresholds) if thresholds else None


def _quantize(model):
    """Dynamic int8 linear layers (torch on the CPU)."""
    if next(model.parameters()).device.type != "cpu":
        raise ValueError("dynamic int8 quantization runs on the CPU only")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.ao.quantization import quantize_dynamic

        return quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
