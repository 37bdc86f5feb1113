"""Span metrics: strict, strict typed, lenient (TAB-style), recall by risk, per label.

All scores are micro-averaged over all spans of all documents.

- ``strict``: a predicted span matches a gold span iff start and end are equal.
- ``strict_typed``: the same and the label is equal.
- ``lenient`` (seed 001 [24], after the Text Anonymization Benchmark): a gold span is
  recalled iff every non-whitespace character of it lies inside predicted spans; a
  predicted span is precise iff every non-whitespace character of it lies inside gold
  spans. ``Zeuge Adrian`` for gold ``Adrian`` counts for recall, not for precision.
- ``recall_by_risk``: lenient recall per gold risk level.
- ``by_label``: strict typed precision, recall, F1 and support per label.
- ``confusion``: gold label (rows, plus ``FP`` for predictions matching no gold span)
  against predicted label (columns, plus ``FN`` for gold spans no prediction matches),
  over spans matched strictly (equal start and end), as in seed 001, Abbildung 1.

The 0/0 cases:

- precision with no predictions is 1.0 if there is also no gold span (nothing to
  predict, nothing predicted wrongly), else 0.0;
- recall with no gold spans is 1.0 (nothing could be missed);
- F1 is the harmonic mean, 0.0 when precision and recall are both 0.

The same rules hold per label and per risk level. Usable without hf-anon's own API as
an ``evaluate`` module: ``evaluate.load("path/to/hf_anon/model/metrics.py")``.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from hf_anon.corpora.placeholders.scoring import percentile_bounds
from hf_anon.text.data import Document, Span, ValidationError, parse_document
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

FP, FN = "FP", "FN"


def precision_recall_f1(tp_pred: int, n_pred: int, tp_gold: int, n_gold: int) -> PRF:
    """Scores from matched counts; see the module docstring for the 0/0 rules.

    ``tp_pred`` predicted spans of ``n_pred`` are correct, ``tp_gold`` gold spans of
    ``n_gold`` are found (equal to ``tp_pred`` for one-to-one matching, not for lenient).
    """
    precision = tp_pred / n_pred if n_pred else (1.0 if n_gold == 0 else 0.0)
    recall = tp_gold / n_gold if n_gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PRF(precision, recall, f1)


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class LabelScore:
    precision: float
    recall: float
    f1: float
    support: int
    predicted: int


@dataclass(frozen=True)
class Confusion:
    rows: list[str]
    columns: list[str]
    matrix: list[list[int]]

    def __getitem__(self, key: tuple[str, str]) -> int:
        gold, pred = key
        return self.matrix[self.rows.index(gold)][self.columns.index(pred)]


@dataclass(frozen=True)
class SpanScores:
    """Everything ``hf-anon evaluate --json`` prints, as a typed result."""

    strict: PRF
    strict_typed: PRF
    lenient: PRF
    recall_by_risk: dict[str, float]
    by_label: dict[str, LabelScore]
    confusion: Confusion
    counts: dict[str, int]
    support_by_risk: dict[str, int]

    def to_dict(self) -> dict:
        return asdict(self)

    def format(self) -> str:
        """Readable tables of the scores (what ``hf-anon evaluate`` prints)."""
        c = self.counts
        lines = [
            f"documents {c['documents']}   gold spans {c['gold']}   predicted spans {c['pred']}",
            "",
            f"{'':14}{'precision':>10}{'recall':>10}{'f1':>10}",
        ]
        for name in ("strict", "strict_typed", "lenient"):
            prf = getattr(self, name)
            lines.append(f"{name:14}{prf.precision:10.4f}{prf.recall:10.4f}{prf.f1:10.4f}")
        lines += ["", "lenient recall by risk"]
        for risk, recall in self.recall_by_risk.items():
            lines.append(f"  {risk:8}{recall:8.4f}   ({self.support_by_risk[risk]} gold spans)")
        lines += [
            "",
            "strict typed, per label",
            f"  {'label':14}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>9}{'pred':>7}",
        ]
        for name, s in self.by_label.items():
            if s.support or s.predicted:
                lines.append(
                    f"  {name:14}{s.precision:10.4f}{s.recall:10.4f}{s.f1:10.4f}"
                    f"{s.support:9d}{s.predicted:7d}"
                )
        conf = self.confusion
        rows = [i for i, row in enumerate(conf.matrix) if any(row)]
        cols = [j for j in range(len(conf.columns)) if any(conf.matrix[i][j] for i in rows)]
        if rows:
            width = max(6, *(len(conf.columns[j]) + 1 for j in cols))
            lines += [
                "",
                f"confusion over strictly matched spans (rows gold, columns predicted; "
                f"{FP}: no gold span, {FN}: not predicted)",
                "  " + " " * 14 + "".join(f"{conf.columns[j]:>{width}}" for j in cols),
            ]
            for i in rows:
                cells = "".join(f"{conf.matrix[i][j]:>{width}}" for j in cols)
                lines.append(f"  {conf.rows[i]:14}{cells}")
        return "\n".join(lines)


def covered(targets: Sequence[Span], cover: Sequence[Span], text: str) -> list[bool]:
    """Whether every non-whitespace character of each target lies inside ``cover``: the
    lenient test, for recall (targets gold, cover predicted) and precision (the other way).

    Both lists sorted by start; ``cover`` must not overlap. One sweep, O(n + m).
    """
    out = []
    j, m = 0, len(cover)
    for t in targets:
        while j < m and cover[j].end <= t.start:
            j += 1
        pos, ok, k = t.start, True, j
        while k < m and cover[k].start < t.end:
            c = cover[k]
            if c.start > pos and not text[pos : c.start].isspace():
                ok = False
                break
            if c.end > pos:
                pos = c.end
            k += 1
        if ok and pos < t.end and not text[pos : t.end].isspace():
            ok = False
        out.append(ok)
    return out


@dataclass
class SpanScorer:
    """Accumulates counts document by document; :meth:`result` computes the scores.

    Used by the CLI, the training loop and the ``evaluate`` module alike.
    """

    labels: LabelSet = DEFAULT_LABELS
    documents: int = 0
    n_gold: int = 0
    n_pred: int = 0
    strict_tp: int = 0
    typed_tp: int = 0
    lenient_recalled: int = 0
    lenient_precise: int = 0
    gold_by_label: Counter = field(default_factory=Counter)
    pred_by_label: Counter = field(default_factory=Counter)
    typed_tp_by_label: Counter = field(default_factory=Counter)
    gold_by_risk: Counter = field(default_factory=Counter)
    recalled_by_risk: Counter = field(default_factory=Counter)
    confusion: Counter = field(default_factory=Counter)

    def add(self, text: str, gold: Sequence[Span], pred: Sequence[Span]) -> None:
        """Score one document. Spans must be sorted and non-overlapping (as loaded)."""
        self.documents += 1
        self.n_gold += len(gold)
        self.n_pred += len(pred)
        by_offsets = {(g.start, g.end): g for g in gold}
        matched_gold: set[tuple[int, int]] = set()
        for p in pred:
            self.pred_by_label[p.label] += 1
            g = by_offsets.get((p.start, p.end))
            if g is None:
                self.confusion[FP, p.label] += 1
                continue
            matched_gold.add((p.start, p.end))
            self.strict_tp += 1
            self.confusion[g.label, p.label] += 1
            if g.label == p.label:
                self.typed_tp += 1
                self.typed_tp_by_label[p.label] += 1
        recalled = covered(gold, pred, text)
        for g, ok in zip(gold, recalled, strict=True):
            risk = g.risk if g.risk is not None else self.labels[g.label].risk
            self.gold_by_label[g.label] += 1
            self.gold_by_risk[risk] += 1
            if ok:
                self.lenient_recalled += 1
                self.recalled_by_risk[risk] += 1
            if (g.start, g.end) not in matched_gold:
                self.confusion[g.label, FN] += 1
        self.lenient_precise += sum(covered(pred, gold, text))

    def result(self) -> SpanScores:
        label_names = list(self.labels.names)
        extra = sorted((set(self.gold_by_label) | set(self.pred_by_label)) - set(label_names))
        label_names += extra
        by_label = {}
        for name in label_names:
            tp, gold, pred = (
                self.typed_tp_by_label[name],
                self.gold_by_label[name],
                self.pred_by_label[name],
            )
            prf = precision_recall_f1(tp, pred, tp, gold)
            by_label[name] = LabelScore(prf.precision, prf.recall, prf.f1, gold, pred)
        rows, columns = [*label_names, FP], [*label_names, FN]
        matrix = [[self.confusion[r, c] for c in columns] for r in rows]
        risks = self.labels.risks
        return SpanScores(
            strict=precision_recall_f1(self.strict_tp, self.n_pred, self.strict_tp, self.n_gold),
            strict_typed=precision_recall_f1(
                self.typed_tp, self.n_pred, self.typed_tp, self.n_gold
            ),
            lenient=precision_recall_f1(
                self.lenient_precise, self.n_pred, self.lenient_recalled, self.n_gold
            ),
            recall_by_risk={
                r: precision_recall_f1(0, 0, self.recalled_by_risk[r], self.gold_by_risk[r]).recall
                for r in reversed(risks)
            },
            by_label=by_label,
            confusion=Confusion(rows, columns, matrix),
            counts={"documents": self.documents, "gold": self.n_gold, "pred": self.n_pred},
            support_by_risk={r: self.gold_by_risk[r] for r in reversed(risks)},
        )


def document_scorers(
    labels, documents: Sequence[Document], predicted: Sequence[Sequence[Span]]
) -> list[SpanScorer]:
    """One scorer per document (``predicted[i]`` the spans found in ``documents[i]``): the
    unit that :func:`bootstrap_intervals` and :func:`paired_intervals` draw."""
    out = []
    for doc, spans in zip(documents, predicted, strict=True):
        scorer = SpanScorer(labels)
        scorer.add(doc.text, doc.spans, spans)
        out.append(scorer)
    return out


def merge_scorers(scorers: Sequence[SpanScorer]) -> SpanScorer:
    """One scorer holding the counts of all ``scorers`` (as if it had scored their
    documents itself): what a bootstrap draw of documents adds up."""
    labels = scorers[0].labels if scorers else DEFAULT_LABELS
    total = SpanScorer(labels)
    for scorer in scorers:
        for name, value in vars(scorer).items():
            if isinstance(value, Counter):
                getattr(total, name).update(value)
            elif isinstance(value, int):
                setattr(total, name, getattr(total, name) + value)
    return total


HEADLINE = ("lenient_precision", "lenient_recall", "recall_high", "strict_f1")


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta of a precision and a recall (``beta`` 2 weighs recall four times), 0 where both
    are 0: the figure calibration maximises and a choice between models compares."""
    if precision + recall == 0:
        return 0.0
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def headline(scores: SpanScores) -> dict[str, float]:
    """The headline figures (docs/evaluation.md): lenient P and R, high-risk R, strict F1."""
    return {
        "lenient_precision": scores.lenient.precision,
        "lenient_recall": scores.lenient.recall,
        "recall_high": scores.recall_by_risk.get("high", 1.0),
        "strict_f1": scores.strict.f1,
    }


def bootstrap_intervals(
    per_document: Sequence[SpanScorer],
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of the :func:`headline` figures over documents drawn with
    replacement. The document, not the span, is the unit: a decision's names repeat, so
    its spans are not independent, and a split of 34 decisions is far less evidence than
    its 700 spans suggest. ``per_document`` holds one scorer per document."""
    import random

    if not per_document:
        raise ValueError("bootstrap_intervals needs at least one document")
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {name: [] for name in HEADLINE}
    for _ in range(samples):
        draw = merge_scorers(rng.choices(per_document, k=len(per_document)))
        for name, value in headline(draw.result()).items():
            draws[name].append(value)
    return {name: percentile_bounds(values, level) for name, values in draws.items()}


def paired_intervals(
    before: Sequence[SpanScorer],
    after: Sequence[SpanScorer],
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    figures: Callable[[SpanScores], dict[str, float]] = headline,
) -> dict[str, dict[str, float]]:
    """The :func:`headline` figures (or those ``figures`` computes from one merged score)
    of two detectors on the same documents, and their differences with paired percentile
    intervals: every draw takes the same documents for both, so a difference that one set
    of documents would give anyway (a hard decision drawn twice) cancels. ``before[i]`` and
    ``after[i]`` score the same document."""
    import random

    if len(before) != len(after) or not before:
        raise ValueError(f"{len(before)} documents before, {len(after)} after: not paired")
    whole_before = figures(merge_scorers(before).result())
    whole_after = figures(merge_scorers(after).result())
    rng = random.Random(seed)
    diffs: dict[str, list[float]] = {name: [] for name in whole_before}
    for _ in range(samples):
        picks = rng.choices(range(len(before)), k=len(before))
        b = figures(merge_scorers([before[i] for i in picks]).result())
        a = figures(merge_scorers([after[i] for i in picks]).result())
        for name in diffs:
            diffs[name].append(a[name] - b[name])
    out = {}
    for name, values in diffs.items():
        low, high = percentile_bounds(values, level)
        out[name] = {
            "before": whole_before[name],
            "after": whole_after[name],
            "difference": whole_after[name] - whole_before[name],
            "low": low,
            "high": high,
        }
    return out


def pair_documents(
    gold: Sequence[Document], pred: Sequence[Document]
) -> list[tuple[Document, list[Span]]]:
    """Match predictions to gold documents by id.

    A gold document without a prediction predicts nothing; a predicted document without
    gold, or with a different text, is an error (scores would be meaningless).
    """
    gold_ids = {doc.id: doc for doc in gold}
    by_id: dict[str, Document] = {}
    for doc in pred:
        if doc.id not in gold_ids:
            raise ValidationError(f"predicted document {doc.id!r} is not in the gold set")
        if doc.text != gold_ids[doc.id].text:
            raise ValidationError(
                f"document {doc.id!r}: predicted text differs from the gold text "
                f"({len(doc.text)} vs {len(gold_ids[doc.id].text)} characters)"
            )
        by_id[doc.id] = doc
    return [(doc, by_id[doc.id].spans if doc.id in by_id else []) for doc in gold]


def score_documents(
    gold: Sequence[Document], pred: Sequence[Document], labels: LabelSet = DEFAULT_LABELS
) -> SpanScores:
    """Score predicted documents against gold documents (matched by id)."""
    scorer = SpanScorer(labels)
    for doc, pred_spans in pair_documents(gold, pred):
        scorer.add(doc.text, doc.spans, pred_spans)
    return scorer.result()


def _parse_spans(raw: Mapping, index: int, labels: LabelSet) -> list[Span]:
    doc = {"id": f"#{index}", "text": raw["text"], "spans": list(raw["spans"])}
    return parse_document(doc, labels, require_risk=False).spans


def _with_risk_keys(doc):
    """Give every span a ``risk`` key (None when absent): Arrow columns need all keys."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("spans"), list):
        return doc
    spans = [{"risk": None, **s} if isinstance(s, Mapping) else s for s in doc["spans"]]
    return {**doc, "spans": spans}


def _with_risk_keys_all(docs):
    return docs if docs is None else [_with_risk_keys(doc) for doc in docs]


# Loaded through ``evaluate.load(path)``, this module also defines an evaluate Metric.
# Plain imports of hf_anon do not pay for importing evaluate (seconds).
if "evaluate" in sys.modules:
    import datasets
    import evaluate

    _SPAN_FEATURE = datasets.List(
        {
            "start": datasets.Value("int64"),
            "end": datasets.Value("int64"),
            "label": datasets.Value("string"),
            "risk": datasets.Value("string"),
        }
    )
    _DOCUMENT_FEATURE = {"text": datasets.Value("string"), "spans": _SPAN_FEATURE}

    class HfAnonSpans(evaluate.Metric):
        """hf-anon span metrics over documents ``{"text": ..., "spans": [...]}``."""

        def _info(self):
            return evaluate.MetricInfo(
                description=__doc__,
                citation="",
                inputs_description=(
                    "predictions, references: documents with 'text' and 'spans' "
                    "(start, end, label, risk) in hf-anon's gold format"
                ),
                features=datasets.Features(
                    {"predictions": _DOCUMENT_FEATURE, "references": _DOCUMENT_FEATURE}
                ),
            )

        # evaluate appends inputs_description to these docstrings: they must exist.
        def add(self, *, prediction=None, reference=None, **kwargs):
            """Add one predicted and one reference document."""
            return super().add(
                prediction=_with_risk_keys(prediction),
                reference=_with_risk_keys(reference),
                **kwargs,
            )

        def add_batch(self, *, predictions=None, references=None, **kwargs):
            """Add predicted and reference documents."""
            return super().add_batch(
                predictions=_with_risk_keys_all(predictions),
                references=_with_risk_keys_all(references),
                **kwargs,
            )

        def compute(self, *, predictions=None, references=None, **kwargs):
            """Score predicted against reference documents (spans may omit ``risk``)."""
            return super().compute(
                predictions=_with_risk_keys_all(predictions),
                references=_with_risk_keys_all(references),
                **kwargs,
            )

        def _compute(self, predictions, references):
            scorer = SpanScorer()
            for index, (pred, gold) in enumerate(zip(predictions, references, strict=True)):
                if pred["text"] != gold["text"]:
                    raise ValueError(f"document {index}: prediction and reference texts differ")
                scorer.add(
                    gold["text"],
                    _parse_spans(gold, index, scorer.labels),
                    _parse_spans(pred, index, scorer.labels),
                )
            return scorer.result().to_dict()
