"""German common nouns (Wiktionary, via the german-nouns package) → the lexicon that tells
decoding a dictionary word from a name (``hf_anon/resources/common_nouns.txt.gz``), and the
table of nouns with their gender and case forms that the synthetic decisions' hard
negatives put in grammatical sentences (``hf_anon/resources/noun_cases.tsv.gz``).

    python datasets_scripts/build_noun_lexicon.py [--source german_nouns-1.2.5-py3-none-any.whl]

Without ``--source`` the wheel is fetched with ``pip download german-nouns==1.2.5
--no-deps`` (only the data is read: the package itself needs lxml<5). Every inflected form
of a noun is kept, except forms that Wiktionary also lists as a surname, first name, place,
proper name or abbreviation (``Müller``, ``Gelb``, ``Schreiner``, ``Wolf``, ``Essen``):
those stay names. The list is CC BY-SA 4.0 (Wiktionary contributors; german-nouns by
Gramatik): see ``hf_anon/resources/README.md``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[1] / "hf_anon" / "resources"
OUTPUT = RESOURCES / "common_nouns.txt.gz"
CASES_OUTPUT = RESOURCES / "noun_cases.tsv.gz"
CASE_COLUMNS = ("nominativ singular", "dativ singular", "akkusativ singular")
PACKAGE = "german-nouns==1.2.5"
NAME_KINDS = ("Nachname", "Vorname", "Toponym", "Eigenname", "Straßenname", "Abkürzung")
FORM_COLUMNS = ("lemma", "nominativ", "genitiv", "dativ", "akkusativ")
#: Nouns whose real-gold reading is a span (a floor locates a flat: ``Obergeschoss`` is an
#: address-idx): no hard negatives
SPAN_NOUN_ENDINGS = ("geschoss", "geschoß", "etage", "stockwerk")
#: Endings of nouns for people per gender (``Kriminologin``, ``Klinikarzt``, ``Lieferant``),
#: which the role list of ``is_person_noun`` does not hold: no hard negatives either
PERSON_ENDINGS = {
    "f": ("in",),
    "m": ("ist", "loge", "arzt", "anwalt", "mann", "ant", "ent", "eur", "är", "ör", "at"),
}


def read_rows(source: Path) -> list[dict[str, str]]:
    """The rows of ``nouns.csv``, from the wheel or from the CSV itself."""
    if source.suffix == ".whl":
        with zipfile.ZipFile(source) as wheel:
            raw = wheel.read("german_nouns/nouns.csv").decode("utf-8")
    else:
        raw = source.read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(raw)))


def common_nouns(rows: list[dict[str, str]]) -> list[str]:
    """Every single-word form of a common noun that is never also a name's form."""
    common: set[str] = set()
    named: set[str] = set()
    for row in rows:
        forms = {
            unicodedata.normalize("NFC", value)
            for key, value in row.items()
            if value and key.startswith(FORM_COLUMNS) and " " not in value and value[:1].isupper()
        }
        if any(kind in row["pos"] for kind in NAME_KINDS):
            named |= forms
        elif "Substantiv" in row["pos"]:
            common |= forms
    return sorted(w for w in common - named if len(w) >= 3)


def noun_cases(rows: list[dict[str, str]], common: set[str]) -> list[tuple[str, ...]]:
    """(genus, nominative, dative, accusative singular) of every one-word common noun with
    one gender whose forms are all in ``common`` (never a name's form), that names no person
    (``Zeugin``, ``Sachbearbeiterin``: a person noun is context for a name, and a profession
    can be a personal feature) and no floor (:data:`SPAN_NOUN_ENDINGS`)."""
    from hf_anon.text.names import is_person_noun

    table = set()
    for row in rows:
        if row["pos"] != "Substantiv" or row.get("genus") not in ("m", "f", "n"):
            continue
        forms = tuple(unicodedata.normalize("NFC", row.get(c) or "") for c in CASE_COLUMNS)
        nominative = forms[0]
        if (
            all(f in common for f in forms)
            and not is_person_noun(nominative)
            and not nominative.endswith(PERSON_ENDINGS.get(row["genus"], ()))
            and not nominative.lower().endswith(SPAN_NOUN_ENDINGS)
        ):
            table.add((row["genus"], *forms))
    return sorted(table)


def write_gzip(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same list gives the same bytes
    with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as out:
        out.write(("\n".join(lines) + "\n").encode("utf-8"))
    print(f"{len(lines):,} lines → {path} ({path.stat().st_size:,} bytes)")


def fetch_wheel(folder: str) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", PACKAGE, "--no-deps", "-q", "-d", folder],
        check=True,
    )
    return next(Path(folder).glob("german_nouns-*.whl"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="the german-nouns wheel or its nouns.csv")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--cases-output", type=Path, default=CASES_OUTPUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        source = args.source or fetch_wheel(folder)
        if not source.exists():
            print(f"error: {source} does not exist", file=sys.stderr)
            return 2
        rows = read_rows(source)
    nouns = common_nouns(rows)
    write_gzip(args.output, nouns)
    write_gzip(args.cases_output, ["\t".join(r) for r in noun_cases(rows, set(nouns))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
