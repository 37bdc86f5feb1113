"""Operators: what to write instead of a sensitive span (Presidio's operators).

One small module per operator, each registered by its name (``mode="label"``): ``keep``,
``redact``, ``label``, ``initials``, ``pseudonym``. A new operator subclasses
:class:`Operator` and registers with :func:`register_operator`.
"""

from hf_anon.apply.anonymize.operators.base import Operator, OperatorContext
from hf_anon.apply.anonymize.operators.registry import OPERATORS, get_operator, register_operator

# The built-in operators register themselves on import, in this order.
from hf_anon.apply.anonymize.operators.keep import Keep  # isort: skip
from hf_anon.apply.anonymize.operators.redact import Redact  # isort: skip
from hf_anon.apply.anonymize.operators.label import Label  # isort: skip
from hf_anon.apply.anonymize.operators.initials import INITIAL_LETTERS, Initials  # isort: skip
from hf_anon.apply.anonymize.operators.pseudonym import Pseudonym  # isort: skip

__all__ = [
    "INITIAL_LETTERS",
    "OPERATORS",
    "Initials",
    "Keep",
    "Label",
    "Operator",
    "OperatorContext",
    "Pseudonym",
    "Redact",
    "get_operator",
    "register_operator",
]
