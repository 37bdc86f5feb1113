"""The placeholder rules of each language behind one door: German decisions by
:mod:`~hf_anon.corpora.placeholders.detector`, Japanese precedents by
:mod:`hf_anon.corpora.japanese.placeholders`.

Why one place: the corpus scripts want spans, the learned tagger wants the rules'
placeholders themselves (their labels and whether a cue decided them, to relabel the
guessed ones); both must pick the same rules for the same text.
"""

from __future__ import annotations

from collections.abc import Sequence

from hf_anon.corpora.placeholders.detector import find_placeholders
from hf_anon.text.data import Document, Span


def rule_placeholders(text: str, language: str = "de") -> list:
    """The rules' placeholders of one text, each with ``to_span()``, ``label`` and
    ``guessed``; ``language="ja"`` reads Japanese precedents, ``auto`` picks by script."""
    from hf_anon.text.languages import resolve_language

    if resolve_language(language, [text]) == "ja":
        from hf_anon.corpora.japanese.placeholders import find_japanese_placeholders

        return find_japanese_placeholders(text)
    return find_placeholders(text)


def placeholder_spans(text: str, language: str = "de") -> list[Span]:
    """Placeholders as :class:`~hf_anon.text.data.Span` (label may be ``unknown``, no
    risk), by the rules of ``language`` (:func:`rule_placeholders`)."""
    return [p.to_span() for p in rule_placeholders(text, language)]


def annotate_placeholders(
    documents: Sequence[Document], *, progress: bool = True, language: str = "de"
) -> list[Document]:
    """Documents with their placeholders as spans (other fields kept), with a progress bar."""
    from tqdm.auto import tqdm

    return [
        Document(
            doc.id, doc.text, placeholder_spans(doc.text, language), doc.domain, dict(doc.meta)
        )
        for doc in tqdm(documents, desc="placeholders", unit="doc", disable=not progress)
    ]


__all__ = ["annotate_placeholders", "placeholder_spans", "rule_placeholders"]
