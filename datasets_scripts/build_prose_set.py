"""Real paragraphs with nothing to anonymize, cut from exhaustively annotated decisions.

    python datasets_scripts/build_prose_set.py data/real/test.jsonl data/real/unseen_courts.jsonl \
        --output data/real/prose.jsonl

Issue 31, part 5: a model must leave ordinary legal prose alone (reasons, statute
discussion, technical descriptions): common nouns, verbs and cited decisions are no spans.
Every span of these decisions was marked by hand, so a paragraph that holds no gold span is a
paragraph with nothing to anonymize. This script keeps the paragraphs (blocks between line
breaks) of at least ``--min-chars`` characters that no gold span touches, each as a document
with no spans (gold format), its source decision and offsets in ``meta``. Build it from splits
nothing is chosen on (test, the unseen-court test), never from training data.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from hf_anon.text.data import Document, load_jsonl, save_jsonl


def prose_paragraphs(doc: Document, min_chars: int) -> list[Document]:
    """The paragraphs of ``doc`` that no gold span touches, as documents without spans."""
    out = []
    for m in re.finditer(r"[^\n]+", doc.text):
        start, end = m.span()
        text = m.group(0)
        if len(text.strip()) < min_chars:
            continue
        if any(s.start < end and start < s.end for s in doc.spans):
            continue
        meta = {"source_document": doc.id, "start": start, "end": end, **doc.meta}
        out.append(Document(f"{doc.id}#{start}", text, [], doc.domain, meta))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gold", nargs="+", type=Path, help="exhaustively annotated gold files")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--min-chars", type=int, default=400, help="shortest paragraph kept")
    args = parser.parse_args(argv)
    docs = [doc for path in args.gold for doc in load_jsonl(path)]
    paragraphs = [p for doc in docs for p in prose_paragraphs(doc, args.min_chars)]
    save_jsonl(paragraphs, args.output)
    chars = sum(len(p.text) for p in paragraphs)
    print(f"{len(paragraphs)} paragraphs ({chars:,} characters) of {len(docs)} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
