#!/usr/bin/env bash
# Installs ONNX Runtime for node (the npm package onnxruntime-node, CPU only) into
# DIR (default build/ort), the reference runtime of the whole-model tests and of
# bench_models. Test and benchmark use only: Tessel never links or loads it.
#   scripts/setup-ort.sh [DIR]
# The version is pinned (ORT_NODE_VERSION, default 1.30.0) so that benchmark
# figures compare across machines; an installed version is kept whatever it is.
# ONNXRUNTIME_NODE_INSTALL=skip stops the package's post-install step from
# downloading GPU binaries; the CPU libonnxruntime.so ships inside the package.
# Idempotent: nothing happens when the package is already there. A failed install
# (no network) is reported and leaves the exit status 0, so that building and the
# tests that need no reference still run; the model tests then fail saying why.
set -uo pipefail
dir=${1:-build/ort}
version=${ORT_NODE_VERSION:-1.30.0}
if [ -f "$dir/node_modules/onnxruntime-node/package.json" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "setup-ort: npm is not installed (scripts/install-deps.sh installs it); the model tests and bench_models need ONNX Runtime" >&2
  exit 0
fi
mkdir -p "$dir"
echo "setup-ort: installing onnxruntime-node@$version into $dir"
if ! ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$dir" --no-audit --no-fund --no-save \
      --loglevel=error "onnxruntime-node@$version"; then
  echo "setup-ort: could not install onnxruntime-node (offline?); the model tests and bench_models need it: run scripts/setup-ort.sh $dir again when the npm registry can be reached" >&2
  exit 0
fi
