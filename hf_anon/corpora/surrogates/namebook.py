"""People's names in one document: mentions taken apart, and their surrogate name parts."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hf_anon.corpora.placeholders.shapes import nfkc, placeholder_kind
from hf_anon.corpora.surrogates.factory import SurrogateFactory
from hf_anon.text.names import first_name_genders, genitive, known_last_names


def name_key(token: str, occurrence: str) -> str:
    """Mentions of one person share keys: ``A.``/``A...``/``Ａ`` → ``ph:A``; a bare ``…``
    could hide anyone, so each gets a key of its own."""
    token = nfkc(token)
    kind = placeholder_kind(token)
    if kind == "ellipsis":
        return f"…{occurrence}"
    if kind in ("initial", "genitive"):
        return "ph:" + token[0]
    return ("ph:" if kind else "tx:") + token


@dataclass
class NameMention:
    """One name span, taken apart; ``last`` is None for a first name alone."""

    firsts: list[str]
    last: str | None
    genitive: bool
    comma: bool
    cue: str | None
    first_keys: tuple[str, ...]
    last_key: str | None
    introduce: bool = False
    prefix: str = ""


def name_mention(
    i: int,
    firsts: list[str],
    last: str,
    comma: bool,
    cue: str | None,
    known_firsts: set[str],
    known_lasts: set[str],
) -> NameMention:
    genitive = False
    kind = placeholder_kind(last)
    if kind == "genitive":
        last, genitive = last[:-1], True
    elif kind is None and last.endswith("s") and not firsts:
        stem = last[:-1]
        genitive = stem in known_lasts or (
            last not in known_last_names() and stem in known_last_names()
        )
        last = stem if genitive else last
    lone_first = (
        not firsts
        and kind is None
        and not genitive
        and (
            last in known_firsts
            or (
                last in first_name_genders()
                and last not in known_last_names()
                and last not in known_lasts
            )
        )
    )
    if lone_first:
        return NameMention([last], None, False, False, cue, (name_key(last, f"{i}:0"),), None)
    first_keys = tuple(name_key(t, f"{i}:{n}") for n, t in enumerate(firsts))
    last_key = name_key(last, f"{i}:last")
    return NameMention(firsts, last, genitive, comma, cue, first_keys, last_key)


@dataclass
class NameBook:
    """One document's name parts: original surname/first names → surrogate ones.

    A surname gets one surrogate wherever it appears (also in a genitive or in
    ``Müller, Hans``), the first names of a full name one surrogate per surname, and
    first names sound like the surname's locale. Values come from ``factory``.

    ``rng_for`` decides where the randomness of each new name part comes from. None: the
    factory's generator, one stream for the document. A function of the part's key
    (``("gender", key)``, ``("surname", key)``, ``("first", *keys, last_key, gender)``)
    returning a ``random.Random``: each part is drawn from its own generator. The
    anonymizer passes a generator keyed with HMAC(secret, part), so that with a secret
    the same surname gets the same surrogate in every document.
    """

    factory: SurrogateFactory
    rng_for: Callable[..., random.Random] | None = None
    surnames: dict[str, tuple[str, str]] = field(default_factory=dict)
    firsts: dict[tuple[tuple[str, ...], str | None], str] = field(default_factory=dict)
    lone_firsts: dict[str, str] = field(default_factory=dict)
    genders: dict[str, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    claimed: set[str] = field(default_factory=set)

    def _draw_for(self, *key: str) -> None:
        """The next draws of the factory come from the generator of ``key`` (if injected)."""
        if self.rng_for is not None:
            self.factory.rng = self.rng_for(*key)

    def gender(self, mention: NameMention) -> str:
        if mention.cue:
            return mention.cue
        if mention.firsts and mention.firsts[0] in first_name_genders():
            return first_name_genders()[mention.firsts[0]]
        key = mention.last_key or mention.first_keys[0]
        if key not in self.genders:
            self._draw_for("gender", key)
            self.genders[key] = self.factory.gender()
        return self.genders[key]

    def surname(self, key: str, original: str, gender: str) -> tuple[str, str]:
        if key not in self.surnames:
            self._draw_for("surname", key)
            double = "-" in original.strip("-")
            locale, attempt = self.factory.name_locale(), 0
            name = self.factory.last_name(gender, locale, double=double)
            while name == original or (name in self.used and attempt < 40):
                attempt += 1
                if attempt % 4 == 0:
                    locale = self.factory.name_locale()
                name = self.factory.last_name(gender, locale, double=double)
            self.used.add(name)
            self.surnames[key] = (name, locale)
        return self.surnames[key]

    def first_names(
        self, keys: tuple[str, ...], originals: list[str], last_key: str | None, gender: str
    ) -> str:
        if (keys, last_key) not in self.firsts:
            self._draw_for("first", *keys, last_key or "", gender)
        introduced = self.firsts.get((("intro",), last_key))
        if (keys, last_key) not in self.firsts and introduced and last_key not in self.claimed:
            # `Herr A.` (introduced as `Kemal Aydın`) reappears as `H... A...`
            self.claimed.add(last_key or "")
            if len(originals) == 1:
                self.firsts[(keys, last_key)] = introduced
        if (keys, last_key) not in self.firsts:
            locale = self.surnames[last_key][1] if last_key in self.surnames else None
            if locale is None or self.factory.rng.random() < 0.1:
                locale = self.factory.name_locale()
            names = []
            for original in originals:
                double = "-" in original.strip("-") and placeholder_kind(original) is None
                name = self.factory.first_name(gender, locale, double=double)
                while name == original or name in names:
                    name = self.factory.first_name(gender, locale, double=double)
                if double and "-" not in name:
                    name = name.replace(" ", "-")
                names.append(name)
            self.firsts[(keys, last_key)] = " ".join(names)
            for key, name in zip(keys, names, strict=True):
                self.lone_firsts.setdefault(key, name)
        return self.firsts[(keys, last_key)]

    def render(self, mention: NameMention) -> str:
        return mention.prefix + self._name(mention)

    def _name(self, mention: NameMention) -> str:
        gender = self.gender(mention)
        if mention.last is None:  # a first name alone
            key = mention.first_keys[0]
            if key not in self.lone_firsts:
                self.first_names(mention.first_keys, mention.firsts, None, gender)
            return self.lone_firsts[key]
        assert mention.last_key is not None
        last, _ = self.surname(mention.last_key, mention.last, gender)
        if mention.genitive:
            last = genitive(last)
        firsts = mention.firsts
        keys = mention.first_keys
        if mention.introduce:
            firsts, keys = ["…"], ("intro",)
        if not firsts:
            return last
        first = self.first_names(keys, firsts, mention.last_key, gender)
        return f"{last}, {first}" if mention.comma else f"{first} {last}"
