"""The leak check: protected surface forms, and where they still appear in a text.

Every selected span's surface form (for names also each name part) must not appear
anywhere in the output. :func:`protected_forms` lists them, :class:`FormMatcher` finds
them as whole words in any case (one trie-shaped regex, fast on megabytes), and
:func:`leak_targets` turns their occurrences outside the spans into more stretches to
replace (``source="leak-check"``).

The leak check catches the mentions of a found entity that the detector missed; it must
never spread a doubtful detection over a decision. So it searches only forms that can be
names of that entity, each rule with the example that motivates it:

1. **No closed-class words.** A form made only of articles, prepositions, conjunctions,
   pronouns or auxiliaries (:func:`hf_anon.text.lexicon.is_closed_class`, the ``stop-words``
   package's German list) is never searched: one ``der`` tagged as an address must not
   replace every ``der``/``Der`` of ``Die Kündigung der Wohnung ist wirksam. Der Vermieter
   hat der Mieterin gekündigt.``, nor ``und`` of ``Herr und Frau Weber`` every ``und``.
2. **No doubtful detections.** A span the detector scored below ``min_score``
   (:data:`LEAK_MIN_SCORE`, ``1 - P(O)``: less likely sensitive than not) is replaced where
   it stands, but its form is not searched: a model unsure whether ``Erlaubnis`` or
   ``Unterhalt`` is a name (score 0.3) must not replace every ``Erlaubnis`` of the text.
   Spans without a score (rules, gold files, other detectors) count as certain.
3. **No lower-case common-noun readings.** A one-word form written with a capital letter
   is not matched where the text writes it all in lower case (``weiß`` for the surname
   ``Weiß``: ``Der Zeuge weiß nichts``), except right after a salutation, title or role
   (``Herr weiß``, ``Zeugin weiß`` in a sloppy transcript), where only the name reading
   makes sense. Capitalised and ALL-CAPS occurrences (``WEIß``, ``Weiß`` at any place)
   are matched as before: the case of a name says nothing there. A name of several words
   is matched in any case (``hans weiß`` is no common noun), and so is a form that is
   no word of letters (``WWW.KANZLEI-WEBER.DE``, a VIN or an e-mail address the rubrum
   prints in capitals).
4. **Name parts only for people.** For labels that name people (:attr:`Label.is_person`:
   ``nat-name``, ``nat-jur``) the name without titles and each name part of at least
   :data:`MIN_NAME_PART_LETTERS` letters is searched (``Müller`` of ``Hans Müller``,
   with a genitive ``Müllers``); particles (``von``), titles (``Dr.``) and role or kinship
   nouns before the name (``Mutter`` of ``Mutter Katharina Moser``, ``Familie`` of
   ``Familie Kowalczyk``) are not name parts. For every other label only the whole
   surface form is searched: ``Bahnhofstraße 12``, never ``Bahnhofstraße`` alone (``Die
   Bahnhofstraße ist eine Einbahnstraße`` names nobody's address).
5. **No short numbers.** A form of digits alone shorter than :data:`MIN_NUMBER_CHARS` is
   not searched: a year ``2024`` tagged as a date of the facts must not cut the year out
   of every other date (``Urteil vom 5.7.2024``) and amount, and forms shorter than
   :data:`MIN_FORM_CHARS` not at all (an age ``45``).
6. **No references.** An occurrence that stands inside a reference to another text is
   no mention of this case's entity and is left as written, by the rules the detector
   applies to its own spans (:func:`hf_anon.model.recognizers.cited_flags`): a date of the facts
   ``01.04.2024`` must not be replaced in ``Inkrafttreten des KCanG zum 01.04.2024``, nor
   a court ``BVerwG`` in ``Urteil vom 25. August 1992 - BVerwG 1 C 38.90 - BVerwGE 90,
   337``, nor a party's town ``München`` in another court's name (``OLG München,
   Beschluss vom 05.07.2024``, ``Richter am Amtsgericht München``), nor a court in a
   judge's title (``Richter am Bundesverwaltungsgericht Sailer``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from hf_anon.apply.anonymize.types import Target
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.names import NAME_PARTICLES, TITLES, parse_name

#: Shortest surface form (non-space characters) that the leak check searches for; a
#: two-digit age would otherwise replace every ``45`` in the text.
MIN_FORM_CHARS = 3
#: Shortest form of digits alone that the leak check searches for: a year (``2024``) or a
#: house number found once would otherwise replace the same number in every other date
#: (``5.7.2024``) and amount; a postcode (``93047``) is still searched.
MIN_NUMBER_CHARS = 5
#: Shortest name part (letters) that the leak check searches for on its own.
MIN_NAME_PART_LETTERS = 3
#: Lowest detector score (``1 - P(O)``, mean over the span's tokens) whose form the leak
#: check searches: below it the detector thinks the span more likely not sensitive.
LEAK_MIN_SCORE = 0.5


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
    cased: bool = False  # written with a capital: an all lower-case match is another word


#: At most this many ``ss`` of one form are also searched as ``ß`` (2**n spellings).
MAX_SHARP_S = 3


def sharp_s_spellings(form: str) -> list[str]:
    """The other spellings of ``form`` with ``ß`` for ``ss`` and back.

    ``re.IGNORECASE`` matches one character with one, and the capitals of ``ß`` are
    ``SS``: a form ``Hohe Straße 12`` would miss the rubrum's ``HOHE STRASSE 12`` (and the
    Swiss ``Hohe Strasse 12``), a form ``WEISS`` the ``Weiß`` of the text. So ``ß``/``ẞ``
    are also searched as ``ss``, and each choice of ``ss`` (up to :data:`MAX_SHARP_S` of
    them) as ``ß`` (``SCHLOSSSTRASSE`` → ``Schlossstraße``). :func:`form_key` already
    treats them as one (``casefold``).
    """
    base = form.replace("ß", "ss").replace("ẞ", "SS")
    pairs = [m.start() for m in re.finditer("ss", base, re.IGNORECASE)]
    if len(pairs) > MAX_SHARP_S:
        return [base] if base != form else []
    out = []
    for chosen in range(2 ** len(pairs)):
        chars = list(base)
        for i in reversed(range(len(pairs))):
            if chosen >> i & 1:
                chars[pairs[i] : pairs[i] + 2] = ["ß"]
        spelling = "".join(chars)
        if spelling != form:
            out.append(spelling)
    return out


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def protected_forms(
    text: str,
    spans: Iterable[Span],
    label_set: LabelSet = DEFAULT_LABELS,
    *,
    min_score: float = LEAK_MIN_SCORE,
) -> dict[str, Form]:
    """The surface forms that must not appear in the output, as written (spacing
    collapsed; also in NFKC and with ``ß`` spelt ``ss`` and back,
    :func:`sharp_s_spellings`), each with the span it comes from.

    Each span's whole text (at least :data:`MIN_FORM_CHARS` non-space characters, at
    least one letter or digit) and, for names of people (``label_set``'s person labels),
    its name without titles and each name part of at least :data:`MIN_NAME_PART_LETTERS`
    letters. Never a form of closed-class words only, nor a form of a span scored below
    ``min_score``, nor a role noun before a name, nor a short number (rules 1, 2, 4 and 5
    of the module's docstring).
    """
    from hf_anon.text.lexicon import is_closed_class
    from hf_anon.text.names import is_person_noun

    persons = label_set.person_labels
    forms: dict[str, Form] = {}

    def add(form: str, span: Span, genitive: bool) -> None:
        raw = " ".join(form.split())
        if all(is_closed_class(word.lower()) for word in raw.split()):
            return  # rule 1: `der`, `und`, `in der`: function words, never a name
        # rule 3: one word of letters; `WWW.KANZLEI.DE`, a VIN or an e-mail in capitals has
        # no lower-case reading that is another word
        cased = any(c.isupper() for c in raw) and all(c.isalpha() or c in "-'’" for c in raw)
        nfkc = unicodedata.normalize("NFKC", raw)
        for variant in dict.fromkeys((raw, nfkc, *sharp_s_spellings(raw))):
            informative = any(c.isalnum() for c in variant)  # `[…]` or `***` hides, not tells
            chars = len(variant.replace(" ", ""))
            if variant.replace(" ", "").isdigit() and chars < MIN_NUMBER_CHARS:
                continue  # `2024`: a year, not this date
            if informative and chars >= MIN_FORM_CHARS:
                forms.setdefault(variant, Form(span, genitive, cased))

    for span in spans:
        if span.score is not None and span.score < min_score:
            continue  # rule 2: a doubtful detection is replaced, never spread
        surface = text[span.start : span.end]
        is_name = span.label in persons
        add(surface, span, is_name)
        if not is_name:
            continue  # rule 4: other labels by their whole surface form only
        prefix, firsts, last, _ = parse_name(surface)
        while firsts and is_person_noun(firsts[0]):
            firsts = firsts[1:]  # `Mutter Katharina Moser`, `Familie Kowalczyk`
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


def japanese_forms(
    text: str, spans: Iterable[Span], *, min_score: float = LEAK_MIN_SCORE
) -> dict[str, Form]:
    """The protected forms of Japanese text: each span's whole text (and its NFKC form),
    for a name written with a space also the name without it and each part of at least two
    characters (``田中 太郎`` → ``田中太郎``, ``田中``, ``太郎``). Japanese has no spaces
    between words, so :class:`FormMatcher` finds them anywhere (``words=False``); one
    character is never a form (``田`` is in countless words), nor a short number."""
    forms: dict[str, Form] = {}

    def add(form: str, span: Span) -> None:
        for variant in dict.fromkeys((form, unicodedata.normalize("NFKC", form))):
            bare = "".join(variant.split())
            if len(bare) < 2 or not any(c.isalnum() for c in bare):
                continue
            if bare.isdigit() and len(bare) < MIN_NUMBER_CHARS:
                continue
            forms.setdefault(variant, Form(span, False))

    for span in spans:
        if span.score is not None and span.score < min_score:
            continue
        surface = text[span.start : span.end]
        add(surface, span)
        parts = surface.split()
        if span.label in {"nat-name", "nat-jur"} and len(parts) > 1:
            add("".join(parts), span)
            for part in parts:
                add(part, span)
    return forms


def _after_person_word(text: str, start: int) -> bool:
    """Whether a salutation, title or role noun stands right before ``start``
    (``Herr weiß``, ``Dr. weiß``, ``Zeugin weiß``)."""
    from hf_anon.text.names import is_person_noun

    before = text[max(0, start - 60) : start].split()
    return bool(before) and (is_person_noun(before[-1]) or before[-1].lower() in TITLES)


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
    """Finds protected forms as whole words, in any case (see :func:`protected_forms`);
    with ``words=False`` anywhere, also inside longer runs of letters (Japanese)."""

    def __init__(self, forms: Mapping[str, Form], *, words: bool = True):
        self.forms = dict(forms)
        self.keys: dict[str, Form] = {}
        for form, info in self.forms.items():
            self.keys.setdefault(form_key(form), info)
        pattern = _trie_pattern((k, f.genitive) for k, f in self.forms.items())
        if not words:
            pattern = pattern.removeprefix(r"(?<!\w)").removesuffix(r"(?!\w)")
        self.pattern = re.compile(pattern, re.I) if self.forms else None

    def form_of(self, matched: str, *, fallback: bool = True) -> Form | None:
        """The form (and its span) a match of the pattern stands for; with ``fallback``
        any form where the key does not tell (fail closed), else None."""
        key = form_key(matched)
        if key in self.keys:
            return self.keys[key]
        stem = key.rstrip("'’")
        stem = stem[:-1] if stem == key and key.endswith("s") else stem
        form = self.keys.get(stem)
        if form is not None and form.genitive:
            return form
        # a case variant the key does not unify (`ß` against `ẞ`): any form, fail closed
        return next(iter(self.keys.values()), None) if fallback else None

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match]:
        """Occurrences of protected forms in ``text[pos:endpos]``, without lower-case
        readings of capitalised forms (rule 3 of the module's docstring)."""
        if self.pattern is None:
            return
        for match in self.pattern.finditer(text, pos, len(text) if endpos is None else endpos):
            found = match.group(0)
            if any(c.isupper() for c in found) or not any(c.isalpha() for c in found):
                yield match
                continue
            form = self.form_of(found, fallback=False)
            if form is None or not form.cased or _after_person_word(text, match.start()):
                yield match

    def search(self, text: str) -> re.Match | None:
        return next(self.finditer(text), None)


def _in_other_court(text: str, start: int, end: int, own_courts) -> bool:
    """Whether ``text[start:end]`` is the place in a court's name that is not this case's
    court: a cited court, case law, a judge's title (what
    :func:`hf_anon.model.recognizers.find_courts` leaves out; ``own_courts()`` gives its
    courts)."""
    from hf_anon.model.recognizers.courts import COURT_RE

    window_start = max(0, start - 80)
    for m in COURT_RE.finditer(text, window_start, min(len(text), end + 80)):
        if m.start() < start and end <= m.end():
            return not any(c.start <= start and end <= c.end for c in own_courts())
    return False


def in_references(text: str, spans: Sequence[Span]) -> list[bool]:
    """For each span (an occurrence with its form's label), whether it stands inside a
    reference to another text and is left as written (rule 6 of the module's docstring)."""
    from functools import cache

    from hf_anon.model.recognizers.citations import cited_flags
    from hf_anon.model.recognizers.courts import find_courts, in_title

    own_courts = cache(lambda: find_courts(text))  # once, and only where a place needs it
    return [
        is_cited
        or (span.label == "court-name" and in_title(text, span.start))
        or (
            span.label.startswith("address")
            and _in_other_court(text, span.start, span.end, own_courts)
        )
        for span, is_cited in zip(spans, cited_flags(text, spans), strict=True)
    ]


def _unreferenced(
    text: str, matches: Iterable[re.Match], matcher: FormMatcher
) -> list[tuple[re.Match, Span, Span]]:
    """``matches`` outside references (:func:`in_references`), each with its span (the
    match's offsets, its form's label and risk) and the span its form comes from."""
    found = []
    for match in matches:
        origin = matcher.form_of(match.group(0)).origin
        span = Span(match.start(), match.end(), origin.label, origin.risk)
        found.append((match, span, origin))
    if not found:
        return []
    skip = in_references(text, [span for _, span, _ in found])
    return [item for item, skipped in zip(found, skip, strict=True) if not skipped]


def unreferenced(text: str, matches: Iterable[re.Match], matcher: FormMatcher) -> list[re.Match]:
    """``matches`` of protected forms without those inside a reference to another text
    (rule 6 of the module's docstring)."""
    return [match for match, _, _ in _unreferenced(text, matches, matcher)]


def leak_targets(text: str, targets: Sequence[Target], matcher: FormMatcher) -> list[Target]:
    """Occurrences of protected forms outside the spans to replace, as new targets."""
    matches = []
    cursor = 0
    bounds = [(t.span.start, t.span.end) for t in targets] + [(len(text), len(text))]
    for start, end in bounds:
        matches += matcher.finditer(text, cursor, start)
        cursor = max(cursor, end)
    return [
        Target(span, "leak-check", origin)
        for _, span, origin in _unreferenced(text, matches, matcher)
    ]
