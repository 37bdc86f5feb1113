"""How well topic redaction works: annotated passages, P/R/F1, the λ curve, the baseline.

The annotated set (``data/topics/passages.txt``) marks spans inline, ``[[religion|
Muslim]]``, one passage per block with a header ``# id: p001 | split: calibration |
kind: positive``. λ is chosen on the ``calibration`` half and reported on the ``test``
half (and on all), with the seed's baseline measured in the same run: search-and-replace
of the topic words (every word that starts with a topic word, any case), which redacts
the "white walls" too.

Scoring is by span, as the seed counts redactions: a predicted span is correct when it
overlaps a gold span of the same topic; a gold span is found when a predicted span of its
topic overlaps it (lenient, as :mod:`hf_anon.model.metrics`). ``any-topic`` figures ignore the
topic (what matters for the published text: was it redacted?).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from hf_anon.apply.topics.redactor import TopicRedactor, TopicSpan, without_overlaps

_HEADER = re.compile(r"# id: (\S+) \| split: (\w+) \| kind: (\w+)")
_MARK = re.compile(r"\[\[([\w-]+)\|([^\]|]+)\]\]")
#: The λ grid of each decision (the seed's plain MAC lives near e5's 0.8 cosines).
LAMBDAS = {
    "contrast": tuple(round(x, 3) for x in np.arange(-0.05, 0.301, 0.005)),
    "mac": tuple(round(x, 3) for x in np.arange(0.70, 0.951, 0.005)),
}


@dataclass
class Passage:
    id: str
    split: str
    kind: str
    text: str
    spans: list[tuple[int, int, str]]  # start, end, topic


def parse_passage(marked: str) -> tuple[str, list[tuple[int, int, str]]]:
    """Plain text and gold spans of a passage with ``[[topic|words]]`` marks."""
    pieces, spans, cursor, length = [], [], 0, 0
    for m in _MARK.finditer(marked):
        before = marked[cursor : m.start()]
        pieces.append(before)
        length += len(before)
        spans.append((length, length + len(m.group(2)), m.group(1)))
        pieces.append(m.group(2))
        length += len(m.group(2))
        cursor = m.end()
    pieces.append(marked[cursor:])
    text = "".join(pieces)
    if "[[" in text or "]]" in text:
        raise ValueError(f"a broken [[topic|words]] mark in {marked[:60]!r}")
    return text, spans


def read_passages(path: str | Path) -> list[Passage]:
    passages = []
    for block in Path(path).read_text(encoding="utf-8").split("\n\n"):
        if not block.strip():
            continue
        head, _, body = block.strip().partition("\n")
        m = _HEADER.fullmatch(head.strip())
        if not m:
            raise ValueError(
                f"{path}: a passage must start with '# id: … | split: … | kind: …', got {head!r}"
            )
        text, spans = parse_passage(body.strip())
        passages.append(Passage(m.group(1), m.group(2), m.group(3), text, spans))
    return passages


@dataclass
class Scores:
    precision: float
    recall: float
    f1: float
    predicted: int
    gold: int
    false_positives: int
    missed: int


def _hit(start: int, end: int, topic: str, others, *, any_topic: bool = False) -> bool:
    """Whether the span overlaps one of ``others`` (start, end, topic) of its topic."""
    return any(start < e and s < end and (any_topic or topic == t) for s, e, t in others)


def score(
    passages: Sequence[Passage], predicted: Sequence[Sequence[TopicSpan]], *, any_topic=False
) -> Scores:
    tp_pred = n_pred = found = n_gold = 0
    for passage, spans in zip(passages, predicted, strict=True):
        gold = passage.spans
        pred = [(p.start, p.end, p.topic) for p in spans]
        n_pred += len(pred)
        tp_pred += sum(_hit(*p, gold, any_topic=any_topic) for p in pred)
        n_gold += len(gold)
        found += sum(_hit(*g, pred, any_topic=any_topic) for g in gold)
    p = tp_pred / n_pred if n_pred else 1.0
    r = found / n_gold if n_gold else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return Scores(p, r, f, n_pred, n_gold, n_pred - tp_pred, n_gold - found)


def baseline(redactor: TopicRedactor, texts: Sequence[str]) -> list[list[TopicSpan]]:
    """The seed's search-and-replace: every word starting with one of a topic's words
    (``türkisch`` → ``türkische``, ``türkischer``), and each multi-word entry as written."""
    out = []
    for text in texts:
        spans = []
        for topic in redactor.topics:
            for word in topic.words:
                pattern = re.escape(word) + (r"\w{0,3}" if " " not in word else "")
                for m in re.finditer(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE):
                    spans.append(TopicSpan(m.start(), m.end(), topic.name, 1.0, m.group()))
        out.append(without_overlaps(spans))
    return out


@dataclass
class TopicReport:
    """λ chosen on calibration; scores at it on test and all; the curves; the baseline."""

    decision: str
    lam: float
    passages: dict[str, int]
    model: dict[str, dict[str, dict]]  # split → {"topic": Scores, "any-topic": Scores}
    baseline: dict[str, dict[str, dict]]
    curve: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    def markdown(self) -> str:
        lines = [
            f"Topic redaction (decision `{self.decision}`, λ = {self.lam:.2f} chosen on the "
            "calibration half)",
            "",
            "| split | method | precision | recall | F1 | predicted | gold |",
            "|---|---|---|---|---|---|---|",
        ]
        for split in self.model:
            for name, table in (
                ("hf-anon topics", self.model),
                ("search-and-replace", self.baseline),
            ):
                s = table[split]["topic"]
                lines.append(
                    f"| {split} | {name} | {s['precision']:.3f} | {s['recall']:.3f} | "
                    f"{s['f1']:.3f} | {s['predicted']} | {s['gold']} |"
                )
        return "\n".join(lines) + "\n"


def evaluate(
    redactor: TopicRedactor, passages: Sequence[Passage], *, lam: float | None = None
) -> TopicReport:
    """Score the redactor over λ; ``lam`` None: the best F1 on the calibration split (the
    lower λ on ties: recall first)."""
    splits = {
        "calibration": [p for p in passages if p.split == "calibration"],
        "test": [p for p in passages if p.split == "test"],
        "all": list(passages),
    }
    if not splits["calibration"] or not splits["test"]:
        raise ValueError("the passages need a calibration and a test split")
    scored = {k: redactor.score_candidates([p.text for p in v]) for k, v in splits.items()}
    curve = []
    for value in LAMBDAS[redactor.scorer.decision]:
        row = {"lambda": value}
        for k, v in splits.items():
            row[k] = asdict(score(v, redactor.decide(scored[k], value)))
        curve.append(row)
    if lam is None:
        best = max(curve, key=lambda r: (round(r["calibration"]["f1"], 6), -r["lambda"]))
        lam = best["lambda"]
    model, base, errors = {}, {}, []
    for k, v in splits.items():
        pred = redactor.decide(scored[k], lam)
        model[k] = {
            "topic": asdict(score(v, pred)),
            "any-topic": asdict(score(v, pred, any_topic=True)),
        }
        found = baseline(redactor, [p.text for p in v])
        base[k] = {
            "topic": asdict(score(v, found)),
            "any-topic": asdict(score(v, found, any_topic=True)),
        }
        if k == "all":
            errors = _errors(v, pred)
    return TopicReport(
        decision=redactor.scorer.decision,
        lam=float(lam),
        passages={k: len(v) for k, v in splits.items()},
        model=model,
        baseline=base,
        curve=curve,
        errors=errors,
    )


def _errors(passages, predicted) -> list[dict]:
    out = []
    for passage, spans in zip(passages, predicted, strict=True):
        pred = [(s.start, s.end, s.topic) for s in spans]
        for s in spans:
            if not _hit(s.start, s.end, s.topic, passage.spans):
                out.append(
                    {
                        "id": passage.id,
                        "kind": "false positive",
                        "topic": s.topic,
                        "text": s.text,
                        "score": round(s.score, 3),
                    }
                )
        for b, e, t in passage.spans:
            if not _hit(b, e, t, pred):
                out.append(
                    {"id": passage.id, "kind": "missed", "topic": t, "text": passage.text[b:e]}
                )
    return out


def plot_curve(report: TopicReport, path: str | Path) -> Path:
    """Precision, recall and F1 over λ (calibration and test), as the seed's figures 4/5."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lams = [r["lambda"] for r in report.curve]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, split in zip(axes, ("calibration", "test"), strict=True):
        for metric, style in (("precision", "-"), ("recall", "--"), ("f1", ":")):
            ax.plot(lams, [r[split][metric] for r in report.curve], style, label=metric)
        ax.axvline(report.lam, color="grey", linewidth=0.8)
        ax.set_title(f"{split} ({report.passages[split]} passages)")
        ax.set_xlabel("λ")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("score")
    axes[0].legend()
    fig.suptitle(f"Topic redaction over λ (decision: {report.decision})")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_report(report: TopicReport, out_dir: str | Path) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "topics_report.json").write_text(
        json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    (out / "topics_report.md").write_text(report.markdown(), encoding="utf-8")
    plot_curve(report, out / f"lambda_curve_{report.decision}.png")
    return out
