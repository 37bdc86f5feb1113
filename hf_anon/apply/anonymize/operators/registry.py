"""Operators by name: ``mode="label"`` finds
:class:`~hf_anon.apply.anonymize.operators.label.Label`."""

from __future__ import annotations

from typing import Any

from hf_anon.apply.anonymize.operators.base import Operator

#: name → operator class; :func:`register_operator` adds to it.
OPERATORS: dict[str, type[Operator]] = {}


def register_operator(cls: type[Operator]) -> type[Operator]:
    """Class decorator: make an operator available by its ``name`` (``mode="..."``)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} needs a name")
    OPERATORS[cls.name] = cls
    return cls


def get_operator(spec: str | Operator, **params: Any) -> Operator:
    """An operator from its name (with parameters) or as given; validated."""
    if isinstance(spec, Operator):
        if params:
            raise ValueError("parameters go to the operator's constructor, not here")
        operator = spec
    elif isinstance(spec, str):
        if spec not in OPERATORS:
            raise ValueError(f"unknown operator {spec!r}; known: {sorted(OPERATORS)}")
        operator = OPERATORS[spec](**params)
    else:
        raise TypeError(f"an operator is a name or an Operator, got {type(spec).__name__}")
    operator.validate()
    return operator
