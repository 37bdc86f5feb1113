"""Tune the placeholder tagger's encoder (issue 30, part 3): LoRA, an accelerate loop.

    python datasets_scripts/tune_placeholder_tagger.py --output runs/placeholder-tuned
    python datasets_scripts/tune_placeholder_tagger.py --output runs/placeholder-tuned --resume

The frozen tagger (``train_placeholder_tagger.py``) fits a head on the span model's hidden
states; it finds what the shapes it saw look like. This one tunes the encoder itself (a
LoRA adapter, PEFT) with a ``O``/``B``/``I`` head and a per-token label head, on three
kinds of published text, none of it from a key:

- the **real training split masked the way courts mask**
  (:func:`hf_anon.corpora.placeholders.masking.mask_decision`): every span of the 463
  exhaustively annotated decisions may become a placeholder in one of 17 conventions, with
  the label it hides: the tagger learns *a removed reference in context*, and its label;
- the same decisions **as their courts published them** (``data/real/train.key.jsonl``,
  the annotators' placeholders), once as published and once re-rendered
  (:func:`~hf_anon.model.placeholder_tagger.rerender`);
- ``--silver`` published decisions outside every selection and key with the rules'
  placeholders (their labels where a cue decided, else no label target).

Windows with no placeholder are kept with ``--keep-empty`` chance (they teach what is *not*
one: tables, exhibits, statute letters). Checkpoints every ``--save-every`` steps;
``--resume`` goes on from the last. At the end the threshold on P(inside) and the
label scope are chosen on the real validation key, never on the test keys, and the folder
(``--output``: a copy of ``--model`` with the tagger's files) is what
``PlaceholderTagger.from_pretrained`` and ``benchmarks/placeholder_eval.py --model`` read.

``--language ja`` (issue 34) tunes the Japanese model's tagger: the exhaustively annotated
training precedents (``data/ja/real/train.jsonl`` without the calibration, gate and
new-court precedents the span model's training leaves out) masked in Japanese conventions
(:func:`hf_anon.corpora.japanese.masking.mask_japanese_precedent`), their keys as published
and re-rendered, no silver; the windows are read as the Japanese span model reads (through a
PDF's wrapped line ends). Every setting, the combination with the rules included, is chosen
on the 82 choice precedents (``train_placeholder_tagger.choose_combination``); the gold test
key and the new courts' are never read here.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path

from train_placeholder_tagger import (
    choose_combination,
    exhaustive_rows,
    japanese_keys,
    keyed,
    left_out,
    masked_gold,
    read_rows,
    training_split,
    unselected,
)

from hf_anon.corpora.placeholders import (
    find_placeholders,
    rule_placeholders,
    score_placeholders,
)
from hf_anon.model.model_folder import ModelFolder
from hf_anon.model.placeholder_tagger import (
    HEAD_CONFIG,
    HEAD_WEIGHTS,
    LABEL_HEAD_WEIGHTS,
    TOKEN_LABEL_WEIGHTS,
    PlaceholderTagger,
    TaggerConfig,
    rerender_for,
)
from hf_anon.model.placeholder_tuning import TuningConfig, save_tuned, training_windows, tune
from hf_anon.text.data import Document, Span

ROOT = Path(__file__).resolve().parents[1]
TAGGER_FILES = (HEAD_CONFIG, HEAD_WEIGHTS, LABEL_HEAD_WEIGHTS, TOKEN_LABEL_WEIGHTS)


def masked_documents(
    rows: list[dict], copies: int, rng: random.Random, language: str = "de"
) -> list[Document]:
    """:func:`train_placeholder_tagger.masked_gold` as documents named by row and copy."""
    masked = masked_gold(rows, copies, rng, language)
    names = [f"{row['id']}#mask{k}" for row in rows for k in range(copies)]
    return [Document(n, text, spans) for n, (text, spans) in zip(names, masked, strict=True)]


def published(rows: list[dict], rng: random.Random, language: str = "de") -> list[Document]:
    """The courts' own placeholders, as published and re-rendered in other shapes."""
    rerender = rerender_for(language)
    out = []
    for row in rows:
        spans = [Span(p["start"], p["end"], p["label"]) for p in row["placeholders"]]
        out.append(Document(f"{row['id']}#published", row["text"], spans))
        text, moved = rerender(row["text"], spans, rng)
        out.append(Document(f"{row['id']}#rerendered", text, moved))
    return out


def silver(n: int, max_chars: int, rng: random.Random) -> list[Document]:
    """Published decisions outside every selection, with the rules' placeholders (their
    labels where a cue decided)."""
    out = []
    for r in unselected(n, max_chars, rng) if n else []:
        spans = [
            Span(p.start, p.end, "unknown" if p.guessed else p.label)
            for p in find_placeholders(r["text"])
        ]
        out.append(Document(f"{r['id']}#silver", r["text"], spans))
    return out


def relative(value):
    """A path argument relative to the repository, so the record says nothing of this machine."""
    if isinstance(value, str) and value.startswith(str(ROOT)):
        return str(Path(value).relative_to(ROOT))
    return value


def choose(tagger: PlaceholderTagger, out: Path, validation: list[tuple[str, list[Span]]]) -> dict:
    """Threshold and label scope on the real validation key (its figures are optimistic);
    Japanese: on the choice keys, and the combination with the rules too."""
    language = tagger.config.language
    encoded = tagger.encode([text for text, _ in validation])
    scores = {}
    for stand_in_only in (False, True):
        tagger.config.stand_in_only = stand_in_only
        for threshold in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
            triples = [
                (text, key, tagger.tagged(text, encoding, threshold))
                for (text, key), encoding in zip(validation, encoded, strict=True)
            ]
            s = score_placeholders(triples)
            scores[(stand_in_only, threshold)] = s.f1
            print(f"stand-ins only {stand_in_only}, threshold {threshold}: P {s.precision:.3f} "
                  f"R {s.recall:.3f} F1 {s.f1:.3f} labels {s.label_accuracy:.3f}")  # fmt: skip
    tagger.config.stand_in_only, tagger.config.threshold = max(scores, key=scores.get)
    accuracy = {}
    for scope in ("guessed", "all"):
        triples = [
            (text, key, tagger.relabel(rule_placeholders(text, language), encoding, scope))
            for (text, key), encoding in zip(validation, encoded, strict=True)
        ]
        accuracy[scope] = score_placeholders(triples).label_accuracy
    tagger.config.label_scope = max(accuracy, key=accuracy.get)
    print(f"label accuracy of the rules' placeholders by scope: {accuracy}")
    chosen = {
        "threshold": tagger.config.threshold,
        "stand_in_only": tagger.config.stand_in_only,
        "f1": {f"{gate} {threshold}": f1 for (gate, threshold), f1 in scores.items()},
        "label_scope": accuracy,
    }
    if language == "ja":  # the German combination is chosen on the third key (issue 30)
        chosen["combination"] = choose_combination(tagger, validation, encoded)
        chosen["combine_threshold"] = tagger.config.combine_threshold
    tagger.save_head(out)
    return chosen


def fill_defaults(args: argparse.Namespace) -> None:
    """The model, output and data paths of ``--language`` where none was given."""
    ja = args.language == "ja"
    train, key = training_split(args.language)
    args.model = args.model or str(ROOT / f"models/hf-anon-{args.language}-e5-small")
    args.output = args.output or str(
        ROOT / ("runs/placeholder-tuned-ja" if ja else "runs/placeholder-tuned")
    )
    args.train = args.train or str(train)
    args.train_key = args.train_key or str(key)
    if ja and args.silver:
        raise SystemExit("--silver is German only: Japanese tuning has no silver decisions")
    args.silver = 0 if ja else 80 if args.silver is None else args.silver
    if not ja:
        args.validation_key = args.validation_key or str(ROOT / "data/real/validation.key.jsonl")
    elif args.validation_key:
        raise SystemExit(
            "--validation-key is German only: Japanese settings are chosen on the choice keys"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="default: the bundled model of --language")
    parser.add_argument("--language", choices=("de", "ja"), default="de")
    parser.add_argument("--output", help="default: runs/placeholder-tuned[-ja]")
    parser.add_argument("--masked-copies", type=int, default=2)
    parser.add_argument("--silver", type=int, help="German silver decisions (default 80)")
    parser.add_argument("--silver-max-chars", type=int, default=20000)
    parser.add_argument("--keep-empty", type=float, default=0.05)
    parser.add_argument("--max-windows", type=int, default=0, help="0: every window")
    parser.add_argument("--train", help="default: the language's exhaustive training split")
    parser.add_argument("--train-key", help="default: that split's key")
    parser.add_argument(
        "--validation-key", help="German: the key chosen on (Japanese: the choice keys)"
    )
    defaults = TuningConfig()
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--lora-r", type=int, default=defaults.lora_r)
    parser.add_argument("--save-every", type=int, default=defaults.save_every)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--resume", action="store_true", help="go on from OUTPUT/checkpoint")
    parser.add_argument("--choose-only", action="store_true", help="only choose the threshold")
    args = parser.parse_args(argv)

    began = time.perf_counter()
    ja = args.language == "ja"
    fill_defaults(args)
    out = Path(args.output)
    if not (out / "config.json").exists():
        shutil.copytree(ModelFolder(args.model).source, out, dirs_exist_ok=True)
        for name in TAGGER_FILES:
            (out / name).unlink(missing_ok=True)
    validation = japanese_keys()[1] if ja else keyed(Path(args.validation_key))
    if args.choose_only:
        print(json.dumps(choose(PlaceholderTagger.from_pretrained(out), out, validation)))
        return 0
    folder = ModelFolder(out)
    model = folder.load_model()
    reads = TaggerConfig(model.encoder.config.hidden_size, 0, language=args.language)
    tagger = PlaceholderTagger(model, folder.load_tokenizer(), None, reads)
    config = TuningConfig(
        epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, lora_r=args.lora_r,
        save_every=args.save_every, seed=args.seed,
    )  # fmt: skip
    rng = random.Random(args.seed)
    rows = exhaustive_rows(args.language, Path(args.train))
    key_rows = read_rows(Path(args.train_key), left_out(args.language))
    docs = masked_documents(rows, args.masked_copies, rng, args.language)
    docs += published(key_rows, rng, args.language)
    docs += [] if ja else silver(args.silver, args.silver_max_chars, rng)
    windows = training_windows(
        docs, tagger.tokenizer, tagger.labels, keep_empty=args.keep_empty, rng=rng,
        language=args.language, unwrap_lines=bool(getattr(model.config, "unwrap_lines", False)),
    )  # fmt: skip
    if args.max_windows and len(windows) > args.max_windows:
        windows = rng.sample(windows, args.max_windows)
    inside = sum(sum(t > 0 for t in w.tags) for w in windows)
    print(f"{len(docs)} texts, {len(windows)} windows, {inside:,} placeholder tokens")
    tuned = tune(tagger, windows, config, out / "checkpoint", resume=args.resume)
    save_tuned(out, tuned, tagger)
    chosen = choose(PlaceholderTagger.from_pretrained(out), out, validation)
    info = {
        "args": {k: relative(v) for k, v in vars(args).items()},
        "tuning": asdict(config),
        "texts": len(docs),
        "windows": len(windows),
        "seconds": round(time.perf_counter() - began),
        **chosen,
    }
    (out / "placeholder_tuning.json").write_text(json.dumps(info, indent=2) + "\n")
    print(f"tagger saved to {out} in {info['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
