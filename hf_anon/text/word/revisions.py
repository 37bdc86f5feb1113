"""Tracked changes of a Word document, accepted or rejected, so that no history is left.

A document with tracked changes keeps the deleted text (``w:del`` runs with
``w:delText``), the text as it was before a move (``w:moveFrom``), the former formatting
(``w:rPrChange``, ``w:pPrChange`` …) and the author of every change: the classic way a
name removed on the surface stays in the file. ``accept`` keeps the document as it reads
with all changes made; ``reject`` as it read before them. Either way the revision marks
and their authors are gone afterwards.
"""

from __future__ import annotations

from collections import Counter

from lxml import etree

from hf_anon.text.word.package import w

#: What accepting a change removes with its content / keeps the content of.
INSERTED = ("ins", "moveTo")
DELETED = ("del", "moveFrom")
#: Marks of former properties (the element holds the old properties).
PROPERTY_CHANGES = (
    "rPrChange",
    "pPrChange",
    "sectPrChange",
    "tblPrChange",
    "tblPrExChange",
    "trPrChange",
    "tcPrChange",
    "tblGridChange",
    "numberingChange",
)
#: Range marks with nothing inside them.
RANGE_MARKS = (
    "moveFromRangeStart",
    "moveFromRangeEnd",
    "moveToRangeStart",
    "moveToRangeEnd",
    "customXmlInsRangeStart",
    "customXmlInsRangeEnd",
    "customXmlDelRangeStart",
    "customXmlDelRangeEnd",
    "customXmlMoveFromRangeStart",
    "customXmlMoveFromRangeEnd",
    "customXmlMoveToRangeStart",
    "customXmlMoveToRangeEnd",
)
REVISION_MODES = ("accept", "reject")


def _unwrap(element: etree._Element) -> None:
    """Put the children of ``element`` in its place."""
    parent = element.getparent()
    index = parent.index(element)
    for offset, child in enumerate(list(element)):
        parent.insert(index + offset, child)
    _drop(element)


def _drop(element: etree._Element) -> None:
    """Remove ``element`` and keep the text after it (lxml's tail) in the document."""
    parent = element.getparent()
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _rename(root: etree._Element, old: str, new: str) -> None:
    for element in root.iter(w(old)):
        element.tag = w(new)


def settle_revisions(root: etree._Element, mode: str = "accept") -> Counter:
    """Accept (``mode="accept"``) or reject every tracked change of one XML part in place;
    returns how many insertions, deletions and formatting changes were settled."""
    if mode not in REVISION_MODES:
        raise ValueError(f"revisions must be one of {', '.join(REVISION_MODES)}, got {mode!r}")
    done: Counter = Counter()
    kept, dropped = (INSERTED, DELETED) if mode == "accept" else (DELETED, INSERTED)
    # a row marked inserted or deleted (w:trPr/w:ins, w:trPr/w:del) goes or stays whole
    for row in list(root.iter(w("tr"))):
        marks = row.find(w("trPr"))
        if marks is not None and any(marks.find(w(tag)) is not None for tag in dropped):
            done["tracked rows"] += 1
            _drop(row)
    for tag in dropped:
        for element in list(root.iter(w(tag))):
            if element.getparent() is not None:
                done["tracked deletions" if tag in DELETED else "tracked insertions"] += 1
                _drop(element)
    for tag in kept:
        for element in list(root.iter(w(tag))):
            parent = element.getparent()
            if parent is None:
                continue
            if len(element) == 0 or parent.tag in (w("rPr"), w("trPr"), w("tcPr")):
                _drop(element)  # a mark on a paragraph mark, row or cell: nothing to keep
            else:
                done["tracked insertions" if tag in INSERTED else "tracked deletions"] += 1
                _unwrap(element)
    if mode == "reject":  # deleted text comes back as text
        _rename(root, "delText", "t")
        _rename(root, "delInstrText", "instrText")
    for tag in PROPERTY_CHANGES:
        for change in list(root.iter(w(tag))):
            done["tracked formatting"] += 1
            if mode == "reject" and tag in ("rPrChange", "pPrChange"):
                _restore_properties(change)
            else:
                _drop(change)
    for tag in ("cellIns", "cellDel", "cellMerge", *RANGE_MARKS):
        for element in list(root.iter(w(tag))):
            _drop(element)
    return done


def _restore_properties(change: etree._Element) -> None:
    """Reject a formatting change: the properties it holds replace the current ones
    (``w:rPrChange`` holds the former ``w:rPr``; ``w:pPrChange`` the former ``w:pPr``)."""
    current = change.getparent()
    former = change.find(w(etree.QName(current).localname))
    keep = {w("rPr"), w("sectPr")} if current.tag == w("pPr") else set()
    for child in list(current):
        if child is not change and child.tag not in keep:
            current.remove(child)
    _drop(change)
    if former is not None:
        for child in list(former):
            current.append(child)
