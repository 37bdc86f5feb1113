"""Select real decisions of unseen courts for the by-court placeholder key (issue 30).

The placeholder detector was tuned on the real gold and training selections
(``data/real/annotation*/selection.jsonl``). This script draws decisions of *other*
courts from ``../shared/data/real/decisions.jsonl.gz`` so that the key measures
conventions the rules were not written from:

- a court counts as seen when its normalized name (``Verwaltungsgericht Mainz 3. Kammer``
  → ``VG Mainz``) is the court of any decision already selected for annotation;
- for each convention (a cheap regular expression on the published text, not the
  detector: ``XXX``, ``xxx``, ``###``, ``****``, ``Xxxxx``, role word + initial,
  initial + ellipsis, ``A-Straße``), ``--per-convention`` decisions are drawn with a
  seeded shuffle, a new court first; then ``--plain`` decisions that show none of them;
- LegalQuAD texts (no court recorded) count as an unseen court only for conventions
  that no named unseen court shows twice (``###``).

``--second`` draws the second key (``data/real/placeholder-key2``), made after the rules
of the first were written from its errors. Its courts must be unseen by the gold set *and*
the first key, and only a few such decisions show the ``XXX`` family, so it has three
groups, each scored apart (``group`` field):

- ``unseen court``: decisions of courts in neither the gold set nor the first key;
- ``unseen decision, seen court``: the ``XXX``, ``xxx``, ``###`` and ``Xxxxx`` conventions
  no unseen court shows, drawn from other decisions of seen courts;
- ``never read``: decisions of ``--extra`` corpora (``extract_more_decisions.py``: the
  okfde/ifg-urteile decisions the shared corpus left out) that no audit has read either.

It writes ``OUT/selection.jsonl`` (the published texts and their metadata) and one plain
text file per decision under ``OUT/texts/`` for the annotators, who mark placeholders
only (``build_placeholder_key.py`` reads their files). The selected ids are excluded
from ``hf-anon placeholders --audit --exclude`` while the rules are written, so that the
key stays unseen until its figures are recorded.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from hf_anon.corpora.courts import normalize_court
from hf_anon.corpora.markup import markup_file_name
from hf_anon.text.readers import read_ids, read_jsonl_texts

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"

CONVENTIONS: dict[str, str] = {
    "XXX": r"\bX{3,}\b",
    "xxx": r"\bx{3,}\b",
    "###": r"#{3,}",
    "****": r"\*{3,}",
    "Xxxxx": r"\b([A-Z])(?:(?i:\1)){3,}\b",
    "role + initial": r"\b(?:Herrn?|Frau|Kläger(?:in)?|Zeugin|Zeuge|Beklagten?)\s+[A-ZÄÖÜ]\.",
    "initial + ellipsis": r"\b[A-ZÄÖÜ][a-z]?(?:\.\.\.|…)",
    "A-Straße": r"\b[A-Z]-(?:Straße|Stadt|Dorf|Weg)",
}
LICENCES = {
    "wwl": "worldwidelaw/legal-sources (AGPL-3.0); decision text § 5 UrhG",
    "ifg": "okfde/ifg-urteile (MIT); decision text § 5 UrhG",
    "legalquad": "Christoph911/Pro-Ve_2022_Appendix (MIT, Open Legal Data); decision text § 5 UrhG",
    "oldp": "openlegaldata/oldp (MIT); decision text § 5 UrhG",
}


def conventions_of(text: str) -> list[str]:
    return [name for name, pattern in CONVENTIONS.items() if re.search(pattern, text)]


def select(
    decisions: list[dict],
    seen_ids: set[str],
    *,
    per_convention: int,
    plain: int,
    seed: int,
    min_chars: int,
    max_chars: int,
) -> list[dict]:
    seen_courts = {normalize_court(d["court"]) for d in decisions if d["id"] in seen_ids}
    pool = [
        d
        for d in decisions
        if d["id"] not in seen_ids
        and min_chars <= len(d["text"]) <= max_chars
        and normalize_court(d["court"]) not in seen_courts
    ]
    unknown = [
        d
        for d in decisions
        if d["id"] not in seen_ids
        and d["court"] is None
        and min_chars <= len(d["text"]) <= max_chars
    ]
    rng = random.Random(seed)
    rng.shuffle(pool)
    rng.shuffle(unknown)
    chosen: dict[str, dict] = {}
    for name in CONVENTIONS:
        named = [d for d in pool if name in conventions_of(d["text"])]
        candidates = (
            named
            if len(named) >= per_convention
            else named + [d for d in unknown if name in conventions_of(d["text"])]
        )
        taken = [d for d in chosen.values() if name in conventions_of(d["text"])]
        courts = {normalize_court(d["court"]) for d in taken}
        for d in sorted(candidates, key=lambda d: normalize_court(d["court"]) in courts):
            if len(taken) >= per_convention:
                break
            if d["id"] not in chosen:
                chosen[d["id"]] = d
                taken.append(d)
    plain_docs = [d for d in pool if not conventions_of(d["text"]) and d["id"] not in chosen]
    for d in plain_docs[:plain]:
        chosen[d["id"]] = d
    return sorted(chosen.values(), key=lambda d: d["id"])


SECOND_KEY_SEEN_COURT_CONVENTIONS = ("XXX", "xxx", "###", "Xxxxx")


def select_second(
    decisions: list[dict],
    extra: list[dict],
    seen_ids: set[str],
    *,
    per_convention: int,
    plain: int,
    seen_court_per_convention: int,
    never_read: int,
    seed: int,
    min_chars: int,
    max_chars: int,
) -> list[dict]:
    """The second key's three groups (see the module docstring), each row tagged."""
    unseen = select(
        decisions,
        seen_ids,
        per_convention=per_convention,
        plain=plain,
        seed=seed,
        min_chars=min_chars,
        max_chars=max_chars,
    )
    for d in unseen:
        d["group"] = "unseen court"
    taken = seen_ids | {d["id"] for d in unseen}
    seen_courts = {normalize_court(d["court"]) for d in decisions if d["id"] in seen_ids}
    rng = random.Random(seed)
    others = [
        d
        for d in decisions
        if d["id"] not in taken
        and min_chars <= len(d["text"]) <= max_chars
        and (d["court"] is None or normalize_court(d["court"]) in seen_courts)
    ]
    rng.shuffle(others)
    chosen = list(unseen)
    for name in SECOND_KEY_SEEN_COURT_CONVENTIONS:
        have = [d for d in chosen if name in conventions_of(d["text"])]
        courts = {normalize_court(d["court"]) for d in have}
        named = sorted(
            (d for d in others if name in conventions_of(d["text"]) and d["id"] not in taken),
            key=lambda d: (d["court"] is None, normalize_court(d["court"]) in courts),
        )
        for d in named[: max(0, seen_court_per_convention - len(have))]:
            d["group"] = "unseen decision, seen court"
            chosen.append(d)
            taken.add(d["id"])
            courts.add(normalize_court(d["court"]))
    fresh = [d for d in extra if d["id"] not in taken and min_chars <= len(d["text"]) <= max_chars]
    rng.shuffle(fresh)
    by_court: dict[str, list[dict]] = {}
    for d in fresh:
        by_court.setdefault(normalize_court(d["court"]) or "", []).append(d)
    round_robin = [d for group in zip(*by_court.values(), strict=False) for d in group]
    for d in round_robin[:never_read]:
        d["group"] = "never read"
        chosen.append(d)
    return sorted(chosen, key=lambda d: d["id"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "data/real/placeholder-key"))
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--per-convention", type=int, default=4)
    parser.add_argument("--plain", type=int, default=4)
    parser.add_argument("--min-chars", type=int, default=3000)
    parser.add_argument("--max-chars", type=int, default=60000)
    parser.add_argument(
        "--second",
        action="store_true",
        help="draw the second key: the first key's courts count as seen too (three groups)",
    )
    parser.add_argument(
        "--extra",
        nargs="*",
        default=[],
        help="corpora no audit has read (extract_more_decisions.py), for the never-read group",
    )
    parser.add_argument(
        "--also-seen",
        nargs="*",
        default=[],
        help="more selection files whose decisions and courts count as seen (a later key)",
    )
    parser.add_argument("--seen-court-per-convention", type=int, default=2)
    parser.add_argument("--never-read", type=int, default=6)
    args = parser.parse_args(argv)

    source = SHARED / "real" / "decisions.jsonl.gz"
    if not source.exists():
        print(
            f"{source} is missing: the selection needs the shared real decisions", file=sys.stderr
        )
        return 2
    decisions = read_jsonl_texts(source)
    patterns = ["annotation*/selection.jsonl"] + (
        ["placeholder-key/selection.jsonl"] if args.second else []
    )
    paths = [p for pattern in patterns for p in sorted((ROOT / "data/real").glob(pattern))]
    seen_ids = read_ids([*paths, *args.also_seen])
    sizes = {
        "per_convention": args.per_convention,
        "plain": args.plain,
        "seed": args.seed,
        "min_chars": args.min_chars,
        "max_chars": args.max_chars,
    }
    if args.second:
        extra = [d for path in args.extra for d in read_jsonl_texts(path)]
        chosen = select_second(
            decisions,
            extra,
            seen_ids,
            seen_court_per_convention=args.seen_court_per_convention,
            never_read=args.never_read,
            **sizes,
        )
    else:
        chosen = select(decisions, seen_ids, **sizes)
    out = Path(args.out)
    (out / "texts").mkdir(parents=True, exist_ok=True)
    with (out / "selection.jsonl").open("w", encoding="utf-8") as f:
        for d in chosen:
            row = {
                "id": d["id"],
                "source": d["source"],
                "court": d["court"],
                "court_family": normalize_court(d["court"]) or "unknown (LegalQuAD)",
                "court_type": d["court_type"],
                "date": d["date"],
                "conventions": conventions_of(d["text"]),
                **({"group": d["group"]} if "group" in d else {}),
                "licence": LICENCES[d["id"].split(":")[0]],
                "text": d["text"],
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            text_file = out / "texts" / f"{markup_file_name(d['id'])}.txt"
            if not text_file.exists():
                text_file.write_text(d["text"], encoding="utf-8")
    courts = {normalize_court(d["court"]) for d in chosen}
    chars = sum(len(d["text"]) for d in chosen)
    print(f"{len(chosen)} decisions of {len(courts)} courts, {chars:,} characters -> {out}")
    for group in sorted({d["group"] for d in chosen if "group" in d}):
        print(f"  {group}: {sum(d.get('group') == group for d in chosen)}")
    for name in CONVENTIONS:
        n = sum(name in conventions_of(d["text"]) for d in chosen)
        print(f"  {name:<20} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
