"""``python -m hf_anon.cli``: the ``hf-anon`` command (as ``accelerate launch -m`` runs it)."""

import sys

from hf_anon.cli.main import main

sys.exit(main())
