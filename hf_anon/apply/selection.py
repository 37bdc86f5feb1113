"""What to annotate next: unannotated decisions ranked by the model's doubt and novelty.

Annotation is the expensive part; it should go where the model is weakest. For every
decision of a corpus, :func:`rank_documents` measures

- **doubt**: how unsure the model is of its own tags, the mean entropy of the per-token
  span tag distribution (``B``/``I``/``O``) over the decision's tokens, scaled to 0–1, with
  the share of its spans that lie near their label's threshold
  (:func:`hf_anon.apply.review.doubt`);
- **novelty**: whether its court is one the training data has (0), has not (1), or is not
  named (0.5): the unseen-court test shows that courts the model has not seen are where
  it fails.

The score is ``doubt + novelty_weight × novelty``; :func:`select` takes the best ``budget``
decisions, at most ``per_court`` of one court first, so that one odd court does not take
the whole budget.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from hf_anon.apply.review import doubt
from hf_anon.corpora.courts import court_identity
from hf_anon.text.data import Document

#: How much an unseen court adds to a decision's doubt (both lie in 0–1).
NOVELTY_WEIGHT = 0.5
#: Decisions of one court taken before the others' turn.
PER_COURT = 3
#: Documents read by the model at a time.
CHUNK = 32


@dataclass
class Ranked:
    """One decision's place in the ranking."""

    id: str
    court: str | None
    doubt: float
    novelty: float
    score: float

    def to_dict(self) -> dict:
        return asdict(self)


def court_of(document: Document) -> str | None:
    """The court a document names in its metadata (``court``), if any."""
    court = (document.meta or {}).get("court")
    return str(court).strip() or None if court else None


def novelty(court: str | None, training_courts: Iterable[str]) -> float:
    """1 for a court the training data lacks, 0 for one it has, 0.5 for none named. Courts
    are compared as one court whatever the spelling (``Verwaltungsgericht Köln 5. Kammer``
    is ``VG Köln``; :func:`hf_anon.corpora.courts.court_identity`), or a court written
    differently in two sources would count as new."""
    return _novelty(court_identity(court), seen_courts(training_courts))


def seen_courts(training_courts: Iterable[str | None]) -> frozenset[str]:
    """The courts of the training data, each as one court whatever its spelling."""
    return frozenset(filter(None, map(court_identity, training_courts)))


def _novelty(identity: str | None, seen: frozenset[str]) -> float:
    if identity is None:
        return 0.5
    return 0.0 if identity in seen else 1.0


def tag_entropy(tags: np.ndarray) -> float:
    """Mean entropy of the span tag distributions (rows), scaled to 0–1."""
    if tags is None or len(tags) == 0:
        return 0.0
    p = np.clip(np.asarray(tags, dtype=np.float64), 1e-12, 1.0)
    entropy = -(p * np.log(p)).sum(axis=1) / np.log(p.shape[1])
    return float(entropy.mean())


def rank_documents(
    detector,
    documents: Sequence[Document],
    training_courts: Iterable[str] = (),
    *,
    novelty_weight: float = NOVELTY_WEIGHT,
    batch_size: int = 16,
    progress: bool = False,
) -> list[Ranked]:
    """Every document with its doubt, novelty and score, best first (ties by id)."""
    seen = seen_courts(training_courts)  # once, not once per document
    thresholds = dict(getattr(detector, "label_thresholds", None) or {})
    ranked = []
    for document, tags, found in _read(detector, documents, batch_size, progress):
        doubtful = sum(doubt(s.score, s.label, "detector", thresholds) is not None for s in found)
        uncertainty = tag_entropy(tags) + (doubtful / len(found) if found else 0.0)
        uncertainty /= 2  # both parts lie in 0–1
        court = court_of(document)
        new = _novelty(court_identity(court), seen)
        score = uncertainty + novelty_weight * new
        ranked.append(Ranked(document.id, court, round(uncertainty, 6), new, round(score, 6)))
    ranked.sort(key=lambda r: (-r.score, r.id))
    return ranked


def _read(detector, documents: Sequence[Document], batch_size: int, progress: bool):
    """Each document with its tag probabilities and spans, a chunk at a time (a corpus of
    thousands of decisions is never held in probabilities at once)."""
    from tqdm.auto import tqdm

    bar = tqdm(total=len(documents), desc="select", unit="doc", disable=not progress)
    for start in range(0, len(documents), CHUNK):
        chunk = documents[start : start + CHUNK]
        predicted = detector.predict_probabilities(chunk, batch_size=batch_size)
        for document, (_, tags, _, _), found in zip(
            chunk, predicted, detector.decode_all(predicted), strict=True
        ):
            yield document, tags, found
        bar.update(len(chunk))
    bar.close()


def select(ranked: Sequence[Ranked], budget: int, *, per_court: int = PER_COURT) -> list[Ranked]:
    """The ``budget`` best decisions, at most ``per_court`` of one court in a first round
    (documents without a court count as their own court each), then the best of the rest.
    Courts are counted as one court whatever the spelling (two senates of one OVG are one
    court, as for novelty), or a court published by chamber would fill the first round."""
    if budget < 1:
        raise ValueError(f"the budget must be at least 1, got {budget}")
    chosen, taken = [], Counter()
    for item in ranked:
        key = court_identity(item.court) or f"\x00{item.id}"
        if taken[key] < per_court:
            chosen.append(item)
            taken[key] += 1
        if len(chosen) == budget:
            return chosen
    ids = {item.id for item in chosen}
    rest = [item for item in ranked if item.id not in ids]
    return chosen + rest[: budget - len(chosen)]
