"""Recall of int8 variants against float32 on gold sets: which matrices may be int8?

    python benchmarks/int8_recall.py [--model models/hf-anon-de-e5-small]
        [--gold dev=../shared/data/dev/gold.jsonl real-validation=data/real/validation.jsonl]

Exports the model once in float32 and once per int8 variant (ONNX Runtime dynamic
quantization, :func:`hf_anon.model.backends.onnx.export_onnx` with ``keep_float``: the nodes left
in float32), decodes every gold set with each, and prints lenient precision, recall and
high-risk recall. The default backend must keep float32's recall within 0.005 overall and
on high-risk spans (issue 19); this script is how the int8 figures
of docs/anonymization.md (Speed) were made.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADS = r"(span|label|risk)_head/"
#: name → nodes kept in float32 (None: no quantization)
VARIANTS = {
    "float32": None,
    "int8 (heads float32: the --quantize default)": HEADS,
    "int8, feed-forward and attention outputs float32": HEADS + r"|output/dense",
    "int8, last two layers float32": HEADS + r"|layer\.[45]/",
    "int8, attention float32": HEADS + r"|attention/",
    "int8 only in the feed-forward input matrices": r"^(?!.*intermediate)",
}


def main(argv: list[str] | None = None) -> int:
    from hf_anon.apply.report import score_kept
    from hf_anon.model.backends.onnx import OnnxEncoderModel, export_onnx
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.model_folder import ModelFolder
    from hf_anon.text.data import load_jsonl

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--model", default=str(REPO / "models" / "hf-anon-de-e5-small"))
    parser.add_argument(
        "--gold",
        nargs="+",
        default=[
            f"dev={REPO.parent / 'shared' / 'data' / 'dev' / 'gold.jsonl'}",
            f"real-validation={REPO / 'data' / 'real' / 'validation.jsonl'}",
        ],
        metavar="NAME=FILE",
    )
    args = parser.parse_args(argv)
    sets = {}
    for item in args.gold:
        name, _, path = item.partition("=")
        if not Path(path).is_file():
            print(f"{name}: {path} not found, skipped", file=sys.stderr)
            continue
        sets[name] = load_jsonl(path)
    if not sets:
        raise SystemExit("no gold set found")
    folder = ModelFolder(args.model)
    model, tokenizer = folder.load_model(), folder.load_tokenizer()
    print("| variant | " + " | ".join(f"{n} P / R / high" for n in sets) + " |")
    print("|---|" + "---|" * len(sets))
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, keep) in enumerate(VARIANTS.items()):
            path = Path(tmp) / f"v{i}.onnx"
            quantize = keep is not None
            export_onnx(
                model, path, quantize=quantize, keep_float=re.compile(keep) if keep else None
            )
            detector = SpanDetector(OnnxEncoderModel(path, folder.config), tokenizer)
            cells = []
            for docs in sets.values():
                found = detector.detect(docs)
                keep_labels = {s.label for d in docs for s in d.spans}
                scores, _ = score_kept(docs, found, keep_labels, detector.labels)
                high = scores.recall_by_risk.get("high", 1.0)
                cells.append(
                    f"{scores.lenient.precision:.3f} / {scores.lenient.recall:.3f} / {high:.3f}"
                )
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
