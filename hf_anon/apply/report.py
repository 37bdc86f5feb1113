"""Evaluation report: one model on one or more gold sets → Markdown, JSON and figures.

Detection runs once per gold set; the per-token probabilities are then decoded at a
range of thresholds, so the precision/recall curve costs no extra model passes. Recall
is what matters for publication, so the report says at which threshold recall on
high-risk spans reaches 0.99 (seed 001's target), and what precision that costs.

Gold sets that annotate only some labels (LER has no dates, no identifiers) are scored
on those labels only: predictions of other labels are dropped and counted, and the
report says so. Otherwise precision would count every correctly found date as wrong.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from hf_anon.apply.output_scores import measure_output, render_fidelity, render_protection
from hf_anon.model.metrics import FN, FP, SpanScores, covered, score_documents
from hf_anon.text.data import Document, Span

#: Detection thresholds on ``1 - P(O)`` for the curve (None: the most likely tag).
THRESHOLDS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
HIGH_RISK_TARGET = 0.99


@dataclass
class CurvePoint:
    threshold: float | None
    precision: float
    recall: float
    f1: float
    recall_high: float
    predicted: int


@dataclass
class GoldSetReport:
    name: str
    source: str
    labels_evaluated: list[str]
    dropped_predictions: int
    scores: dict
    curve: list[CurvePoint]
    high_risk_target: CurvePoint | None
    misses: dict[str, dict[str, int]] = field(default_factory=dict)
    overmarks: dict[str, dict] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)
    fidelity: dict = field(default_factory=dict)
    protection: dict = field(default_factory=dict)


@dataclass
class Report:
    model: str
    sets: list[GoldSetReport]
    #: how the default row was decoded (calibrated thresholds, recognizers), for the reader
    decoding: str = "the most likely tag"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict) -> Report:
        sets = []
        for s in raw["sets"]:
            curve = [CurvePoint(**p) for p in s["curve"]]
            target = CurvePoint(**s["high_risk_target"]) if s.get("high_risk_target") else None
            sets.append(GoldSetReport(**{**s, "curve": curve, "high_risk_target": target}))
        return cls(raw["model"], sets, raw.get("decoding", "the most likely tag"))

    @classmethod
    def load(cls, path: str | Path) -> Report:
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def parse_gold_arg(value: str) -> tuple[str, str]:
    """``NAME=PATH`` or ``PATH`` (``corpora/ler:test`` → name ``ler-test``)."""
    if "=" in value:
        name, path = value.split("=", 1)
        return name, path
    base = value.rstrip("/")
    stem, _, split = base.partition(":")
    name = Path(stem).name.removesuffix(".jsonl")
    return (f"{name}-{split}" if split else name), value


def score_kept(gold: Sequence[Document], found: list[list[Span]], keep: set[str], labels):
    pred = [
        Document(doc.id, doc.text, [s for s in spans if s.label in keep])
        for doc, spans in zip(gold, found, strict=True)
    ]
    dropped = sum(len(spans) for spans in found) - sum(len(d.spans) for d in pred)
    return score_documents(gold, pred, labels), dropped


def count_misses(gold: Sequence[Document], found: list[list[Span]]) -> dict[str, dict[str, int]]:
    """Gold spans not recalled (lenient), per label: ``partial`` (some characters covered,
    e.g. a word cut inside) or ``missed`` (nothing covered)."""
    out: dict[str, dict[str, int]] = {}
    for doc, spans in zip(gold, found, strict=True):
        pred = sorted(spans, key=lambda s: s.start)
        for g, ok in zip(doc.spans, covered(doc.spans, pred, doc.text), strict=True):
            if ok:
                continue
            touched = any(p.start < g.end and g.start < p.end for p in pred)
            row = out.setdefault(g.label, {"missed": 0, "partial": 0})
            row["partial" if touched else "missed"] += 1
    return out


def count_overmarks(
    gold: Sequence[Document], found: list[list[Span]], examples: int = 5
) -> dict[str, dict]:
    """Predicted spans that touch no gold span, per label: how many, and the most frequent
    texts (``{"count": 48, "examples": [["01.04.2024", 4], ...]}``): what the model marks
    that is not sensitive."""
    texts: dict[str, Counter] = {}
    for doc, spans in zip(gold, found, strict=True):
        for p in spans:
            if not any(p.start < g.end and g.start < p.end for g in doc.spans):
                texts.setdefault(p.label, Counter())[doc.text[p.start : p.end]] += 1
    return {
        label: {
            "count": sum(counter.values()),
            "examples": [[text, n] for text, n in counter.most_common(examples)],
        }
        for label, counter in sorted(texts.items(), key=lambda kv: -sum(kv[1].values()))
    }


def _point(threshold: float | None, scores: SpanScores) -> CurvePoint:
    return CurvePoint(
        threshold,
        round(scores.lenient.precision, 4),
        round(scores.lenient.recall, 4),
        round(scores.lenient.f1, 4),
        round(scores.recall_by_risk.get("high", 1.0), 4),
        scores.counts["pred"],
    )


def evaluate_gold_set(
    detector,
    name: str,
    source: str,
    gold: Sequence[Document],
    *,
    threshold: float | None = None,
    batch_size: int = 16,
    progress: bool = False,
) -> GoldSetReport:
    """Scores at ``threshold`` plus the threshold curve, for one gold set."""
    keep = {s.label for doc in gold for s in doc.spans}
    probabilities = detector.predict_probabilities(gold, batch_size=batch_size, progress=progress)
    found = detector.decode_all(probabilities, threshold=threshold)
    scores, dropped = score_kept(gold, found, keep, detector.labels)
    curve = []
    for t in (None, *THRESHOLDS):
        at_t, _ = score_kept(
            gold, detector.decode_all(probabilities, threshold=t), keep, detector.labels
        )
        curve.append(_point(t, at_t))
    reaching = [p for p in curve if p.recall_high >= HIGH_RISK_TARGET and p.threshold is not None]
    target = max(reaching, key=lambda p: p.threshold) if reaching else None
    fidelity, protection = measure_output(
        gold, found, detector.labels, sorted(keep), getattr(detector, "language", "de")
    )
    return GoldSetReport(
        name=name,
        source=source,
        labels_evaluated=[label for label in detector.labels.names if label in keep],
        dropped_predictions=dropped,
        scores=scores.to_dict(),
        curve=curve,
        high_risk_target=target,
        misses=count_misses(gold, [[s for s in spans if s.label in keep] for spans in found]),
        overmarks=count_overmarks(gold, [[s for s in spans if s.label in keep] for spans in found]),
        fidelity=fidelity.to_dict(),
        protection=protection.to_dict(),
    )


# ------------------------------------------------------------------------------ figures


def plot_confusion(scores: dict, path: Path, title: str) -> None:
    """Heatmap of the confusion matrix (gold rows, predicted columns; log colour scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm

    confusion = scores["confusion"]
    matrix = np.asarray(confusion["matrix"], dtype=float)
    rows, columns = confusion["rows"], confusion["columns"]
    fig, ax = plt.subplots(figsize=(0.55 * len(columns) + 2.5, 0.45 * len(rows) + 2))
    shown = np.where(matrix > 0, matrix, np.nan)
    ax.imshow(shown, cmap="Blues", norm=LogNorm(vmin=1, vmax=max(matrix.max(), 2)))
    for (i, j), value in np.ndenumerate(matrix):
        if value:
            wrong = rows[i] != columns[j]
            ax.text(
                j, i, int(value), ha="center", va="center", fontsize=7,
                color="crimson" if wrong else "black",
            )  # fmt: skip
    ax.set_xticks(range(len(columns)), columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.set_xlabel(f"predicted ({FN}: gold span not predicted with these exact offsets)")
    ax.set_ylabel(f"gold ({FP}: prediction matching no gold span)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_curve(curve: Sequence[CurvePoint], path: Path, title: str) -> None:
    """Lenient precision against recall (all spans and high-risk spans) per threshold."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [p for p in curve if p.threshold is not None]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.plot([p.recall for p in points], [p.precision for p in points], "o-", label="all spans")
    ax.plot(
        [p.recall_high for p in points], [p.precision for p in points], "s--",
        label="recall on high-risk spans",
    )  # fmt: skip
    for p in points:
        ax.annotate(f"{p.threshold:g}", (p.recall, p.precision), fontsize=7,
                    textcoords="offset points", xytext=(3, 3))  # fmt: skip
    ax.axvline(HIGH_RISK_TARGET, color="crimson", lw=0.8, ls=":", label="recall 0.99")
    ax.set_xlabel("lenient recall")
    ax.set_ylabel("lenient precision (all spans)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----------------------------------------------------------------------------- markdown


def _f(x: float) -> str:
    return f"{x:.3f}"


def render_markdown(report: Report) -> str:
    lines = [f"# Evaluation report: `{report.model}`", ""]
    lines += [
        "Written by `hf-anon report`; scores as defined in `hf_anon/model/metrics.py` (strict: "
        "equal offsets; lenient: every non-whitespace character covered). Predictions are "
        f"decoded as the model's config says ({report.decoding}) unless a table row names "
        "a threshold (one threshold for all labels; the recognizers still apply).",
        "",
    ]
    for s in report.sets:
        sc = s.scores
        counts = sc["counts"]
        lines += [
            f"## {s.name}",
            "",
            f"Source: `{s.source}`: {counts['documents']} documents, {counts['gold']} gold "
            f"spans, {counts['pred']} predicted spans.",
            "",
        ]
        if s.dropped_predictions or len(s.labels_evaluated) < len(sc["by_label"]):
            lines += [
                f"This gold set annotates {len(s.labels_evaluated)} labels "
                f"({', '.join(s.labels_evaluated)}); {s.dropped_predictions} predictions of "
                "other labels were left out of the scores.",
                "",
            ]
        lines += ["| | precision | recall | F1 |", "|---|---|---|---|"]
        for key in ("strict", "strict_typed", "lenient"):
            prf = sc[key]
            lines.append(
                f"| {key.replace('_', ' ')} | {_f(prf['precision'])} | {_f(prf['recall'])} "
                f"| {_f(prf['f1'])} |"
            )
        by_risk = ", ".join(
            f"{risk} **{_f(value)}** ({sc['support_by_risk'][risk]} spans)"
            for risk, value in sc["recall_by_risk"].items()
            if sc["support_by_risk"][risk]
        )
        lines += ["", f"Lenient recall by risk: {by_risk}.", ""]
        lines += [
            "| label | precision | recall | F1 | gold | predicted |",
            "|---|---|---|---|---|---|",
        ]
        for label, ls in sc["by_label"].items():
            if label in s.labels_evaluated:
                lines.append(
                    f"| {label} | {_f(ls['precision'])} | {_f(ls['recall'])} | {_f(ls['f1'])} "
                    f"| {ls['support']} | {ls['predicted']} |"
                )
        lines += ["", "(per label: strict typed)", ""]
        if s.misses:
            missed = ", ".join(
                f"{label} {row['missed']} missed + {row['partial']} partly found"
                for label, row in sorted(s.misses.items(), key=lambda kv: -sum(kv[1].values()))
            )
            lines += [f"Gold spans not fully covered (lenient misses): {missed}.", ""]
        if s.overmarks:
            over = "; ".join(
                f"{label} {row['count']} ("
                + ", ".join(f"`{' '.join(t.split())}` ×{n}" for t, n in row["examples"])
                + ")"
                for label, row in s.overmarks.items()
            )
            lines += [f"Predicted spans that touch no gold span (over-marks): {over}.", ""]
        lines += render_protection(s.protection)
        lines += render_fidelity(s.fidelity)
        target = s.high_risk_target
        if target is not None:
            lines.append(
                f"High-risk recall reaches {HIGH_RISK_TARGET} at threshold **{target.threshold:g}**"
                f" (lenient precision {_f(target.precision)}, recall {_f(target.recall)})."
            )
        else:
            best = max(s.curve, key=lambda p: p.recall_high)
            lines.append(
                f"High-risk recall does not reach {HIGH_RISK_TARGET} at any threshold tried; "
                f"its best is {_f(best.recall_high)} at "
                + (
                    "the default decoding."
                    if best.threshold is None
                    else f"threshold {best.threshold:g}."
                )
            )
        lines += [
            "",
            "| threshold | precision | recall | F1 | recall high | predicted |",
            "|---|---|---|---|---|---|",
        ]
        for p in s.curve:
            t = "default" if p.threshold is None else f"{p.threshold:g}"
            lines.append(
                f"| {t} | {_f(p.precision)} | {_f(p.recall)} | {_f(p.f1)} "
                f"| {_f(p.recall_high)} | {p.predicted} |"
            )
        lines.append("")
        for caption, file in s.figures.items():
            lines += [f"![{caption}]({file})", ""]
    return "\n".join(lines)


def write_report(report: Report, out_dir: str | Path) -> Path:
    """Figures, ``report.json`` and ``report.md`` into ``out_dir``; returns the .md path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for s in report.sets:
        confusion, curve = f"{s.name}-confusion.png", f"{s.name}-pr-curve.png"
        plot_confusion(s.scores, out / confusion, f"{s.name}: confusion (strict offsets)")
        plot_curve(s.curve, out / curve, f"{s.name}: precision/recall over the threshold")
        s.figures = {"confusion matrix": confusion, "precision/recall curve": curve}
    (out / "report.json").write_text(
        json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    markdown = out / "report.md"
    markdown.write_text(render_markdown(report), encoding="utf-8")
    return markdown


def build_report(
    detector,
    gold_sets: Sequence[tuple[str, str, Sequence[Document]]],
    *,
    model_name: str,
    threshold: float | None = None,
    batch_size: int = 16,
    progress: bool = False,
) -> Report:
    """``gold_sets``: (name, source, documents) triples."""
    if threshold is not None:
        decoding = f"threshold {threshold:g}"
    elif getattr(detector, "label_thresholds", None):
        decoding = "thresholds per label calibrated on a validation set"
    else:
        decoding = "the most likely tag"
    recognizers = getattr(detector, "recognizers", ())
    decoding += f"; recognizers: {', '.join(recognizers)}" if recognizers else "; no recognizers"
    cited_filter = getattr(detector, "cited_filter", None)
    if cited_filter is not None:
        decoding += f"; learned citation filter at {cited_filter.config.threshold:g}"
    return Report(
        model_name,
        [
            evaluate_gold_set(
                detector,
                name,
                source,
                docs,
                threshold=threshold,
                batch_size=batch_size,
                progress=progress,
            )
            for name, source, docs in gold_sets
        ],
        decoding,
    )
