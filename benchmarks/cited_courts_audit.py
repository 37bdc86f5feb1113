"""Are cited decisions' courts left unmarked in the gold, as the guidelines say? Counted per round.

    python benchmarks/cited_courts_audit.py [--show] [--json out.json] [--markdown out.md]

``ANNOTATION.md`` ("This case vs cited cases"): courts of this case, of its earlier instances
and of related proceedings between the same parties are spans; everything inside a citation
of another decision is not. If annotators marked cited courts in some rounds and not in
others, the model would learn both, and its false court names on other courts
(``OVG NRW`` in ``vgl. OVG NRW, Beschluss vom …``) would be the labels' doing. This counts
court mentions that stand where a citation has them (after ``vgl.``, ``siehe``, an opening
bracket …, and followed by ``Urteil vom`` / ``Beschluss vom`` and a date) and how many of them
a gold span touches, per annotation round of every annotated split. A marked one is not
necessarily wrong (an earlier instance is cited the same way); ``--show`` prints each.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fold_misses import touching
from on_off import write

ROOT = Path(__file__).resolve().parents[1]
SPLITS = ("train", "juris_train", "validation", "test")

# a court as citations name it: an abbreviation with its place, or a federal court
COURT = re.compile(
    r"\b(?:BVerwG|BGH|BSG|BAG|BFH|BVerfG|BayVGH|OVG NRW|"
    r"(?:OVG|VGH|OLG|LG|VG|LSG|LAG|FG|AG) [A-ZÄÖÜ][\w-]+)\b"
)
# what stands before a cited decision, and what follows its court
CITING = re.compile(
    r"(?:vgl\.|Vgl\.|siehe|so auch|ebenso|auch|etwa|z\.\s?B\.|st\.\s?Rspr\.|\()\s*(?:nur\s*)?$"
)
DECISION = re.compile(
    r"^\s*,?\s*(?:\d\.\s*Senat,?\s*)?(?:Urteil|Beschluss|Urt\.|Beschl\.|Gerichtsbescheid)"
    r"\s*(?:vom|v\.)\s*\d"
)


def cited_courts(text: str) -> list[tuple[int, int]]:
    """Offsets of the courts that stand as a citation names them: ``(vgl. OVG NRW, Beschluss
    vom 21. August 2008 …``."""
    return [
        (m.start(), m.end())
        for m in COURT.finditer(text)
        if CITING.search(text[max(0, m.start() - 25) : m.start()])
        and DECISION.match(text[m.end() : m.end() + 40])
    ]


def audit(docs, round_of: dict[str, str], default: str) -> tuple[Counter, Counter, list]:
    """Per round: cited courts, those a gold span touches, and (round, id, context) of each
    touched one."""
    found, marked, shown = Counter(), Counter(), []
    for doc in docs:
        name = round_of.get(doc.id, default)
        for start, end in cited_courts(doc.text):
            found[name] += 1
            if touching(start, end, doc.spans):
                marked[name] += 1
                shown.append((name, doc.id, doc.text[max(0, start - 60) : end + 60]))
    return found, marked, shown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each marked cited court")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    real = ROOT / "data" / "real"
    round_of = {
        doc_id: path.parent.name
        for path in sorted(real.glob("annotation-train*/selection.jsonl"))
        for doc_id in read_ids([path])
    }
    found, marked, shown = Counter(), Counter(), []
    for split in SPLITS:
        f, m, s = audit(load_jsonl(real / f"{split}.jsonl"), round_of, split)
        found.update(f)
        marked.update(m)
        shown += s
    in_order = sorted(found, key=lambda n: (n in SPLITS, int(re.sub(r"\D", "", n) or 0), n))
    rows = {name: {"cited": found[name], "marked": marked[name]} for name in in_order}
    lines = ["| round or split | courts where a citation names them | marked in the gold |"]
    lines += ["|---|---:|---:|"]
    lines += [f"| {n} | {r['cited']} | {r['marked']} |" for n, r in rows.items()]
    lines.append(f"| all | {sum(found.values())} | {sum(marked.values())} |")
    if args.show:
        for name, doc_id, context in shown:
            print(f"{name} {doc_id}: {context!r}")
    write({"rounds": rows}, "\n".join(lines) + "\n", args.json, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
