"""The per-label surrogate rules: a table from label to the function that fills it.

A rule reads span ``i`` of a :class:`~hf_anon.corpora.surrogates.document.DocumentSurrogates`
(its text, the words around it, the other spans) and returns a consistency key and a
value maker: spans with equal keys get one value (None: a value of its own), and the
maker draws a candidate, which the document checks against the original and the label's
other values. Names of people have no rule here: the name book renders them.

>>> @register_surrogate("my-label")  # doctest: +SKIP
... def my_label(doc, i):
...     text, before, after = doc.context(i)
...     return doc.key(text), lambda: doc.factory.reference_number()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hf_anon.text.labels import DEFAULT_LABELS

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates

#: What a rule returns: the consistency key (None: no sharing) and the value maker.
Rule = tuple[str | None, Callable[[], str]]
#: A rule: (document, span index) → :data:`Rule`.
SurrogateRule = Callable[["DocumentSurrogates", int], Rule]

#: label → its rule; :func:`register_surrogate` adds to it.
SURROGATES: dict[str, SurrogateRule] = {}


def register_surrogate(*labels: str) -> Callable[[SurrogateRule], SurrogateRule]:
    """Decorator: the rule that fills spans of ``labels``."""
    if not labels:
        raise ValueError("register_surrogate needs at least one label")

    def register(rule: SurrogateRule) -> SurrogateRule:
        for label in labels:
            SURROGATES[label] = rule
        return rule

    return register


def supported_labels() -> frozenset[str]:
    """The labels that get surrogates: the default person labels (the name book) and
    every label with a rule."""
    return DEFAULT_LABELS.person_labels | frozenset(SURROGATES)
