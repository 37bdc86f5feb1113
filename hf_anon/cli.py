"""The ``hf-anon`` command line.

Sub-commands are a stable contract (external checks call them): add options, never
rename or remove them. Invalid input ends with exit code 2 and a one-line message.

Each sub-command is a ``cmd_<name>`` function and an ``add_<name>_parser`` beside it
that registers its options; :data:`PARSERS` lists them. ``anonymize`` lives in
:mod:`hf_anon.batch`, ``topics`` in :mod:`hf_anon.topics.cli` and ``base-model`` in
:mod:`hf_anon.corpora.base_models.cli`; the flags several commands share are in
:mod:`hf_anon.arguments`, the input files are read by :mod:`hf_anon.readers`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon import __version__
from hf_anon.arguments import (
    add_backend_arguments,
    add_decoding_arguments,
    add_language_argument,
    add_progress_argument,
    add_recognizer_arguments,
    decoding_kwargs,
    recognizer_choice,
)
from hf_anon.batch import add_anonymize_parser
from hf_anon.corpora.base_models import add_base_model_parser
from hf_anon.corpora.placeholders import (
    UNKNOWN,
    DetectorScores,
    placeholder_spans,
    score_placeholders,
)
from hf_anon.data import Document, ValidationError, load_jsonl, parse_document, save_jsonl
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.metrics import score_documents
from hf_anon.readers import InputError, read_jsonl_texts
from hf_anon.topics.cli import add_topics_parser

EXIT_INVALID_INPUT = 2


def _load_label_set(path: str | None) -> LabelSet:
    if path is None:
        return DEFAULT_LABELS
    try:
        return LabelSet.from_file(path)
    except (OSError, ValueError) as err:
        raise InputError(f"cannot load label set {path}: {err}") from None


def _load(path: str, labels: LabelSet, *, require_risk: bool, spans_key: str = "spans"):
    try:
        return load_jsonl(
            path,
            labels,
            require_risk=require_risk,
            spans_key=spans_key,
            extra_labels=(UNKNOWN,) if spans_key == "placeholders" else (),
        )
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a JSON Lines file") from None
    except OSError as err:
        raise InputError(f"{path}: {err.strerror}") from None


def cmd_evaluate(args: argparse.Namespace) -> int:
    labels = _load_label_set(args.label_set)
    gold = _load(args.gold, labels, require_risk=True)
    pred = _load(args.pred, labels, require_risk=False)
    if args.labels:
        unknown = sorted(set(args.labels) - set(labels.names))
        if unknown:
            raise InputError(f"--labels: unknown labels {unknown}")
        for doc in (*gold, *pred):
            doc.spans = [s for s in doc.spans if s.label in args.labels]
    scores = score_documents(gold, pred, labels)
    if args.json:
        print(json.dumps(scores.to_dict(), ensure_ascii=False))
    else:
        print(scores.format())
    return 0


def add_evaluate_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon evaluate``."""
    parser = commands.add_parser(
        "evaluate",
        help="score predicted spans against gold spans",
        description=(
            "Score predicted spans against gold spans (both JSON Lines in the gold format "
            "of the annotation guidelines, matched by document id): strict, strict typed "
            "and lenient precision/recall/F1, lenient recall by risk, per-label scores and "
            "a confusion matrix."
        ),
    )
    parser.add_argument("--gold", required=True, help="gold JSON Lines file")
    parser.add_argument("--pred", required=True, help="predicted JSON Lines file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--label-set", help="JSON/YAML label set to use instead of the built-in one"
    )
    parser.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help="score these labels only: gold and predicted spans of other labels are left out "
        "(e.g. --labels nat-name nat-jur: how well names are found)",
    )
    parser.set_defaults(func=cmd_evaluate)
    return parser


def _write_jsonl(path: str, rows: list[dict]) -> None:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def format_detector_scores(scores: DetectorScores) -> str:
    return "\n".join(
        [
            f"key placeholders {scores.key}   predicted {scores.predicted}   "
            f"tp {scores.tp}   fp {scores.fp}   fn {scores.fn}   tn (elements) {scores.tn}",
            f"accuracy     {scores.accuracy:.4f}",
            f"precision    {scores.precision:.4f}",
            f"recall       {scores.recall:.4f}",
            f"specificity  {scores.specificity:.4f}",
            f"f1           {scores.f1:.4f}",
            f"label accuracy on matched placeholders {scores.label_accuracy:.4f} "
            f"({scores.labels_correct}/{scores.tp})",
        ]
    )


def _find(texts: list[str], args: argparse.Namespace):
    """Placeholders by the method and label source the command line chose."""
    if args.method == "rules" and args.labels == "cues":
        return [placeholder_spans(text, args.language) for text in texts]
    from hf_anon.languages import resolve_language
    from hf_anon.placeholder_tagger import PlaceholderTagger, find_placeholders_with

    if resolve_language(args.language, texts) != "de":
        raise InputError("--method tagger/both and --labels model read German decisions only")
    try:
        tagger = PlaceholderTagger.from_pretrained(args.tagger, require_head=args.method != "rules")
    except ValueError as err:
        raise InputError(str(err)) from None
    return find_placeholders_with(
        texts, method=args.method, labels=args.labels, tagger=tagger, progress=args.progress
    )


def _evaluate_placeholders(args: argparse.Namespace) -> int:
    from hf_anon.corpora.placeholders.scoring import bootstrap_interval, score_by_group

    key = _load(args.evaluate, DEFAULT_LABELS, require_risk=False, spans_key="placeholders")
    predicted = _find([doc.text for doc in key], args)
    pairs = [(doc.text, doc.spans, pred) for doc, pred in zip(key, predicted, strict=True)]
    scores = score_placeholders(pairs)
    metrics = ("precision", "recall", "label_accuracy") if len(pairs) > 1 else ()
    intervals = {metric: bootstrap_interval(pairs, metric) for metric in metrics}
    groups = (
        score_by_group(pairs, [str(doc.meta.get(args.by) or "unknown") for doc in key])
        if args.by
        else {}
    )
    if args.json:
        print(json.dumps({
            **asdict(scores),
            "intervals": intervals,
            "groups": {name: asdict(group) for name, group in groups.items()},
        }))  # fmt: skip
    else:
        print(format_detector_scores(scores))
        for metric, (low, high) in intervals.items():
            print(f"95% interval of {metric} over decisions: {low:.4f}-{high:.4f}")
        if groups:
            print(f"\n{'by ' + args.by:<40} key    P      R      labels")
            for name, group in sorted(groups.items()):
                print(
                    f"{name[:40]:<40} {group.key:>4}  {group.precision:.3f}  {group.recall:.3f}  "
                    f"{group.label_accuracy:.3f}"
                )
    if args.output:
        rows = [
            {"id": doc.id, "text": doc.text, "placeholders": [s.to_dict() for s in pred]}
            for doc, pred in zip(key, predicted, strict=True)
        ]
        _write_jsonl(args.output, rows)
    return 0


def _audit_placeholders(args: argparse.Namespace) -> int:
    from hf_anon.corpora.placeholders.audit import audit

    excluded: set[str] = set()
    for path in args.exclude or ():
        try:
            excluded |= {row["id"] for row in read_jsonl_texts(path)}
        except (InputError, ValidationError):  # one id a line, not JSON
            excluded |= {
                line.strip() for line in Path(path).read_text().splitlines() if line.strip()
            }
    reports = []
    for corpus in args.audit:
        rows = (row for row in read_jsonl_texts(corpus) if row["id"] not in excluded)
        reports.append(audit(rows, Path(corpus).name, args.group_by, progress=args.progress))
    markdown = "\n".join(report.to_markdown() for report in reports)
    if args.output:
        out = Path(args.output)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown, encoding="utf-8")
        out.with_suffix(".json").write_text(
            json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8",
        )
    else:
        print(markdown)
    for report in reports:
        print(
            f"{report.corpus}: {report.masks_outside} of {report.masks} unmistakable masks "
            f"outside every placeholder ({report.outside_share:.2%})",
            file=sys.stderr,
        )
    return 0


def cmd_placeholders(args: argparse.Namespace) -> int:
    if args.audit:
        return _audit_placeholders(args)
    if args.evaluate:
        return _evaluate_placeholders(args)
    if not args.input or not args.output:
        raise InputError("--input and --output are required (or --evaluate KEY.jsonl, --audit)")
    rows = read_jsonl_texts(args.input)
    counts: Counter = Counter()
    found = _find([row["text"] for row in rows], args)
    for row, spans in zip(rows, found, strict=True):
        counts.update(s.label for s in spans)
        row["placeholders"] = [s.to_dict() for s in spans]
    _write_jsonl(args.output, rows)
    total = sum(counts.values())
    print(
        f"{len(rows)} documents, {total} placeholders: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_placeholders_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon placeholders``."""
    parser = commands.add_parser(
        "placeholders",
        help="find anonymization placeholders in published decisions",
        description=(
            "Find the placeholders (A., Xxxxx, …, XXX, ###, ****, X GmbH, A-Straße 1, "
            "xx.xx.2016, a@x.de, …) in published decisions and label the span each one "
            "hides. With --evaluate, score them against a key in the placeholder format: "
            "accuracy, precision, recall, specificity and F1 (a prediction matches a key "
            "placeholder when their characters overlap), label accuracy, intervals over "
            "decisions and, with --by, scores per court. With --audit, count per court the "
            "unmistakable masks (XXX, ###, ****, xx.xx.2016) left outside every placeholder "
            "and the candidates the rules rejected, by shape, with examples."
        ),
    )
    parser.add_argument("--input", help="JSON Lines with id and text")
    parser.add_argument(
        "--output",
        help="JSON Lines: the input plus placeholders [{start, end, label}] (with --audit: "
        "the Markdown report, and its JSON beside it)",
    )
    parser.add_argument("--evaluate", metavar="KEY", help="placeholder key JSON Lines")
    parser.add_argument("--by", metavar="FIELD", help="with --evaluate: scores per value of FIELD")
    parser.add_argument(
        "--audit", nargs="+", metavar="CORPUS", help="JSON Lines corpora (.jsonl or .jsonl.gz)"
    )
    parser.add_argument(
        "--exclude", nargs="+", metavar="FILE",
        help="with --audit: leave out these ids (JSON Lines with id, or one id a line)",
    )  # fmt: skip
    parser.add_argument(
        "--group-by", default="court", help="with --audit: the field to group by (default: court)"
    )
    parser.add_argument(
        "--method", choices=("rules", "tagger", "both"), default="rules",
        help="the rules, the learned tagger, or the rules plus what only the tagger finds "
        "(default: rules; tagger and both read German decisions)",
    )  # fmt: skip
    parser.add_argument(
        "--labels", choices=("cues", "model"), default="cues",
        help="label placeholders whose cue words are silent (unknown) with the model's "
        "category head (model) or leave them unknown (cues, the default)",
    )  # fmt: skip
    parser.add_argument(
        "--tagger", metavar="MODEL",
        help="model folder or hub id with the placeholder head (default: the bundled model)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="scores as one JSON object")
    add_language_argument(parser, default="auto")
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_placeholders)
    return parser


def _spans_to_replace(row: dict, language: str = "de") -> Document:
    """A document whose spans are to be replaced: its placeholders, its gold spans, or
    (for plain published decisions) the placeholders the detector finds."""
    if "placeholders" in row:
        return parse_document(
            row, spans_key="placeholders", require_risk=False, extra_labels=(UNKNOWN,)
        )
    if "spans" in row:
        return parse_document(row, require_risk=False)
    doc = parse_document(row)
    doc.spans = placeholder_spans(doc.text, language)
    return doc


def cmd_pseudonymize(args: argparse.Namespace) -> int:
    from hf_anon.corpora.corpus import without_offset_fields
    from hf_anon.corpora.surrogates import Pseudonymizer
    from hf_anon.corpora.surrogates.japanese import pseudonymize_japanese
    from hf_anon.languages import resolve_language

    rows = read_jsonl_texts(args.input)
    languages = [resolve_language(args.language, [row["text"]]) for row in rows]
    documents = [_spans_to_replace(row, lang) for row, lang in zip(rows, languages, strict=True)]
    pseudonymizer = Pseudonymizer(seed=args.seed, unknown_label=args.unknown_label)
    out = [
        without_offset_fields(
            pseudonymize_japanese(doc, args.seed, args.unknown_label)
            if lang == "ja"
            else pseudonymizer.pseudonymize(doc)
        )
        for doc, lang in tqdm(
            list(zip(documents, languages, strict=True)),
            desc="pseudonymize",
            unit="doc",
            disable=not args.progress,
        )
    ]
    save_jsonl(out, args.output)
    counts = Counter(s.label for doc in out for s in doc.spans)
    print(
        f"{len(out)} documents, {sum(counts.values())} spans replaced: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_pseudonymize_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon pseudonymize``."""
    parser = commands.add_parser(
        "pseudonymize",
        help="replace placeholders or gold spans with realistic surrogates",
        description=(
            "Replace each placeholder (input in the placeholder format), each span (input "
            "with spans) or each placeholder the detector finds (input with only id and "
            "text) with a realistic, consistent surrogate of its label. The output is in "
            "the gold format: the new text with the surrogates' exact spans."
        ),
    )
    parser.add_argument("--input", required=True, help="JSON Lines")
    parser.add_argument("--output", required=True, help="JSON Lines, gold format")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same output")
    parser.add_argument(
        "--unknown-label",
        default="nat-name",
        choices=DEFAULT_LABELS.names,
        help="label for placeholders labelled unknown (default: nat-name)",
    )
    add_language_argument(parser, default="auto")
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_pseudonymize)
    return parser


def cmd_detect(args: argparse.Namespace) -> int:
    from hf_anon.detection import SpanDetector
    from hf_anon.languages import check_model_language, resolve_language
    from hf_anon.model_folder import default_model

    rows = read_jsonl_texts(args.input)
    language = resolve_language(args.language, [r["text"] for r in rows[:50]])
    try:
        detector = SpanDetector.from_pretrained(
            args.model or default_model(language),
            device=args.device,
            backend=args.backend,
            quantize=args.quantize,
            **decoding_kwargs(args),
        )
        check_model_language(detector.language, args.language)
    except ValueError as err:
        raise InputError(str(err)) from None
    documents = [Document(r["id"], r["text"], domain=r.get("domain")) for r in rows]
    spans = detector.detect(
        documents, batch_size=args.batch_size, threshold=args.threshold, progress=args.progress
    )
    out = [
        Document(doc.id, doc.text, found, doc.domain)
        for doc, found in zip(documents, spans, strict=True)
    ]
    save_jsonl(out, args.output)
    counts = Counter(s.label for found in spans for s in found)
    print(
        f"{len(out)} documents, {sum(counts.values())} spans: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_detect_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon detect``."""
    parser = commands.add_parser(
        "detect",
        help="find sensitive spans with a trained model",
        description=(
            "Run a trained hf-anon model on documents of any length (windowed, never "
            "truncated) and write the spans in the gold format, each with label, risk "
            "and score."
        ),
    )
    parser.add_argument(
        "--model",
        default=None,
        help="hf-anon model folder or hub id (default: the bundled model of the language, "
        "hf-anon-de-e5-small or hf-anon-ja-e5-small)",
    )
    add_language_argument(parser, default="auto")
    parser.add_argument("--input", required=True, help="JSON Lines with id and text")
    parser.add_argument("--output", required=True, help="JSON Lines, gold format")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    parser.add_argument("--device", default=None, help="cpu, cuda, cuda:1, mps (default cpu)")
    add_backend_arguments(parser)
    add_decoding_arguments(parser)
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="a token is inside a span when 1 - P(O) >= threshold (lower: more recall)",
    )
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_detect)
    return parser


def cmd_calibrate(args: argparse.Namespace) -> int:
    from hf_anon.calibration import calibrate, write_calibration
    from hf_anon.detection import SpanDetector
    from hf_anon.recognizers import DEFAULT_RECOGNIZERS
    from hf_anon.training import load_documents

    choice = recognizer_choice(args)
    try:
        detector = SpanDetector.from_pretrained(
            args.model,
            recognizers=DEFAULT_RECOGNIZERS if choice == "config" else choice,
        )
        docs = load_documents([args.gold], detector.labels, split="validation")
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    if not docs:
        raise InputError(f"{args.gold}: no documents")
    result = calibrate(
        detector,
        docs,
        beta=args.beta,
        target_high=args.target_high,
        batch_size=args.batch_size,
        progress=args.progress,
    )
    print(f"{result.documents} documents; recognizers: {', '.join(result.recognizers) or 'none'}")
    for name, scores in (("argmax", result.before), ("calibrated", result.after)):
        print(
            f"{name:>10}: lenient P/R/F1 {scores['precision']:.3f}/{scores['recall']:.3f}/"
            f"{scores['f1']:.3f}, F{result.beta:g} {scores['f_beta']:.3f}, "
            f"recall high {scores['recall_high']:.3f}, strict F1 {scores['strict_f1']:.3f}"
        )
    print("thresholds: " + ", ".join(f"{k} {v:g}" for k, v in result.thresholds.items()))
    if args.write:
        out = write_calibration(args.model, result, args.gold)
        print(f"written to {Path(args.model) / 'config.json'} and {out}")
    return 0


def add_calibrate_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon calibrate``."""
    parser = commands.add_parser(
        "calibrate",
        help="choose per-label thresholds on a validation gold set; store them in the model",
        description=(
            "Run the model once on the gold documents, choose a threshold per label that "
            "maximises lenient F-beta (high-risk recall kept at its target where reachable), "
            "print the scores before and after, and with --write store thresholds and "
            "recognizers in the model's config.json (every entry point then uses them). "
            "Use a validation split: never the set you report on."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder")
    parser.add_argument(
        "--gold", required=True, help="gold JSON Lines or corpus folder (DIR:split)"
    )
    parser.add_argument("--beta", type=float, default=2.0, help="F-beta weight of recall")
    parser.add_argument("--target-high", type=float, default=0.99, help="high-risk recall to keep")
    parser.add_argument("--write", action="store_true", help="store the result in the model")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    add_recognizer_arguments(parser)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_calibrate)
    return parser


def cmd_report(args: argparse.Namespace) -> int:
    from hf_anon.detection import SpanDetector
    from hf_anon.model_folder import ModelFolder
    from hf_anon.report import build_report, parse_gold_arg, write_report
    from hf_anon.training import load_documents

    model = ModelFolder(args.model)
    try:
        detector = SpanDetector.from_pretrained(
            model,
            device=args.device,
            backend=args.backend,
            quantize=args.quantize,
            **decoding_kwargs(args),
        )
    except ValueError as err:
        raise InputError(str(err)) from None
    gold_sets = []
    for value in args.gold:
        name, source = parse_gold_arg(value)
        try:
            docs = load_documents([source], detector.labels, split="test")
        except (OSError, ValueError) as err:
            raise InputError(f"{source}: {err}") from None
        if not docs:
            raise InputError(f"{source}: no documents")
        gold_sets.append((name, source, docs))
    report = build_report(
        detector,
        gold_sets,
        model_name=args.name or model.name,
        threshold=args.threshold,
        batch_size=args.batch_size,
        progress=args.progress,
    )
    markdown = write_report(report, args.output)
    for s in report.sets:
        lenient, high = s.scores["lenient"], s.scores["recall_by_risk"].get("high", 1.0)
        fidelity = s.fidelity
        print(
            f"{s.name}: lenient P/R/F1 {lenient['precision']:.3f}/{lenient['recall']:.3f}/"
            f"{lenient['f1']:.3f}, recall high {high:.3f}; anonymize replaced "
            f"{fidelity['share']:.2%} of non-sensitive characters, "
            f"{sum(fidelity['stray'].values())} replacements touching no gold span, "
            f"{sum(fidelity['closed_class'].values())} closed-class words"
        )
    print(f"report written to {markdown}")
    return 0


def add_report_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon report``."""
    parser = commands.add_parser(
        "report",
        help="evaluation report of a model on gold sets (Markdown, JSON, figures)",
        description=(
            "Detect on each gold set and write report.md, report.json, a confusion heatmap "
            "and a precision/recall curve over the detection threshold per set, and the "
            "fidelity of anonymize (non-sensitive characters and closed-class words "
            "replaced)."
        ),
    )
    parser.add_argument(
        "--model", default=None, help="hf-anon model folder or hub id (default: bundled)"
    )
    parser.add_argument(
        "--gold",
        nargs="+",
        required=True,
        help="gold JSON Lines or corpus folders (DIR:split, default split test); NAME=PATH "
        "names a set",
    )
    parser.add_argument("--output", required=True, help="folder for the report")
    parser.add_argument("--name", default=None, help="model name in the report")
    parser.add_argument("--threshold", type=float, default=None, help="as for detect")
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    parser.add_argument("--device", default=None, help="cpu, cuda, … (default cpu)")
    add_backend_arguments(parser)
    add_decoding_arguments(parser)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_report)
    return parser


def cmd_card(args: argparse.Namespace) -> int:
    from hf_anon.model_card import write_model_card

    try:
        path = write_model_card(args.model, repo_id=args.repo_id, base_model=args.base_model)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    print(f"model card written to {path}")
    return 0


def add_card_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon card``."""
    parser = commands.add_parser(
        "card",
        help="(re)generate a model folder's README.md model card",
        description=(
            "Render the model card from the folder's config (labels, inference settings), "
            "training_config.json, training_info.json, eval_results.json and "
            "report/report.json."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder")
    parser.add_argument("--repo-id", default=None, help="hub id used in the usage snippets")
    parser.add_argument(
        "--base-model",
        default=None,
        metavar="HUB_ID",
        help="hub id of the encoder it was trained from (default: the one training recorded)",
    )
    parser.set_defaults(func=cmd_card)
    return parser


def cmd_release(args: argparse.Namespace) -> int:
    from hf_anon.hub import release_model

    try:
        out = release_model(args.model, args.out, dtype=args.dtype)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"released to {out} ({size / 1e6:.1f} MB); next: hf-anon report, then hf-anon card")
    return 0


def add_release_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon release``."""
    parser = commands.add_parser(
        "release",
        help="copy a trained model into a distributable folder (fp16 weights, card)",
    )
    parser.add_argument("--model", required=True, help="trained model folder (…/best)")
    parser.add_argument("--out", required=True, help="release folder, e.g. models/NAME")
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16", "float32"])
    parser.set_defaults(func=cmd_release)
    return parser


def cmd_export(args: argparse.Namespace) -> int:
    from hf_anon.corpora.synthetic import generate_documents
    from hf_anon.detection import SpanDetector
    from hf_anon.modeling import export_token_classification

    try:
        detector = SpanDetector.from_pretrained(args.model)
    except ValueError as err:
        raise InputError(str(err)) from None
    texts = [doc.text[:2000] for doc in generate_documents(8, seed=12345)]
    calibration = detector.tokenizer(
        texts, truncation=True, max_length=detector.max_length, padding=True, return_tensors="pt"
    )
    calibration.pop("token_type_ids", None)
    export_token_classification(detector.model, args.out, detector.tokenizer, calibration)
    print(f"token-classification checkpoint written to {args.out}", file=sys.stderr)
    return 0


def add_export_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon export``."""
    parser = commands.add_parser(
        "export",
        help="save a plain token-classification checkpoint for transformers pipelines",
        description=(
            "Save the model as AutoModelForTokenClassification with BIO-with-category "
            "labels (O, B-nat-name, I-nat-name, …), usable by "
            'pipeline("token-classification") without remote code. The risk head is not '
            "exported; see hf_anon.modeling.export_token_classification for how the O "
            "score is approximated."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder or hub id")
    parser.add_argument("--out", required=True, help="output folder")
    parser.set_defaults(func=cmd_export)
    return parser


def cmd_push(args: argparse.Namespace) -> int:
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    from hf_anon.hub import PushError, push_model, push_space

    common = {"token": args.token, "dry_run": args.dry_run, "endpoint": args.endpoint}
    try:
        push_model(
            args.model, args.repo_id, private=args.private, commit_message=args.message, **common
        )
        if args.space:
            print()
            push_space(
                args.space,
                args.repo_id,
                app_file=args.space_app,
                requirement=args.space_requirement,
                **common,
            )
            if args.private:
                print(
                    "note: the model repo is private: give the Space an HF_TOKEN secret "
                    "that can read it",
                    file=sys.stderr,
                )
    except PushError as err:
        raise InputError(str(err)) from None
    except (HfHubHTTPError, OfflineModeIsEnabled) as err:
        message = " ".join(str(err).split())
        print(f"hf-anon push: error: {message}", file=sys.stderr)
        return 1
    return 0


def add_push_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon push``."""
    parser = commands.add_parser(
        "push",
        help="upload a trained model (and a demo Space) to the Hugging Face Hub",
        description=(
            "Upload a trained hf-anon model folder to a hub model repo in one commit: "
            "weights (*.safetensors), tokenizer files, config.json, modeling.py, pipeline.py, "
            "training_config.json, eval_results.json, the README.md model card and "
            "report/. Nothing else goes up (training data, checkpoints, optimizer states, "
            ".env are listed as left out). The files and sizes are printed first. The "
            "token defaults to HF_TOKEN or the cached `hf auth login`; it is never printed."
        ),
    )
    parser.add_argument("--model", required=True, help="hf-anon model folder with README.md")
    parser.add_argument("--repo-id", required=True, metavar="ORG/NAME", help="hub model repo")
    parser.add_argument("--private", action="store_true", help="create the model repo private")
    parser.add_argument(
        "--space", metavar="ORG/NAME", help="also push a Gradio demo Space for the model"
    )
    parser.add_argument(
        "--space-app", default=None, help="the Space's app.py (default: the checkout's app.py)"
    )
    parser.add_argument(
        "--space-requirement",
        default=None,
        metavar="URL",
        help=(
            "a URL the Space installs hf-anon from (e.g. "
            "git+https://github.com/ORG/hf-anon@v0.1.0, or a wheel's https URL); default: "
            "the Space carries this hf_anon package itself and pins its dependencies to "
            "the installed versions"
        ),
    )
    parser.add_argument("--dry-run", action="store_true", help="list the files, upload nothing")
    parser.add_argument(
        "--token", default=None, help="hub token (prefer HF_TOKEN: options show up in `ps`)"
    )
    parser.add_argument("--message", default=None, help="commit message")
    parser.add_argument(
        "--endpoint", default=None, help="hub URL (default: HF_ENDPOINT or huggingface.co)"
    )
    parser.set_defaults(func=cmd_push)
    return parser


#: The sub-commands in the order ``hf-anon --help`` lists them; each registers its own
#: parser (``add_<command>_parser``) beside the function that runs it.
PARSERS = (
    add_evaluate_parser,
    add_placeholders_parser,
    add_pseudonymize_parser,
    add_detect_parser,
    add_report_parser,
    add_calibrate_parser,
    add_card_parser,
    add_release_parser,
    add_export_parser,
    add_push_parser,
    add_base_model_parser,
    add_anonymize_parser,
    add_topics_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hf-anon",
        description="Build, evaluate and apply models that anonymize German court decisions.",
    )
    parser.add_argument("--version", action="version", version=f"hf-anon {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add_parser in PARSERS:
        add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `hf-anon evaluate ... | head`: the reader is gone, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (InputError, ValidationError) as err:
        message = " ".join(str(err).split())
        print(f"hf-anon {args.command}: error: {message}", file=sys.stderr)
        return EXIT_INVALID_INPUT


if __name__ == "__main__":
    sys.exit(main())
