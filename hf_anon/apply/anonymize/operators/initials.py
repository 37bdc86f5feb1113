"""``initials``: random initials, never the real ones (``K. T.``, ``T.s``)."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from hf_anon.apply.anonymize.entities import fold
from hf_anon.apply.anonymize.operators.base import Operator
from hf_anon.apply.anonymize.operators.registry import register_operator
from hf_anon.apply.anonymize.types import Mention
from hf_anon.corpora.japanese.surrogates import full_width

#: Letters for random initials (no Q, X, Y: rare as initials, X reads as a mask).
INITIAL_LETTERS = "ABCDEFGHIJKLMNOPRSTUVWZ"


def _base_letter(char: str) -> str:
    """``Ö`` → ``O``, ``Ş`` → ``S``: the letter an initial would be confused with."""
    folded = unicodedata.normalize("NFKD", char)[:1].upper()
    return folded or char.upper()


@register_operator
class Initials(Operator):
    """Random initials: ``Hans Müller`` → ``K. T.``, ``Müller`` → ``T.``.

    Never the real initials (seed 001 and 002: real initials are easily re-identified);
    consistent per name part, so surname-only mentions and relatives sharing a surname
    keep their relation. Without a secret, different surnames of a document get
    different letters where possible. Meant for names; other labels get one random
    initial per word.
    """

    name = "initials"

    def operate(self, mentions, context):
        if context.language == "ja":
            return [_court_letter(m) for m in mentions]
        assigned: dict[tuple[str, ...], str] = {}
        used: dict[str, set[str]] = defaultdict(set)

        def letter(kind: str, key: tuple[str, ...], real: str) -> str:
            full_key = (kind, *key)
            if full_key not in assigned:
                rng = context.rng("initials", *full_key)
                choices = [c for c in INITIAL_LETTERS if c != _base_letter(real)]
                fresh = [c for c in choices if c not in used[kind]]
                pick = rng.choice(fresh if fresh and not context.keyed else choices)
                assigned[full_key] = pick
                used[kind].add(pick)
            return assigned[full_key]

        out = []
        for m in mentions:
            if m.is_name:
                value = self._name(m, letter)
            else:
                words = re.findall(r"\w+", m.text) or [m.text]
                ekey = m.entity.key
                value = " ".join(
                    letter("word", (*ekey, str(i)), w[:1]) + "." for i, w in enumerate(words)
                )
            if value.endswith(".") and context.text.startswith(".", m.span.end):
                value = value[:-1]  # `Herr Müller.` → `Herr T.`, not `Herr T..`
            out.append(value)
        return out

    @staticmethod
    def _name(m: Mention, letter) -> str:
        surname_key = m.entity.surname or ""
        firsts = [letter("first", (surname_key, fold(f)), f[:1]) + "." for f in m.first_names if f]
        if m.surname is None:
            return m.prefix + " ".join(firsts)
        parts = [p for p in re.split(r"-", m.surname) if p] or [m.surname]
        last = "-".join(
            letter("surname", (fold(m.surname), str(i)), p.lstrip("'")[:1]) + "."
            for i, p in enumerate(parts)
        )
        if m.genitive:
            last += "s"
        if not firsts:
            return m.prefix + last
        if m.comma:
            return f"{m.prefix}{last}, {' '.join(firsts)}"
        return f"{m.prefix}{' '.join(firsts)} {last}"


#: Full-width capitals, as Japanese courts write their placeholders (``被告人Ａ``).
COURT_LETTERS = "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＲＳＴＵＶＷＸＹＺ"


def _court_letter(m: Mention) -> str:
    """Japanese text: the courts' own style. Each named entity (people, companies) gets a
    full-width capital in order of first mention per label (``Ａ``, ``Ｂ``, …; with a secret
    chosen by its keyed tag); other spans become ``＊＊＊``."""
    if not (m.is_name or m.label == "jur-name"):
        return "＊＊＊"
    index = int(m.tag, 16) if m.tag and not m.tag.isdigit() else m.number - 1
    letter = COURT_LETTERS[index % len(COURT_LETTERS)]
    rounds = index // len(COURT_LETTERS)
    return letter + (full_width(str(rounds + 1)) if rounds else "")
