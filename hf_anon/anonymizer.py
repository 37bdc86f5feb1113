"""Compatibility: the anonymizer now lives in :mod:`hf_anon.anonymize`.

``from hf_anon.anonymizer import Anonymizer`` (and every other public name) keeps
working; new code imports from :mod:`hf_anon.anonymize`.
"""

from hf_anon.anonymize import *  # noqa: F403
from hf_anon.anonymize import __all__  # noqa: F401
