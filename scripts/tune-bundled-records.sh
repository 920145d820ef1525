#!/bin/sh
# Refreshes the bundled tuned configurations (resources/records, docs/tuning.md):
# tunes every fused function of each zoo model with xgb and keeps the best
# record per workload. Run on an idle x86-64 machine with AVX-512, after
# `ctest -R models/references` exported the models into build/models.
#   scripts/tune-bundled-records.sh [MODEL...]     (default: all five)
set -eu
BUILD=${BUILD:-build}
MODELS=${MODELS:-$BUILD/models}
OUT=${OUT:-resources/records}
TRIALS=${TRIALS:-32}
WORK=${WORK:-$(mktemp -d)}
[ $# -gt 0 ] || set -- resnet18 resnet50 mobilenet_v2 transformer_encoder dcgan_generator
mkdir -p "$OUT"
for m in "$@"; do
    "$BUILD/bin/tesselc" tune "$MODELS/$m/model.onnx" --trials "$TRIALS" --tuner xgb --batch 8 \
        --early-stopping 16 --records "$WORK/$m.jsonl"
    "$BUILD/bin/tesselc" records "$WORK/$m.jsonl" --best > "$OUT/$m.jsonl"
    echo "$OUT/$m.jsonl: $(wc -l < "$OUT/$m.jsonl") workloads (all trials in $WORK/$m.jsonl)"
done
