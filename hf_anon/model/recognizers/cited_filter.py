"""A learned second opinion on dates, courts and dockets: this case's, or a cited one's?

The guidelines mark the courts, dates and dockets of *this* case and its instances and
nothing inside a citation of another decision, a statute or a commentary.
:mod:`~hf_anon.model.recognizers.citations` says so by grammar, and each of its patterns was
written from examples; the ordinary prose of 341 training decisions showed where they stop
(`Urteil des Bundesverwaltungsgerichts vom 27. Februar 2003 (2 C 10.02)`, `Urteil vom
18. Juli 2013 – C-523/11 –, curia`, `Stand: 11. März 2025`): 1,855 of the model's dates,
courts and dockets there touch no gold span, and the recognizers add some back after the
filter. The words around such a span tell the two apart more often than any one rule can
(`vgl.`, `Rechtsprechung`, `juris`, a docket that is not the case's own, against `hat …
zurückgewiesen`, `Vorinstanz`, the rubrum), so a linear classifier on hashed words of the
context learns it from exhaustively annotated decisions: each span of those labels that
the detector predicted is an example, *cited* where it touches no gold span.

It runs last in decoding, on every span of :data:`REFERENCE_LABELS` (the model's and the
recognizers'), and drops a span only where it is very sure (:attr:`CitedFilterConfig.threshold`,
chosen high because a missed span costs more than a false one). The weights live in the
model folder (``cited_filter.json``, ``cited_filter.safetensors``); a folder without them
decodes as before. ``datasets_scripts/train_cited_filter.py`` fits it,
``benchmarks/cited_filter_cv.py`` measures it by court.
"""

from __future__ import annotations

import json
import re
import unicodedata
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import torch

from hf_anon.model.recognizers.citations import REFERENCE_LABELS
from hf_anon.model.recognizers.context import header_end
from hf_anon.model.recognizers.dockets import DOCKET_RE, find_dockets
from hf_anon.text.data import Span

CONFIG_FILE = "cited_filter.json"
WEIGHTS_FILE = "cited_filter.safetensors"

WORD = re.compile(r"\w+|[^\w\s]")
NOT_WORD = re.compile(r"\W")


@dataclass
class CitedFilterConfig:
    """What the filter reads and how sure it must be; saved beside its weights.

    ``buckets``: the size of the hashed feature space; ``window``: characters read on each
    side of a span; ``words``: words of each side that count; ``threshold``: the least
    P(cited) at which a span is dropped; ``labels``: the labels it judges; ``language``: the
    language of the text it was trained on (a detector of another language ignores it);
    ``trained_on``: a note of the data; ``epochs``, ``l2``, ``learning_rate``: the fit;
    ``sentence``: also every word of the span's sentence, as a bag (session 55: a citation's
    markers may stand farther off than ``words``)."""

    buckets: int = 1 << 18
    window: int = 100
    words: int = 10
    threshold: float = 0.97
    sentence: bool = False
    labels: tuple[str, ...] = tuple(sorted(REFERENCE_LABELS))
    language: str = "de"
    trained_on: str = ""
    epochs: int = 30
    l2: float = 1e-5
    learning_rate: float = 0.05
    examples: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.buckets < 2:
            raise ValueError(f"buckets must be at least 2, not {self.buckets}")
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")
        if self.window < 1 or self.words < 1:
            raise ValueError("window and words must be positive")
        unknown = set(self.labels) - REFERENCE_LABELS
        if unknown:
            raise ValueError(f"the filter judges only {sorted(REFERENCE_LABELS)}, not {unknown}")
        self.labels = tuple(self.labels)


@dataclass
class DocumentContext:
    """What every span of one document is compared with: the case's own dockets and its
    rubrum (word characters only, so that `7_K_1138_05` in a file name is `7 K 1138/05`)."""

    own: frozenset[str]
    own_keys: frozenset[str]
    header_end: int
    header_key: str
    text: str
    counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str) -> DocumentContext:
        own = frozenset(text[s.start : s.end] for s in find_dockets(text))
        end = header_end(text)
        return cls(own, frozenset(_key(o) for o in own), end, _key(text[:end]), text)

    def count(self, surface: str) -> int:
        """How often ``surface`` occurs in the document (counted once per surface: a long
        decision repeats its dates and dockets)."""
        if surface not in self.counts:
            self.counts[surface] = self.text.count(surface)
        return self.counts[surface]


def _key(text: str) -> str:
    return NOT_WORD.sub("", text)


def _word(word: str) -> str:
    """Digits by their length (a year, a day, a page), words lower-cased and composed."""
    if word.isdigit():
        return f"#{min(len(word), 4)}"
    return unicodedata.normalize("NFC", word).lower()


def span_features(
    text: str, span: Span, context: DocumentContext, config: CitedFilterConfig
) -> list[str]:
    """The names of the features of ``span``: words before and after it (the nearest
    three by position), its label, where it stands, whether a docket follows and whose it
    is, how often its text recurs, whether a bracket is open before it."""
    before = text[max(0, span.start - config.window) : span.start]
    after = text[span.end : span.end + config.window]
    left = [_word(w) for w in WORD.findall(before)][-config.words :]
    right = [_word(w) for w in WORD.findall(after)][: config.words]
    names = ["bias"]
    for i, w in enumerate(reversed(left)):
        names.append("L:" + w)
        if i < 3:
            names.append(f"L{i}:{w}")
    for i, w in enumerate(right):
        names.append("R:" + w)
        if i < 3:
            names.append(f"R{i}:{w}")
    if len(left) >= 2:
        names.append(f"LB:{left[-2]}_{left[-1]}")
    if len(right) >= 2:
        names.append(f"RB:{right[0]}_{right[1]}")
    names.append(f"POS:{min(int(10 * span.start / max(1, len(text))), 9)}")
    names.append(f"HEAD:{int(span.start < 2000)}")
    docket = DOCKET_RE.search(after[:40])
    if docket:
        names.append("RDOCKET:own" if docket.group(0) in context.own else "RDOCKET:other")
        if _key(docket.group(0)) in context.header_key:
            names.append("RDOCKET:inhead")
    surface = text[span.start : span.end]
    names.append(f"CNT:{min(context.count(surface), 5)}")
    key = _key(surface)
    if key and key in context.own_keys:
        names.append("SELFOWN")
    if span.start >= context.header_end and key and key in context.header_key:
        names.append("INHEAD")
    if span.start < context.header_end:
        names.append("ATHEAD")
    opened = text.rfind("(", max(0, span.start - 150), span.start)
    closed = text.rfind(")", max(0, span.start - 150), span.start)
    names.append(f"PAREN:{int(opened > closed)}")
    if config.sentence:
        # sorted: the same order on every run, so that sums of weights are bit for bit equal
        names.extend(sorted({"S:" + _word(w) for w in WORD.findall(sentence_around(text, span))}))
    return names


#: A sentence ends at a full stop, question or exclamation mark before a capital (not after
#: an abbreviation's single letter or a number: `Urt. v. 3. Mai`), or at a line end.
SENTENCE_END = re.compile(r"(?<=[^\W\d]{2}[.!?])\s+(?=[A-ZÄÖÜ])|\n")


def sentence_around(text: str, span: Span, reach: int = 400) -> str:
    """The sentence that holds ``span`` (at most ``reach`` characters each way), the span's
    own text left out."""
    before = text[max(0, span.start - reach) : span.start]
    after = text[span.end : span.end + reach]
    ends = list(SENTENCE_END.finditer(before))
    start = ends[-1].end() if ends else 0
    end = SENTENCE_END.search(after)
    return before[start:] + " " + after[: end.start() if end else len(after)]


def feature_ids(names: Sequence[str], label: str, buckets: int) -> list[int]:
    """Each feature hashed twice: alone and with the span's label (`vom` before a court is
    not `vom` before a date). CRC-32, so the same text gives the same ids on every machine."""
    ids = []
    for name in names:
        ids.append(zlib.crc32(name.encode()) % buckets)
        ids.append(zlib.crc32(f"{label}|{name}".encode()) % buckets)
    return ids


class CitedFilter:
    """P(cited) for the dates, courts and dockets a detector found; drops the sure ones."""

    def __init__(self, config: CitedFilterConfig, weights: torch.Tensor, bias: float):
        if weights.shape != (config.buckets,):
            raise ValueError(
                f"weights of shape {tuple(weights.shape)}; the config says {config.buckets}"
            )
        self.config = config
        self.weights = weights.float()
        self.bias = float(bias)

    # --- use -----------------------------------------------------------------------------

    def probabilities(self, text: str, spans: Sequence[Span]) -> list[float | None]:
        """P(cited) for each span of a judged label, None for the others."""
        out: list[float | None] = [None] * len(spans)
        for i, ids in judged_rows(text, spans, self.config):
            z = float(self.weights[ids].sum()) + self.bias
            out[i] = float(1.0 / (1.0 + np.exp(-z)))
        return out

    def drop(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """``spans`` without those the filter is sure are cited (P ≥ the threshold)."""
        threshold = self.config.threshold
        return [
            s
            for s, p in zip(spans, self.probabilities(text, spans), strict=True)
            if p is None or p < threshold
        ]

    # --- fitting ---------------------------------------------------------------------------

    @classmethod
    def fit(
        cls,
        texts: Sequence[str],
        predicted: Sequence[Sequence[Span]],
        gold: Sequence[Sequence[Span]],
        config: CitedFilterConfig | None = None,
    ) -> CitedFilter:
        """Fit on a detector's spans of exhaustively annotated texts: a span of a judged
        label is *cited* (1) where it touches no gold span of any label, else 0. Full-batch
        Adam on the logistic loss with an L2 penalty, from zero weights: the same data give
        the same filter."""
        config = config or CitedFilterConfig()
        rows, targets = examples(texts, predicted, gold, config)
        if not rows or len(set(targets)) < 2:
            raise ValueError(
                "fitting needs predicted spans both inside and outside the gold spans; "
                f"got {len(rows)} spans, {sum(targets)} of them outside"
            )
        config.examples = {"spans": len(rows), "cited": int(sum(targets))}
        weights, bias = _fit_logistic(rows, targets, config)
        return cls(config, weights, bias)

    # --- files -----------------------------------------------------------------------------

    def save_pretrained(self, folder: str | Path) -> None:
        from safetensors.torch import save_file

        folder = Path(folder)
        save_file({"weights": self.weights.contiguous(), "bias": torch.tensor([self.bias])},
                  str(folder / WEIGHTS_FILE))  # fmt: skip
        (folder / CONFIG_FILE).write_text(json.dumps(asdict(self.config), indent=2) + "\n")

    @classmethod
    def from_folder(cls, folder) -> CitedFilter | None:
        """The filter saved in a model folder (a path or :class:`ModelFolder`), None where
        it has none; a clear error where only one of its two files is there."""
        from safetensors.torch import load_file

        from hf_anon.model.model_folder import ModelFolder

        folder = ModelFolder(folder)
        config_file, weights_file = folder.file(CONFIG_FILE), folder.file(WEIGHTS_FILE)
        if config_file is None and weights_file is None:
            return None
        if config_file is None or weights_file is None:
            raise ValueError(f"{folder} has only one of {CONFIG_FILE} and {WEIGHTS_FILE}")
        data = json.loads(config_file.read_text(encoding="utf-8"))
        known = {f.name for f in fields(CitedFilterConfig)}
        config = CitedFilterConfig(**{k: v for k, v in data.items() if k in known})
        tensors = load_file(str(weights_file))
        return cls(config, tensors["weights"], float(tensors["bias"][0]))


def examples(
    texts: Sequence[str],
    predicted: Sequence[Sequence[Span]],
    gold: Sequence[Sequence[Span]],
    config: CitedFilterConfig,
) -> tuple[list[list[int]], list[int]]:
    """Feature ids and targets (1: touches no gold span) of every judged predicted span."""
    rows, targets = [], []
    for text, spans, truth in zip(texts, predicted, gold, strict=True):
        for i, ids in judged_rows(text, spans, config):
            span = spans[i]
            rows.append(ids)
            targets.append(int(not any(g.start < span.end and span.start < g.end for g in truth)))
    return rows, targets


def judged_rows(
    text: str, spans: Sequence[Span], config: CitedFilterConfig
) -> Iterator[tuple[int, list[int]]]:
    """The index and feature ids of each span of a label the filter judges; the document's
    context is read once, and only where it has such a span."""
    context = None
    for i, span in enumerate(spans):
        if span.label in config.labels:
            context = context or DocumentContext.of(text)
            names = span_features(text, span, context, config)
            yield i, feature_ids(names, span.label, config.buckets)


def _bag(rows: Sequence[Sequence[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    flat = torch.tensor([i for row in rows for i in row], dtype=torch.long)
    offsets = torch.tensor(np.cumsum([0] + [len(r) for r in rows[:-1]]), dtype=torch.long)
    return flat, offsets


def _fit_logistic(
    rows: Sequence[Sequence[int]], targets: Sequence[int], config: CitedFilterConfig
) -> tuple[torch.Tensor, float]:
    bag = torch.nn.EmbeddingBag(config.buckets, 1, mode="sum")
    torch.nn.init.zeros_(bag.weight)
    bias = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.Adam([bag.weight, bias], lr=config.learning_rate)
    flat, offsets = _bag(rows)
    y = torch.tensor(targets, dtype=torch.float32)
    for _ in range(config.epochs):
        optimizer.zero_grad()
        z = bag(flat, offsets).squeeze(1) + bias
        loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
        loss = loss + config.l2 * bag.weight.pow(2).sum()
        loss.backward()
        optimizer.step()
    return bag.weight.detach()[:, 0].clone(), float(bias.detach()[0])
