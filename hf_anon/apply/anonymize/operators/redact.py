"""``redact``: one mask for every span (default ``[…]``)."""

from __future__ import annotations

from hf_anon.apply.anonymize.operators.base import Operator
from hf_anon.apply.anonymize.operators.registry import register_operator
from hf_anon.apply.anonymize.types import SAFE_MASK


@register_operator
class Redact(Operator):
    """Replace every span with the same mask (default ``[…]``)."""

    name = "redact"

    def __init__(self, mask: str = SAFE_MASK):
        self.mask = mask

    def validate(self, label=None):
        if not isinstance(self.mask, str):
            raise ValueError(f"the mask must be a string, got {self.mask!r}")

    def operate(self, mentions, context):
        return [self.mask] * len(mentions)
