"""The placeholder audit over every real corpus the project has (issue 30, part 1).

    python datasets_scripts/audit_placeholders.py --output reports/placeholders/audit.md

Runs :func:`hf_anon.corpora.placeholders.audit.audit` (the engine of
``hf-anon placeholders --audit``) on

- the 918 real published decisions (``../shared/data/real/decisions.jsonl.gz``), by court;
- the LER corpus's raw decisions (``../shared/data/ler/raw/``, the silver corpus's other
  source), by federal court;
- ``--extra`` corpora (``corpora/ifg_more.jsonl.gz`` of ``extract_more_decisions.py``: the
  okfde/ifg-urteile decisions the shared corpus left out), by court;

and writes one Markdown report (and its JSON beside it). ``--exclude`` leaves out ids (the
by-court placeholder key while rules are being written: its decisions must stay unseen).
Says so and stops when the shared data are missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hf_anon.corpora.ler import raw_files, read_raw_timex
from hf_anon.corpora.placeholders.audit import audit
from hf_anon.text.readers import read_ids, read_jsonl_texts

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", default=str(SHARED))
    parser.add_argument("--output", default=str(ROOT / "reports/placeholders/audit.md"))
    parser.add_argument("--exclude", nargs="*", default=[], help="JSON Lines files with ids")
    parser.add_argument("--extra", nargs="*", default=[], help="more JSON Lines corpora (.gz)")
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    real, ler = shared / "real" / "decisions.jsonl.gz", shared / "ler" / "raw"
    if not real.exists() or not ler.exists():
        print(f"error: the raw corpora are not in {shared} (real/, ler/raw/)", file=sys.stderr)
        return 2
    excluded = read_ids(args.exclude)
    reports = [
        audit(
            (r for r in read_jsonl_texts(real) if r["id"] not in excluded),
            "real published decisions (918)",
            progress=True,
        ),
        audit(
            (
                {"id": doc.id, "text": doc.text, "court": doc.domain}
                for path in raw_files(ler)
                for doc in read_raw_timex(path)
            ),
            "LER raw decisions",
            progress=True,
        ),
    ]
    for path in args.extra:
        rows = [r for r in read_jsonl_texts(path) if r["id"] not in excluded]
        reports.append(audit(rows, f"{Path(path).name} ({len(rows)})", progress=True))
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    header = [
        "# Placeholder audit",
        "",
        "Unmistakable masks (`XXX`, `xxx`, `Xxxxx`, `###`, `****`, `xx.xx.2016`, `....2022`) left "
        "outside every placeholder the rules find, per court, and the candidates the rules "
        "rejected, by shape. Made by `python datasets_scripts/audit_placeholders.py`.",
        "",
    ]
    out.write_text(
        "\n".join(header) + "\n".join(r.to_markdown() for r in reports), encoding="utf-8"
    )
    out.with_suffix(".json").write_text(
        json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    for r in reports:
        print(f"{r.corpus}: {r.masks_outside} of {r.masks} masks outside ({r.outside_share:.2%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
