"""Word in, Word out: a ``.docx`` anonymized in place, with nothing hidden left behind.

:func:`anonymize_docx` opens the file (:func:`hf_anon.text.word.open_word`: comments,
tracked changes, hidden text, properties, variables, alt text and image metadata removed;
the text of body, tables, text boxes, headers, footers and notes read as one text), lets
the :class:`~hf_anon.apply.anonymize.Anonymizer` find and replace what is sensitive in that
text, and :func:`write_anonymized_docx` writes every replacement into the runs it came
from, each taking the formatting of its first run. A replacement never merges paragraphs:
where a detected stretch runs over a paragraph break (or from one part into the next), the
value ends at the break and the rest of the stretch is cut, so the Word file keeps the
breaks that the ``.txt`` (:attr:`AnonymizationResult.text`) closes up.

Two checks fail closed before a byte is written (:class:`~hf_anon.apply.anonymize.LeakError`):
the text read back from the written parts must be the anonymized text exactly, and no
protected form (:mod:`~hf_anon.apply.anonymize.leakcheck`) may remain in any XML part of
the file: not in a field instruction, an attribute, a relationship or a property.
External link targets that hold one (``mailto:`` a party) are emptied first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from hf_anon.apply.anonymize.leakcheck import (
    LEAK_MIN_SCORE,
    FormMatcher,
    japanese_forms,
    protected_forms,
    unreferenced,
)
from hf_anon.apply.anonymize.types import AnonymizationResult, LeakError
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.word import WordDocument, open_word
from hf_anon.text.word.extraction import paragraph_texts, read_word_text
from hf_anon.text.word.package import W, w

#: What an emptied external link points to.
EMPTY_TARGET = "#"
#: Attributes that hold codes, never text a person wrote: font and script names of the
#: theme (the script code ``Hans`` is Simplified Chinese, not a first name), ids.
CODE_ATTRIBUTES = frozenset({"script", "typeface", "panose", "pitchFamily", "charset"})


@dataclass
class WordResult:
    """An anonymized Word file: its bytes, the anonymization of its text (offsets on the
    text the model read, as for a ``.txt``) and what was removed from it, by kind."""

    docx: bytes
    result: AnonymizationResult
    removed: Counter

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_bytes(self.docx)
        return path


def anonymize_docx(
    source: bytes | str | Path,
    anonymizer,
    *,
    revisions: str = "accept",
    **options,
) -> WordResult:
    """Anonymize a ``.docx`` (bytes or a path) with ``anonymizer``; ``options`` as for
    :meth:`~hf_anon.apply.anonymize.Anonymizer.anonymize` (``mode``, ``seed``, ``key`` …).
    ``revisions``: tracked changes are accepted (the default) or rejected; either way no
    history stays."""
    document = open_word(source, revisions=revisions)
    plan = options.pop("plan", None) or anonymizer.plan(
        **{k: options.pop(k) for k in list(options) if k in _PLAN_OPTIONS}
    )
    result = anonymizer.anonymize(document.text, plan=plan, **options)
    data = write_anonymized_docx(
        document,
        result,
        label_set=anonymizer.label_set,
        leak_min_score=plan.leak_min_score,
        language=anonymizer.language,
    )
    return WordResult(data, result, document.removed)


_PLAN_OPTIONS = ("mode", "operators", "labels", "min_risk", "leak_min_score")


def write_anonymized_docx(
    document: WordDocument,
    result: AnonymizationResult,
    *,
    label_set: LabelSet = DEFAULT_LABELS,
    leak_min_score: float = LEAK_MIN_SCORE,
    language: str = "de",
) -> bytes:
    """The ``.docx`` bytes of ``document`` with ``result``'s replacements made in its runs
    (``result`` anonymizes ``document.text``). Changes ``document`` in place: write it
    once. Raises :class:`LeakError`, writing nothing, where the written file would not
    read as ``result.text`` (paragraph breaks kept:
    :meth:`~hf_anon.text.word.extraction.WordText.replaced_text`) or would still hold a
    protected form."""
    original = document.text
    replacements = [(r.start, r.end, r.text) for r in result.replacements]
    expected = document.content.replaced_text(replacements)  # result.text, breaks kept
    document.content.replace(replacements)
    package = document.package
    if read_word_text(package).text != expected:
        raise LeakError(
            f"{package.name}: the written document does not read as the anonymized text; "
            "nothing is written"
        )
    matcher = _matcher(original, result, label_set, leak_min_score, language)
    if matcher is not None:
        document.removed["link targets"] += _empty_link_targets(document, matcher)
        for part, where in _leaks(document, matcher):
            raise LeakError(
                f"{package.name}: a protected form remains in {part} ({where}); nothing is written"
            )
    document.removed = +document.removed
    return package.to_bytes()


def _matcher(text, result, label_set, min_score, language) -> FormMatcher | None:
    spans = [Span(r.start, r.end, r.label, r.risk, r.score) for r in result.replacements]
    if language == "ja":
        forms = japanese_forms(text, spans, min_score=min_score)
    else:
        forms = protected_forms(text, spans, label_set, min_score=min_score)
    return FormMatcher(forms, words=language != "ja") if forms else None


def _has_leak(text: str, matcher: FormMatcher) -> bool:
    return bool(unreferenced(text, matcher.finditer(text), matcher))


def _empty_link_targets(document: WordDocument, matcher: FormMatcher) -> int:
    """Empty the external targets (links, ``mailto:``) that name a protected form."""
    count = 0
    for part in document.package.story_parts():
        for rel in document.package.relationships(part):
            if rel.external and _has_leak(rel.target, matcher):
                rel.element.set("Target", EMPTY_TARGET)
                count += 1
    return count


def _leaks(document: WordDocument, matcher: FormMatcher):
    """``(part, where)`` of every protected form left in an XML part: in the paragraphs
    of the text parts (read as the model read them, so a name split over runs counts),
    in any other text node (field instructions, properties) and in attribute values."""
    package = document.package
    stories = set(package.story_parts())
    for part in package.xml_parts():
        root = package.xml(part)
        if part in stories:
            for text in paragraph_texts(root):
                if _has_leak(text, matcher):
                    yield part, "text"
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            own = element.text if not (part in stories and element.tag == w("t")) else None
            attributes = [
                v
                for k, v in element.attrib.items()
                if etree.QName(k).localname not in CODE_ATTRIBUTES
            ]
            for value in (own, *attributes):
                if value and _has_leak(value, matcher):
                    yield part, _name(element)


def _name(element: etree._Element) -> str:
    qname = etree.QName(element)
    return f"w:{qname.localname}" if qname.namespace == W else qname.localname
