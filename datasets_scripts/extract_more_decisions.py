"""Extract the okfde/ifg-urteile decisions that ``../shared/data/real/`` left out.

The shared corpus took at most 25 decisions per court from okfde/ifg-urteile so that one
legal domain would not swamp it; about 300 German decisions of that repository are not in
it. A second unseen-court placeholder key (issue 30) needs decisions nobody has read, so
this script runs the shared extractor itself (``../shared/data/real/extract.py``, the same
PDF reflow and cleaning, pinned commit) without the cap, and keeps every decision whose
id and text are not already in ``decisions.jsonl.gz``.

    python datasets_scripts/extract_more_decisions.py --mirrors /work/.mirror \
        --out corpora/ifg_more.jsonl.gz

``--mirrors`` is the folder of ``fetch``'s snapshots (``owner+name/repo``).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import sys
from pathlib import Path

from tqdm.auto import tqdm

from hf_anon.text.readers import read_jsonl_texts

ROOT = Path(__file__).resolve().parents[1]
SHARED_REAL = ROOT.parent / "shared" / "data" / "real"


def load_extractor():
    """The shared extract.py as a module: one extraction, not a copy of it."""
    path = SHARED_REAL / "extract.py"
    spec = importlib.util.spec_from_file_location("shared_extract", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", required=True, help="folder of owner+name/repo snapshots")
    parser.add_argument("--out", default=str(ROOT / "corpora/ifg_more.jsonl.gz"))
    args = parser.parse_args(argv)

    extract = load_extractor()
    extract.IFG_PER_COURT_CAP = 10**9
    known = read_jsonl_texts(SHARED_REAL / "decisions.jsonl.gz")
    known_ids = {d["id"] for d in known}
    known_keys = {extract.dedup_key(d["text"]) for d in known}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    kept = 0
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for r in tqdm(extract.from_ifg(args.mirrors), desc="ifg decisions", unit="pdf"):
            if r["id"] in known_ids or extract.dedup_key(r["text"]) in known_keys:
                continue
            known_keys.add(extract.dedup_key(r["text"]))
            r["court_type"] = extract.court_type(r["court"]) if r["court"] else "unknown"
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
            kept += 1
    print(f"{kept} decisions not in the shared corpus -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
