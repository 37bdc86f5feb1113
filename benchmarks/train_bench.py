"""Training-step throughput and peak memory for a base model.

    python benchmarks/train_bench.py --model base_models/e5-small-8l-32k --length 256 --batch 16
    python benchmarks/train_bench.py --model random:tiny     # no files needed

Times forward + backward + AdamW step of the hf-anon model (span, label and risk heads)
on random token windows, after warm-up steps, and prints tokens/s and peak memory: on
CPU always (embeddings frozen, fp32, as train.py does by default), and on the GPU in
bf16 when one is present.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time

import torch

from hf_anon.model.modeling import AnonModel
from hf_anon.model.training import tiny_random_encoder
from hf_anon.text.labels import DEFAULT_LABELS


def build(model_path: str, layers: int | None) -> AnonModel:
    if model_path == "random:tiny":
        model_path = str(tiny_random_encoder(tempfile.mkdtemp(), ["Herr A. wohnt in B."] * 20))
    model = AnonModel.from_encoder(
        model_path, DEFAULT_LABELS.names, list(DEFAULT_LABELS.risks), num_hidden_layers=layers
    )
    for parameter in model.encoder.get_input_embeddings().parameters():
        parameter.requires_grad = False
    return model


def measure(model, device: str, length: int, batch: int, steps: int, warmup: int, dtype=None):
    model.to(device).train()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
    vocab = model.encoder.config.vocab_size
    ids = torch.randint(5, vocab, (batch, length), device=device)
    tags = torch.randint(0, 3, (batch, length), device=device)
    labels = torch.randint(0, len(DEFAULT_LABELS), (batch, length), device=device)
    risks = torch.randint(0, 3, (batch, length), device=device)
    mask = torch.ones_like(ids)

    def step():
        with torch.autocast(
            device_type=device.split(":")[0], dtype=dtype, enabled=dtype is not None
        ):
            loss = model(
                input_ids=ids, attention_mask=mask, span_tags=tags, label_ids=labels, risk_ids=risks
            ).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

    for _ in range(warmup):
        step()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    began = time.perf_counter()
    for _ in range(steps):
        step()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    seconds = (time.perf_counter() - began) / steps
    if device.startswith("cuda"):
        peak = torch.cuda.max_memory_allocated() / 2**20
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # process peak RSS
    return batch * length / seconds, seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="random:tiny")
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument("--length", type=int, default=256)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2)
    args = parser.parse_args()
    model = build(args.model, args.layers)
    params = sum(p.numel() for p in model.parameters())
    print(
        f"model {args.model}: {params / 1e6:.1f}M parameters, "
        f"{model.encoder.config.num_hidden_layers} layers; "
        f"batch {args.batch} x {args.length} tokens"
    )
    rate, seconds, peak = measure(model, "cpu", args.length, args.batch, args.steps, args.warmup)
    print(
        f"cpu  fp32: {rate:8.0f} tokens/s  {seconds:6.2f} s/step  peak RSS {peak:7.0f} MiB "
        f"({torch.get_num_threads()} threads)"
    )
    if torch.cuda.is_available():
        rate, seconds, peak = measure(
            model, "cuda", args.length, args.batch, args.steps * 4, args.warmup, torch.bfloat16
        )
        print(
            f"cuda bf16: {rate:8.0f} tokens/s  {seconds:6.3f} s/step  peak {peak:7.0f} MiB "
            f"({torch.cuda.get_device_name()})"
        )


if __name__ == "__main__":
    main()
