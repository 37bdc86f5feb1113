"""``label``: the category, numbered per entity (``<nat-name-1>``)."""

from __future__ import annotations

from hf_anon.apply.anonymize.operators.base import Operator
from hf_anon.apply.anonymize.operators.registry import register_operator


@register_operator
class Label(Operator):
    """``<nat-name-1>``: the category, numbered per entity (seed 001: the role of each
    span stays visible). With a secret, the number is a short keyed hash instead, equal
    for the same entity in every document. ``numbered=False`` gives ``<nat-name>``."""

    name = "label"

    def __init__(self, numbered: bool = True, template: str | None = None):
        self.numbered = numbered
        self.template = template or ("<{label}-{n}>" if numbered else "<{label}>")

    def validate(self, label=None):
        try:
            self.template.format(label="nat-name", n="1")
        except (KeyError, IndexError, ValueError) as err:
            raise ValueError(
                f"label template {self.template!r} may only use {{label}} and {{n}}: {err}"
            ) from None

    def operate(self, mentions, context):
        return [self.template.format(label=m.label, n=m.tag) for m in mentions]
