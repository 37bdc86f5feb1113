"""Decisions saved from juris (print views and text exports) as a corpus of published texts.

    python datasets_scripts/import_juris_exports.py --mirror MIRROR --out corpora/juris_lg.jsonl

Decisions of the lower civil courts are what the unseen-court test lacks most (issue 31), and
the public portals that the other sources crawl publish few of them. The repository
``chrisguarnold/scaling_court_decisions`` (a study of citation networks) keeps 39 decisions of
eleven Landgerichte as juris saved them: antitrust judgments as juris print views (``.htm``)
and press-law judgments as juris text exports (``.txt``). ``MIRROR`` is a git directory of
that repository (the ``fetch`` tool's mirror); the files are read from its ``HEAD``.

What is kept is what the court wrote, in the layout the portals give it: the document head
(court, date, docket, ECLI, type, norms, the citation line), then the tenor and the reasons
with their paragraph numbers (``[12] …``). What juris's editors wrote is left out: the title
line, the Orientierungssatz, the procedural history, the lists of citing documents. Court
decisions are official works without copyright (§ 5 Abs. 1 UrhG); juris's summaries are not,
which is one more reason to drop them. Placeholders are left as juris published them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import lxml.html

from hf_anon.corpora.courts import court_type

SOURCE = "chrisguarnold/scaling_court_decisions"
LICENCE = (
    "texts § 5 UrhG (official works); juris print views and exports collected by "
    "chrisguarnold/scaling_court_decisions (no licence stated); juris's own titles, "
    "summaries and procedural histories left out"
)
FOLDER = "data/1_original_seed_decisions"
#: head fields kept, in this order (what the state portals show above a decision too)
HEAD_FIELDS = (
    "Gericht",
    "Entscheidungsdatum",
    "Aktenzeichen",
    "ECLI",
    "Dokumenttyp",
    "Normen",
    "Norm",
    "Zitiervorschlag",
)
#: sections the court wrote; every other heading (juris's) starts a section that is dropped
COURT_SECTIONS = frozenset(
    {"Leitsatz", "Tenor", "Tatbestand", "Entscheidungsgründe", "Gründe", "Sonstiger Langtext"}
)
JURIS_SECTIONS = frozenset(
    {
        "Orientierungssatz",
        "Sonstiger Orientierungssatz",
        "Verfahrensgang",
        "Fundstellen",
        "Diese Entscheidung wird zitiert",
        "Diese Entscheidung zitiert",
        "Literaturnachweise",
        "Sonstige Literatur",
        "Kommentare",
        "Praxisreporte",
        "Titelzeile",
    }
)
BLOCK_TAGS = frozenset(
    {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "dd", "dt", "dl"}
)
#: juris's document number, in a file name (``…_JURE170034375.txt``) or a permalink
#: (``perma%3Fd%3DKORE213052012``)
DOC_NUMBER = re.compile(
    r"(?:(?<=%3D)|(?<![A-Za-z0-9]))((?:JURE|KORE|NJRE|MWRE|NWRE|BURE|BORE|WBRE|KARE)\d{6,})(?!\d)"
)
#: the labels of a text export's head (``Quelle`` is read and left out)
HEAD_LABELS = frozenset((*HEAD_FIELDS, "Quelle"))
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\ufeff"))


@dataclass(frozen=True)
class Decision:
    """One decision as the corpus stores it (the fields of ``decisions.jsonl.gz``)."""

    id: str
    court: str
    court_type: str
    date: str | None
    text: str
    path: str

    def record(self) -> dict:
        return {
            "id": self.id,
            "source": SOURCE,
            "court": self.court,
            "court_type": self.court_type,
            "date": self.date,
            "licence": LICENCE,
            "path": self.path,
            "text": self.text,
        }


def clean(line: str) -> str:
    """One line as it reads: soft hyphens and zero-width marks out, spaces single."""
    line = unicodedata.normalize("NFC", line.translate(_INVISIBLE)).replace("\xa0", " ")
    return re.sub(r"[ \t]+", " ", line).strip()


def html_lines(element) -> list[str]:
    """The text of a juris print view, one line per block; a margin number starts its
    paragraph as ``[N] ``, the way the portals print it."""
    parts: list[str] = []

    def walk(el) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in ("script", "style") or "unsichtbar" in (el.get("class") or ""):
            parts.append(el.tail or "")
            return
        if tag == "dl" and "RspDL" in (el.get("class") or ""):
            number = "".join(x.text_content() for x in el.iter("a")).strip()
            body = el.find("dd")
            parts.append("\n" + (f"[{number}] " if number else ""))
            if body is not None:
                walk_children(body)
            parts.append("\n" + (el.tail or ""))
            return
        block = tag in BLOCK_TAGS
        parts.append("\n" if block else "")
        walk_children(el)
        parts.append(("\n" if block else "") + (el.tail or ""))

    def walk_children(el) -> None:
        parts.append(el.text or "")
        for child in el:
            walk(child)

    walk(element)
    text = "".join(parts)
    # a paragraph of several <p> keeps its number on the first line only
    text = re.sub(r"(\[\d+\] )\n+", r"\1", text)
    return [c for c in (clean(line) for line in text.split("\n")) if c]


def head_from_html(root) -> dict[str, str]:
    head = {}
    for row in root.xpath("//div[contains(@class,'documentHeader')]//tr"):
        cells = row.findall("td")
        if len(cells) >= 2:
            label = clean(cells[0].text_content()).rstrip(":")
            head[label] = re.sub(r"\s*\.\.\. mehr$", "", clean(cells[1].text_content()))
    return head


def parse_html(raw: str) -> tuple[dict[str, str], list[str]]:
    """Head fields and body lines of a juris print view."""
    root = lxml.html.fromstring(raw)
    head = head_from_html(root)
    body = root.xpath(
        "//div[contains(@class,'docLayoutText') or contains(@class,'docLayoutTitel')]"
    )
    blocks = set(body)
    lines: list[str] = []
    for block in body:
        if any(a in blocks for a in block.iterancestors()):
            continue  # nested in a block already read
        if "docLayoutTitel" in (block.get("class") or ""):
            lines += ["Titelzeile", *html_lines(block)]
        else:
            lines += html_lines(block)
    return head, lines


def parse_text(raw: str) -> tuple[dict[str, str], list[str]]:
    """Head fields and body lines of a juris text export (``Label:`` then the value on the
    next line; the title is the first indented line after the head)."""
    raw_lines = raw.translate(_INVISIBLE).splitlines()
    head: dict[str, str] = {}
    body: list[str] = []
    i, in_head = 0, True
    while i < len(raw_lines):
        line = clean(raw_lines[i])
        if in_head and line.endswith(":") and line[:-1] in HEAD_LABELS:
            value = clean(raw_lines[i + 1]) if i + 1 < len(raw_lines) else ""
            is_label = value.endswith(":") and value[:-1] in HEAD_LABELS
            if not is_label:
                head[line[:-1]] = value
                i += 2
                continue
            i += 1
            continue
        if in_head and line and raw_lines[i].startswith("\t"):
            in_head = False
            body += ["Titelzeile", line]
        elif line and not in_head:
            number = re.match(r"^(\d+)\t", raw_lines[i])
            if number:
                line = f"[{number.group(1)}] {line[len(number.group(1)) :].strip()}"
            body.append(line)
        i += 1
    return head, body


def court_sections(lines: list[str]) -> list[str]:
    """The lines of the sections the court wrote, each heading kept before its text."""
    kept, keep = [], False
    for line in lines:
        if line in COURT_SECTIONS:
            keep = True
            kept += ["", line, ""]
        elif line in JURIS_SECTIONS:
            keep = False
        elif keep and not line.startswith("© juris"):
            kept.append(line)
    return kept


def render(head: dict[str, str], lines: list[str]) -> str:
    heading = [f"{field}: {head[field]}" for field in HEAD_FIELDS if head.get(field)]
    return "\n".join([*heading, *court_sections(lines)]).strip() + "\n"


def iso_date(value: str | None) -> str | None:
    match = re.fullmatch(r"(\d{2})\.(\d{2})\.(\d{4})", value or "")
    return f"{match[3]}-{match[2]}-{match[1]}" if match else None


def read_decision(path: str, raw: str) -> Decision | None:
    """One saved file as a decision; ``None`` where it holds no court or no reasons."""
    head, lines = parse_html(raw) if path.endswith(".htm") else parse_text(raw)
    number = DOC_NUMBER.search(raw) or DOC_NUMBER.search(path)
    court = head.get("Gericht", "")
    if not number or not court or not any(s in lines for s in ("Gründe", "Entscheidungsgründe")):
        return None
    return Decision(
        id=f"juris:{number.group(1)}",
        court=court,
        court_type=court_type(court),
        date=iso_date(head.get("Entscheidungsdatum")),
        text=render(head, lines),
        path=path,
    )


def git_files(mirror: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(mirror), "ls-tree", "-r", "-z", "--name-only", "HEAD", FOLDER],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8")
    return sorted(p for p in out.split("\0") if re.search(r"_decisions/[^/]+\.(htm|txt)$", p))


def git_read(mirror: Path, path: str) -> str:
    blob = subprocess.run(
        ["git", "-C", str(mirror), "show", f"HEAD:{path}"], check=True, capture_output=True
    ).stdout
    return blob.decode("utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--mirror", required=True, type=Path, help="git directory of the repository"
    )
    parser.add_argument("--out", default="corpora/juris_lg.jsonl", type=Path)
    args = parser.parse_args(argv)
    if not (args.mirror / "HEAD").exists() and not (args.mirror / ".git").exists():
        parser.error(f"{args.mirror} is not a git directory")
    files = git_files(args.mirror)
    if not files:
        parser.error(f"no saved decisions under {FOLDER} in {args.mirror}")
    decisions: dict[str, Decision] = {}
    for path in files:
        decision = read_decision(path, git_read(args.mirror, path))
        if decision is None:
            print(f"skipped (no court or no reasons): {path}", file=sys.stderr)
        elif decision.id not in decisions:  # the same decision saved twice: the first kept
            decisions[decision.id] = decision
    args.out.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if args.out.suffix == ".gz" else open
    with opener(args.out, "wt", encoding="utf-8") as handle:
        for decision in decisions.values():
            handle.write(json.dumps(decision.record(), ensure_ascii=False) + "\n")
    chars = sum(len(d.text) for d in decisions.values())
    print(f"{len(decisions)} decisions of {len({d.court for d in decisions.values()})} "
          f"chambers, {chars:,} characters -> {args.out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
