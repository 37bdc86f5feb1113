"""Word files (``.docx``) read for anonymization and written back with their formatting.

- :mod:`~hf_anon.text.word.package`: the zip archive's parts, read safely, written back;
- :mod:`~hf_anon.text.word.revisions`: tracked changes accepted or rejected;
- :mod:`~hf_anon.text.word.cleaning`: comments, hidden text, properties, variables and
  alt text removed (and :mod:`~hf_anon.text.word.media`: image metadata);
- :mod:`~hf_anon.text.word.extraction`: the text of body, headers, footers and notes, and
  replacements made inside the runs.

:func:`open_word` does all of it in order and gives a :class:`WordDocument`, whose
:attr:`~WordDocument.text` is what the model reads; the anonymizer writes its replacements
back with :func:`hf_anon.apply.word.write_anonymized_docx`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hf_anon.text.word.cleaning import clean_package
from hf_anon.text.word.extraction import WordText, read_word_text
from hf_anon.text.word.package import WordPackage
from hf_anon.text.word.revisions import REVISION_MODES


@dataclass
class WordDocument:
    """A cleaned Word file: its parts, its text and what cleaning removed (by kind)."""

    package: WordPackage
    content: WordText
    removed: Counter = field(default_factory=Counter)

    @property
    def text(self) -> str:
        return self.content.text


def open_word(
    data: bytes | str | Path, name: str | None = None, *, revisions: str = "accept"
) -> WordDocument:
    """Read a ``.docx`` (bytes or a path), remove what it hides
    (:func:`~hf_anon.text.word.cleaning.clean_package`; tracked changes accepted or
    rejected) and read its text. Raises :class:`~hf_anon.text.errors.InputError` for a
    file that is no readable Word file."""
    if revisions not in REVISION_MODES:
        raise ValueError(f"revisions must be one of {', '.join(REVISION_MODES)}, got {revisions!r}")
    if isinstance(data, str | Path):
        name = name or str(data)
        data = Path(data).read_bytes()
    package = WordPackage.read(data, name or "document.docx")
    removed = clean_package(package, revisions=revisions)
    return WordDocument(package, read_word_text(package), removed)


__all__ = ["WordDocument", "WordPackage", "WordText", "open_word"]
