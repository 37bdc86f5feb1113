"""The metadata of a Word file's images removed without touching a pixel.

A photo pasted into a decision carries EXIF (camera owner, GPS position, date), XMP and
IPTC blocks (author, caption, keywords); a PNG carries text chunks. Re-encoding the image
would remove them but change it (JPEG loses quality each time), so the metadata segments
are cut out of the byte stream instead: JPEG ``APP1`` (EXIF, XMP), ``APP13`` (IPTC) and
comments; PNG ``tEXt``, ``zTXt``, ``iTXt``, ``eXIf`` and ``tIME`` chunks. The colour
profile (``APP2``, ``iCCP``) and everything the picture needs stay.
"""

from __future__ import annotations

import struct

from hf_anon.text.word.package import WordPackage

#: JPEG markers whose segments hold metadata: APP1 (EXIF, XMP), APP13 (IPTC), COM.
JPEG_METADATA = frozenset({0xE1, 0xED, 0xFE})
#: PNG chunks that hold metadata.
PNG_METADATA = frozenset({b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"tIME"})
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def strip_jpeg(data: bytes) -> bytes | None:
    """``data`` without its metadata segments; None where it had none or is no JPEG
    whose header can be walked (then it stays as it is)."""
    if not data.startswith(b"\xff\xd8"):
        return None
    out, pos, cut = [data[:2]], 2, False
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker == 0xDA:  # start of scan: the image data follows, no more headers
            break
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        end = pos + 2 + length
        if end > len(data):
            return None
        if marker in JPEG_METADATA:
            cut = True
        else:
            out.append(data[pos:end])
        pos = end
    if not cut:
        return None
    out.append(data[pos:])
    return b"".join(out)


def strip_png(data: bytes) -> bytes | None:
    """``data`` without its metadata chunks; None where it had none or is no PNG."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    out, pos, cut = [PNG_SIGNATURE], len(PNG_SIGNATURE), False
    while pos + 12 <= len(data):
        length = struct.unpack(">I", data[pos : pos + 4])[0]
        kind = data[pos + 4 : pos + 8]
        end = pos + 12 + length
        if end > len(data):
            return None
        if kind in PNG_METADATA:
            cut = True
        else:
            out.append(data[pos:end])
        pos = end
        if kind == b"IEND":
            break
    return b"".join(out) if cut else None


def strip_image_metadata(package: WordPackage) -> int:
    """Strip the metadata of every JPEG and PNG part in place; returns how many images
    had some."""
    count = 0
    for part, data in list(package.parts.items()):
        stripped = strip_jpeg(data) or strip_png(data)
        if stripped is not None:
            package.parts[part] = stripped
            count += 1
    return count
