#!/bin/sh
# The GPU checks of issue 19 in one prepared script, in two halves:
#
#   scripts/gpu-check.sh prepare   here (needs build/bin/tesselc and tessel-run):
#                                  writes build/gpu-check/ (kernel bundles of every GPU
#                                  ladder step at 1024^3, checked against this CPU's
#                                  outputs, and at 4096^3 for timing) and copies tessel-run
#   scripts/gpu-check.sh run       on the GPU host (NVIDIA driver; no LLVM or Qt needed):
#                                  runs every bundle with CUDA-event timing, then cuBLAS
#                                  SGEMM at 4096^3 through PyTorch (FP32, TF32 off) for
#                                  the ratio; writes build/gpu-check/results.txt
#
# Carry build/gpu-check to the GPU host (a few MiB). The device tool's run:
#   run command="sh scripts/gpu-check.sh run" carry=["build/gpu-check"]
set -eu
out=build/gpu-check
steps=resources/examples/gemm-gpu

resize() { # step size -> the step at size^3 on stdout
    sed -e "s/^M = 1024/M = $2/" -e "s/^N = 1024/N = $2/" -e "s/^K = 1024/K = $2/" "$1"
}

case "${1:-}" in
prepare)
    rm -rf "$out" && mkdir -p "$out/bin"
    cp build/bin/tessel-run "$out/bin/"
    for f in "$steps"/*.te; do
        name=$(basename "$f" .te)
        build/bin/tesselc compile "$f" --target "cuda -mcpu=sm_90" -o "$out/$name-1024"
        resize "$f" 4096 > "$out/$name-4096.te"
        build/bin/tesselc compile "$out/$name-4096.te" --target "cuda -mcpu=sm_90" --no-expected -o "$out/$name-4096"
    done
    du -sh "$out"
    ;;
run)
    test -x "$out/bin/tessel-run" || { echo "no $out: run 'scripts/gpu-check.sh prepare' first" >&2; exit 2; }
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
    {
        for d in "$out"/*-1024 "$out"/*-4096; do
            echo "== $(basename "$d")"
            "$out/bin/tessel-run" "$d" --repeat 20 || echo "FAILED: $d"
        done
        echo "== cuBLAS SGEMM 4096^3 (PyTorch, FP32, TF32 off)"
        python3 - <<'PY' || echo "no PyTorch here: cuBLAS not measured"
import torch
torch.backends.cuda.matmul.allow_tf32 = False
n = 4096
a = torch.rand(n, n, device="cuda"); b = torch.rand(n, n, device="cuda")
for _ in range(3): a @ b
torch.cuda.synchronize()
times = []
for _ in range(20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); e.synchronize(); times.append(s.elapsed_time(e))
times.sort(); ms = times[len(times) // 2]
print(f"latency {ms:.4f} ms (median of 20, CUDA events), {2 * n**3 / (ms * 1e6):.1f} GFLOP/s")
PY
    } 2>&1 | tee "$out/results.txt"
    ;;
*)
    echo "usage: scripts/gpu-check.sh prepare|run" >&2
    exit 2
    ;;
esac
