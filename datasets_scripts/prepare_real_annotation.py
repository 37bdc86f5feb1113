"""Select real published decisions for the gold set and pre-annotate their placeholders.

Reads ``../shared/data/real/decisions.jsonl.gz`` and ``../shared/data/ler/raw/`` (says so
and stops when they are missing), draws a stratified, seeded sample over court types
(lower courts included), and writes

- ``OUT/selection.jsonl``: the published texts with source, court, court type, domain
  and licence (the texts the annotation must give back character for character);
- ``OUT/pass1/<name>.txt``: each text in :mod:`hf_anon.corpora.markup`, its placeholders
  found by :mod:`hf_anon.corpora.placeholders` and filled by the
  :class:`~hf_anon.corpora.surrogates.Pseudonymizer`.
  Clear text is left unmarked on purpose: the annotators mark it themselves, so that the
  clear-text rules of ``build_real_corpus.py`` can be measured against labels they did
  not produce.

Existing pass files are never overwritten (annotation work is not lost).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from hf_anon.corpora.courts import court_identity, courts_of
from hf_anon.corpora.ler import raw_files, read_raw_timex
from hf_anon.corpora.markup import markup_file_name, to_markup
from hf_anon.corpora.placeholders import placeholder_spans
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.text.data import Document, Span

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# (court type in real/, how many, longest text in characters): lower courts first.
REAL_QUOTAS = [
    ("Amtsgericht", 3, 16000),
    ("Landgericht", 5, 12000),
    ("Oberlandesgericht", 6, 12000),
    ("Arbeitsgericht", 1, 21000),
    ("Landesarbeitsgericht", 2, 14000),
    ("Sozialgericht", 2, 15000),
    ("Landessozialgericht", 1, 12000),
    ("Finanzgericht", 2, 12000),
    ("Verwaltungsgericht", 7, 9000),
    ("Oberverwaltungsgericht/VGH", 7, 9000),
    ("BGH", 1, 12000),
    ("BVerwG", 1, 12000),
    ("BSG", 1, 12000),
    ("BAG", 1, 14000),
    ("BVerfG", 1, 12000),
    ("unknown", 10, 8000),
]
LER_PER_COURT, LER_MAX = 2, 8000
MIN_CHARS = 2500

DOMAINS = {
    "Amtsgericht": "zivilrecht",
    "Landgericht": "zivilrecht",
    "Oberlandesgericht": "zivilrecht",
    "BGH": "zivilrecht",
    "Arbeitsgericht": "arbeitsrecht",
    "Landesarbeitsgericht": "arbeitsrecht",
    "BAG": "arbeitsrecht",
    "Sozialgericht": "sozialrecht",
    "Landessozialgericht": "sozialrecht",
    "BSG": "sozialrecht",
    "Finanzgericht": "steuerrecht",
    "BFH": "steuerrecht",
    "Verwaltungsgericht": "verwaltungsrecht",
    "Oberverwaltungsgericht/VGH": "verwaltungsrecht",
    "BVerwG": "verwaltungsrecht",
    "BVerfG": "verfassungsrecht",
    "BPatG": "patentrecht",
}
LER_COURTS = {
    "bag": "BAG",
    "bfh": "BFH",
    "bgh": "BGH",
    "bpatg": "BPatG",
    "bsg": "BSG",
    "bverfg": "BVerfG",
    "bverwg": "BVerwG",
}
LICENCES = {
    "wwl": "texts § 5 UrhG (official works); collected by worldwidelaw/legal-sources (AGPL-3.0)",
    "ifg": "texts § 5 UrhG; collected by okfde/ifg-urteile (MIT)",
    "legalquad": "texts § 5 UrhG; collected by Christoph911/Pro-Ve_2022_Appendix (MIT)",
    "oldp": "texts § 5 UrhG; collected by openlegaldata/oldp (MIT)",
    "ler": "LER corpus, Leitner/Rehm/Moreno-Schneider 2019, CC BY 4.0",
}
_UNUSABLE = ("[[", "]]", "|", "=>")


def usable(text: str) -> bool:
    return not any(token in text for token in _UNUSABLE)


def guess_domain(text: str) -> str:
    """A legal domain for texts without a court (LegalQuAD): the first court named."""
    for pattern, domain in [
        (r"Sozialgericht|SGB", "sozialrecht"),
        (r"Arbeitsgericht|KSchG", "arbeitsrecht"),
        (r"Finanzgericht|Finanzamt", "steuerrecht"),
        (r"Verwaltungsgericht", "verwaltungsrecht"),
        (r"StGB|StPO|Angeklagte", "strafrecht"),
    ]:
        if re.search(pattern, text[:3000]):
            return domain
    return "zivilrecht"


def select_real(
    path: Path | list[Path],
    rng: random.Random,
    taken: set[str] = frozenset(),
    longest: int | None = None,
    kept_out_courts: set[str] = frozenset(),
    scale: float = 1.0,
) -> list[dict]:
    decisions = []
    for one in [path] if isinstance(path, Path) else path:
        with gzip.open(one, "rt", encoding="utf-8") as handle:
            decisions += [json.loads(line) for line in handle]
    chosen = []
    for court_type, quota, usual in REAL_QUOTAS:
        count = round(quota * scale)
        pool = [
            d
            for d in decisions
            if d["court_type"] == court_type
            and MIN_CHARS <= len(d["text"]) <= (longest or usual)
            and usable(d["text"])
            and d["id"] not in taken
            and court_identity(d["court"]) not in kept_out_courts
        ]
        # decisions about people first: most of them carry placeholders
        with_people = [d for d in pool if placeholder_spans(d["text"])]
        rng.shuffle(with_people)
        rest = [d for d in pool if d not in with_people]
        rng.shuffle(rest)
        picked = (with_people + rest)[:count]
        if len(picked) < count:
            print(f"  {court_type}: only {len(picked)} of {count} fit", file=sys.stderr)
        for d in picked:
            domain = DOMAINS.get(court_type) or guess_domain(d["text"])
            chosen.append(
                {
                    "id": d["id"],
                    "domain": domain,
                    "text": d["text"],
                    "source": d["source"],
                    "court": d["court"],
                    "court_type": court_type,
                    "date": d["date"],
                    "licence": LICENCES[d["id"].split(":")[0]],
                }
            )
    return chosen


def select_ler(raw_dir: Path, rng: random.Random, taken: set[str] = frozenset()) -> list[dict]:
    chosen = []
    for path in raw_files(raw_dir):
        court = path.stem.removesuffix("_timex")
        docs = [
            d
            for d in read_raw_timex(path)
            if MIN_CHARS <= len(d.text) <= LER_MAX and usable(d.text) and d.id not in taken
        ]
        with_people = [d for d in docs if placeholder_spans(d.text)]
        rng.shuffle(with_people)
        for d in with_people[:LER_PER_COURT]:
            chosen.append(
                {
                    "id": d.id,
                    "domain": DOMAINS[LER_COURTS[court]],
                    "text": d.text,
                    "source": "elenanereiss/Legal-Entity-Recognition (raw/*_timex.txt)",
                    "court": LER_COURTS[court],
                    "court_type": LER_COURTS[court],
                    "date": None,
                    "licence": LICENCES["ler"],
                }
            )
    return chosen


def pre_annotate(row: dict, pseudonymizer: Pseudonymizer, spans: list[Span] | None = None) -> str:
    """Markup with the placeholders filled by the pseudonymizer: the detector's, or
    ``spans`` where they are known (a hand-made key)."""
    published = row["text"]
    spans = placeholder_spans(published) if spans is None else sorted(spans)
    filled = pseudonymizer.pseudonymize(Document(row["id"], published, spans))
    fills, tails = [], []
    for i, (span, out) in enumerate(zip(spans, filled.spans, strict=True)):
        fills.append(filled.text[out.start : out.end])
        next_pub = spans[i + 1].start if i + 1 < len(spans) else len(published)
        next_fill = filled.spans[i + 1].start if i + 1 < len(spans) else len(filled.text)
        gap, filled_gap = published[span.end : next_pub], filled.text[out.end : next_fill]
        tails.append(filled_gap[: len(filled_gap) - len(gap)] if filled_gap != gap else "")
    marked = [Span(s.start, s.end, s.label, None) for s in spans]
    return to_markup(published, marked, fills, tails)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="data/real/annotation", help="annotation folder")
    parser.add_argument("--shared", default=str(SHARED), help="the shared data folder")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--exclude",
        nargs="*",
        default=[],
        metavar="SELECTION",
        help="selection.jsonl files whose decisions must not be drawn again (e.g. the gold set's, "
        "when drawing a training set)",
    )
    parser.add_argument(
        "--longest",
        type=int,
        default=None,
        help="draw decisions up to N characters long, whatever their court type's usual limit "
        "(a later round, when the shorter ones are drawn)",
    )
    parser.add_argument(
        "--no-ler", action="store_true", help="draw from the real decisions only, not from LER"
    )
    parser.add_argument(
        "--extra",
        nargs="*",
        default=[],
        type=Path,
        metavar="JSONL_GZ",
        help="more decisions to draw from, in the format of decisions.jsonl.gz "
        "(corpora/ifg_more.jsonl.gz from extract_more_decisions.py)",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="draw N times each court type's quota (a larger round, when the gold set is done)",
    )
    parser.add_argument(
        "--keep-out-courts-of",
        nargs="*",
        default=[],
        metavar="SELECTION",
        help="selection.jsonl files whose courts must stay unseen (the unseen-court test's): "
        "no decision of those courts is drawn",
    )
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    real, ler = shared / "real" / "decisions.jsonl.gz", shared / "ler" / "raw"
    if not real.exists() or not ler.exists():
        print(f"error: {real} or {ler} not found: the raw corpora are not here", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    taken = {
        json.loads(line)["id"]
        for f in args.exclude
        for line in Path(f).read_text(encoding="utf-8").splitlines()
    }
    kept_out = courts_of(args.keep_out_courts_of)
    rows = select_real([real, *args.extra], rng, taken, args.longest, kept_out, args.scale)
    if not args.no_ler:
        rows += select_ler(ler, rng, taken)
    out = Path(args.out)
    (out / "pass1").mkdir(parents=True, exist_ok=True)
    with (out / "selection.jsonl").open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    pseudonymizer = Pseudonymizer(seed=args.seed)
    written = 0
    for row in rows:
        target = out / "pass1" / f"{markup_file_name(row['id'])}.txt"
        if target.exists():
            continue
        target.write_text(pre_annotate(row, pseudonymizer), encoding="utf-8")
        written += 1
    chars = sum(len(r["text"]) for r in rows)
    print(f"{len(rows)} decisions, {chars:,} characters; {written} new pass-1 files in {out}")
    for court_type, n in Counter(r["court_type"] for r in rows).most_common():
        print(f"  {court_type}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
