"""Messy files through ``hf-anon anonymize``: injected names never survive, nothing crashes.

    python benchmarks/messy_bench.py [--documents 300] [--model models/hf-anon-de-e5-small]
        [--seed 0] [--keep DIR]

Generates ``--documents`` ``.txt`` files the way real exports look (issue 14): synthetic
decisions (:mod:`hf_anon.corpora.synthetic`) with full names of people injected into sentences of
their own (``Der Zeuge Hans Müller bestätigte dies. … Herr Müller …``), then made messy:
random Unicode between sentences (Greek, CJK, emoji, combining marks, zero-width and
direction marks), control characters, CRLF line endings, a BOM, ALL CAPS (the whole
document, or the injected names only), very long lines (a whole document, repeated, on
one line), names in Sperrsatz as PDF extraction leaves them (``M a r t i n  S c h u l z``,
the rubrum's ``g e g e n`` beside them), empty and whitespace-only files, and a few files
of invalid UTF-8 (which must be refused with an error and get no output). Runs
``hf-anon anonymize --mode label`` over the folder in this process and prints:

- ``names``: injected people, in normal case, in ALL CAPS and letter-spaced, and how many
  of them are left in the output (a first name or surname of an injected person, as
  injected, in capitals or letter-spaced, as a whole word anywhere in the output: the
  target is 0);
- ``crashes``: an exception out of the command (target 0), and files refused although
  valid;
- ``outputs``: valid inputs without an output (target 0), invalid ones with one.

Exit code 0 when every target is met, 1 otherwise. ``tests/apply/test_messy_inputs.py`` runs
a small version of the same check.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Sentences an injected person appears in: the full name once, the surname alone once.
FULL_NAME_SENTENCES = (
    "Der Zeuge {name} bestätigte dies in der mündlichen Verhandlung.",
    "Die Klägerin hat ihre Forderung an {name} abgetreten.",
    "Nach Angaben von {name} war die Tür zu diesem Zeitpunkt offen.",
    "Die Zeugin {name} erklärte, sie habe nichts gesehen.",
    "Geladen war außerdem {name}, der jedoch nicht erschien.",
)
SURNAME_SENTENCES = (
    "Herr {surname} wiederholte seine Aussage.",
    "Frau {surname} legte die Quittung vor.",
    "Die Aussage des Zeugen {surname} ist glaubhaft.",
    "Auf Nachfrage gab {surname} an, den Vertrag nie gesehen zu haben.",
)
#: Noise put between sentences: scripts, symbols, marks a tokenizer may not know.
UNICODE_NOISE = (
    "Ελληνικά",
    "日本語のテキスト",
    "中文",
    "Кириллица",
    "עברית",
    "العربية",
    "😀🚗⚖️",
    "e\u0301\u0308",
    "\u200b\u200d\u200f",
    "\u00a0\u2009",
    "\ufffd",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "①②③",
    "™©®",
)
CONTROL = "\x00\x01\x07\x08\x0b\x0c\x1b\x1f\x7f"


def spaced(text: str) -> str:
    """Sperrsatz: one space between letters, two between words (``M a r t i n  S c h u l z``)."""
    return "  ".join(" ".join(word) for word in text.split(" "))


def capitals(text: str) -> str:
    """ALL CAPS, character for character (``ß`` stays: its upper case is two letters)."""
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in text)


@dataclass
class Case:
    """One generated input file: what was injected and how it was made messy."""

    path: str  # relative to the input folder
    valid: bool = True  # valid UTF-8 (else it must be refused)
    names: list[tuple[str, str]] = field(default_factory=list)  # (first, surname)
    caps: bool = False  # the names are written in capitals
    spaced: bool = False  # the names are letter-spaced (Sperrsatz)
    mess: list[str] = field(default_factory=list)


def _people(rng: random.Random, n: int) -> list[tuple[str, str]]:
    from hf_anon.text.names import first_name_genders, known_last_names

    firsts = sorted(n for n in first_name_genders() if n.isalpha() and len(n) >= 3)
    lasts = sorted(n for n in known_last_names() if n.replace("-", "").isalpha() and len(n) >= 4)
    return [(rng.choice(firsts), rng.choice(lasts)) for _ in range(n)]


def _inject(
    text: str, people: list[tuple[str, str]], rng: random.Random, caps: bool, space: bool = False
) -> str:
    paragraphs = text.split("\n\n")
    for first, last in people:
        full = f"{first} {last}"
        surname = last
        if caps:
            full, surname = capitals(full), capitals(surname)
        sentences = [
            rng.choice(FULL_NAME_SENTENCES).format(name=full),
            rng.choice(SURNAME_SENTENCES).format(surname=surname),
        ]
        if space:  # the rubrum of an extracted PDF: the party in Sperrsatz, then "g e g e n"
            sentences = [f"{spaced(full)}, Kläger,\n{spaced('gegen')}\n", *sentences[1:]]
        at = rng.randrange(1, len(paragraphs) + 1)
        paragraphs.insert(at, " ".join(sentences))
    return "\n\n".join(paragraphs)


#: What the first files of a corpus are, one of each mess (then chance decides).
FIRST_FILES = (
    ("empty",),
    ("invalid utf-8",),
    ("all-caps document",),
    ("long line", "crlf"),
    ("unicode", "bom"),
    ("control",),
    ("caps names", "crlf", "bom", "control", "unicode"),
    ("spaced names",),
    ("spaced names", "crlf"),
)


def _mess(text: str, rng: random.Random, case: Case, forced: tuple[str, ...] = ()) -> str:
    """Apply some of the messes to one document (recorded in ``case.mess``); ``forced``
    ones always, the others by chance (none when some are forced)."""

    def chance(mess: str, p: float) -> bool:
        return mess in forced if forced else rng.random() < p

    if chance("unicode", 0.3):
        case.mess.append("unicode")
        pieces = re.split(r"(?<=[.!?])\s", text)
        text = " ".join(
            f"{p} {rng.choice(UNICODE_NOISE)}" if rng.random() < 0.4 else p for p in pieces
        )
    if chance("control", 0.3):
        case.mess.append("control")
        chars = list(text)
        spaces = [i for i, c in enumerate(chars) if c == " "]
        for i in rng.sample(spaces, min(len(spaces), 12)):
            chars[i] = rng.choice(CONTROL) if rng.random() < 0.5 else f" {rng.choice(CONTROL)}"
        text = "".join(chars)
    if chance("all-caps document", 0.15):
        case.mess.append("all-caps document")
        text = capitals(text)
    if chance("long line", 0.1):
        case.mess.append("long line")
        text = " ".join(text.split("\n")) * rng.randint(2, 6)
    if chance("crlf", 0.3):
        case.mess.append("crlf")
        text = text.replace("\n", "\r\n")
    if chance("bom", 0.2):
        case.mess.append("bom")
        text = "\ufeff" + text
    return text


def make_corpus(folder: Path, n: int, seed: int = 0) -> list[Case]:
    """``n`` files under ``folder``: most are decisions with injected names, some empty or
    whitespace only, a few invalid UTF-8. Returns what was written."""
    from hf_anon.corpora.synthetic import generate_document

    rng = random.Random(f"messy {seed}")
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(n):
        case = Case(f"doc-{i:04d}.txt")
        forced = FIRST_FILES[i] if i < len(FIRST_FILES) else ()
        kind = rng.random()
        if "empty" in forced or (not forced and kind < 0.04):
            case.mess.append("empty")
            data = rng.choice([b"", b"\n", b"\r\n  \t\r\n", "\ufeff".encode()])
        elif "invalid utf-8" in forced or (not forced and kind < 0.06):
            case.valid = False
            case.mess.append("invalid utf-8")
            data = b"Der Zeuge sagte aus." + bytes([0xFF, 0xFE, 0xC3]) + b" Ende."
        else:
            case.caps = "caps names" in forced or (not forced and rng.random() < 0.3)
            case.spaced = "spaced names" in forced or (not forced and rng.random() < 0.15)
            if case.spaced:
                case.mess.append("spaced names")
            case.names = _people(rng, rng.randint(1, 3))
            base = generate_document(i + 1, seed).text
            injected = _inject(base, case.names, rng, case.caps, case.spaced)
            text = _mess(injected, rng, case, forced)
            if "all-caps document" in case.mess:
                case.caps = True
            data = text.encode("utf-8")
        (folder / case.path).write_bytes(data)
        cases.append(case)
    return cases


def _left(text: str, first: str, last: str) -> list[str]:
    """The parts of a person's name that are still in ``text`` as whole words, as injected,
    in capitals or letter-spaced (a lower-case ``weiß`` is another word, not the name
    ``Weiß``)."""
    left = []
    for part in {first, last, *last.split("-")}:
        if len(part) < 3:
            continue
        for form in {part, capitals(part), spaced(part), spaced(capitals(part))}:
            if re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text):
                left.append(form)
    return left


@dataclass
class Figures:
    files: int = 0
    valid: int = 0
    people: int = 0
    people_caps: int = 0
    people_spaced: int = 0
    left: int = 0
    left_caps: int = 0
    left_spaced: int = 0
    crashes: int = 0
    refused_valid: int = 0
    missing_outputs: int = 0
    invalid_with_output: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return (
            not (self.left or self.crashes or self.refused_valid or self.missing_outputs)
            and not self.invalid_with_output
        )


def check(in_dir: Path, out_dir: Path, cases: list[Case], model: str | None = None) -> Figures:
    """Run ``hf-anon anonymize`` over ``in_dir`` and check every case."""
    from hf_anon.cli import main

    figures = Figures(files=len(cases), valid=sum(c.valid for c in cases))
    argv = ["anonymize", str(in_dir), "--output", str(out_dir), "--mode", "label"]
    argv += ["--no-progress", "--seed", "0", *(["--model", model] if model else [])]
    stderr = io.StringIO()
    started = time.perf_counter()
    try:
        with contextlib.redirect_stderr(stderr):
            main(argv)
    except Exception as err:  # a crash: nothing more to check
        figures.crashes += 1
        figures.examples.append(f"crash: {err!r}")
        return figures
    figures.seconds = time.perf_counter() - started
    errors = stderr.getvalue()
    for case in cases:
        out = out_dir / case.path
        if not case.valid:
            figures.invalid_with_output += out.exists()
            continue
        if case.path in errors:
            figures.refused_valid += 1
            figures.examples.append(f"refused: {case.path}")
        if not out.exists():
            figures.missing_outputs += 1
            continue
        text = out.read_bytes().decode("utf-8")
        for first, last in case.names:
            figures.people += 1
            figures.people_caps += case.caps
            figures.people_spaced += case.spaced
            left = _left(text, first, last)
            if left:
                figures.left += 1
                figures.left_caps += case.caps
                figures.left_spaced += case.spaced
                figures.examples.append(f"left in {case.path} ({', '.join(case.mess)}): {left}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=300, help="files to generate")
    parser.add_argument("--model", default=None, help="hf-anon model (default: bundled)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", default=None, help="write inputs and outputs here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        cases = make_corpus(root / "in", args.documents, args.seed)
        figures = check(root / "in", root / "out", cases, args.model)
    messes: dict[str, int] = {}
    for case in cases:
        for mess in case.mess:
            messes[mess] = messes.get(mess, 0) + 1
    print(f"files: {figures.files} ({figures.valid} valid); messes: {json.dumps(messes)}")
    print(
        f"injected people: {figures.people} ({figures.people_caps} in ALL CAPS, "
        f"{figures.people_spaced} letter-spaced); left in the output: {figures.left} "
        f"({figures.left_caps} of those in ALL CAPS, {figures.left_spaced} letter-spaced)"
    )
    print(
        f"crashes: {figures.crashes}; valid files refused: {figures.refused_valid}; "
        f"valid files without output: {figures.missing_outputs}; invalid files with "
        f"output: {figures.invalid_with_output}; {figures.seconds:.0f} s"
    )
    for example in figures.examples[:20]:
        print("  " + example)
    print("targets met" if figures.ok() else "targets NOT met")
    return 0 if figures.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
