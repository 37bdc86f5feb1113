"""The ``hf-anon`` command: one module per sub-command (``cmd_<name>`` and the
``add_<name>_parser`` that registers its options), the flags several share
(:mod:`~hf_anon.cli.arguments`), what several read and write (:mod:`~hf_anon.cli.inputs`),
and :func:`~hf_anon.cli.main.main`."""

from hf_anon.cli.inputs import EXIT_INVALID_INPUT
from hf_anon.cli.main import build_parser, main

__all__ = ["EXIT_INVALID_INPUT", "build_parser", "main"]
