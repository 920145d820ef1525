#!/usr/bin/env bash
# Tessel's one entry point on a fresh Debian 12 machine.
#   ./run.sh          install what is missing, build, launch the IDE on the bundled example
#                     (ResNet-18 from the model zoo and the GEMM lesson)
#   ./run.sh ladder   install what is missing, build, print the GEMM ladder table
#   ./run.sh test     install what is missing, build, run every test (ctest)
#   ./run.sh bench    install what is missing, build, run bench/gemm against OpenBLAS and oneDNN,
#                     then bench/models (ResNet-18/50, MobileNet-V2) against ONNX Runtime
#   ./run.sh bench-models   only the model benchmark
#   ./run.sh bench-tune     the tuners' search quality (bench/tune.cpp, docs/tuning.md)
#   ./run.sh bench-conv     ResNet-18's 3x3 convolutions, default and tuned (resources/records),
#                           against oneDNN's convolution (bench/conv.cpp, docs/tuning.md)
#   ./run.sh sanitize       test, with everything built under AddressSanitizer and
#                           UndefinedBehaviorSanitizer into build-sanitize (not part of CI: a cold
#                           build and the suite take 2-3x the plain ones)
# test and bench also install ONNX Runtime for node (scripts/setup-ort.sh, into
# BUILD_DIR/ort): the reference of the model tests and the anchor of bench_models.
# test also cross-builds the runtime alone for aarch64 into BOARD_DIR, the board that
# tests/board runs under qemu (docs/board.md).
# Environment: BUILD_DIR (default build), BOARD_DIR (default build-aarch64), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-main}
sanitize=()
if [ "$mode" = sanitize ]; then
  BUILD_DIR=${BUILD_DIR:-build-sanitize}
  sanitize=(-DTESSEL_SANITIZE=address,undefined -DTESSEL_BUILD_BENCH=OFF)
fi
BUILD_DIR=${BUILD_DIR:-build}
BOARD_DIR=${BOARD_DIR:-build-aarch64}
JOBS=${JOBS:-$(nproc)}

scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTESSEL_AARCH64_BUILD_DIR="$(realpath -m "$BOARD_DIR")" "${sanitize[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
case "$mode" in
  test|sanitize|bench|bench-models) scripts/setup-ort.sh "$BUILD_DIR/ort" ;;
esac
if [ "$mode" = test ] || [ "$mode" = sanitize ]; then
  cmake -S . -B "$BOARD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSEL_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake >/dev/null
  cmake --build "$BOARD_DIR" -j "$JOBS"
fi

case "$mode" in
  main)
    if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      echo "no display (DISPLAY/WAYLAND_DISPLAY unset): starting the IDE under xvfb-run would show nothing;" >&2
      echo "run it from a desktop session, or: xvfb-run -a $BUILD_DIR/bin/tessel --example --screenshots shots" >&2
      exit 1
    fi
    exec "$BUILD_DIR"/bin/tessel --example ;;
  ladder)
    "$BUILD_DIR"/bin/tesselc ladder resources/examples/gemm ;;
  test|sanitize)
    cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS" ;;
  bench)
    "$BUILD_DIR"/bin/bench_gemm
    "$BUILD_DIR"/bin/bench_models ;;
  bench-models)
    "$BUILD_DIR"/bin/bench_models ;;
  bench-tune)
    "$BUILD_DIR"/bin/bench_tune ;;
  bench-conv)
    "$BUILD_DIR"/bin/bench_conv ;;
  *)
    echo "usage: $0 [main|ladder|test|sanitize|bench|bench-models|bench-tune|bench-conv]" >&2; exit 2 ;;
esac
