"""The leak check: protected surface forms, and where they still appear in a text.

Every selected span's surface form (for names also each name part) must not appear
anywhere in the output. :func:`protected_forms` lists them, :class:`FormMatcher` finds
them as whole words in any case (one trie-shaped regex, fast on megabytes), and
:func:`leak_targets` turns their occurrences outside the spans into more stretches to
replace (``source="leak-check"``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hf_anon.anonymize.types import Target
from hf_anon.data import Span
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.names import NAME_PARTICLES, TITLES, parse_name

#: Shortest surface form (non-space characters) that the leak check searches for; a
#: two-digit age would otherwise replace every ``45`` in the text.
MIN_FORM_CHARS = 3
#: Shortest name part (letters) that the leak check searches for on its own.
MIN_NAME_PART_LETTERS = 3


def form_key(text: str) -> str:
    """How the leak check looks a matched text up: case, accents and spacing ignored
    (``İlhan``, ``ILHAN`` and ``ilhan`` are one key; ``str.lower`` would turn ``İ`` into
    two characters)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class Form:
    """A protected form: where it comes from, and whether a genitive of it counts."""

    origin: Span  # the (first) span this form comes from
    genitive: bool  # a trailing s or apostrophe is part of the same name


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def protected_forms(
    text: str, spans: Iterable[Span], label_set: LabelSet = DEFAULT_LABELS
) -> dict[str, Form]:
    """The surface forms that must not appear in the output, as written (spacing
    collapsed; also in NFKC), each with the span it comes from.

    Each span's whole text (at least :data:`MIN_FORM_CHARS` non-space characters, at
    least one letter or digit) and, for names of people (``label_set``'s person labels),
    its name without titles and each name part of at least :data:`MIN_NAME_PART_LETTERS`
    letters (particles such as ``von`` not). A form made only of closed-class words
    (:mod:`hf_anon.words`) is never searched: one ``der`` tagged as an address must not
    replace every ``der`` of the decision (``Die Kündigung der Wohnung`` stays as it is).
    """
    from hf_anon.words import closed_class_words

    closed = closed_class_words()
    persons = label_set.person_labels
    forms: dict[str, Form] = {}

    def add(form: str, span: Span, genitive: bool) -> None:
        raw = " ".join(form.split())
        if all(word.strip(".,;:'’\"„“").lower() in closed for word in raw.split()):
            return  # `der`, `und`, `in der`: function words, never a name
        for variant in (raw, unicodedata.normalize("NFKC", raw)):
            informative = any(c.isalnum() for c in variant)  # `[…]` or `***` hides, not tells
            if informative and len(variant.replace(" ", "")) >= MIN_FORM_CHARS:
                forms.setdefault(variant, Form(span, genitive))

    for span in spans:
        surface = text[span.start : span.end]
        is_name = span.label in persons
        add(surface, span, is_name)
        if not is_name:
            continue
        prefix, firsts, last, _ = parse_name(surface)
        add(surface[len(prefix) :], span, True)
        for part in re.split(r"[\s,\x00-\x1f\x7f]+", " ".join([*firsts, last])):
            for piece in dict.fromkeys((part, *part.split("-"))):
                piece = piece.strip(".'’")
                if (
                    _letters(piece) >= MIN_NAME_PART_LETTERS
                    and piece.casefold() not in NAME_PARTICLES
                    and piece.casefold() + "." not in TITLES
                ):
                    add(piece, span, True)
    return forms


# Trie leaves; tuples, so that they never collide with a character of a form.
_GENITIVE_END = ("end", "genitive")
_PLAIN_END = ("end", "plain")


def _trie_pattern(forms: Iterable[tuple[str, bool]]) -> str:
    """A regex matching any of the forms as whole words (longest first); with
    ``re.IGNORECASE`` any case, any whitespace where a form has a space; genitive forms
    may end in ``s``/``'``.

    A trie, not an alternation: Python's ``re`` tries alternatives one by one, which is
    too slow for thousands of forms on megabytes of text.
    """
    root: dict = {}
    for form, genitive in forms:
        node = root
        for char in form:
            node = node.setdefault(char, {})
        node[_GENITIVE_END if genitive else _PLAIN_END] = {}

    def emit(node: dict) -> str:
        branches = []
        for char in sorted(c for c in node if c not in (_GENITIVE_END, _PLAIN_END)):
            literal, child = char, node[char]
            pieces = [r"\s+" if literal == " " else re.escape(literal)]
            # collapse chains of single children into one literal run
            while len(child) == 1 and next(iter(child)) not in (_GENITIVE_END, _PLAIN_END):
                literal, child = next(iter(child.items()))
                pieces.append(r"\s+" if literal == " " else re.escape(literal))
            branches.append("".join(pieces) + emit(child))
        if _GENITIVE_END in node:
            branches.append("(?:s|'|’)?")
        if _PLAIN_END in node:
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return r"(?<!\w)" + emit(root) + r"(?!\w)"


class FormMatcher:
    """Finds protected forms as whole words, in any case (see :func:`protected_forms`)."""

    def __init__(self, forms: Mapping[str, Form]):
        self.forms = dict(forms)
        self.keys: dict[str, Form] = {}
        for form, info in self.forms.items():
            self.keys.setdefault(form_key(form), info)
        self.pattern = (
            re.compile(_trie_pattern((k, f.genitive) for k, f in self.forms.items()), re.I)
            if self.forms
            else None
        )

    def form_of(self, matched: str) -> Form | None:
        """The form (and its span) a match of the pattern stands for."""
        key = form_key(matched)
        if key in self.keys:
            return self.keys[key]
        stem = key.rstrip("'’")
        stem = stem[:-1] if stem == key and key.endswith("s") else stem
        form = self.keys.get(stem)
        if form is not None and form.genitive:
            return form
        # a case variant the key does not unify (`ß` against `ẞ`): any form, fail closed
        return next(iter(self.keys.values()), None)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None):
        if self.pattern is None:
            return iter(())
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)

    def search(self, text: str) -> re.Match | None:
        return None if self.pattern is None else self.pattern.search(text)


def leak_targets(text: str, targets: Sequence[Target], matcher: FormMatcher) -> list[Target]:
    """Occurrences of protected forms outside the spans to replace, as new targets."""
    found = []
    cursor = 0
    bounds = [(t.span.start, t.span.end) for t in targets] + [(len(text), len(text))]
    for start, end in bounds:
        for match in matcher.finditer(text, cursor, start):
            origin = matcher.form_of(match.group(0)).origin
            span = Span(match.start(), match.end(), origin.label, origin.risk)
            found.append(Target(span, "leak-check", origin))
        cursor = max(cursor, end)
    return found
