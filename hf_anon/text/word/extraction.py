"""The text of a Word document, and replacements made inside its runs.

:func:`read_word_text` reads the main part, then the headers, footers, footnotes and
endnotes (:meth:`~hf_anon.text.word.package.WordPackage.story_parts`) into one text: a
line per paragraph (text boxes included, each paragraph once; a table row is a line of
tab-separated cells), tabs and line breaks as ``\\t`` and ``\\n``, a blank line between
parts. It remembers which XML node each character came from (:class:`Piece`), so that
:meth:`WordText.replace` can put a replacement where the text was: into the first run it
touches, whose formatting it takes, the rest of the replaced stretch cut out of the
following runs. Char offsets are
the currency: a replacement is ``(start, end, value)`` on :attr:`WordText.text`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

from hf_anon.text.word.package import WordPackage, w

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
#: Run content read as characters (besides ``w:t``).
CHARACTERS = {w("tab"): "\t", w("ptab"): "\t", w("br"): "\n", w("cr"): "\n"}
CHARACTERS[w("noBreakHyphen")] = "\u2011"
#: Elements whose content is not the paragraph's text: properties, a text box's own
#: paragraphs (read as paragraphs of their own), field instructions, deleted text.
SKIPPED = frozenset(
    {w("pPr"), w("rPr"), w("txbxContent"), w("instrText"), w("delText"), w("delInstrText")}
)
#: Between the parts (body, headers, footers, notes).
PART_SEPARATOR = "\n\n"


@dataclass
class Piece:
    """Characters ``[start, end)`` of the text and the node they came from (a ``w:t``, or
    a tab or break element read as one character)."""

    node: etree._Element
    start: int
    end: int

    @property
    def is_text(self) -> bool:
        return self.node.tag == w("t")


def _pieces(paragraph: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """The text nodes of a paragraph in order, without those of nested paragraphs."""
    for child in paragraph:
        if child.tag in SKIPPED or child.tag == w("p") or not isinstance(child.tag, str):
            continue
        if child.tag == w("t"):
            yield child, child.text or ""
        elif child.tag in CHARACTERS and child.getparent().tag == w("r"):
            yield child, CHARACTERS[child.tag]
        else:
            yield from _pieces(child)


@dataclass
class WordText:
    """The text of a document's parts (:func:`read_word_text`) and where it came from."""

    text: str
    pieces: list[Piece]

    def replace(self, replacements: Iterable[tuple[int, int, str]]) -> None:
        """Write each ``(start, end, value)`` (offsets on :attr:`text`, not overlapping)
        into the XML nodes: the value goes into the first text node of the stretch,
        whatever of the stretch the following nodes hold is cut out of them (a tab or
        break inside it is removed). A stretch of paragraph breaks only puts its value at
        the end of the text before it. The nodes change in place; :attr:`text` does not."""
        starts = [p.start for p in self.pieces]
        ordered = sorted(replacements, key=lambda r: r[0], reverse=True)
        for start, end, value in ordered:  # from the end: earlier offsets stay valid
            touched = list(self._overlapping(starts, start, end))
            if not touched:
                self._put_beside(starts, start, end, value)
                continue
            first = _holder(touched)
            for piece in touched:
                if piece is first:
                    continue
                if piece.is_text:
                    text = piece.node.text or ""
                    cut_from = max(start, piece.start) - piece.start
                    cut_to = min(end, piece.end) - piece.start
                    _set_text(piece.node, text[:cut_from] + text[cut_to:])
                else:
                    piece.node.getparent().remove(piece.node)
            if not first.is_text:  # a stretch of tabs and breaks only: a w:t takes it
                node = etree.Element(w("t"))
                first.node.addprevious(node)
                first.node.getparent().remove(first.node)
                first.node, head, tail = node, "", ""
            else:
                text = first.node.text or ""
                head = text[: max(start, first.start) - first.start]
                # past the node's own end: what a break-only stretch after it appended
                tail = text[min(end, first.end) - first.start :]
            _set_text(first.node, head + value + tail)

    def _put_beside(self, starts: list[int], start: int, end: int, value: str) -> None:
        """A stretch that holds no node: its value goes at the end of the text node before
        it, else at the start of the one after it."""
        before = self._text_before(starts, start)
        if before is not None:
            _set_text(before.node, (before.node.text or "") + value)
            return
        after = next((p for p in self.pieces if p.is_text and p.start >= end), None)
        if after is None:
            raise ValueError(f"no text node near [{start}:{end}] to hold a replacement")
        _set_text(after.node, value + (after.node.text or ""))

    def _value_at(self, starts: list[int], start: int, end: int) -> int:
        """Where in the stretch ``[start, end)`` :meth:`replace` puts its value: the breaks
        of the stretch before that offset stay before the value, the others after it."""
        touched = list(self._overlapping(starts, start, end))
        if touched:
            return max(start, _holder(touched).start)
        return start if self._text_before(starts, start) is not None else end

    def _text_before(self, starts: list[int], start: int) -> Piece | None:
        """The last text node before ``start`` if it ends there or earlier (a stretch of
        breaks only puts its value at its end); None otherwise."""
        for i in range(bisect_right(starts, start) - 1, -1, -1):
            if self.pieces[i].is_text:
                return self.pieces[i] if self.pieces[i].end <= start else None
        return None

    def replaced_text(self, replacements: Iterable[tuple[int, int, str]]) -> str:
        """What the document reads after :meth:`replace`: :attr:`text` with each stretch
        replaced, except that the paragraph breaks inside a stretch stay (a replacement
        never merges paragraphs, nor a header into the body: it ends at the break, and
        the rest of the stretch after the break is cut)."""
        out, cursor = [], 0
        covered = self._covered()
        starts = [p.start for p in self.pieces]

        def breaks(a: int, b: int) -> str:
            return "".join(self.text[i] for i in range(a, b) if not covered[i])

        for start, end, value in sorted(replacements, key=lambda r: r[0]):
            at = self._value_at(starts, start, end)
            out += [self.text[cursor:start], breaks(start, at), value, breaks(at, end)]
            cursor = end
        out.append(self.text[cursor:])
        return "".join(out)

    def _covered(self) -> list[bool]:
        """For each character of :attr:`text`: does a node hold it (else it is a break
        between paragraphs or parts)?"""
        covered = [False] * len(self.text)
        for piece in self.pieces:
            covered[piece.start : piece.end] = [True] * (piece.end - piece.start)
        return covered

    def _overlapping(self, starts: list[int], start: int, end: int) -> Iterator[Piece]:
        i = max(bisect_right(starts, start) - 1, 0)
        while i < len(self.pieces) and self.pieces[i].start < end:
            piece = self.pieces[i]
            if piece.end > start:
                yield piece
            i += 1


def _holder(touched: list[Piece]) -> Piece:
    """The piece a replacement's value goes into: the first text node it touches."""
    return next((p for p in touched if p.is_text), touched[0])


def _set_text(node: etree._Element, text: str) -> None:
    node.text = text
    if text != text.strip():
        node.set(XML_SPACE, "preserve")


def _separator(paragraph: etree._Element) -> str:
    """What goes before a paragraph: a tab where it opens a table cell after the first of
    its row (a row reads as one line of tab-separated cells), else a line break."""
    cell = paragraph.getparent()
    if cell.tag != w("tc") or cell.find(w("p")) is not paragraph:
        return "\n"
    previous = cell.getprevious()
    while previous is not None and previous.tag != w("tc"):
        previous = previous.getprevious()
    return "\t" if previous is not None else "\n"


def paragraph_texts(root: etree._Element) -> list[str]:
    """The text of each paragraph of one XML part, as :func:`read_word_text` reads it."""
    return ["".join(text for _, text in _pieces(p)) for p in root.iter(w("p"))]


def read_word_text(package: WordPackage) -> WordText:
    """The text of the document's parts, one line per paragraph (see the module docs)."""
    chunks: list[str] = []
    pieces: list[Piece] = []
    offset = 0
    for index, part in enumerate(package.story_parts()):
        if index:
            chunks.append(PART_SEPARATOR)
            offset += len(PART_SEPARATOR)
        for number, paragraph in enumerate(package.xml(part).iter(w("p"))):
            if number:
                chunks.append(_separator(paragraph))
                offset += 1
            for node, text in _pieces(paragraph):
                if text:
                    pieces.append(Piece(node, offset, offset + len(text)))
                    chunks.append(text)
                    offset += len(text)
    return WordText("".join(chunks), pieces)
