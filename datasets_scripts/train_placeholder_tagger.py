"""Train the placeholder tagger's head (issue 30, part 3) on published decisions.

    python datasets_scripts/train_placeholder_tagger.py --model models/hf-anon-de-e5-small
    python datasets_scripts/train_placeholder_tagger.py --language ja   # Japanese (issue 34)

Training text, all of it published (anonymized) decisions:

- the keyed placeholders of the real training split (``data/real/train.key.jsonl``: the
  annotators' placeholders, exact) as published and ``--renders`` times re-rendered in
  other courts' shapes (:func:`hf_anon.model.placeholder_tagger.rerender`);
- with ``--masked-copies N``, the exhaustively annotated training split masked ``N``
  times the way courts mask (:mod:`hf_anon.corpora.placeholders.masking`, Japanese
  :mod:`hf_anon.corpora.japanese.masking`), each placeholder with its span's label;
- ``--silver`` decisions of ``../shared/data/real/decisions.jsonl.gz`` outside every
  annotated or keyed selection (gold, training rounds, the by-court placeholder key), with
  the placeholders the rules find, once as published and once re-rendered.

The encoder is frozen: its last hidden states are computed once per token, and a linear
``O``/``B``/``I`` head is fitted on them (full batch, Adam, weighted cross-entropy; the
``O`` tokens subsampled). The threshold on P(inside) is chosen on the real validation key
(``data/real/validation.key.jsonl``) by the tagger's own F1 there, never on the test keys.
The head is saved into the model folder (``placeholder_head.*``), where
:meth:`~hf_anon.model.placeholder_tagger.PlaceholderTagger.from_pretrained` finds it.

``--language ja`` trains the Japanese model's tagger on the keyed placeholders of the real
training precedents (``data/ja/real/train.key.jsonl`` without the calibration, gate and
new-court precedents the span model's training leaves out), re-rendered in Japanese
conventions (:mod:`hf_anon.corpora.japanese.placeholder_shapes`), without silver. Every
setting (threshold, combination threshold, stand-in filter, label head) is chosen on the
*choice keys*: the gold validation key and the calibration and gate precedents' keys (82
precedents); the gold test key and the 24 precedents of new courts are never read here.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from hf_anon.corpora.japanese.masking import mask_japanese_precedent
from hf_anon.corpora.placeholders import placeholder_spans, rule_placeholders, score_placeholders
from hf_anon.corpora.placeholders.masking import mask_decision
from hf_anon.model.alignment import spans_to_token_tags
from hf_anon.model.model_folder import ModelFolder
from hf_anon.model.placeholder_tagger import (
    PlaceholderTagger,
    TaggerConfig,
    build_head,
    build_label_head,
    combine,
    rerender_for,
    span_features,
    stand_in_for,
)
from hf_anon.model.training import read_id_files
from hf_anon.text.data import Span
from hf_anon.text.readers import read_ids

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
JA_GOLD_REPORTS = ROOT / "reports/ja_gold"
#: The precedents the Japanese span model's training leaves out (its configs'
#: ``exclude_ids_files``): calibration, gate and the new courts; none is tagger training.
JA_LEFT_OUT = (
    "session40_district_ids.txt",
    "session42_calibration_ids.txt",
    "session42_new_courts_ids.txt",
    "session43_gate_ids.txt",
)
#: Of those, the ones settings are chosen on (with the gold validation key); the new
#: courts' 24 and the gold test key are for reporting only.
JA_CHOICE = (
    "session40_district_ids.txt",
    "session42_calibration_ids.txt",
    "session43_gate_ids.txt",
)


def read_rows(path: Path, skip: set[str] = frozenset()) -> list[dict]:
    """The rows of a JSON Lines file, those of ``skip`` left out."""
    with Path(path).open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return [r for r in rows if r["id"] not in skip]


def keyed(path: Path, ids: set[str] | None = None, skip: set[str] = frozenset()):
    """(text, placeholders) of a key file's rows, those of ``ids`` only (None: all) and
    none of ``skip``."""
    return [
        (r["text"], [Span(p["start"], p["end"], p["label"]) for p in r["placeholders"]])
        for r in read_rows(path, skip)
        if ids is None or r["id"] in ids
    ]


def training_split(language: str) -> tuple[Path, Path]:
    """The exhaustively annotated training split of ``language`` and its key."""
    folder = ROOT / ("data/ja/real" if language == "ja" else "data/real")
    return folder / "train.jsonl", folder / "train.key.jsonl"


def japanese_keys() -> tuple[list, list]:
    """The Japanese training and choice keys (see the module's docstring)."""
    key = training_split("ja")[1]
    choice_ids = read_id_files([JA_GOLD_REPORTS / name for name in JA_CHOICE])
    choice = keyed(ROOT / "data/ja/gold/validation.key.jsonl") + keyed(key, choice_ids)
    return keyed(key, skip=left_out("ja")), choice


def left_out(language: str) -> set[str]:
    """The precedents no tagger trains on: for Japanese those the span model's training
    leaves out (calibration, gate, new courts); none for German."""
    if language != "ja":
        return set()
    return read_id_files([JA_GOLD_REPORTS / name for name in JA_LEFT_OUT])


def exhaustive_rows(language: str, path: Path | None = None) -> list[dict]:
    """The exhaustively annotated training split of ``language`` (``path``: another file of
    that layout), without what :func:`left_out` names."""
    return read_rows(path or training_split(language)[0], left_out(language))


def masked_gold(
    rows: list[dict], copies: int, rng: random.Random, language: str = "de"
) -> list[tuple[str, list[Span]]]:
    """Each annotated text ``copies`` times as a court would publish it, each copy in a
    convention of its own, every placeholder with the label its span had: exact labels in
    conventions no key has (row by row, copy by copy)."""
    mask = mask_japanese_precedent if language == "ja" else mask_decision
    out = []
    for row in rows:
        spans = [Span(s["start"], s["end"], s["label"], s.get("risk")) for s in row["spans"]]
        out += [mask(row["text"], spans, rng) for _ in range(copies)]
    return out


def excluded_ids() -> set[str]:
    """Every annotated or keyed decision: none of them is silver for the heads."""
    return read_ids((ROOT / "data/real").glob("*/selection.jsonl"))


def unselected(n: int, max_chars: int, rng: random.Random) -> list[dict]:
    """``n`` shared published decisions (seeded draw) outside every annotated or keyed
    selection and at most ``max_chars`` long: the silver of both taggers."""
    source = SHARED / "real" / "decisions.jsonl.gz"
    if not source.exists():
        print(f"note: {source} is missing; training without silver", file=sys.stderr)
        return []
    skip = excluded_ids()
    with gzip.open(source, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    rows = [r for r in rows if r["id"] not in skip and len(r["text"]) <= max_chars]
    rng.shuffle(rows)
    return rows[:n]


def silver(n: int, max_chars: int, rng: random.Random) -> list[tuple[str, list[Span]]]:
    out = []
    for r in unselected(n, max_chars, rng):
        spans = [Span(s.start, s.end, "nat-name") for s in placeholder_spans(r["text"])]
        out.append((r["text"], spans))
    return out


def features(
    tagger, docs, o_keep: float, rng: np.random.Generator, names: list[str], keyed: int,
    hard_negatives: bool = False,
):  # fmt: skip
    """One pass of the encoder over ``docs``: the tag head's tokens (every placeholder
    token, ``o_keep`` of the others, and with ``hard_negatives`` every other token that
    looks like a stand-in: a letter of a word, an outline mark) with their weights (a
    subsampled token stands for ``1 / o_keep``), and, for the first ``keyed`` docs (whose
    labels are the annotators'), one label example per placeholder (its features, its
    label's index)."""
    stand_in = stand_in_for(tagger.config.language)
    xs, ys, ws, lxs, lys = [], [], [], [], []
    for k, (text, spans) in enumerate(tqdm(docs, desc="features", unit="doc")):
        ((offsets, hidden, _),) = tagger.encode([text])
        tags, _, _ = spans_to_token_tags(offsets, [Span(s.start, s.end, "nat-name") for s in spans])
        hard = np.zeros(len(tags), dtype=bool)
        if hard_negatives:
            hard = np.array([e > s and stand_in(text[s:e]) for s, e in offsets], dtype=bool)
            hard &= tags == 0
        sampled = (tags == 0) & ~hard & (rng.random(len(tags)) < o_keep)
        keep = (tags > 0) | hard | sampled
        xs.append(hidden[keep].astype(np.float32))
        ys.append(tags[keep])
        ws.append(np.where(sampled, 1.0 / o_keep, 1.0)[keep].astype(np.float32))
        for span in spans if k < keyed else ():
            lxs.append(span_features(offsets, hidden, span))
            lys.append(names.index(span.label))
    return (
        np.concatenate(xs),
        np.concatenate(ys),
        np.concatenate(ws),
        np.stack(lxs),
        np.asarray(lys),
    )


def fit_labels(x, y, config: TaggerConfig, epochs: int, seed: int) -> nn.Module:
    torch.manual_seed(seed)
    head = build_label_head(config)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    optimizer = torch.optim.Adam(head.parameters(), lr=1e-3, weight_decay=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(epochs):
        perm = torch.randperm(len(yt))
        for k in range(0, len(perm), 256):
            idx = perm[k : k + 256]
            optimizer.zero_grad()
            loss_fn(head(xt[idx]), yt[idx]).backward()
            optimizer.step()
    return head.eval()


def label_accuracy(tagger, validation, encoded, scope: str | None) -> float:
    """Label accuracy of the rules' placeholders on the validation key: cue labels
    (``scope=None``), or the tagger's labels for the guessed ones or for all."""
    triples = []
    for (text, key), encoding in zip(validation, encoded, strict=True):
        placeholders = rule_placeholders(text, tagger.config.language)
        spans = (
            [p.to_span() for p in placeholders]
            if scope is None
            else tagger.relabel(placeholders, encoding, scope)
        )
        triples.append((text, key, spans))
    return score_placeholders(triples).label_accuracy


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, config: TaggerConfig, epochs: int, seed: int):
    """Fit the head; each token weighs ``w`` (a subsampled ``O`` token ``1 / o_keep``, to
    undo the subsampling, so that the probabilities keep the true share of placeholder
    tokens)."""
    torch.manual_seed(seed)
    head = build_head(config)
    xt, yt = torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y.astype(np.int64))
    wt = torch.from_numpy(w.astype(np.float32))
    loss_fn = nn.CrossEntropyLoss(reduction="none")
    optimizer = torch.optim.Adam(head.parameters(), lr=3e-3, weight_decay=1e-4)
    for epoch in range(epochs):
        perm = torch.randperm(len(yt))
        total = 0.0
        for k in range(0, len(perm), 8192):
            idx = perm[k : k + 8192]
            optimizer.zero_grad()
            loss = (loss_fn(head(xt[idx]), yt[idx]) * wt[idx]).sum() / wt[idx].sum()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == epochs - 1:
            print(f"epoch {epoch}: loss {total / len(yt):.4f}")
    return head


def choose_combination(tagger, choice, encoded) -> dict:
    """The combination threshold, stand-in filter and rule veto of ``both`` with the best F1
    on the choice keys (Japanese; the German ones were chosen on the third key, issue 30)."""
    rules = [[p.to_span() for p in rule_placeholders(t, tagger.config.language)] for t, _ in choice]
    runs = {
        "rules": score_placeholders([(t, k, r) for (t, k), r in zip(choice, rules, strict=True)])
    }
    settings = {}  # run name -> (combination threshold, stand-ins only, rule veto)
    for stand_in, veto in itertools.product((False, True), (False, True)):
        tagger.config.stand_in_only, tagger.config.rule_veto = stand_in, veto
        for threshold in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98):
            triples = [
                (text, key, combine(found, tagger.tagged(text, encoding, threshold)))
                for (text, key), found, encoding in zip(choice, rules, encoded, strict=True)
            ]
            name = f"both {threshold} stand-in {stand_in} veto {veto}"
            runs[name], settings[name] = score_placeholders(triples), (threshold, stand_in, veto)
    for name, scores in runs.items():
        print(f"{name}: P {scores.precision:.4f} R {scores.recall:.4f} F1 {scores.f1:.4f}")
    best = max(settings, key=lambda n: runs[n].f1)
    tagger.config.combine_threshold, tagger.config.stand_in_only, tagger.config.rule_veto = (
        settings[best]
    )
    print(f"chosen: {best}")
    return {n: {"precision": v.precision, "recall": v.recall, "f1": v.f1} for n, v in runs.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="default: the bundled model of --language")
    parser.add_argument("--language", choices=("de", "ja"), default="de")
    parser.add_argument("--output", help="folder for the head (default: the model folder)")
    parser.add_argument("--renders", type=int, default=2)
    parser.add_argument(
        "--masked-copies", type=int, default=0,
        help="the language's exhaustive training split masked this many times, as courts mask",
    )  # fmt: skip
    parser.add_argument("--silver", type=int, default=120)
    parser.add_argument("--silver-max-chars", type=int, default=20000)
    parser.add_argument("--o-keep", type=float, default=0.15)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--head-units", type=int, default=256, help="0: a linear head")
    parser.add_argument("--label-units", type=int, default=256)
    parser.add_argument("--label-epochs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--cache", help="an .npz file for the features (reused when it exists)")
    parser.add_argument(
        "--hard-negatives", action="store_true",
        help="keep every non-placeholder token that looks like a stand-in, not o-keep of them",
    )  # fmt: skip
    parser.add_argument("--choices-json", help="with --language ja: the choice runs' scores")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    rng = random.Random(args.seed)
    ja = args.language == "ja"
    args.model = args.model or str(ROOT / f"models/hf-anon-{args.language}-e5-small")
    folder = ModelFolder(args.model)
    model = folder.load_model()
    config = TaggerConfig(model.encoder.config.hidden_size, language=args.language)
    tagger = PlaceholderTagger(model, folder.load_tokenizer(), None, config)  # head: fitted below
    rerender = rerender_for(args.language)
    if ja:
        train, validation = japanese_keys()
    else:
        train = keyed(training_split("de")[1])
        validation = keyed(ROOT / "data/real/validation.key.jsonl")
    docs = list(train)
    for _ in range(args.renders):
        docs += [rerender(text, spans, rng) for text, spans in train]
    if args.masked_copies:
        rows = exhaustive_rows(args.language)
        docs += masked_gold(rows, args.masked_copies, rng, args.language)
    silver_docs = []
    for text, spans in [] if ja else silver(args.silver, args.silver_max_chars, rng):
        silver_docs += [(text, spans), rerender(text, spans, rng)]
    docs += silver_docs
    names = list(tagger.labels.names)
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        with np.load(cache) as data:
            x, y, w, lx, ly = data["x"], data["y"], data["w"], data["lx"], data["ly"]
    else:
        keyed_docs = len(docs) - len(silver_docs)  # labels exact; the silver after: none
        x, y, w, lx, ly = features(
            tagger, docs, args.o_keep, np.random.default_rng(args.seed), names, keyed_docs,
            args.hard_negatives,
        )  # fmt: skip
        if cache is not None:
            np.savez(cache, x=x, y=y, w=w, lx=lx, ly=ly)
    print(f"{len(docs)} texts, {len(y):,} tokens kept ({int((y > 0).sum()):,} in placeholders)")
    tagger.config.head_units = args.head_units
    tagger.head = fit(x, y, w, tagger.config, args.epochs, args.seed).eval()

    encoded = tagger.encode([text for text, _ in validation])
    best = None
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        tagger.config.threshold = threshold
        triples = [
            (text, key, tagger.spans_from(text, offsets, tagger.tag_probabilities(hidden), labels))
            for (text, key), (offsets, hidden, labels) in zip(validation, encoded, strict=True)
        ]
        scores = score_placeholders(triples)
        print(
            f"threshold {threshold}: P {scores.precision:.3f} R {scores.recall:.3f} "
            f"F1 {scores.f1:.3f}"
        )
        if best is None or scores.f1 > best[1]:
            best = (threshold, scores.f1)
    tagger.config.threshold = best[0]

    # The label head: keyed placeholders of the training split, as published and re-rendered.
    tagger.config.label_head_units, tagger.config.label_names = args.label_units, tuple(names)
    tagger.label_head = fit_labels(lx, ly, tagger.config, args.label_epochs, args.seed)
    choices = {"cues": None, "guessed": "guessed", "all": "all"}
    category_head, tagger.label_head = tagger.label_head, None
    accuracy = {"category head, guessed": label_accuracy(tagger, validation, encoded, "guessed")}
    tagger.label_head = category_head
    for name, scope in choices.items():
        accuracy[name if scope is None else f"label head, {name}"] = label_accuracy(
            tagger, validation, encoded, scope
        )
    print("validation label accuracy:", {k: round(v, 4) for k, v in accuracy.items()})
    best_label = max(accuracy, key=accuracy.get)
    if best_label.startswith("label head"):
        tagger.config.label_scope = best_label.split(", ")[1]
    else:
        tagger.label_head, tagger.config.label_head_units = None, 0
        tagger.config.label_scope = "guessed"
    print(f"labels: {best_label}")
    if ja:
        runs = choose_combination(tagger, validation, encoded)
        if args.choices_json:
            Path(args.choices_json).write_text(json.dumps(runs, indent=1) + "\n")
    out = Path(args.output or args.model)
    out.mkdir(parents=True, exist_ok=True)
    tagger.save_head(out)
    print(f"threshold {best[0]} (validation F1 {best[1]:.3f}); head saved to {out} "
          f"in {time.perf_counter() - began:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
