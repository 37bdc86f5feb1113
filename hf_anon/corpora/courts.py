"""Which court a decision comes from: one name per court, for splits and selections by court.

The sources spell one court many ways (``Verwaltungsgericht Mainz 3. Kammer``, ``VG Mainz``,
``Bundesgerichtshof XI. Zivilsenat``, ``BGH``). A split that keeps courts apart needs one
name per court, else a court "never seen" is only a spelling never seen.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

_COURT_WORDS = {
    "Verwaltungsgerichtshof": "VGH",
    "Oberverwaltungsgericht": "OVG",
    "Verwaltungsgericht": "VG",
    "Oberlandesgericht": "OLG",
    "Landgericht": "LG",
    "Amtsgericht": "AG",
    "Landesarbeitsgericht": "LAG",
    "Arbeitsgericht": "ArbG",
    "Landessozialgericht": "LSG",
    "Sozialgericht": "SG",
    "Finanzgericht": "FG",
}

_FEDERAL = {
    "Bundesgerichtshof": "BGH",
    "Bundesverwaltungsgericht": "BVerwG",
    "Bundessozialgericht": "BSG",
    "Bundesarbeitsgericht": "BAG",
    "Bundesfinanzhof": "BFH",
    "Bundesverfassungsgericht": "BVerfG",
    "Bundespatentgericht": "BPatG",
}


#: Abbreviation → type word (``LG`` → ``Landgericht``), the inverse of ``_COURT_WORDS``
_TYPE_WORDS = {short: word for word, short in _COURT_WORDS.items()}


def court_type(court: str) -> str:
    """The type word of a court named by its abbreviation (``LG Köln 28. Zivilkammer`` →
    ``Landgericht``), as the corpora's ``court_type`` field spells it; else the first word."""
    first = next(iter(court.split()), "")
    return _TYPE_WORDS.get(first, first)


def normalize_court(court: str | None) -> str | None:
    """One name per court: types abbreviated, chambers and senates dropped."""
    if not court:
        return None
    court = re.sub(
        r"\d+[a-z]?\.\s*(?:Kammer|Senat|Zivilsenat|Strafsenat|Zivilkammer|Berufungskammer)",
        "",
        court,
    )
    court = re.sub(
        r"\bfür (?:Familiensachen|Bußgeldsachen)\b|\bfür das Land\b|\bdes Landes\b", "", court
    )
    court = re.sub(r"\s+(?:Der|Die|Das)$", "", court.strip())
    for word, short in _COURT_WORDS.items():
        court = court.replace(word, short)
    court = re.sub(
        r"^(?:Schleswig-Holsteinisches|Saarländisches|Sächsisches|Thüringer|Hessisches) ", "", court
    )
    court = court.replace("Nordrhein-Westfalen", "NRW").replace("des Saarlandes", "Saarland")
    court = re.sub(r" am Main\b| \(Saale\)", "", court)
    court = court.replace(" (Weinstraße)", " an der Weinstraße")
    return " ".join(court.split()) or None


_STATE_ADJECTIVES = {
    "Schleswig-Holsteinische": "Schleswig-Holstein",
    "Saarländische": "Saarland",
    "Sächsische": "Sachsen",
    "Thüringer": "Thüringen",
    "Hessische": "Hessen",
    "Bayerische": "Bayern",
    "Brandenburgische": "Brandenburg",
    "Niedersächsische": "Niedersachsen",
    "Hamburgische": "Hamburg",
    "Pfälzische": "Pfalz",
}
_STATE_PREFIX = re.compile(r"^(" + "|".join(_STATE_ADJECTIVES) + r")[rsn]?\s+(\S.*)$")


def court_identity(court: str | None) -> str | None:
    """The court itself, whatever the spelling: :func:`normalize_court`, and federal courts
    by their abbreviation without senate or seat (``Bundesgerichtshof XI. Zivilsenat`` and
    ``BGH`` are one court; ``BPatG München`` is the ``BPatG``), the state of a court named by
    its adjective kept (``Thüringer Oberlandesgericht`` is ``OLG Thüringen``, not any OLG).
    ``normalize_court`` stays as it was: the placeholder keys' selections were drawn with it."""
    if court and (m := _STATE_PREFIX.match(court.strip())):  # Thüringer OLG: OLG Thüringen
        court = f"{m.group(2)} {_STATE_ADJECTIVES[m.group(1)]}"
    name = normalize_court(court)
    if name is None:
        return None
    for long, short in _FEDERAL.items():
        name = name.replace(long, short)
    name = re.sub(r"\b[IVX]+\.\s*(?:Zivil|Straf)?[Ss]enat\b", "", name)
    # a chamber named by its matters is the court's too (``LG Köln 8. Kammer für
    # Handelssachen`` is the LG Köln); normalize_court leaves it, its draws stay as they were
    name = re.sub(r"(?:\b(?:Kammer|Senat)\s+)?\bfür \w+sachen\b", "", name)
    name = re.sub(r"^(BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG)\b.*$", r"\1", name.strip())
    return " ".join(name.split()) or None


def court_key(decision) -> str:
    """What a decision is grouped by: its court (:func:`court_identity` of
    ``meta["court"]``), or its source (the id's prefix) where it names none."""
    return court_identity(decision.meta.get("court")) or decision.id.split(":")[0]


def folds_by_court(decisions: Sequence, folds: int) -> list[int]:
    """A fold (0 … ``folds`` − 1) for each decision, by its :func:`court_key`: every
    decision of one court falls in one fold, whatever the spelling, so a fold measures courts
    the other folds never saw. Stable across runs and machines (a hash, not a draw), so a
    fold written for training today is the fold a benchmark leaves out tomorrow."""
    if folds < 1:
        raise ValueError(f"folds must be at least 1, not {folds}")
    return [hashlib.sha256(court_key(d).encode()).digest()[0] % folds for d in decisions]


#: How many folds by court the real training rounds 4-9 are split into (``data/real``).
ROUND_FOLDS = 5
#: The folds of rounds 4-9 (counted from 1, of :data:`ROUND_FOLDS`) that the bundled German
#: model trained on: fold 1 since session 59 (``configs/e5_small_real_gold11.yaml``). Every
#: measurement and every fit on these rounds leaves them out, where its spans are too good.
TRAINED_BY_BUNDLED = (1,)


def without_folds(
    decisions: Sequence, leave_out: Iterable[int], folds: int = ROUND_FOLDS
) -> tuple[list, list[int]]:
    """The decisions outside the folds by court ``leave_out`` names (counted from 1, as the
    reports count them), and the fold of each kept (counted from 0): a fold keeps its number
    whatever is left out."""
    leave_out = set(leave_out)
    kept = [
        (d, f)
        for d, f in zip(decisions, folds_by_court(decisions, folds), strict=True)
        if f + 1 not in leave_out
    ]
    return [d for d, _ in kept], [f for _, f in kept]


def courts_of(selections: Iterable[str | Path]) -> set[str]:
    """The courts (:func:`court_identity`) of every decision of these selection files (JSON
    Lines with a ``court`` field): the courts a draw keeps out or a test counts as seen.
    Decisions without a named court add none."""
    courts = {
        court_identity(json.loads(line).get("court"))
        for path in selections
        for line in Path(path).read_text(encoding="utf-8").splitlines()
    }
    courts.discard(None)
    return courts
