"""A Word file (``.docx``) as the parts of its zip archive, read safely and written back.

A ``.docx`` is a zip archive of XML parts (``word/document.xml``, headers, footers, notes,
comments, properties …) and media, tied together by relationship files (``_rels/*.rels``)
and ``[Content_Types].xml``. :class:`WordPackage` keeps every part as it came, parses an
XML part only when asked (:meth:`WordPackage.xml`), can drop a part with its relationships
and content type (:meth:`WordPackage.remove_part`), and writes the archive back with the
parts in their order (:meth:`WordPackage.to_bytes`), so that everything not touched stays
byte for byte.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass, field

from lxml import etree

from hf_anon.text.errors import InputError

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
#: Relationship types, after the last slash (``…/officeDocument/2006/relationships/header``).
OFFICE_DOCUMENT = "officeDocument"
#: The parts of a document that hold its text, besides the main one.
STORY_TYPES = ("header", "footer", "footnotes", "endnotes")
#: Limits against zip bombs: what all parts may unpack to, and how much a part of more
#: than 1 MiB may be compressed (text XML reaches about 10-20 : 1, a zip bomb about 1000 : 1).
MAX_UNPACKED = 256 * 2**20
MAX_RATIO = 100


def w(tag: str) -> str:
    """The Clark name of a WordprocessingML tag: ``w("t")`` → ``{…/main}t``."""
    return f"{{{W}}}{tag}"


@dataclass
class Relationship:
    """One relationship of a part: its id, type (the last path segment), target part name
    (resolved from the root) or external target, and the element itself."""

    id: str
    type: str
    target: str
    external: bool
    element: etree._Element


@dataclass
class WordPackage:
    """The parts of a ``.docx`` (name → bytes, in archive order) and the XML trees parsed
    from them so far; ``name`` is how messages call the file."""

    parts: dict[str, bytes]
    name: str = "document.docx"
    trees: dict[str, etree._Element] = field(default_factory=dict, repr=False)

    @classmethod
    def read(
        cls,
        data: bytes,
        name: str = "document.docx",
        *,
        max_unpacked: int = MAX_UNPACKED,
        max_ratio: int = MAX_RATIO,
    ) -> WordPackage:
        """The package of ``data``; :class:`~hf_anon.text.readers.InputError` for what is no
        Word file or a zip bomb (refused from the sizes the archive's directory declares,
        before anything is unpacked: :mod:`zipfile` stops a part at its declared size)."""
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            members = archive.infolist()
        except Exception as err:  # not a zip archive at all
            raise InputError(f"{name}: not a readable .docx file ({type(err).__name__})") from None
        unpacked = sum(member.file_size for member in members)
        if unpacked > max_unpacked:
            raise InputError(
                f"{name}: the .docx would unpack to {unpacked / 2**20:,.0f} MiB, more than "
                f"{max_unpacked / 2**20:,.0f} MiB (a zip bomb?); not read"
            )
        for member in members:
            ratio = member.file_size / max(member.compress_size, 1)
            if member.file_size > 2**20 and ratio > max_ratio:
                raise InputError(
                    f"{name}: a part of the .docx is compressed {ratio:,.0f} : 1, more than "
                    f"{max_ratio} : 1 (a zip bomb?); not read"
                )
        try:
            parts = {m.filename: archive.read(m) for m in members if not m.is_dir()}
        except Exception as err:  # bad CRC, unsupported compression, encryption
            raise InputError(f"{name}: not a readable .docx file ({type(err).__name__})") from None
        package = cls(parts, name)
        if package.main_part() is None:
            raise InputError(f"{name}: not a readable .docx file (no main document part)")
        return package

    # -- parts
    def xml(self, part: str) -> etree._Element:
        """The parsed root of an XML part (parsed once; changes to it are written back)."""
        if part not in self.trees:
            try:
                parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
                self.trees[part] = etree.fromstring(self.parts[part], parser)
            except (KeyError, etree.XMLSyntaxError) as err:
                raise InputError(
                    f"{self.name}: not a readable .docx file (part {part}: {err})"
                ) from None
        return self.trees[part]

    def xml_parts(self) -> list[str]:
        """Every XML part (``.xml`` and ``.rels``), in archive order."""
        return [p for p in self.parts if p.lower().endswith((".xml", ".rels"))]

    def relationships(self, part: str) -> list[Relationship]:
        """The relationships of ``part`` (``""`` for the package's own)."""
        folder, base = posixpath.split(part)
        rels = posixpath.join(folder, "_rels", f"{base}.rels")
        if rels not in self.parts:
            return []
        out = []
        for element in self.xml(rels).iter(f"{{{REL}}}Relationship"):
            target = element.get("Target", "")
            external = element.get("TargetMode") == "External"
            if not external:
                target = (
                    target.lstrip("/")
                    if target.startswith("/")
                    else posixpath.normpath(posixpath.join(folder, target))
                )
            kind = element.get("Type", "").rsplit("/", 1)[-1]
            out.append(Relationship(element.get("Id", ""), kind, target, external, element))
        return out

    def main_part(self) -> str | None:
        """The main document part (``word/document.xml`` as a rule)."""
        for rel in self.relationships(""):
            if rel.type == OFFICE_DOCUMENT and rel.target in self.parts:
                return rel.target
        return None

    def story_parts(self) -> list[str]:
        """The parts that hold the document's text: the main part, then its headers,
        footers, footnotes and endnotes (in the order of its relationships)."""
        main = self.main_part()
        stories = [main]
        for kind in STORY_TYPES:
            for rel in self.relationships(main):
                usable = not rel.external and rel.target in self.parts
                if rel.type == kind and usable and rel.target not in stories:
                    stories.append(rel.target)
        return stories

    def remove_part(self, part: str) -> bool:
        """Drop ``part``, every relationship to it and its content type; False where the
        package has no such part."""
        if part not in self.parts:
            return False
        del self.parts[part]
        self.trees.pop(part, None)
        folder, base = posixpath.split(part)
        own_rels = posixpath.join(folder, "_rels", f"{base}.rels")
        self.parts.pop(own_rels, None)
        self.trees.pop(own_rels, None)
        for rels in [p for p in self.parts if p.endswith(".rels")]:
            source = self._source_of(rels)
            for rel in self.relationships(source):
                if not rel.external and rel.target == part:
                    rel.element.getparent().remove(rel.element)
        if "[Content_Types].xml" in self.parts:
            types = self.xml("[Content_Types].xml")
            for override in types.findall(f"{{{CT}}}Override"):
                if override.get("PartName", "").lstrip("/") == part:
                    types.remove(override)
        return True

    @staticmethod
    def _source_of(rels: str) -> str:
        """``word/_rels/document.xml.rels`` → ``word/document.xml``; ``_rels/.rels`` → ``""``."""
        folder, base = posixpath.split(rels)
        return posixpath.join(posixpath.dirname(folder), base.removesuffix(".rels"))

    def to_bytes(self) -> bytes:
        """The archive with every parsed tree serialized back, parts in their order."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for part, data in self.parts.items():
                if part in self.trees:
                    data = etree.tostring(
                        self.trees[part], xml_declaration=True, encoding="UTF-8", standalone=True
                    )
                archive.writestr(part, data)
        return buffer.getvalue()
