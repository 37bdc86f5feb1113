"""Detection and anonymization speed: hf-anon against the transformers pipeline.

    python benchmarks/anonymize_bench.py [--model outputs/e5-small/best] [--documents 16]
        [--chars 20000] [--batch-size 16] [--device cpu|cuda] [--dtype bfloat16] [--quantize]
        [--backend torch onnx onnx-int8 ...]

Measures, in one run and on the same long documents (synthetic decisions from
``hf_anon.corpora.synthetic``, joined to about ``--chars`` characters each):

- (a) hf-anon: ``Anonymizer.detect`` (windows of all documents batched by length,
  ``torch.inference_mode``) and ``Anonymizer.anonymize`` (detection plus the leak check,
  entities and pseudonyms), for each ``--backend`` variant: ``torch``, ``onnx`` (ONNX
  Runtime, ``pip install "hf-anon[onnx]"``), and their dynamic int8 forms ``torch-int8``
  and ``onnx-int8`` (``--quantize`` makes every variant int8);
- (b) ``pipeline("token-classification", aggregation_strategy="simple")`` on the same
  model exported with ``hf_anon.model.modeling.export_token_classification`` (what
  ``hf-anon export`` writes), with ``stride`` so that it, too, reads whole documents.

Both get the same batch size, device, dtype and (with ``--quantize``) dynamic int8
quantization (the pipeline runs in torch). Tokens are the model tokenizer's tokens of the
documents (no special tokens); each timed run is preceded by one warm-up call. Without
``--model`` a tiny random model is built on the fly, so that the script runs anywhere
(its figures say little: Python overhead dominates a model that small).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path


def tiny_model(out: Path, texts: list[str]) -> Path:
    """A random tiny hf-anon model whose tokenizer was trained on ``texts``."""
    import torch
    from transformers import AutoTokenizer

    from hf_anon.model.modeling import AnonModel
    from hf_anon.model.training import tiny_random_encoder
    from hf_anon.text.labels import DEFAULT_LABELS

    encoder = tiny_random_encoder(out / "encoder", texts, hidden_size=64, vocab_size=4000)
    torch.manual_seed(0)
    model = AnonModel.from_encoder(
        str(encoder), DEFAULT_LABELS.names, label_set=DEFAULT_LABELS.to_dict()
    )
    model.save_pretrained(out / "model")
    AutoTokenizer.from_pretrained(str(encoder)).save_pretrained(out / "model")
    return out / "model"


def long_documents(n: int, chars: int, seed: int = 0) -> list[str]:
    """``n`` documents of at least ``chars`` characters: synthetic decisions joined."""
    from hf_anon.corpora.synthetic import generate_document

    texts, index = [], 1
    for _ in range(n):
        parts: list[str] = []
        while sum(len(p) for p in parts) < chars:
            parts.append(generate_document(index, seed).text)
            index += 1
        texts.append("\n\n".join(parts))
    return texts


def timed(jobs: dict, repeat: int) -> dict[str, float]:
    """The best of ``repeat`` runs of each job (seconds), after one warm-up each.

    Rounds interleave the jobs (a, b, c, a, b, c, ...) so that a slow spell of a shared
    machine hits every job alike instead of one, which keeps the ratios honest.
    """
    for fn in jobs.values():
        fn(warmup=True)
    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(repeat):
        for name, fn in jobs.items():
            started = time.perf_counter()
            fn(warmup=False)
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="hf-anon model (default: a tiny random one)")
    parser.add_argument("--documents", type=int, default=16, help="number of long documents")
    parser.add_argument("--chars", type=int, default=20_000, help="characters per document")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument(
        "--max-length", type=int, help="window length (tokens; default: the model's training one)"
    )
    parser.add_argument("--stride", type=int, help="window overlap (tokens; default: as trained)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], default="float32")
    parser.add_argument("--quantize", action="store_true", help="dynamic int8 (CPU)")
    parser.add_argument(
        "--backend",
        nargs="+",
        default=["torch"],
        choices=["torch", "onnx", "torch-int8", "onnx-int8"],
        help="hf-anon variants to time (default: torch)",
    )
    parser.add_argument("--skip-anonymize", action="store_true", help="time detection only")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed rounds, interleaved (the best counts)"
    )
    parser.add_argument("--skip-pipeline", action="store_true")
    parser.add_argument("--json", action="store_true", help="also print one JSON object")
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer, pipeline

    from hf_anon.apply.anonymize import Anonymizer
    from hf_anon.model.modeling import export_token_classification

    texts = long_documents(args.documents, args.chars)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        model_path = args.model or tiny_model(tmp / "tiny", texts)
        variants = {}
        for variant in dict.fromkeys(args.backend):
            backend, _, int8 = variant.partition("-")
            quantize = args.quantize or bool(int8)
            started = time.perf_counter()
            variants[f"{backend}{', int8' if quantize else ''}"] = Anonymizer.from_pretrained(
                model_path,
                device=args.device,
                dtype=args.dtype,
                quantize=quantize,
                max_length=args.max_length,
                stride=args.stride,
                batch_size=args.batch_size,
                backend=backend,
            )
            print(f"loaded {variant} in {time.perf_counter() - started:.1f} s (export if new)")
        detector = next(iter(variants.values())).detector
        tokenizer = detector.tokenizer
        tokens = sum(
            len(ids) for ids in tokenizer(texts, add_special_tokens=False, verbose=False).input_ids
        )
        print(
            f"{len(texts)} documents, {sum(map(len, texts)):,} characters, {tokens:,} tokens "
            f"({tokens / len(texts):,.0f} per document); model {model_path}; device "
            f"{args.device}, dtype {args.dtype}{', int8' if args.quantize else ''}, batch "
            f"{args.batch_size}, windows of {detector.max_length} tokens, stride {detector.stride}"
        )
        jobs = {}
        for variant, anonymizer in variants.items():

            def detect(warmup: bool, anonymizer=anonymizer):
                anonymizer.detect(texts[:1] if warmup else texts)

            def anonymize(warmup: bool, anonymizer=anonymizer):
                anonymizer.anonymize(texts[:1] if warmup else texts, mode="pseudonym", seed=0)

            jobs[f"hf-anon detect [{variant}]"] = detect
            if not args.skip_anonymize:
                jobs[f"hf-anon anonymize [{variant}]"] = anonymize

        if not args.skip_pipeline:
            exported = tmp / "exported"
            source = Anonymizer.from_pretrained(model_path, backend="torch").detector  # float32
            sample = tokenizer(
                [t[:2000] for t in texts[:8]],
                truncation=True,
                max_length=detector.max_length,
                padding=True,
                return_tensors="pt",
            )
            sample.pop("token_type_ids", None)
            export_token_classification(source.model, exported, tokenizer, sample)
            plain = AutoModelForTokenClassification.from_pretrained(str(exported))
            plain.to(args.device)
            if args.dtype != "float32":
                plain.to(getattr(torch, args.dtype))
            if args.quantize:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    from torch.ao.quantization import quantize_dynamic

                    plain = quantize_dynamic(plain, {torch.nn.Linear}, dtype=torch.qint8)
            plain_tokenizer = AutoTokenizer.from_pretrained(str(exported))
            plain_tokenizer.model_max_length = detector.max_length
            tagger = pipeline(
                "token-classification",
                model=plain,
                tokenizer=plain_tokenizer,
                aggregation_strategy="simple",
                stride=detector.stride,
                device=torch.device(args.device),
                batch_size=args.batch_size,
            )

            def run_pipeline(warmup: bool):
                with torch.inference_mode():
                    tagger(texts[:1] if warmup else texts)

            jobs["transformers pipeline (simple)"] = run_pipeline
        seconds = timed(jobs, args.repeat)

    print(f"\n{'':40}{'seconds':>9}{'tokens/s':>11}{'documents/s':>13}")
    for name, s in seconds.items():
        print(f"{name:40}{s:9.2f}{tokens / s:11,.0f}{len(texts) / s:13.2f}")
    result = {
        "documents": len(texts),
        "tokens": tokens,
        "seconds": seconds,
        "tokens_per_second": {k: tokens / v for k, v in seconds.items()},
    }
    baseline = seconds.get("transformers pipeline (simple)")
    if baseline:
        result["speedup"] = {}
        for name in seconds:
            if name.startswith("hf-anon"):
                print(f"{name} / pipeline speed: {baseline / seconds[name]:.2f}×")
                result["speedup"][name] = baseline / seconds[name]
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
