"""The messy-Word benchmark (issue 35): Word decisions with names in every part, through
``hf-anon anonymize``; what is left and what formatting was kept.

    python benchmarks/word_bench.py --documents 20 [--model M] [--mode label] \
        [--output reports/word/results.json]

Each decision is :func:`hf_anon.corpora.synthetic.word.messy_word_decision`: a synthetic
decision with its people's names split over bold, italic and underlined runs, in a table,
a text box, the header and footer, a footnote, a comment and its author, a tracked
insertion and deletion with their author, hidden text, the core and custom properties, a
document variable and a picture's EXIF data. The command runs on the folder as a user
would run it. Then, for every written ``.docx``:

- **names left**: every name placed, searched in the raw bytes of every part of the
  archive (XML and media) and in the paragraphs of every XML part (a name split over runs
  counts), by part;
- **formatting kept**: for every replacement, the bold/italic/underline of the run its
  value stands in against the run where the original began, and of the characters just
  before and after it against the original's (same paragraph only).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hf_anon.corpora.synthetic.word import messy_word_decision  # noqa: E402
from hf_anon.text.word import open_word  # noqa: E402
from hf_anon.text.word.extraction import paragraph_texts  # noqa: E402
from hf_anon.text.word.package import w  # noqa: E402


def names_left(data: bytes, names) -> dict[str, list[str]]:
    """The names still in each part of a .docx (raw bytes, or a paragraph's text)."""
    found: dict[str, list[str]] = {}
    archive = zipfile.ZipFile(io.BytesIO(data))
    for part in archive.namelist():
        raw = archive.read(part)
        texts = [raw.decode("utf-8", "ignore")]
        if part.endswith((".xml", ".rels")):
            texts += paragraph_texts(etree.fromstring(raw))
        hits = sorted(n for n in names if n.encode() in raw or any(n in t for t in texts))
        if hits:
            found[part] = hits
    return found


def char_formats(data: bytes) -> tuple[str, list[str | None]]:
    """The text the anonymizer reads, and for each character the b/i/u of its run (None for
    a break between paragraphs)."""
    document = open_word(data)
    formats: list[str | None] = [None] * len(document.text)
    for piece in document.content.pieces:
        run = piece.node.getparent()
        properties = run.find(w("rPr")) if run is not None else None
        flags = ""
        for letter, tag in (("b", "b"), ("i", "i"), ("u", "u")):
            element = None if properties is None else properties.find(w(tag))
            if element is not None and element.get(w("val"), "true") not in ("0", "false", "none"):
                flags += letter
        formats[piece.start : piece.end] = [flags] * (piece.end - piece.start)
    return document.text, formats


def formatting_kept(original: bytes, written: bytes, replacements: list[dict]) -> Counter:
    """Per replacement: is the value in a run formatted as the original's first run, and
    are the characters around it formatted as before? A replacement over a paragraph
    break keeps the break in the Word file (hf_anon.apply.word), which shifts the offsets
    after it; they are followed here, and such a replacement is counted apart."""
    _, before = char_formats(original)
    _, after = char_formats(written)
    out: Counter = Counter()
    shift = 0  # the breaks kept in the Word file inside earlier replacements
    for r in sorted(replacements, key=lambda r: r["start"]):
        start, end = r["start"], r["end"]
        new_start, new_end = r["new_start"] + shift, r["new_end"] + shift
        breaks = sum(f is None for f in before[start:end])
        shift += breaks
        out["replacements"] += 1
        if new_start >= len(after) or new_start == new_end:
            out["empty values"] += 1
            continue
        out["value formatted as its first run"] += after[new_start] == before[start]
        same = start == 0 or before[start - 1] is None or after[new_start - 1] == before[start - 1]
        if breaks:
            out["over a paragraph break"] += 1  # what follows the value is the kept break
        elif end < len(before) and before[end] is not None and new_end < len(after):
            same &= after[new_end] == before[end]
        out["formatting around kept"] += same
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--model", default=None)
    parser.add_argument("--mode", default="label")
    parser.add_argument("--output", type=Path, default=None, help="results JSON")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="word-bench-"))
    source, out = work / "in", work / "out"
    source.mkdir()
    made = {}
    for i in range(1, args.documents + 1):
        messy = messy_word_decision(i)
        (source / f"decision-{i:03d}.docx").write_bytes(messy.data)
        made[f"decision-{i:03d}"] = messy
    command = [sys.executable, "-m", "hf_anon.cli", "anonymize", str(source), "--output",
               str(out), "--mode", args.mode, "--seed", "1", "--key-out", str(work / "key.jsonl"),
               "--no-progress"]  # fmt: skip
    if args.model:
        command += ["--model", args.model]
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    seconds = time.perf_counter() - started
    print(run.stderr.strip().splitlines()[-4:], file=sys.stderr)
    keys = {}
    for line in (work / "key.jsonl").read_text().splitlines():
        entry = json.loads(line)
        keys[entry["id"]] = entry["replacements"]
    left: Counter = Counter()
    examples: dict[str, list] = {}
    kept: Counter = Counter()
    placed: Counter = Counter()
    written = 0
    for stem, messy in made.items():
        path = out / f"{stem}.docx"
        for part, names in messy.parts.items():
            placed[part] += len(names)
        if not path.exists():
            continue
        written += 1
        data = path.read_bytes()
        for part, names in names_left(data, messy.names).items():
            left[part] += len(names)
            examples.setdefault(part, []).append([stem, names])
        kept += formatting_kept(messy.data, data, keys.get(stem, []))
    result = {
        "documents": args.documents,
        "docx_written": written,
        "exit_code": run.returncode,
        "seconds": round(seconds, 1),
        "mode": args.mode,
        "model": args.model or "default",
        "names_placed_by_part": dict(placed),
        "names_left_by_written_part": dict(left),
        "names_left_examples": examples,
        "formatting": dict(kept),
        "command": " ".join(["python", "benchmarks/word_bench.py", *(argv or sys.argv[1:])]),
    }
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
