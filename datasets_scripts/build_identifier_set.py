"""Passages written as courts hold them before anonymization: identifiers in clear.

    python datasets_scripts/build_identifier_set.py --check data/identifiers/pass1/*.txt
    python datasets_scripts/build_identifier_set.py --plain          # pass1/ -> plain/
    python datasets_scripts/build_identifier_set.py --check data/identifiers/pass2/*.txt \
        --against data/identifiers/plain
    python datasets_scripts/build_identifier_set.py --agreement      # pass1/ against pass2/,
                                                                    # and disagreements.md
    python datasets_scripts/build_identifier_set.py --gold           # adjudicated/ -> gold files

Every real decision the project holds was *published*: its bank accounts, phone numbers,
e-mail addresses, register numbers and plates were removed by the court before anyone here
read it, so the recognizers written for them (``ibans``, ``phones``, ``emails``,
``registers``, ``numbers``, …) never fire on real data and a cross-validation over real
courts cannot say whether they earn their place. These passages can: excerpts of the kind of
decision a court anonymizes, written in three batches (:data:`BATCHES`) by eighteen authors (one
legal field each, so that the author is the fold) with every span of ``ANNOTATION.md``
marked inline (``[[DE12 …|id-number|high]]``, the markup of :mod:`hf_anon.corpora.markup`,
clear text only), then marked a second time, independently, from the plain text
(``pass2/``), and adjudicated (``adjudicated/``, ``adjudication.md``).

A file's name is ``<fold>-<nn>.txt``; the fold (``a`` … ``r``, :data:`FIELDS`) is its author.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from build_real_gold import first_difference  # the German gold set's message

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "data" / "identifiers"
#: The batches and their folds: the first was read to choose (which recognizers stay, what
#: the new ones are written from); the second was written after, and only the new families
#: were judged on it; the third (session 53) judges the families already in the default.
BATCHES = {
    "identifiers.jsonl": "abcdef",
    "identifiers2.jsonl": "ghijkl",
    "identifiers3.jsonl": "mnopqr",
}
#: The legal field each author wrote in (the folds).
FIELDS = {
    "a": "civil: tenancy, sales, services (Amtsgericht, Landgericht)",
    "b": "traffic accidents and insurance",
    "c": "criminal: fraud, theft, threats (Amtsgericht, Landgericht)",
    "d": "labour and social security",
    "e": "family, insolvency and commercial",
    "f": "banking, payments and consumer purchases",
    # the second batch (session 52, written after the first had been read)
    "g": "administrative: residence, building, police and trade law",
    "h": "tenancy, neighbours and homeowners' associations",
    "i": "pensions, health and long-term care insurance, disability",
    "j": "tax",
    "k": "cybercrime, fraud and data protection",
    "l": "traffic fines, driving licences and vehicle sales",
    # the third batch (session 53)
    "m": "inheritance, probate and guardianship",
    "n": "company law and commercial disputes",
    "o": "medical liability and personal injury",
    "p": "criminal: violence, robbery, drugs, telecommunications surveillance",
    "q": "energy, utilities and telecommunications contracts",
    "r": "travel, aviation and online platforms",
}


def read_marked(path: Path):
    """The parsed file; clear-text marks only (these passages have no placeholders)."""
    from hf_anon.corpora.markup import MarkupError, parse_markup

    marked = parse_markup(path.read_text(encoding="utf-8"))
    placeholders = [s.surface for s in marked.spans if s.placeholder]
    if placeholders:
        raise MarkupError(f"{path}: placeholder marks in an original ({placeholders[:3]})")
    if path.stem[0] not in FIELDS:
        raise MarkupError(f"{path}: the name must start with a fold letter ({', '.join(FIELDS)})")
    return marked


def check(paths: list[Path], plain: Path | None = None) -> list[str]:
    """Problems of marked files (empty when all are fine); with ``plain``, the marks removed
    must give back that folder's file of the same name character for character (the second
    pass marks the first pass's text, never edits it)."""
    from hf_anon.corpora.markup import MarkupError

    problems = []
    for path in paths:
        try:
            marked = read_marked(path)
        except MarkupError as error:
            problems.append(str(error))
            continue
        if plain is not None:
            original = (plain / path.name).read_text(encoding="utf-8")
            if marked.published != original:
                problems.append(f"{path}: {first_difference(original, marked.published)}")
    return problems


def documents(folder: Path) -> list:
    """Every marked file of a folder as a gold :class:`~hf_anon.text.data.Document`."""
    docs = []
    for path in sorted(folder.glob("*.txt")):
        marked = read_marked(path)
        fold = path.stem[0]
        source = f"{folder.name}/{path.name}"
        docs.append(marked.gold(path.stem, FIELDS[fold], fold=fold, source=source))
    return docs


def write_plain(source: Path, target: Path) -> int:
    """The marks of ``source`` removed, for the independent second pass."""
    target.mkdir(parents=True, exist_ok=True)
    for doc in documents(source):
        (target / f"{doc.id}.txt").write_text(doc.text, encoding="utf-8")
    return len(list(target.glob("*.txt")))


def agreement(first: Path, second: Path, folds: str | None = None) -> dict:
    """Pass 1 scored against the independent pass 2, on the files both have (of ``folds``)."""
    from hf_anon.model.metrics import score_documents

    one = {d.id: d for d in documents(first)}
    two = {d.id: d for d in documents(second)}
    shared = sorted(i for i in one.keys() & two.keys() if folds is None or i[0] in folds)
    for doc_id in shared:
        if one[doc_id].text != two[doc_id].text:
            raise SystemExit(f"{doc_id}: the two passes do not mark the same text")
    a, b = [one[i] for i in shared], [two[i] for i in shared]
    scores = score_documents(b, a)
    return {
        "documents": len(shared),
        "spans_pass1": sum(len(d.spans) for d in a),
        "spans_pass2": sum(len(d.spans) for d in b),
        "strict_f1": scores.strict.f1,
        "strict_typed_f1": scores.strict_typed.f1,
        "lenient_f1": scores.lenient.f1,
    }


def disagreements(first: Path, second: Path) -> str:
    """Every span the two passes do not share exactly (text, label and risk), file by file,
    with its context: the list the adjudication works through."""
    one = {d.id: d for d in documents(first)}
    two = {d.id: d for d in documents(second)}
    lines = []
    for doc_id in sorted(one.keys() & two.keys()):
        text = one[doc_id].text
        a = {(s.start, s.end, s.label, s.risk) for s in one[doc_id].spans}
        b = {(s.start, s.end, s.label, s.risk) for s in two[doc_id].spans}
        rows = sorted([(*x, "pass 1 only") for x in a - b] + [(*x, "pass 2 only") for x in b - a])
        if rows:
            lines.append(f"\n## {doc_id}\n")
        for start, end, label, risk, side in rows:
            before = text[max(0, start - 40) : start].replace("\n", " ")
            after = text[end : end + 25].replace("\n", " ")
            lines.append(
                f"- {side}: `{text[start:end]}` {label} {risk} "
                f"(chars {start}-{end}) … {before}[{text[start:end]}]{after} …"
            )
    return "\n".join(lines).lstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--against", type=Path, help="with --check: the folder of plain texts the marks must keep"
    )
    parser.add_argument("--plain", action="store_true", help="write plain/ from pass1/")
    parser.add_argument("--agreement", action="store_true", help="pass1/ against pass2/")
    parser.add_argument("--gold", action="store_true", help="the gold files from adjudicated/")
    parser.add_argument("--folder", type=Path, default=SET)
    args = parser.parse_args(argv)
    if args.check:
        problems = check(args.check, args.against)
        print("\n".join(problems) if problems else f"{len(args.check)} files fine")
        return 1 if problems else 0
    if args.plain:
        print(f"{write_plain(args.folder / 'pass1', args.folder / 'plain')} plain files written")
    if args.agreement:
        figures = {}
        for batch, folds in BATCHES.items():
            figures[batch] = agreement(args.folder / "pass1", args.folder / "pass2", folds)
            if (args.folder / "adjudicated").is_dir():  # how far each pass stood
                for name in ("pass1", "pass2"):
                    figures[batch][f"{name}_against_adjudicated"] = agreement(
                        args.folder / name, args.folder / "adjudicated", folds
                    )
        print(json.dumps(figures, indent=1))
        (args.folder / "agreement.json").write_text(json.dumps(figures, indent=1) + "\n")
        listing = disagreements(args.folder / "pass1", args.folder / "pass2")
        (args.folder / "disagreements.md").write_text(listing, encoding="utf-8")
    if args.gold:
        from hf_anon.text.data import save_jsonl

        docs = documents(args.folder / "adjudicated")
        for name, folds in BATCHES.items():
            batch = [d for d in docs if d.meta["fold"] in folds]
            if batch:
                save_jsonl(batch, args.folder / name)
                spans = sum(len(d.spans) for d in batch)
                print(f"{len(batch)} passages, {spans} spans -> {args.folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
