"""A court's published version of an annotated decision: its spans masked in one convention.

Why: a learned placeholder tagger that sees only the placeholders the courts of the
training set left learns their shapes, not what a placeholder *is*. The exhaustively
annotated real decisions (``data/real/train.jsonl``) know every span and its label; masking
them the way some court would (``A.``, ``XXX``, ``###``, ``Xxxxx``, ``A-Stadt``,
``xx.xx.2016``, ``[Name]``, ``S***``, ``Ａ`` …) gives published texts whose placeholders are
known exactly, *with the label each one hides*, in every convention, in real sentences.

A decision is masked in one :class:`Convention` (courts are consistent), each label with
its own chance of being masked at all (a court always masks the parties, seldom its own
name), one entity keeps one stand-in across the decision, titles and legal forms stay in
clear outside the placeholder (``Dr. A.``, ``X GmbH``), as ``../shared/ANNOTATION.md`` and
the key guides draw the boundaries. Offsets are characters of the returned text.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hf_anon.text.data import Span

#: How a decision writes the names it removes (persons, companies).
NAME_STYLES = (
    "initial",  # A.
    "bare",  # A
    "initials",  # A. B. (one letter per word)
    "initial-ellipsis",  # A…, A...
    "partial",  # Sch., Mü***
    "XXX",  # a run of one letter: XXX, xxx, nnnn, YYY (the letter is the court's)
    "Xxxxx",
    "###",
    "***",
    "ellipsis",  # …, ...
    "bracket",  # [Name], [anonymisiert]
    "numbered",  # A1, B2
    "code",  # AA., AB.
    "underscore",  # S_____
    "fullwidth",  # Ａ
    "star",  # S*
)

#: Chance that a span of each label is masked in a decision (before the court's own bias).
MASK_CHANCE = {
    "nat-name": 0.97,
    "nat-idx": 0.45,
    "nat-jur": 0.35,
    "jur-name": 0.6,
    "jur-idx": 0.7,
    "address-name": 0.85,
    "address-idx": 0.8,
    "car-name": 0.2,
    "car-idx": 0.85,
    "court-name": 0.04,
    "court-docket": 0.25,
    "date-fact": 0.3,
    "date-world": 0.02,
    "id-number": 0.85,
}

_TITLES = re.compile(
    r"^(?:(?:Dr|Prof|Dipl\.-\w+|Herrn?|Frau|Rechtsanwalt|Rechtsanwältin|RA|RAin)\.?\s+)+"
)
_LEGAL_FORM = re.compile(
    r"\s*(?:GmbH\s*&\s*Co\.\s*KG|gGmbH|GmbH|mbH|AG|KG|OHG|GbR|UG(?:\s*\(haftungsbeschränkt\))?"
    r"|e\.\s?V\.|e\.\s?G\.|SE|Ltd\.?|Inc\.?|S\.A\.|B\.V\.|KGaA|PartG(?:\s*mbB)?)$"
)
_STREET = re.compile(
    r"^(?P<name>.*?)(?P<suffix>(?:-|\s)?(?:[Ss]traße|[Ss]tr\.|[Ww]eg|[Gg]asse|[Pp]latz|[Aa]llee|"
    r"[Rr]ing|[Dd]amm|[Uu]fer|[Cc]haussee))(?P<number>\s+\d+\s?[a-z]?(?:\s?-\s?\d+)?)?$"
)
_DATE = re.compile(r"\b\d{1,2}\.\s?(?:\d{1,2}\.|[A-ZÄÖÜ][a-zäöü]+)\s?(?:19|20)\d\d\b")
_POSTCODE = re.compile(r"^(?P<code>\d{5})\s+(?P<town>.+)$")
_TOWN_SUFFIXES = ("-Stadt", "-Dorf", "-Ort", "-Gemeinde", "-Kreis", "")
_BRACKETS = {
    "nat-name": ("[Name]", "[anonymisiert]", "[Person]", "[geschwärzt]"),
    "nat-jur": ("[Name]", "[anonymisiert]"),
    "jur-name": ("[Firma]", "[Name]", "[anonymisiert]"),
    "address-name": ("[Ort]", "[Adresse]", "[anonymisiert]"),
}


@dataclass
class Convention:
    """One court's way of masking: a name style, how letters are chosen, how digits go."""

    name_style: str
    letters: str = "order"  # "order": A, B, C by appearance; "initial": the name's own
    digit_mask: str = "x"  # what replaces each digit of a number or date
    run_letter: str = "X"  # the letter of a run (XXX, xxx, nnnn)
    date_style: str = "digits"  # digits (xx.xx.2016), dots (....2022), whole (…, [Datum])
    town_suffix: str = "-Stadt"
    judges_too: bool = False  # some courts mask judges and lawyers as well
    seed: int = 0  # one entity's stand-in is drawn from it, the same at every mention
    _assigned: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    _count: int = 0

    @classmethod
    def sample(cls, rng: random.Random) -> Convention:
        return cls(
            name_style=rng.choice(NAME_STYLES),
            letters=rng.choice(("order", "initial")),
            digit_mask=rng.choice(("x", "X", "*", "#", ".")),
            run_letter=rng.choice("XXXxxxnNYyZz"),
            date_style=rng.choice(("digits", "digits", "dots", "whole")),
            town_suffix=rng.choice(_TOWN_SUFFIXES),
            judges_too=rng.random() < 0.3,
            seed=rng.randrange(1 << 30),
        )

    def entity_rng(self, surface: str) -> random.Random:
        """The draws for one entity: ``XXX`` stays ``XXX`` (not ``XXXX``) at its next mention."""
        return random.Random(f"{self.seed}:{surface.casefold()}")

    def letter_for(self, family: str, surface: str) -> str:
        """One entity, one letter: the same surface gets the same letter again."""
        key = (family, surface.casefold())
        if key not in self._assigned:
            initial = next((c for c in surface if c.isalpha()), "")
            if self.letters == "initial" and initial:
                letter = initial.upper()
            else:
                letter = string.ascii_uppercase[self._count % 26]
                if self._count >= 26:
                    letter = letter + string.ascii_uppercase[(self._count // 26 - 1) % 26]
                self._count += 1
            self._assigned[key] = letter
        return self._assigned[key]


def _name_mask(surface: str, label: str, convention: Convention) -> str:
    """A name's stand-in, drawn per entity (:meth:`Convention.entity_rng`), not per mention."""
    style = convention.name_style
    rng = convention.entity_rng(surface)
    letter = convention.letter_for("name", surface)
    words = surface.split()
    if style == "initial":
        return f"{letter}."
    if style == "bare":
        return letter
    if style == "initials":
        letters = [convention.letter_for("word", w) for w in words[:3]]
        return " ".join(f"{c}." for c in letters)
    if style == "initial-ellipsis":
        return " ".join(f"{w[:1].upper() or letter}{rng.choice(('…', '...'))}" for w in words[:2])
    if style == "partial":
        first = surface[: rng.choice((1, 2, 3))]
        return first + rng.choice((".", "***", "…", "xxx")) if first.isalpha() else f"{letter}."
    if style == "XXX":
        run = convention.run_letter
        return " ".join(run * rng.choice((3, 3, 4, 5, len(w))) for w in words[:2])
    if style == "Xxxxx":
        return " ".join("X" + "x" * rng.choice((3, 4, 5)) for _ in words[:2])
    if style == "###":
        return "#" * rng.choice((3, 3, 5))
    if style == "***":
        return "*" * rng.choice((3, 4, 5))
    if style == "ellipsis":
        return rng.choice(("…", "...", "(…)", "…"))
    if style == "bracket":
        return rng.choice(_BRACKETS.get(label, ("[anonymisiert]",)))
    if style == "numbered":
        return f"{letter}{rng.randint(1, 9)}"
    if style == "code":
        return f"{letter}{rng.choice('ABCDEFG')}."
    if style == "underscore":
        return letter + "_" * rng.choice((3, 5))
    if style == "fullwidth":
        return chr(ord("Ａ") + ord(letter[0]) - ord("A")) + rng.choice(("", "．"))
    return letter + "*" * rng.choice((1, 3))  # star


def _digits_mask(surface: str, convention: Convention) -> str:
    """Digits (and, in a number, letters) replaced; punctuation and spacing kept."""
    mask = convention.digit_mask
    return "".join(mask if c.isdigit() else c for c in surface)


def _date_mask(surface: str, convention: Convention, rng: random.Random) -> str:
    if convention.date_style == "whole" or not any(c.isdigit() for c in surface):
        return rng.choice(("…", "[Datum]", "XX.XX.XXXX", "..."))
    year = re.search(r"(?:19|20)\d\d$", surface)
    head = surface[: year.start()] if year else surface
    mask = "." if convention.date_style == "dots" else convention.digit_mask
    masked = re.sub(r"\d", mask, head)
    if convention.date_style == "dots":
        masked = re.sub(r"\.{2,}", lambda m: "." * len(m.group()), masked)
    return masked + (year.group() if year else "")


def _place_mask(surface: str, label: str, convention: Convention, rng: random.Random) -> str:
    street = _STREET.match(surface)
    if street and street.group("name"):
        name = _name_mask(street.group("name"), label, convention).rstrip(".")
        number = street.group("number")
        if number and rng.random() < 0.5:
            number = " " + _digits_mask(number.strip(), convention)
        suffix = street.group("suffix")
        if not suffix.startswith(("-", " ")):
            suffix = "-" + suffix.strip().capitalize()
        return name + suffix + (number or "")
    postcode = _POSTCODE.match(surface)
    if postcode:
        code = rng.choice(("00000", "xxxxx", "XXXXX", "…", postcode.group("code")))
        return f"{code} {_place_mask(postcode.group('town'), label, convention, rng)}"
    style = convention.name_style
    if style in ("initial", "bare", "numbered", "code", "initials", "partial", "fullwidth"):
        letter = convention.letter_for("place", surface)
        suffix = convention.town_suffix
        if not suffix:
            return f"{letter}." if style != "bare" else letter
        return f"{letter}{suffix}"
    return _name_mask(surface, label, convention)


def mask_surface(surface: str, label: str, convention: Convention, rng: random.Random) -> str:
    """The stand-in a court of ``convention`` writes for ``surface`` of ``label``."""
    if label in ("nat-name", "nat-jur", "jur-name", "car-name"):
        return _name_mask(surface, label, convention)
    if label == "address-name":
        return _place_mask(surface, label, convention, rng)
    if label in ("date-fact", "date-world") or _DATE.search(surface):
        return _date_mask(surface, convention, rng)  # a birth date (nat-idx) too
    if label == "nat-idx" and not any(c.isdigit() for c in surface):
        return rng.choice(("[…]", "…", "XXX", "[anonymisiert]"))
    if label == "court-name":
        words = surface.split()
        if len(words) > 1:
            return " ".join(words[:-1]) + " " + _name_mask(words[-1], label, convention)
        return _name_mask(surface, label, convention)
    if any(c.isdigit() for c in surface) and rng.random() < 0.8:
        return _digits_mask(surface, convention)
    return rng.choice(("…", "XXX", "***", "###"))


def _core(text: str, span: Span) -> tuple[int, int]:
    """The part of a span a court replaces: titles before a name and a legal form after a
    company stay in clear (``Dr. [A.]``, ``[X] GmbH``)."""
    start, end = span.start, span.end
    surface = text[start:end]
    if span.label in ("nat-name", "nat-jur"):
        title = _TITLES.match(surface)
        if title and title.end() < len(surface):
            start += title.end()
    if span.label == "jur-name":
        form = _LEGAL_FORM.search(text[start:end])
        if form and form.start() > 0:
            end = start + form.start()
    return start, end


def mask_spans(
    text: str,
    spans: Sequence[Span],
    rng: random.Random,
    chance: dict[str, float],
    mask: Callable[[str, str], str],
    core: Callable[[str, Span], tuple[int, int]] | None = None,
) -> tuple[str, list[Span]]:
    """The masking loop of every language: each span, in text order, masked with its
    label's ``chance`` by ``mask(surface, label)``; a span that overlaps one masked before
    it or crosses a line end stays in clear (a court writes a stand-in on one line), and so
    does one whose part to replace (``core``: the span itself where None) is blank. Returns
    the published text and its placeholders, labelled with what they hide, with their risk."""
    parts: list[str] = []
    out: list[Span] = []
    position = shift = 0
    for span in sorted(spans):
        if span.start < position or "\n" in text[span.start : span.end]:
            continue  # overlapping or broken across lines: left in clear
        if rng.random() >= chance.get(span.label, 0.0):
            continue
        start, end = core(text, span) if core else (span.start, span.end)
        surface = text[start:end]
        if not surface.strip():
            continue
        new = mask(surface, span.label)
        parts.append(text[position:start])
        begin = start + shift
        out.append(Span(begin, begin + len(new), span.label, span.risk))
        parts.append(new)
        shift += len(new) - len(surface)
        position = end
    parts.append(text[position:])
    return "".join(parts), out


def mask_decision(
    text: str,
    spans: Sequence[Span],
    rng: random.Random,
    convention: Convention | None = None,
    chance: dict[str, float] | None = None,
) -> tuple[str, list[Span]]:
    """``text`` as a court of ``convention`` (None: a random one) would publish it.

    Each span is masked with its label's chance (:data:`MASK_CHANCE`; judges and lawyers
    nearly always where the convention masks them too); the rest stays in clear. Returns the
    published text and its placeholders, labelled with what they hide.
    """
    convention = convention or Convention.sample(rng)
    chance = {**MASK_CHANCE, **(chance or {})}
    if convention.judges_too:
        chance["nat-jur"] = 0.9
    return mask_spans(
        text, spans, rng, chance,
        lambda surface, label: mask_surface(surface, label, convention, rng), _core,
    )  # fmt: skip


__all__ = [
    "MASK_CHANCE",
    "NAME_STYLES",
    "Convention",
    "mask_decision",
    "mask_spans",
    "mask_surface",
]
