"""What every operator is, and what operators share within one document."""

from __future__ import annotations

import hashlib
import hmac
import random
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from hf_anon.apply.anonymize.types import Mention


@dataclass
class OperatorContext:
    """What operators share within one document: the text (its detection view, see
    :func:`~hf_anon.text.views.detection_view`) and the sources of randomness.

    :meth:`rng` gives a generator for a key: with a secret it is derived from
    ``HMAC-SHA256(secret, key)`` (equal in every document), otherwise from a per-document
    salt (random, or derived from ``seed`` and the text).
    """

    text: str
    salt: str
    secret: bytes | None = None
    attempt: int = 0
    #: the text's language (``de``, ``ja``): operators write values of that language
    language: str = "de"

    @property
    def keyed(self) -> bool:
        return self.secret is not None

    def _message(self, key: Sequence[object]) -> bytes:
        parts = [unicodedata.normalize("NFKC", str(k)).casefold() for k in key]
        if self.attempt:
            parts.append(f"attempt {self.attempt}")
        return "\x1f".join(parts).encode("utf-8")

    def digest(self, *key: object) -> bytes:
        if self.secret is not None:
            return hmac.new(self.secret, self._message(key), hashlib.sha256).digest()
        return hashlib.sha256(self.salt.encode("utf-8") + b"\x1e" + self._message(key)).digest()

    def rng(self, *key: object) -> random.Random:
        """A generator for ``key``; with a secret, the same in every document."""
        return random.Random(int.from_bytes(self.digest(*key)[:16], "big"))

    def document_rng(self, *key: object) -> random.Random:
        """A generator for document-wide choices: never linked across documents."""
        message = self.salt.encode("utf-8") + b"\x1e" + self._message(("document", *key))
        return random.Random(int.from_bytes(hashlib.sha256(message).digest()[:16], "big"))


class Operator(ABC):
    """What to write instead of a sensitive span (Presidio's ``Operator``).

    A subclass sets ``name``, checks its parameters in :meth:`validate` and returns one
    replacement per mention from :meth:`operate`. Operators see all their mentions of a
    document at once, so that one entity gets one replacement.
    """

    name: ClassVar[str] = ""

    def operator_name(self) -> str:
        return self.name

    def validate(self, label: str | None = None) -> None:  # noqa: B027 - optional hook
        """Raise ``ValueError`` if the parameters (or this label) do not work."""

    @abstractmethod
    def operate(self, mentions: Sequence[Mention], context: OperatorContext) -> list[str]:
        """One replacement per mention (mentions come in text order)."""

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"
