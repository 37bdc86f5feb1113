"""Pseudonymization of span documents: every span replaced by a consistent surrogate."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

from hf_anon.corpora.surrogates.document import DocumentSurrogates
from hf_anon.corpora.surrogates.factory import SurrogateFactory
from hf_anon.corpora.surrogates.organization_pool import OrganizationChoices
from hf_anon.text.data import Document, Span, check_no_overlap
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.names import ends_sentence


class Pseudonymizer:
    """Replace a document's spans with consistent, realistic surrogates.

    Works on placeholders of published decisions (``Herr A.``, ``X-Straße 1``,
    ``xx.xx.2016``, ``HRB …``) and on real gold spans alike, and returns a new document
    whose spans lie exactly on the surrogates (same labels; risk as given, else the
    label's usual risk). Each document's randomness comes from ``seed`` and its id, so
    the output does not depend on which other documents are processed or in what order.

    Documented choices:

    - A person hidden behind a one-letter initial (``Herr A.``) is introduced with first
      and last name at its first mention (the court shortened a full name), later
      mentions get the surname; so is a line-initial ``Xxxxx`` (a Rubrum party). Judges
      and lawyers (``nat-jur``), and ``unknown`` spans without a cue such as ``Herr``
      (they may be no person at all), keep a surname only.
    - A bare ``…`` or ``...`` could hide anything, so each gets a surrogate of its own;
      equal texts otherwise mean equal entities (``X-Straße 1`` twice → one street),
      except partly masked dates, which are usually different days.
    - When a placeholder's final period also ended the sentence (``… die Zeugin C.``
      at the end of a sentence), a period is put back after the surrogate.
    - With ``organizations`` (per document), a company without a kind its context names
      (insurer, car dealer, cooperative, landlord) gets one of those real names.
    """

    def __init__(
        self, seed: int = 0, labels: LabelSet = DEFAULT_LABELS, unknown_label: str = "nat-name"
    ) -> None:
        if unknown_label not in labels:
            raise ValueError(f"unknown_label {unknown_label!r} is not in the label set")
        self.seed = seed
        self.labels = labels
        self.unknown_label = unknown_label

    def rng_for(self, doc_id: str) -> random.Random:
        """The document's own generator: string seeds hash with SHA-512, stable across runs."""
        return random.Random(f"{self.seed}\x00{doc_id}")

    def pseudonymize(
        self,
        doc: Document,
        replace: Callable[[Span], bool] | None = None,
        organizations: OrganizationChoices | None = None,
    ) -> Document:
        """A new document with each span (where ``replace(span)``, default all) replaced;
        companies drawn from ``organizations`` where given."""
        spans = sorted(doc.spans)
        check_no_overlap(spans, doc.id)
        labels = [self.unknown_label if s.label == "unknown" else s.label for s in spans]
        chosen = [replace is None or replace(s) for s in spans]
        factory = SurrogateFactory(self.rng_for(doc.id), organizations=organizations)
        state = DocumentSurrogates(factory, doc.text, spans, labels)
        state.guessed = {i for i, s in enumerate(spans) if s.label == "unknown"}
        state.read_names(
            i for i, label in enumerate(labels) if chosen[i] and label in self.labels.person_labels
        )
        text = doc.text
        pieces: list[str] = []
        out: list[Span] = []
        cursor = length = 0
        for i, span in enumerate(spans):
            gap = text[cursor : span.start]
            original = text[span.start : span.end]
            value = state.surrogate(i, labels[i]) if chosen[i] else original
            pieces += (gap, value)
            start = length + len(gap)
            length = start + len(value)
            risk = span.risk or self.labels[labels[i]].risk
            out.append(Span(start, length, labels[i], risk, span.score))
            cursor = span.end
            after = text[span.end : span.end + 30]
            if (
                chosen[i]
                and re.search(r"[^.]\.$", original)
                and not value.endswith(".")
                and not after.startswith(".")
                and ends_sentence(after)
            ):
                pieces.append(".")
                length += 1
        pieces.append(text[cursor:])
        return Document(doc.id, "".join(pieces), out, doc.domain, dict(doc.meta))


def pseudonymize_documents(docs: Iterable[Document], seed: int = 0, **kwargs) -> list[Document]:
    """Pseudonymize many documents with one :class:`Pseudonymizer` (``kwargs``: its
    ``labels``/``unknown_label``, and ``replace`` for :meth:`Pseudonymizer.pseudonymize`)."""
    replace = kwargs.pop("replace", None)
    pseudonymizer = Pseudonymizer(seed=seed, **kwargs)
    return [pseudonymizer.pseudonymize(doc, replace) for doc in docs]
