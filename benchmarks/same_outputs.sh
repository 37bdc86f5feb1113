#!/usr/bin/env bash
# The user-visible outputs of one checkout's code, to compare two checkouts byte for byte
# (issue 32: the layer folders must not change behaviour). Usage:
#
#   git worktree add /tmp/before <old commit>
#   bash benchmarks/same_outputs.sh /tmp/before /tmp/out-before DEV_GOLD.jsonl DECISIONS.jsonl.gz
#   bash benchmarks/same_outputs.sh "$PWD" /tmp/out-after DEV_GOLD.jsonl DECISIONS.jsonl.gz
#   diff -r /tmp/out-before /tmp/out-after && echo identical
#
# DEV_GOLD: the fictional dev set (gold JSON Lines); DECISIONS: published decisions (JSON
# Lines, gzipped). The real gold sets and Japanese passages are read from this checkout.
set -euo pipefail
DATA="$(cd "$(dirname "$0")/.." && pwd)"
ROOT=$1; OUT=$2; DEV=$(realpath "$3"); DECISIONS=$(realpath "$4")
mkdir -p "$OUT"; OUT=$(realpath "$OUT"); cd "$ROOT"
export PYTHONPATH=$ROOT HF_HUB_OFFLINE=1
hf() { python -m hf_anon.cli "$@" --no-progress; }
cat "$DATA"/data/real/{validation,test,unseen_courts}.jsonl > "$OUT/real.jsonl"
hf detect --input "$OUT/real.jsonl" --output "$OUT/real.detect.jsonl"
hf detect --input "$DATA/data/ja/test.jsonl" --output "$OUT/ja.detect.jsonl" --language ja
hf anonymize "$DEV" --output "$OUT/dev_anon" --seed 1 --key-out "$OUT/dev.key.jsonl"
hf anonymize "$DATA/data/real/test.jsonl" --output "$OUT/test_anon" --seed 1 --mode label \
    --key-out "$OUT/test.key.jsonl"
hf anonymize "$DATA/data/ja/test.jsonl" --output "$OUT/ja_anon" --seed 1 --language ja
zcat "$DECISIONS" > "$OUT/decisions.jsonl"
hf placeholders --input "$OUT/decisions.jsonl" --output "$OUT/placeholders.jsonl"
rm "$OUT/decisions.jsonl" "$OUT/real.jsonl"
