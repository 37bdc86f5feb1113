"""LER's tokens → natural text with the offsets of every token (rules in
:mod:`hf_anon.corpora.ler`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# --- detokenization -------------------------------------------------------------------

OPEN, CLOSE, INFIX, GLUE_LEFT, PLAIN = "open", "close", "infix", "glue-left", "plain"
CLOSING_FIRST_CHARS = frozenset(",.;:!?)]}")
HYPHEN_BREAKERS = frozenset({"und", "oder", "sowie", "bzw", "bzw.", "als", "wie", "noch", ","})
RE_ELLIPSIS = re.compile(r"^(?:\.{2,}|…+)$")
RE_PLACEHOLDER_LETTER = re.compile(r"^[A-ZÄÖÜ]\d{0,2}$")


@dataclass
class _QuoteState:
    double: bool = False
    single: bool = False
    low: int = 0
    low_single: int = 0
    english: int = 0
    english_single: int = 0


APOSTROPHE_TAILS = frozenset({"s", "t", "n", "ne", "nen", "m", "d", "ll", "re", "ve"})


def _is_apostrophe(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> bool:
    """``Pkw ' s``, ``geht ' s``, ``d ’ aspiration``: an apostrophe, not a quote."""
    if not (prev and nxt and prev[-1].isalnum() and nxt[0].isalnum()):
        return False
    if tok == "'":
        return not q.single and nxt in APOSTROPHE_TAILS
    return nxt in APOSTROPHE_TAILS or len(prev) == 1


def _quote_role(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> str | None:
    """The role of a quote token, updating which quotes are open; None if not a quote."""
    if tok == '"':
        q.double = not q.double
        return OPEN if q.double else CLOSE
    if tok in {"'", "’"} and _is_apostrophe(tok, prev, nxt, q):
        return INFIX
    if tok == "'":
        q.single = not q.single
        return OPEN if q.single else CLOSE
    if tok in {"„", "»"}:
        q.low += 1
        return OPEN
    if tok == "‚":
        q.low_single += 1
        return OPEN
    if tok == "“":
        if q.low:
            q.low -= 1
            return CLOSE
        q.english += 1
        return OPEN
    if tok in {"”", "«"}:
        q.english = max(0, q.english - 1)
        return CLOSE
    if tok == "‘":
        if q.low_single:
            q.low_single -= 1
            return CLOSE
        q.english_single += 1
        return OPEN
    if tok == "’":
        q.english_single = max(0, q.english_single - 1)
        return CLOSE
    return None


def _token_role(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> str:
    """How a token attaches to its neighbours (see the module docstring's table)."""
    if tok[0].isalnum():  # words and numbers: the common case, nothing to decide
        return PLAIN
    role = _quote_role(tok, prev, nxt, q)
    if role is not None:
        return role
    if tok in {"(", "[", "{"}:
        return OPEN
    if tok == "/":
        return INFIX
    if RE_ELLIPSIS.match(tok):
        return GLUE_LEFT if prev and RE_PLACEHOLDER_LETTER.match(prev) else PLAIN
    if tok[0] in CLOSING_FIRST_CHARS and not re.match(r"^\.\d", tok):
        return CLOSE
    if re.match(r"^\.\d", tok):
        return GLUE_LEFT
    if len(tok) > 1 and tok[0] == "-" and tok[1].isalnum() and prev is not None:
        return PLAIN if prev in HYPHEN_BREAKERS else GLUE_LEFT
    return PLAIN


def _angle_pairs(tokens: Sequence[str]) -> set[int]:
    """Positions of ``<`` and ``>`` that pair up as brackets (each ``>`` closes the
    nearest open ``<``); the others are comparison signs."""
    paired: set[int] = set()
    open_at: int | None = None
    for i, tok in enumerate(tokens):
        if tok == "<":
            open_at = i
        elif tok == ">" and open_at is not None:
            paired |= {open_at, i}
            open_at = None
    return paired


def detokenize(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """Join tokens into natural German text; return it and each token's ``(start, end)``.

    Offsets are characters into the returned text, so ``text[start:end] == token`` for
    every token. Tokens must be non-empty and free of whitespace.
    """
    parts: list[str] = []
    offsets: list[tuple[int, int]] = []
    quotes = _QuoteState()
    angles = _angle_pairs(tokens)
    position = 0
    previous_role = OPEN  # nothing before the first token
    for i, tok in enumerate(tokens):
        if not tok or any(ch.isspace() for ch in tok):
            raise ValueError(f"token {i} {tok!r}: tokens must be non-empty without whitespace")
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        role = _token_role(tok, prev, nxt, quotes)
        if i in angles:
            role = OPEN if tok == "<" else CLOSE
        glued = previous_role in {OPEN, INFIX} or role in {CLOSE, INFIX, GLUE_LEFT}
        if i and not glued:
            parts.append(" ")
            position += 1
        parts.append(tok)
        offsets.append((position, position + len(tok)))
        position += len(tok)
        previous_role = role
    return "".join(parts), offsets
