"""Peak memory of ``hf-anon anonymize`` on large JSON Lines files (issue 15).

    python benchmarks/memory_bench.py [--sizes 1 20 200] [--model M | --tiny]
        [--backend torch] [--keep DIR]
    python benchmarks/memory_bench.py --sizes --document 2.3 [--backend torch]

Writes a JSON Lines file of synthetic decisions (:mod:`hf_anon.corpora.synthetic`, ids
numbered, about ``--sizes`` megabytes each), runs ``hf-anon anonymize --mode label`` on it
in a child process and prints the child's peak resident memory (``ru_maxrss`` from
``os.wait4``), its wall time and whether every document has its output line.

The command streams JSON Lines and works in chunks (``hf_anon.apply.batch.CHUNK_DOCUMENTS``), so
the peak should not grow with the file: the target is below about 2 GB at 200 MB.
``--tiny`` runs a small random model built on the spot (the pipeline's memory without the
cost of the real model: 200 MB with the default model take hours on a laptop CPU); the
default is the bundled model. ``--document MB`` also measures one ``.txt`` decision of that
size (decisions joined into one text: a single long document is windowed, not chunked).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def write_corpus(path: Path, megabytes: float, seed: int = 0) -> int:
    """A JSON Lines file of about ``megabytes`` MB; returns its number of documents."""
    from hf_anon.corpora.synthetic import generate_documents

    texts = [d.text for d in generate_documents(200, seed=seed)]
    target = int(megabytes * 1_000_000)
    written = count = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < target:
            line = json.dumps({"id": f"d{count}", "text": texts[count % len(texts)]})
            handle.write(line + "\n")
            written += len(line.encode("utf-8")) + 1
            count += 1
    return count


def write_document(path: Path, megabytes: float, seed: int = 0) -> None:
    """One ``.txt`` of about ``megabytes`` MB: synthetic decisions joined."""
    from hf_anon.corpora.synthetic import generate_documents

    texts = [d.text for d in generate_documents(100, seed=seed)]
    parts, size, i = [], 0, 0
    while size < megabytes * 1_000_000:
        parts.append(texts[i % len(texts)] + "\n\n")
        size += len(parts[-1].encode("utf-8"))
        i += 1
    path.write_text("".join(parts), encoding="utf-8")


def tiny_model(folder: Path) -> Path:
    """A small random hf-anon model (seconds to build, no download)."""
    from transformers import AutoTokenizer

    from hf_anon.corpora.synthetic import generate_documents
    from hf_anon.model.modeling import AnonModel
    from hf_anon.model.training import tiny_random_encoder
    from hf_anon.text.labels import DEFAULT_LABELS

    texts = [d.text for d in generate_documents(20)]
    encoder = tiny_random_encoder(folder / "encoder", texts, vocab_size=2000)
    model = AnonModel.from_encoder(
        str(encoder),
        DEFAULT_LABELS.names,
        list(DEFAULT_LABELS.risks),
        label_set=DEFAULT_LABELS.to_dict(),
    )
    model.save_pretrained(folder / "model")
    AutoTokenizer.from_pretrained(str(encoder)).save_pretrained(folder / "model")
    return folder / "model"


def measure(jsonl: Path, out: Path, model: str | None, backend: str | None) -> tuple[int, float]:
    """Peak RSS (bytes) and seconds of one ``hf-anon anonymize`` child process."""
    command = [sys.executable, "-m", "hf_anon.cli", "anonymize", str(jsonl)]
    command += ["--output", str(out), "--mode", "label", "--no-progress"]
    if model:
        command += ["--model", model]
    if backend:
        command += ["--backend", backend]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    error = child.stderr.read().decode("utf-8", "replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"hf-anon anonymize failed:\n{error}")
    return usage.ru_maxrss * 1024, seconds  # Linux reports kilobytes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", nargs="*", type=float, default=[1, 20, 200], help="MB")
    parser.add_argument("--document", type=float, metavar="MB", help="one .txt of this size")
    parser.add_argument("--model", help="model folder or hub id (default: the bundled one)")
    parser.add_argument("--tiny", action="store_true", help="a small random model instead")
    parser.add_argument("--backend", help="torch, onnx, onnx-int8 (default: the CLI's)")
    parser.add_argument("--keep", type=Path, help="keep the files in this folder")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        model = str(tiny_model(root / "tiny")) if args.tiny else args.model
        print(f"model: {model or 'bundled default'}; backend: {args.backend or 'default'}")
        print("| input | documents | peak RSS | seconds | outputs complete |")
        print("|---|---|---|---|---|")
        ok = True
        for size in args.sizes:
            jsonl = root / f"corpus-{size:g}mb.jsonl"
            documents = write_corpus(jsonl, size)
            out = root / f"out-{size:g}mb"
            rss, seconds = measure(jsonl, out, model, args.backend)
            with (out / jsonl.name).open(encoding="utf-8") as handle:
                complete = sum(1 for _ in handle) == documents
            ok &= complete
            print(
                f"| {jsonl.stat().st_size / 1e6:.0f} MB | {documents:,} | "
                f"{rss / 2**20:,.0f} MiB | {seconds:,.0f} | {'yes' if complete else 'NO'} |",
                flush=True,
            )
        if args.document:
            single = root / "decision.txt"
            write_document(single, args.document)
            out = root / "out-document"
            rss, seconds = measure(single, out, model, args.backend)
            complete = (out / single.name).stat().st_size > 0
            ok &= complete
            print(
                f"| one .txt of {single.stat().st_size / 1e6:.1f} MB | 1 | {rss / 2**20:,.0f} MiB "
                f"| {seconds:,.0f} | {'yes' if complete else 'NO'} |",
                flush=True,
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
