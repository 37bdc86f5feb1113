"""What a Word file hides besides its text, removed before anything is read or written.

A decision anonymized only on the surface still gives its parties away through the parts
nobody sees on the page: comments and their authors, tracked changes (deleted text stays
in the file), hidden text, document properties (the judge as author, the company, the
case as title), custom properties, document variables, the template's path, the alt text
of pictures, the EXIF or XMP data of images, building blocks and custom XML data.
:func:`clean_package` removes all of them and counts what it removed, so that the summary
can say so. The headers, footers and notes stay: they are text and go through detection
like the body.
"""

from __future__ import annotations

from collections import Counter

from lxml import etree

from hf_anon.text.word.media import strip_image_metadata
from hf_anon.text.word.package import W, WordPackage, w
from hf_anon.text.word.revisions import settle_revisions

#: Parts of comments and of the people who wrote comments or changes.
COMMENT_PARTS = (
    "comments",
    "commentsExtended",
    "commentsIds",
    "commentsExtensible",
    "people",
)
COMMENT_MARKS = ("commentRangeStart", "commentRangeEnd", "commentReference")
CORE = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
APP = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
#: Extended (app) properties that name people, organisations, the file or its titles.
APP_PERSONAL = ("Company", "Manager", "HyperlinkBase", "Template", "TitlesOfParts", "HeadingPairs")
#: Settings that carry names or paths: document variables, the template, mail merge
#: sources, and the switch that would record the next edits as tracked changes again.
SETTINGS_PERSONAL = ("docVars", "attachedTemplate", "mailMerge", "trackRevisions")
DRAWING_NAMESPACES = (
    "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "http://schemas.openxmlformats.org/drawingml/2006/picture",
)


def clean_package(package: WordPackage, *, revisions: str = "accept") -> Counter:
    """Remove from ``package`` everything :mod:`this module <hf_anon.text.word.cleaning>`
    names, in place; tracked changes are accepted (``revisions="accept"``) or rejected.
    Returns what was removed, by kind."""
    removed: Counter = Counter()
    stories = package.story_parts()
    for part in stories:
        root = package.xml(part)
        removed += settle_revisions(root, revisions)
        removed["hidden runs"] += remove_hidden_runs(root, _hidden_styles(package))
        removed["alt texts"] += remove_alt_text(root)
        for tag in COMMENT_MARKS:
            for mark in list(root.iter(w(tag))):
                _remove_mark(mark)
    removed["comments"] += remove_comments(package)
    removed["attached data"] += remove_attached_data(package)
    removed["document properties"] += clear_properties(package)
    removed["settings"] += clear_settings(package)
    removed["image metadata"] += strip_image_metadata(package)
    return +removed


def _remove_mark(mark: etree._Element) -> None:
    """Remove a comment mark; a run left with nothing but its properties goes too."""
    parent = mark.getparent()
    parent.remove(mark)
    if parent.tag == w("r") and all(child.tag == w("rPr") for child in parent):
        parent.getparent().remove(parent)


def _is_on(element: etree._Element | None) -> bool:
    """A WordprocessingML switch (``<w:vanish/>``, ``w:val="true"``) that is set."""
    return element is not None and element.get(w("val"), "true") not in ("0", "false", "off")


def _hidden_styles(package: WordPackage) -> set[str]:
    """The ids of character styles that hide their text."""
    styles = [
        rel.target
        for rel in package.relationships(package.main_part())
        if rel.type == "styles" and rel.target in package.parts
    ]
    hidden = set()
    for part in styles:
        for style in package.xml(part).iter(w("style")):
            properties = style.find(w("rPr"))
            if properties is not None and _is_on(properties.find(w("vanish"))):
                hidden.add(style.get(w("styleId")))
    return hidden


def remove_hidden_runs(root: etree._Element, hidden_styles: set[str] = frozenset()) -> int:
    """Remove the runs formatted as hidden (``w:vanish``, ``w:specVanish`` or a character
    style that hides): Word does not show them, but they are in the file."""
    count = 0
    for run in list(root.iter(w("r"))):
        properties = run.find(w("rPr"))
        if properties is None:
            continue
        style = properties.find(w("rStyle"))
        if (
            _is_on(properties.find(w("vanish")))
            or _is_on(properties.find(w("specVanish")))
            or (style is not None and style.get(w("val")) in hidden_styles)
        ):
            run.getparent().remove(run)
            count += 1
    return count


def remove_alt_text(root: etree._Element) -> int:
    """Clear the description and title (alt text) of pictures and shapes."""
    count = 0
    for namespace in DRAWING_NAMESPACES:
        for tag in ("docPr", "cNvPr"):
            for element in root.iter(f"{{{namespace}}}{tag}"):
                for attribute in ("descr", "title"):
                    if element.get(attribute):
                        del element.attrib[attribute]
                        count += 1
    return count


def remove_comments(package: WordPackage) -> int:
    """Drop the comment parts (and the people who wrote comments or changes); returns the
    number of comments."""
    count = 0
    main = package.main_part()
    for rel in list(package.relationships(main)):
        if rel.type in COMMENT_PARTS and rel.target in package.parts:
            if rel.type == "comments":
                count += len(package.xml(rel.target).findall(w("comment")))
            package.remove_part(rel.target)
    return count


#: Parts attached to the document that are not its text: building blocks (AutoText, which
#: court templates fill with judges' names) and custom XML data (document-management
#: metadata: authors, e-mail addresses, case numbers).
ATTACHED_DATA = ("glossaryDocument", "customXml")


def remove_attached_data(package: WordPackage) -> int:
    """Drop the building blocks and custom XML data parts (with their own properties
    parts); returns how many were dropped."""
    count = 0
    main = package.main_part()
    for rel in list(package.relationships(main)):
        if rel.type in ATTACHED_DATA and rel.target in package.parts:
            for inner in package.relationships(rel.target):
                if not inner.external and inner.type == "customXmlProps":
                    package.remove_part(inner.target)
            count += package.remove_part(rel.target)
    return count


def clear_properties(package: WordPackage) -> int:
    """Empty the core properties (author, last editor, title, subject, keywords, dates
    …), drop the personal extended properties and the custom properties part; returns
    the number of properties removed."""
    count = 0
    for rel in list(package.relationships("")):
        if rel.target not in package.parts:
            continue
        if rel.type == "core-properties":
            root = package.xml(rel.target)
            count += len(root)
            for child in list(root):
                root.remove(child)
        elif rel.type == "extended-properties":
            root = package.xml(rel.target)
            for name in APP_PERSONAL:
                for element in root.findall(f"{{{APP}}}{name}"):
                    root.remove(element)
                    count += 1
        elif rel.type == "custom-properties":
            count += len(package.xml(rel.target))
            package.remove_part(rel.target)
    return count


def clear_settings(package: WordPackage) -> int:
    """Remove document variables, the attached template's path, mail-merge sources and
    change tracking from the settings; returns how many were removed."""
    count = 0
    for rel in package.relationships(package.main_part()):
        if rel.type != "settings" or rel.target not in package.parts:
            continue
        root = package.xml(rel.target)
        for name in SETTINGS_PERSONAL:
            for element in root.findall(f"{{{W}}}{name}"):
                root.remove(element)
                count += 1
        # the template is also a relationship of the settings part (its path)
        for inner in package.relationships(rel.target):
            if inner.type == "attachedTemplate":
                inner.element.getparent().remove(inner.element)
    return count
