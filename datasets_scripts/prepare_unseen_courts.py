"""Draw real decisions of courts that no annotated split has, for an unseen-court test.

    python datasets_scripts/prepare_unseen_courts.py --out data/real/unseen-courts

A test of courts the model has never seen (issue 31) needs decisions of courts that neither
the training split, nor the validation split on which steps, thresholds and rules were
chosen, nor the read placeholder keys contain. This script takes every court of
``data/real/**/selection.jsonl`` (the untouched third placeholder key excepted, see below)
as seen, by :func:`hf_anon.corpora.courts.court_identity` (one name per court, federal
courts without their senates), and draws up to ``--per-court`` decisions of each other
court from

- the third placeholder key (``data/real/placeholder-key3``): decisions nobody has written
  a rule from; their placeholders come from the key, keyed by hand;
- ``../shared/data/real/decisions.jsonl.gz`` and ``corpora/ifg_more.jsonl.gz`` where present:
  their placeholders come from the detector, as in the other annotation rounds.

Decisions without a named court are left out: nobody can say their court is unseen. It
writes ``OUT/selection.jsonl`` and ``OUT/pass1/NAME.txt`` (placeholders pre-marked and
filled, clear text unmarked), as ``prepare_real_annotation.py`` does; existing pass files
are never overwritten.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from prepare_real_annotation import DOMAINS, LICENCES, MIN_CHARS, guess_domain, pre_annotate, usable

from hf_anon.corpora.courts import court_identity, courts_of
from hf_anon.corpora.markup import markup_file_name
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.text.data import Span
from hf_anon.text.readers import read_jsonl_texts

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
KEY3 = ROOT / "data" / "real" / "placeholder-key3"


def seen_courts(root: Path, *keep_out: Path) -> set[str]:
    """Courts of every selection under ``root`` except those under ``keep_out``."""
    paths = root.glob("**/selection.jsonl")
    return courts_of(p for p in paths if not any(f in p.parents for f in keep_out))


def taken_ids(root: Path, out: Path) -> set[str]:
    """Every decision of every selection but ``out``'s own (the third key's too: they are
    drawn from it here with their keyed placeholders, never from the corpus again)."""
    return {
        json.loads(line)["id"]
        for path in root.glob("**/selection.jsonl")
        if out not in path.parents
        for line in path.read_text(encoding="utf-8").splitlines()
    }


def key_candidates(key_dir: Path) -> list[tuple[dict, list[Span]]]:
    """The key's decisions with their hand-keyed placeholders."""
    rows = []
    for line in (key_dir / "key.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        spans = [Span(p["start"], p["end"], p["label"]) for p in row["placeholders"]]
        rows.append((row, spans))
    return rows


def draw(
    candidates: list[tuple[dict, list[Span] | None]],
    seen: set[str],
    *,
    per_court: int,
    longest: int,
    seed: int,
) -> list[tuple[dict, list[Span] | None]]:
    """Up to ``per_court`` decisions of each unseen court, keyed decisions first."""
    rng = random.Random(seed)
    order = list(range(len(candidates)))
    rng.shuffle(order)
    order.sort(key=lambda i: candidates[i][1] is None)  # keyed first, shuffled within
    chosen, per = [], {}
    for i in order:
        row, spans = candidates[i]
        court = court_identity(row.get("court"))
        if court is None or court in seen or not MIN_CHARS <= len(row["text"]) <= longest:
            continue
        if not usable(row["text"]) or per.get(court, 0) >= per_court:
            continue
        per[court] = per.get(court, 0) + 1
        chosen.append((row, spans))
    chosen.sort(key=lambda c: (court_identity(c[0]["court"]), c[0]["id"]))
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "data/real/unseen-courts"))
    parser.add_argument("--per-court", type=int, default=2)
    parser.add_argument("--longest", type=int, default=25000, help="characters at most")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--corpus",
        action="append",
        type=Path,
        help="draw from this corpus (JSON Lines, .gz too) instead of the shared and extra "
        "corpora; repeat for several (datasets_scripts/import_juris_exports.py writes one)",
    )
    args = parser.parse_args(argv)
    real_root, out = ROOT / "data" / "real", Path(args.out).resolve()
    seen, taken = seen_courts(real_root, KEY3, out), taken_ids(real_root, out)
    # another source (--corpus) leaves the third key out: it was drawn from before
    candidates: list[tuple[dict, list[Span] | None]] = (
        [] if args.corpus else list(key_candidates(KEY3))
    )
    shared_corpora = [SHARED / "real/decisions.jsonl.gz", ROOT / "corpora/ifg_more.jsonl.gz"]
    for path in args.corpus or shared_corpora:
        if path.exists():
            candidates += [(d, None) for d in read_jsonl_texts(path) if d["id"] not in taken]
        else:
            print(f"note: {path} not found, drawn without it", file=sys.stderr)
    chosen = draw(candidates, seen, per_court=args.per_court, longest=args.longest, seed=args.seed)
    (out / "pass1").mkdir(parents=True, exist_ok=True)
    pseudonymizer = Pseudonymizer(seed=args.seed)
    with (out / "selection.jsonl").open("w", encoding="utf-8") as handle:
        for row, spans in chosen:
            record = {
                "id": row["id"],
                "domain": row.get("domain")
                or {**DOMAINS, "Landesverfassungsgericht": "verfassungsrecht"}.get(
                    row.get("court_type")
                )
                or guess_domain(row["text"]),
                "text": row["text"],
                "source": row.get("source"),
                "court": row["court"],
                "court_identity": court_identity(row["court"]),
                "court_type": row.get("court_type"),
                "date": row.get("date"),
                "licence": row.get("licence") or LICENCES[row["id"].split(":")[0]],
                "placeholders_from": "key" if spans is not None else "detector",
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            target = out / "pass1" / f"{markup_file_name(row['id'])}.txt"
            if not target.exists():
                target.write_text(pre_annotate(record, pseudonymizer, spans), encoding="utf-8")
    chars = sum(len(row["text"]) for row, _ in chosen)
    courts = {court_identity(row["court"]) for row, _ in chosen}
    print(f"{len(chosen)} decisions of {len(courts)} unseen courts, {chars:,} characters")
    for row, spans in chosen:
        origin = "key" if spans is not None else "detector"
        print(f"  {court_identity(row['court'])}: {row['id']} ({len(row['text']):,}, {origin})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
