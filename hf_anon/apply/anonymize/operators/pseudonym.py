"""``pseudonym``: realistic surrogates from :mod:`hf_anon.corpora.surrogates`."""

from __future__ import annotations

import re

from hf_anon.apply.anonymize.operators.base import Operator
from hf_anon.apply.anonymize.operators.registry import register_operator
from hf_anon.corpora.surrogates import (
    DocumentSurrogates,
    NameBook,
    SurrogateFactory,
    supported_labels,
)
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.names import ends_sentence


@register_operator
class Pseudonym(Operator):
    """Realistic surrogates from :mod:`hf_anon.corpora.surrogates` (seed 002).

    Names keep their shape (first and last name, surname alone, ``Müller, Hans``,
    double names, titles), gender from cues such as ``Herr``/``die Zeugin``, and a
    genitive stays a genitive (``Müllers`` → ``Schmidts``); streets stay streets with
    numbers, dates keep their format, IBANs get valid checksums. One entity one surrogate; never the
    original. With a secret, names and other values are derived from the entity (the
    same person gets the same pseudonym in every document); dates of the facts are still
    laid out per document so that their order stays plausible.
    """

    name = "pseudonym"

    def validate(self, label=None):
        if label is not None and label not in supported_labels():
            raise ValueError(
                f"no pseudonyms for label {label!r} (known: {sorted(supported_labels())}); "
                "choose another operator for it"
            )

    def operate(self, mentions, context):
        if context.language == "ja":
            return _japanese(mentions, context)
        spans = [m.span for m in mentions]
        labels = [m.label for m in mentions]
        factory = SurrogateFactory(context.document_rng("pseudonym"))
        # With a secret, each name part is drawn from a generator keyed by that part.
        names = NameBook(factory, rng_for=context.rng if context.keyed else None)
        label_set = mentions[0].label_set if mentions else DEFAULT_LABELS
        state = DocumentSurrogates(
            factory, context.text, spans, labels, label_set=label_set, names=names
        )
        persons = [i for i, m in enumerate(mentions) if m.is_name]
        state.read_names(persons)
        # Full names first, so that a first name alone takes the first name its full
        # name got (`Hans` … `Hans Müller` → `Jan` … `Jan Schulz`).
        full = [i for i in persons if state.mentions[i].firsts and state.mentions[i].last]
        rest = sorted(set(persons) - set(full))
        others = [i for i, m in enumerate(mentions) if not m.is_name]
        values: list[str] = [""] * len(mentions)
        for i in [*others, *full, *rest]:
            m = mentions[i]
            if context.keyed and not m.is_name:
                factory.rng = context.rng("pseudonym", m.label, *m.entity.key)
            value = state.surrogate(i, m.label)
            after = context.text[m.span.end : m.span.end + 30]
            if (
                re.search(r"[^.]\.$", m.text)
                and not value.endswith(".")
                and not after.startswith(".")
                and ends_sentence(after)
            ):
                value += "."  # the span's period also ended the sentence
            values[i] = value
        return values


def _japanese(mentions, context) -> list[str]:
    """Japanese surrogates (Faker ``ja_JP``, :mod:`hf_anon.corpora.japanese.surrogates`):
    one value per entity, drawn from a generator keyed by the entity (with a secret, the
    same in every document); never the original text."""
    from hf_anon.corpora.japanese.surrogates import JapaneseSurrogates, nfkc

    values: dict[tuple[str, int], str] = {}
    out = []
    for m in mentions:
        slot = (m.label, m.entity.id)
        if slot not in values:
            draw = JapaneseSurrogates(context.rng("pseudonym-ja", m.label, *m.entity.key))
            value = draw.value(m.label)
            while nfkc(value) == nfkc(m.text):
                value = draw.value(m.label)
            values[slot] = value
        out.append(values[slot])
    return out
