#!/bin/sh
# The GPU checks of issue 19 in one prepared script, in two halves:
#
#   scripts/gpu-check.sh prepare   here (needs build/bin/tesselc and tessel-run):
#                                  writes build/gpu-check/: kernel bundles of every GPU
#                                  ladder step at 512^3, checked against this CPU's
#                                  outputs, and at 4096^3 for timing; ResNet-18 (zoo, seed 1)
#                                  exported for the GPU, with this CPU's outputs for the
#                                  same seeded input; tessel-run
#   scripts/gpu-check.sh run       on the GPU host (NVIDIA driver; no LLVM or Qt needed):
#                                  runs every bundle with CUDA-event timing, cuBLAS SGEMM
#                                  at 4096^3 through PyTorch (FP32, TF32 off) for the ratio,
#                                  ResNet-18 on the GPU checked against the CPU's outputs
#                                  (<= 1e-3 x max |output|) and timed, and PyTorch eager
#                                  ResNet-18 batch 1 FP32 where torchvision is there, and a
#                                  round of offline trials of resources/templates/gemm_cuda.te
#                                  at 4096^3 (TRIALS, default 64): bring results.json back
#                                  into build/gpu-check/trials-4096/ and import it;
#                                  writes build/gpu-check/results.txt
#
# Carry build/gpu-check to the GPU host (about 55 MiB, most of it ResNet-18's weights;
# the other models' weights do not fit the 64 MiB a run carries). The device tool's run:
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
        resize "$f" 512 > "$out/$name-512.te"
        build/bin/tesselc compile "$out/$name-512.te" --target "cuda -mcpu=sm_90" -o "$out/$name-512"
        resize "$f" 4096 > "$out/$name-4096.te"
        build/bin/tesselc compile "$out/$name-4096.te" --target "cuda -mcpu=sm_90" --no-expected -o "$out/$name-4096"
    done
    # A tuning round of the GPU GEMM template at 4096^3, measured there, imported here later
    # (tesselc tune --import-trials build/gpu-check/trials-4096 --records F, with results.json back).
    build/bin/tesselc tune resources/templates/gemm_cuda.te --target "cuda -mcpu=sm_90" --workload M=4096,N=4096,K=4096 \
        --trials "${TRIALS:-64}" --records "${RECORDS:-$out/gemm_cuda-records.json}" --export-trials "$out/trials-4096" --no-expected
    build/bin/tesselc zoo resnet18 -o "$out/resnet18.onnx"
    build/bin/tesselc compile "$out/resnet18.onnx" --target "cuda -mcpu=sm_90" -o "$out/resnet18-gpu"
    build/bin/tesselc compile "$out/resnet18.onnx" -o "$out/resnet18-cpu"
    build/bin/tessel-run "$out/resnet18-cpu" --repeat 0 --save-outputs "$out/resnet18-expected"
    rm -rf "$out/resnet18-cpu" "$out/resnet18.onnx" "$out"/*.te
    du -sh "$out"
    ;;
run)
    test -x "$out/bin/tessel-run" || { echo "no $out: run 'scripts/gpu-check.sh prepare' first" >&2; exit 2; }
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
    # The driver's library is not always on the loader's path (a read-only mount).
    ldconfig -p | grep -q libcuda.so.1 || for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu; do
        test -e "$d/libcuda.so.1" && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && break
    done
    run() { timeout 120 "$out/bin/tessel-run" "$@"; }  # a hung kernel must not take the lease
    {
        echo "== tessel-run --device"
        run --device || echo "FAILED: tessel-run --device"
        for d in "$out"/*-512 "$out"/*-4096; do
            echo "== $(basename "$d")"
            run "$d" --repeat 20 || echo "FAILED ($?): $d"
        done
        echo "== offline trials: gemm_cuda.te at 4096^3"
        timeout 300 "$out/bin/tessel-run" "$out/trials-4096" --repeat 10 || echo "FAILED ($?): trials"
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
        echo "== ResNet-18 on the GPU (Tessel, default GPU schedule)"
        run "$out/resnet18-gpu" --repeat 50 --save-outputs "$out/resnet18-got" || echo "FAILED ($?): resnet18"
        python3 - "$out" <<'PY' || echo "no numpy here: ResNet-18 outputs not compared"
import sys, numpy as np
out = sys.argv[1]
got = np.fromfile(f"{out}/resnet18-got/output0.bin", dtype=np.float32)
want = np.fromfile(f"{out}/resnet18-expected/output0.bin", dtype=np.float32)
err = float(np.abs(got - want).max()); scale = float(np.abs(want).max())
print(f"ResNet-18 GPU vs CPU: max abs err {err:.3g}, max |output| {scale:.3g}: {'ok' if err <= 1e-3 * scale else 'FAILED'}")
PY
        echo "== PyTorch eager ResNet-18, batch 1, FP32"
        python3 - <<'PY' || echo "no torchvision here: PyTorch ResNet-18 not measured"
import torch, torchvision
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False
m = torchvision.models.resnet18().cuda().eval()
x = torch.rand(1, 3, 224, 224, device="cuda")
with torch.no_grad():
    for _ in range(10): m(x)
    torch.cuda.synchronize()
    times = []
    for _ in range(50):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); m(x); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
times.sort()
print(f"latency {times[len(times) // 2]:.3f} ms (median of 50, CUDA events)")
PY
    } 2>&1 | tee "$out/results.txt"
    test -n "${OUT:-}" && cp "$out/results.txt" "$OUT/" || true
    test -n "${OUT:-}" && test -f "$out/trials-4096/results.json" && cp "$out/trials-4096/results.json" "$OUT/trials-4096-results.json" || true
    ;;
*)
    echo "usage: scripts/gpu-check.sh prepare|run" >&2
    exit 2
    ;;
esac
