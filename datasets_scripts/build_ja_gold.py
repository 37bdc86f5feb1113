"""Check hand-annotated real Japanese precedents and build the Japanese real gold set.

    python datasets_scripts/build_ja_gold.py --check data/ja/gold/annotation/pass1/jla-89462.txt
    python datasets_scripts/build_ja_gold.py            # gold, keys, statistics, agreement
    python datasets_scripts/build_ja_gold.py --train    # data/ja/real/train.jsonl (training)

The annotation lives in ``data/ja/gold/annotation/`` (see its ``GUIDE.md``): ``published/``
holds each precedent's text as published (the beginning of its ``contents``), ``meta/`` its
source, court and date, ``pass1/`` and ``pass2/`` two independent annotation passes, and
``adjudicated/`` the final marks, one :mod:`hf_anon.corpora.markup` file per precedent.

Building writes ``data/ja/gold/{validation,test}.jsonl`` (gold: filled text, spans),
``{validation,test}.key.jsonl`` (published text with ``placeholders`` and ``kept``) and
``statistics.json`` (counts, the precedents, and the agreement of the two passes). The split
is by court: a court's precedents are all on one side, so the test half measures courts
that nothing was chosen on. Evaluation data only: never train on it; choose on validation.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

from build_real_gold import (  # the same messages and figures as the German gold set
    agreement_figures,
    first_difference,
    write_split,
)

from hf_anon.corpora.markup import MarkedDocument, MarkupError, parse_markup
from hf_anon.model.metrics import score_documents
from hf_anon.text.data import Document

ROOT = Path(__file__).resolve().parents[1]
ANNOTATION = ROOT / "data" / "ja" / "gold" / "annotation"
SPLITS = ("validation", "test")
#: The files of japanese-law-analysis/data_set that ``../shared/data/HELDOUT.md`` keeps for
#: evaluation nothing in the project has seen: the build refuses a precedent from them
HELDOUT_JA = (
    "令和5(わ)321_高知地方裁判所_LowerCourt_92968.json",
    "令和3(わ)1393_京都地方裁判所第３刑事部_LowerCourt_91699.json",
    "令和2(わ)55_高知地方裁判所刑事部_LowerCourt_91793.json",
    "令和2(ワ)535_大津地方裁判所_LowerCourt_92960.json",
    "令和2(ワ)21000_東京地方裁判所_LowerCourt_90494.json",
    "令和2(ワ)23152_東京地方裁判所_LowerCourt_90510.json",
    "令和4(行ウ)121_名古屋地方裁判所民事第9部_LowerCourt_92932.json",
    "平成30(ワ)1631_京都地方裁判所第２民事部_LowerCourt_89662.json",
)
_N = "[0-9０-９一二三四五六七八九十〇]+"
#: a division of a court: ``第１２刑事部``, ``刑事第1部``, ``民事３部``, and the desks of a
#: summary court, ``少額訴訟4係``
_DIVISION = re.compile(
    f"(?:第{_N}(?:刑事|民事)?部|(?:刑事|民事)(?:第?{_N})?部|(?:少額訴訟)?{_N}係)$"
)


def check_file(path: Path, folder: Path = ANNOTATION) -> list[str]:
    """Problems of one marked file (empty when it is fine)."""
    published = folder / "published" / path.name
    if not published.exists():
        return [f"{path}: no published text {published}"]
    try:
        marked = parse_markup(path.read_text(encoding="utf-8"))
    except MarkupError as error:
        return [f"{path}: {error}"]
    text = published.read_text(encoding="utf-8")
    if marked.published != text:
        return [f"{path}: {first_difference(text, marked.published)}"]
    return []


def court_identity(court: str) -> str:
    """A court without its division (``大阪地方裁判所第１２刑事部`` → ``大阪地方裁判所``,
    ``最高裁判所第三小法廷`` → ``最高裁判所``); a branch (``名古屋地方裁判所半田支部``) is a court
    of its own."""
    court = re.sub(r"\s+", "", court)
    court = re.sub(r"(?:大法廷|第[一二三]小法廷)$", "", court)
    return _DIVISION.sub("", court) or court


def court_level(court: str) -> str:
    """The level of a court: supreme, high (the IP High Court too), district, family, summary."""
    for word, level in (
        ("最高裁判所", "supreme"),
        ("高等裁判所", "high"),
        ("家庭裁判所", "family"),
    ):
        if word in court:
            return level
    return "summary" if "簡易裁判所" in court else "district"


def split_by_court(courts: dict[str, str]) -> dict[str, str]:
    """Document id → split, whole courts to one side: level by level, courts in the order
    of their name's hash, each to the half with fewer documents of that level so far (ties:
    the half with fewer documents in all, then test). The test half then measures courts
    that nothing was chosen on, and both halves hold district and high courts alike."""
    by_court: dict[str, list[str]] = {}
    for doc_id, court in sorted(courts.items()):
        by_court.setdefault(court, []).append(doc_id)
    order = sorted(by_court, key=lambda c: (court_level(c), hashlib.sha256(c.encode()).hexdigest()))
    size = {(level, side): 0 for level in map(court_level, by_court) for side in SPLITS}
    total = dict.fromkeys(SPLITS, 0)
    out = {}
    for court in order:
        level = court_level(court)
        v, t = size[level, "validation"], size[level, "test"]
        if v == t:  # a tie within the level: the half with fewer documents in all
            v, t = total["validation"], total["test"]
        side = "validation" if v < t else "test"
        for doc_id in by_court[court]:
            out[doc_id] = side
        size[level, side] += len(by_court[court])
        total[side] += len(by_court[court])
    return out


def read_marked(path: Path, folder: Path = ANNOTATION) -> MarkedDocument:
    """A marked file that passed :func:`check_file` against ``folder``'s published text."""
    problems = check_file(path, folder)
    if problems:
        raise SystemExit("\n".join(problems))
    return parse_markup(path.read_text(encoding="utf-8"))


def agreement(folder: Path) -> dict | None:
    """Pass 1 scored against pass 2 on the published text, before adjudication: two
    annotators told never to read each other's files, so this measures the annotation; per
    second annotator too (``annotators.json``), since one of them can inflate it all."""
    first, second = [], []
    for path in sorted((folder / "pass2").glob("*.txt")):
        one = folder / "pass1" / path.name
        if not one.exists():
            continue
        text = (folder / "published" / path.name).read_text(encoding="utf-8")
        first.append(Document(path.stem, text, read_marked(one, folder).published_spans()))
        second.append(Document(path.stem, text, read_marked(path, folder).published_spans()))
    if not second:
        return None
    result = _agreement(first, second)
    who_path = folder / "annotators.json"
    who = json.loads(who_path.read_text(encoding="utf-8")) if who_path.exists() else {}
    groups: dict[str, list[int]] = {}
    for index, doc in enumerate(second):
        groups.setdefault(who.get(doc.id, {}).get("second", "unknown"), []).append(index)
    if len(groups) > 1:
        result["by_second_annotator"] = {
            name: _agreement([first[i] for i in idx], [second[i] for i in idx], brief=True)
            for name, idx in sorted(groups.items())
        }
    return result


def _agreement(first: list[Document], second: list[Document], brief: bool = False) -> dict:
    scores = score_documents(second, first)
    out = {"documents": len(second), **agreement_figures(scores, first, second, "pass2")}
    if not brief:
        out["reference"] = "pass2 (pass 1 scored against it; independent, before adjudication)"
        out["by_label_strict_typed"] = {
            label: {"precision": v.precision, "recall": v.recall, "support": v.support}
            for label, v in scores.by_label.items()
            if v.support or v.predicted
        }
    return out


def _reading(text: str, span) -> str:
    return f"`{text[span.start : span.end]}` {span.label}/{span.risk}".replace("\n", "⏎")


def disagreements(folder: Path, doc_id: str) -> list[tuple[str, str, str]]:
    """Where pass 1 and pass 2 differ on one precedent: (context, pass 1, pass 2) per place
    where the marks of the two passes overlap or lie alone, unless both read it the same
    (same edges, label and risk). Fills are not compared: each pass invents its own."""
    text = (folder / "published" / f"{doc_id}.txt").read_text(encoding="utf-8")
    one = read_marked(folder / "pass1" / f"{doc_id}.txt", folder).published_spans()
    two = read_marked(folder / "pass2" / f"{doc_id}.txt", folder).published_spans()
    events = sorted([(s.start, s.end, 1, s) for s in one] + [(s.start, s.end, 2, s) for s in two])
    groups: list[list] = []
    for start, end, side, span in events:
        if groups and start < groups[-1][0]:
            groups[-1][0] = max(groups[-1][0], end)
            groups[-1][1].append((side, span))
        else:
            groups.append([end, [(side, span)]])
    out = []
    for _, members in groups:
        a = [sp for side, sp in members if side == 1]
        b = [sp for side, sp in members if side == 2]
        if [(x.start, x.end, x.label, x.risk) for x in a] == [
            (x.start, x.end, x.label, x.risk) for x in b
        ]:
            continue
        first = min(sp.start for _, sp in members)
        last = max(sp.end for _, sp in members)
        context = text[max(0, first - 12) : last + 12].replace("\n", "⏎")
        out.append(
            (
                context,
                "; ".join(_reading(text, x) for x in a) or "no span",
                "; ".join(_reading(text, x) for x in b) or "no span",
            )
        )
    return out


def write_disagreements(folder: Path) -> int:
    """``adjudication/ID.md`` for each precedent with both passes: a table of every
    disagreement, its ``decision`` column for the adjudicator to fill; a table that exists
    already is left alone (it may hold decisions)."""
    (folder / "adjudication").mkdir(exist_ok=True)
    total = 0
    for path in sorted((folder / "pass2").glob("*.txt")):
        table = folder / "adjudication" / f"{path.stem}.md"
        if not (folder / "pass1" / path.name).exists() or table.exists():
            continue
        rows = disagreements(folder, path.stem)
        total += len(rows)
        lines = [
            f"# {path.stem}: {len(rows)} disagreements of pass 1 and pass 2",
            "",
            "| # | context | pass 1 | pass 2 | decision (and why) |",
            "|---|---|---|---|---|",
        ]
        for number, (context, a, b) in enumerate(rows, 1):
            cells = [c.replace("|", "\\|") for c in (context, a, b)]
            lines.append(f"| {number} | {cells[0]} | {cells[1]} | {cells[2]} | |")
        table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return total


def read_metas(folder: Path) -> dict[str, dict]:
    """Precedent id → its ``meta/ID.json`` (source, court, case number, date, licence)."""
    return {
        p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (folder / "meta").glob("*.json")
    }


def provenance(meta: dict) -> dict:
    """What a built precedent carries of its ``meta/`` file: source, court (and the court
    without its division, the split's unit), case number, trial type where known, date,
    licence."""
    extra = {
        "source": meta["source"],
        "court": meta["court"],
        "court_identity": court_identity(meta["court"]),
        "case_number": meta["case_number"],
    }
    if "trial_type" in meta:
        extra["trial_type"] = meta["trial_type"]
    return extra | {"date": meta["date"], "licence": meta["licence"]}


def counts(gold: list[Document], keys: list[dict]) -> dict:
    """Precedents, courts, characters, spans and placeholders of a built set, by label and
    risk."""
    return {
        "documents": len(gold),
        "courts": len({d.meta["court_identity"] for d in gold}),
        "published_characters": sum(len(k["text"]) for k in keys),
        "spans": sum(len(d.spans) for d in gold),
        "placeholders": sum(len(k["placeholders"]) for k in keys),
        "by_label": dict(Counter(sp.label for d in gold for sp in d.spans).most_common()),
        "by_risk": dict(Counter(sp.risk for d in gold for sp in d.spans).most_common()),
    }


def build(folder: Path, out: Path) -> dict:
    """Gold, keys and statistics from the adjudicated files (see the module doc)."""
    metas = read_metas(folder)
    final = {p.stem: p for p in (folder / "adjudicated").glob("*.txt")}
    missing = sorted(set(metas) - set(final))
    if missing:
        raise SystemExit(f"no adjudicated file for {len(missing)} precedents: {missing[:5]}")
    held = [k for k, m in metas.items() if m["source"].rsplit("/", 1)[-1] in HELDOUT_JA]
    if held:
        raise SystemExit(f"held-out precedents (../shared/data/HELDOUT.md) in the set: {held}")
    split = split_by_court({k: court_identity(m["court"]) for k, m in metas.items()})
    rows: dict[str, tuple[list, list]] = {s: ([], []) for s in SPLITS}
    listing = []
    for doc_id in sorted(metas):
        meta = metas[doc_id]
        marked = read_marked(final[doc_id], folder)
        extra = provenance(meta)
        gold = marked.gold(doc_id, domain=meta["trial_type"], **extra)
        rows[split[doc_id]][0].append(gold)
        rows[split[doc_id]][1].append(marked.key(doc_id, domain=meta["trial_type"], **extra))
        listing.append(
            {
                "id": doc_id,
                "split": split[doc_id],
                **extra,
                "characters": len(marked.published),
                "spans": len(marked.spans),
                "placeholders": sum(s.placeholder for s in marked.spans),
            }
        )
    out.mkdir(parents=True, exist_ok=True)
    stats: dict = {"splits": {}}
    for name, (gold, keys) in rows.items():
        write_split(out, name, gold, keys)
        stats["splits"][name] = counts(gold, keys) | {
            "by_trial_type": dict(Counter(d.meta["trial_type"] for d in gold).most_common()),
        }
    stats["agreement"] = agreement(folder)
    stats["precedents"] = listing
    (out / "statistics.json").write_text(
        json.dumps(stats, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return stats


#: Where the 100 real training precedents of ``data/ja/real/`` are annotated exhaustively
TRAIN_ANNOTATION = ROOT / "data" / "ja" / "real" / "annotation"


def build_train(folder: Path = TRAIN_ANNOTATION, out: Path | None = None) -> dict:
    """The training set from exhaustive annotations: every precedent's adjudicated file
    where there is one, else its pass 1, into ``train.jsonl`` (gold format: filled text,
    spans), ``train.key.jsonl`` and ``statistics.train.json`` (counts and the agreement of
    pass 1 with the independent pass 2, before adjudication). It refuses a held-out
    precedent and any precedent of the gold set: training never sees evaluation texts."""
    out = out or folder.parent
    metas = read_metas(folder)
    gold_sources = {m["source"].rsplit("/", 1)[-1] for m in read_metas(ANNOTATION).values()}
    names = {m["source"].rsplit("/", 1)[-1]: k for k, m in metas.items()}
    if clash := sorted(
        k for name, k in names.items() if name in HELDOUT_JA or name in gold_sources
    ):
        raise SystemExit(f"held-out or gold precedents among the training precedents: {clash}")
    final = {p.stem: p for p in (folder / "pass1").glob("*.txt")}
    final |= {p.stem: p for p in (folder / "adjudicated").glob("*.txt")}
    gold, keys = [], []
    for doc_id in sorted(set(final) & set(metas)):
        meta = metas[doc_id]
        marked = read_marked(final[doc_id], folder)
        extra = provenance(meta)
        gold.append(marked.gold(doc_id, domain="precedent", **extra))
        keys.append(marked.key(doc_id, domain="precedent", **extra))
    if not gold:
        raise SystemExit(f"no annotated precedent in {folder / 'pass1'}")
    write_split(out, "train", gold, keys)
    stats = counts(gold, keys) | {
        "not_annotated": sorted(set(metas) - set(final)),
        "agreement": agreement(folder),
    }
    (out / "statistics.train.json").write_text(
        json.dumps(stats, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return stats


def write_part(ids_file: Path, out: Path, folder: Path = TRAIN_ANNOTATION) -> int:
    """``OUT/NAME.jsonl`` and ``OUT/NAME.key.jsonl``: the precedents of ``train.jsonl`` and
    its key whose ids ``ids_file`` lists (NAME is its stem). The annotated precedents kept
    out of a training run (``exclude_ids_files``) are measured or calibrated on this way,
    from the one training file, without a second copy in the repository."""
    ids = set(ids_file.read_text(encoding="utf-8").split())
    out.mkdir(parents=True, exist_ok=True)
    found = set()
    for suffix in ("jsonl", "key.jsonl"):
        lines = (folder.parent / f"train.{suffix}").read_text(encoding="utf-8").splitlines()
        listed = [(json.loads(line)["id"], line) for line in lines]
        kept = [line for doc_id, line in listed if doc_id in ids]
        found |= {doc_id for doc_id, _ in listed if doc_id in ids}
        (out / f"{ids_file.stem}.{suffix}").write_text(
            "".join(line + "\n" for line in kept), encoding="utf-8"
        )
    if missing := sorted(ids - found):
        raise SystemExit(f"{ids_file}: not in train.jsonl (run --train first): {missing}")
    return len(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", nargs="+", metavar="FILE", type=Path, help="validate marked files"
    )
    parser.add_argument("--annotation", type=Path, default=ANNOTATION, help="annotation folder")
    parser.add_argument("--out", type=Path, default=ANNOTATION.parent, help="output folder")
    parser.add_argument(
        "--disagreements",
        action="store_true",
        help="write adjudication/ID.md tables of pass 1 against pass 2",
    )
    parser.add_argument(
        "--train",
        action="store_true",
        help="build data/ja/real/train.jsonl from data/ja/real/annotation/ (training only)",
    )
    parser.add_argument(
        "--part",
        type=Path,
        metavar="IDS_FILE",
        help="write OUT/NAME.jsonl and NAME.key.jsonl: the precedents of train.jsonl listed "
        "in IDS_FILE (one id a line), e.g. a set kept out of training to calibrate on",
    )
    args = parser.parse_args(argv)
    if args.part:
        count = write_part(args.part, args.out)
        print(f"{count} precedents written to {args.out / args.part.stem}.jsonl (and .key.jsonl)")
        return 0
    if args.train:
        folder = TRAIN_ANNOTATION if args.annotation == ANNOTATION else args.annotation
        stats = build_train(folder, None if args.out == ANNOTATION.parent else args.out)
        print(
            f"train: {stats['documents']} precedents of {stats['courts']} courts, "
            f"{stats['spans']} spans, {stats['placeholders']} placeholders; "
            f"{len(stats['not_annotated'])} not annotated"
        )
        return 0
    if args.disagreements:
        count = write_disagreements(args.annotation)
        print(f"{count} disagreements written to {args.annotation / 'adjudication'}")
        return 0
    if args.check:
        problems = [p for path in args.check for p in check_file(path, args.annotation)]
        for problem in problems:
            print(problem, file=sys.stderr)
        if not problems:
            print(f"{len(args.check)} file(s) fine")
        return 1 if problems else 0
    stats = build(args.annotation, args.out)
    for name, counts in stats["splits"].items():
        print(
            f"{name}: {counts['documents']} precedents of {counts['courts']} courts, "
            f"{counts['spans']} spans, {counts['placeholders']} placeholders"
        )
    if stats["agreement"]:
        a = stats["agreement"]
        print(
            f"agreement ({a['documents']} precedents): strict F1 {a['strict']['f1']:.3f}, "
            f"typed {a['strict_typed']['f1']:.3f}, lenient {a['lenient']['f1']:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
