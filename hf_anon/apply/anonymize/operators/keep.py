"""``keep``: the original, unprotected."""

from __future__ import annotations

from hf_anon.apply.anonymize.operators.base import Operator
from hf_anon.apply.anonymize.operators.registry import register_operator


@register_operator
class Keep(Operator):
    """Leave the span as it is (its forms are then not protected by the leak check)."""

    name = "keep"

    def operate(self, mentions, context):
        return [m.text for m in mentions]
