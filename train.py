"""Train an hf-anon model: one encoder, span + category + risk heads, with accelerate.

    python train.py --config configs/tiny.yaml
    python train.py --config configs/e5_small.yaml --resume_from_checkpoint latest
    accelerate launch --num_processes 2 --cpu train.py --config configs/tiny.yaml

Every setting of hf_anon.model.training.TrainingConfig can come from the YAML/JSON file or
a flag (flags win). The loop below is the whole training procedure; the pieces it calls
live in hf_anon.model.training.
"""

from __future__ import annotations

import json
import logging
import platform
import shlex
import shutil
import sys
import time
from pathlib import Path

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader
from tqdm.auto import tqdm
from transformers import AutoTokenizer, get_linear_schedule_with_warmup

from hf_anon.distribution.adapter_card import write_adapter_card
from hf_anon.distribution.model_card import write_model_card
from hf_anon.model.training import (
    WindowCollator,
    build_model,
    checkpoints,
    evaluate_model,
    flat_metrics,
    is_better,
    load_documents,
    mergeable,
    optimizer_groups,
    parse_config,
    read_id_files,
    synthetic_documents,
    tiny_random_encoder,
    total_steps,
    unwrapped_documents,
    window_features,
    without_ids,
)
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

logger = logging.getLogger("hf_anon.train")


def main(argv: list[str] | None = None) -> int:
    try:
        config = parse_config(argv)
    except FileNotFoundError as err:  # a corpus not built here: say so, without a traceback
        raise SystemExit(f"train.py: {err}") from None
    if config.save_adapter and config.lora_r <= 0:
        raise SystemExit("train.py: --save_adapter needs LoRA (--lora_r 8, say)")
    output_dir = Path(config.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)  # the log history is written from step 1
    accelerator = Accelerator(
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        mixed_precision=config.mixed_precision,
        log_with=None if config.report_to == "none" else config.report_to,
        project_dir=str(output_dir),
    )
    logging.basicConfig(format="%(asctime)s %(message)s", level=logging.INFO)
    set_seed(config.seed)
    labels = LabelSet.from_file(config.label_set) if config.label_set else DEFAULT_LABELS

    # Data: gold documents → windows with BIO, label and risk targets.
    train_docs = [
        doc
        for path in config.train_files
        for doc in load_documents([path], labels)[: config.max_documents_per_file]
    ]
    train_docs += synthetic_documents(
        config.synthetic_train_documents, seed=config.seed, language=config.language
    )
    if config.exclude_ids_files:
        kept_out = read_id_files(config.exclude_ids_files)
        before = len(train_docs)
        train_docs = without_ids(train_docs, kept_out)
        logging.info("left out of training by id: %d documents", before - len(train_docs))
    train_docs = train_docs[: config.max_train_documents]
    if config.unwrap_lines:  # the model reads texts so (config.unwrap_lines): train on that
        train_docs = unwrapped_documents(train_docs, config.language)
    cap = config.max_eval_documents
    eval_docs = [
        doc
        for path in config.validation_files
        for doc in load_documents([path], labels, split="validation")[:cap]
    ]
    eval_docs += synthetic_documents(
        config.synthetic_validation_documents, seed=config.seed + 1, language=config.language
    )[:cap]
    if not train_docs:
        raise ValueError("no training documents: set train_files or synthetic_train_documents")
    if config.model_name_or_path == "random:tiny":  # smoke tests: a tiny random BERT
        with accelerator.main_process_first():
            encoder_dir = output_dir / "random-encoder"
            if accelerator.is_main_process and not encoder_dir.exists():
                tiny_random_encoder(encoder_dir, [d.text for d in train_docs], seed=config.seed)
        config.model_name_or_path = str(encoder_dir)
    # our saved models carry an auto_map for the model; the tokenizer needs no remote code
    tokenizer = AutoTokenizer.from_pretrained(config.model_name_or_path, trust_remote_code=False)
    with accelerator.main_process_first():
        features = window_features(
            train_docs, tokenizer, labels, max_length=config.max_length, stride=config.stride
        )
    collator = WindowCollator(
        pad_token_id=tokenizer.pad_token_id or 0,
        masking=config.masking,
        mask_token_id=tokenizer.mask_token_id,
        vocab_size=len(tokenizer),
        candidate_probability=config.candidate_probability,
        seed=config.seed + accelerator.process_index,
    )
    train_loader = DataLoader(
        features, shuffle=True, batch_size=config.per_device_train_batch_size, collate_fn=collator
    )

    # Model, optimizer (AdamW) and linear schedule with warm-up (seed 000, 5.4.3).
    model = build_model(config, labels)
    optimizer = torch.optim.AdamW(optimizer_groups(model, config), lr=config.learning_rate)
    steps = total_steps(config, len(train_loader))
    scheduler = get_linear_schedule_with_warmup(optimizer, int(config.warmup_ratio * steps), steps)
    model, optimizer, train_loader, scheduler = accelerator.prepare(
        model, optimizer, train_loader, scheduler
    )
    accelerator.init_trackers("hf-anon", config={k: str(v) for k, v in vars(config).items()})

    # Resume: weights, optimizer, scheduler, RNG states and the position in the data.
    step, best, evaluations_without_gain, seconds_before = 0, None, 0, 0.0
    state_file = output_dir / "trainer_state.json"
    if config.resume_from_checkpoint:
        found = list(checkpoints(output_dir))
        checkpoint = found[-1] if config.resume_from_checkpoint == "latest" and found else None
        checkpoint = checkpoint or Path(config.resume_from_checkpoint)
        if checkpoint.name != "latest":
            accelerator.load_state(str(checkpoint))
            state = json.loads((checkpoint / "trainer_state.json").read_text())
            step, best = state["step"], state["best"]
            evaluations_without_gain = state["evaluations_without_gain"]
            seconds_before = state.get("train_seconds", 0.0)
            logger.info("resumed from %s at step %d", checkpoint, step)

    updates_per_epoch = max(1, len(train_loader) // config.gradient_accumulation_steps)
    started = time.monotonic()

    def train_seconds() -> float:  # wall time of training (and evaluation), over resumes
        return round(seconds_before + time.monotonic() - started, 1)

    progress = tqdm(total=steps, initial=step, disable=not accelerator.is_local_main_process)
    model.train()
    stop = False
    running, running_batches = 0.0, 0
    while step < steps and not stop:
        epoch, done_in_epoch = divmod(step, updates_per_epoch)
        loader = train_loader
        if done_in_epoch:
            skip = done_in_epoch * config.gradient_accumulation_steps
            loader = accelerator.skip_first_batches(train_loader, skip)
        for batch in loader:
            with accelerator.accumulate(model):
                output = model(**batch)
                accelerator.backward(output.loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            running += output.loss.detach().float().item()
            running_batches += 1
            if not accelerator.sync_gradients:
                continue
            step += 1
            progress.update(1)
            if step % config.logging_steps == 0:
                loss = running / running_batches
                progress.set_postfix(loss=f"{loss:.4f}", epoch=epoch)
                lr = scheduler.get_last_lr()[0]
                accelerator.log({"train/loss": loss, "train/lr": lr}, step=step)
                if accelerator.is_main_process:
                    with (output_dir / "log_history.jsonl").open("a") as history:
                        entry = {"step": step, "loss": loss, "lr": lr, "seconds": train_seconds()}
                        history.write(json.dumps(entry) + "\n")
                running, running_batches = 0.0, 0
            if step % config.eval_steps == 0 or step == steps:
                best, evaluations_without_gain = evaluate_and_save(
                    accelerator,
                    model,
                    tokenizer,
                    eval_docs,
                    config,
                    step,
                    train_seconds,
                    best,
                    evaluations_without_gain,
                )
                state = {
                    "step": step,
                    "best": best,
                    "evaluations_without_gain": evaluations_without_gain,
                    "train_seconds": train_seconds(),
                }
                if accelerator.is_main_process:
                    state_file.write_text(json.dumps(state, indent=2))
                patience = config.early_stopping_patience
                if patience and evaluations_without_gain >= patience:
                    logger.info("no gain in %d evaluations: stopping early", patience)
                    stop = True
            if step >= steps or stop:
                break
    progress.close()
    accelerator.wait_for_everyone()
    if accelerator.is_main_process and not (output_dir / "best").exists():
        save_model(accelerator, model, tokenizer, config, output_dir / "best", None)
    accelerator.end_training()
    if accelerator.is_main_process:
        logger.info("best model (%s): %s", config.best_metric, output_dir / "best")
    return 0


def evaluate_and_save(
    accelerator, model, tokenizer, eval_docs, config, step, seconds, best, without_gain
):
    """Checkpoint for resuming; evaluate; keep the best model by the configured metric."""
    output_dir = Path(config.output_dir)
    checkpoint = output_dir / f"checkpoint-{step}"
    accelerator.save_state(str(checkpoint))
    metrics = None
    if accelerator.is_main_process and eval_docs:
        scores = evaluate_model(accelerator.unwrap_model(model), tokenizer, eval_docs, config)
        metrics = flat_metrics(scores)
        accelerator.log({f"eval/{k}": v for k, v in metrics.items()}, step=step)
        logger.info("step %d: %s", step, json.dumps({k: round(v, 4) for k, v in metrics.items()}))
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        info = training_info(accelerator, step, seconds(), config.model_name_or_path)
        scored = metrics and {**metrics, "step": step}
        if metrics is None or is_better(metrics, best, config.best_metric):
            best, without_gain = scored, 0
            save_model(accelerator, model, tokenizer, config, output_dir / "best", best, info)
        else:
            without_gain += 1
        if config.save_each_evaluation:
            save_model(
                accelerator, model, tokenizer, config, output_dir / f"step-{step}", scored, info
            )
        for old in list(checkpoints(output_dir))[:-2]:  # keep the last two checkpoints
            shutil.rmtree(old, ignore_errors=True)
        (checkpoint / "trainer_state.json").write_text(
            json.dumps(
                {
                    "step": step,
                    "best": best,
                    "evaluations_without_gain": without_gain,
                    "train_seconds": seconds(),
                }
            )
        )
    accelerator.wait_for_everyone()
    return best, without_gain


def training_info(accelerator, step: int, seconds: float, start: str = "") -> dict:
    """Where and how long the saved model trained (for the model card); a run that starts
    from a trained hf-anon model also counts the time that model took (``total_seconds``)."""
    import transformers

    device = accelerator.device
    hardware = (
        torch.cuda.get_device_name(device)
        if device.type == "cuda"
        else f"{platform.processor() or platform.machine()} CPU, {torch.get_num_threads()} threads"
    )
    return {
        "command": shlex.join(["python", "train.py", *sys.argv[1:]]),
        "step": step,
        "train_seconds": seconds,
        "total_seconds": seconds + previous_seconds(start),
        "hardware": hardware,
        "num_processes": accelerator.num_processes,
        "mixed_precision": str(accelerator.mixed_precision),
        "versions": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "transformers": transformers.__version__,
        },
    }


def previous_seconds(start: str) -> float:
    """Training time of the hf-anon model a run starts from (0 for a plain encoder)."""
    try:
        info = json.loads((Path(start) / "training_info.json").read_text())
        return float(info.get("total_seconds", info.get("train_seconds", 0)))
    except (OSError, ValueError, TypeError, AttributeError):
        return 0.0


def save_model(accelerator, model, tokenizer, config, path: Path, metrics, info=None) -> None:
    """A plain hf-anon model folder: weights (LoRA merged), tokenizer, training config; with
    ``save_adapter``, the LoRA adapter alone (PEFT) and its card."""
    unwrapped = accelerator.unwrap_model(model)
    if config.save_adapter:
        unwrapped.save_pretrained(str(path), safe_serialization=True)  # adapter + heads
        config.save(path / "training_config.json")
        for name, content in (("eval_results.json", metrics), ("training_info.json", info)):
            if content:
                (path / name).write_text(json.dumps(content, indent=2) + "\n")
        write_adapter_card(path)
        return
    if config.lora_r > 0:
        import copy

        unwrapped = mergeable(copy.deepcopy(unwrapped))
    unwrapped.save_pretrained(str(path), safe_serialization=True)
    tokenizer.save_pretrained(str(path))
    config.save(path / "training_config.json")
    if metrics:
        (path / "eval_results.json").write_text(json.dumps(metrics, indent=2) + "\n")
    if info:
        (path / "training_info.json").write_text(json.dumps(info, indent=2) + "\n")
    write_model_card(path)


if __name__ == "__main__":
    sys.exit(main())
