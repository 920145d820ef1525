#!/bin/sh
# The GPU checks of issue 19 in one prepared script, in two halves:
#
#   scripts/gpu-check.sh prepare   here (needs build/bin/tesselc and tessel-run):
#                                  writes build/gpu-check/: kernel bundles of every GPU
#                                  ladder step at 512^3, checked against this CPU's
#                                  outputs, and at 4096^3 for timing; a round of offline
#                                  trials of resources/templates/gemm_cuda.te at 4096^3
#                                  (TRIALS, default 64); tessel-run; and tesselc with the
#                                  libraries it links and the XGBoost plugin, xz-compressed
#                                  (48 MiB; TOOLCHAIN=0 leaves it out and exports ResNet-18
#                                  here instead, 45 MiB of weights)
#   scripts/gpu-check.sh run       on the GPU host (NVIDIA driver; no LLVM or Qt needed):
#                                  runs every bundle with CUDA-event timing, the offline
#                                  trials (bring trials-4096-results.json back as
#                                  build/gpu-check/trials-4096/results.json and import it),
#                                  cuBLAS SGEMM at 4096^3 through PyTorch (FP32, TF32 off)
#                                  for the ratio; with tesselc: every bench model exported
#                                  there (scripts/export-models.py, the host's torch),
#                                  compiled for the GPU and the host's CPU, run on both and
#                                  compared (<= 1e-3 x max |output|), and ROUNDS (default 3)
#                                  rounds of xgb-tuning of gemm_cuda.te at 4096^3 there;
#                                  PyTorch eager ResNet-18 batch 1 FP32 for the ratio;
#                                  writes build/gpu-check/results.txt (and to $OUT)
#
# The other models' weights do not fit the 64 MiB a run carries, so they are made there.
# The device tool's run:
#   run command="sh scripts/gpu-check.sh run" carry=["build/gpu-check"]
set -eu
out=build/gpu-check
steps=resources/examples/gemm-gpu

resize() { # step size -> the step at size^3 on stdout
    sed -e "s/^M = 1024/M = $2/" -e "s/^N = 1024/N = $2/" -e "s/^K = 1024/K = $2/" "$1"
}

# The models half of run: tesselc unpacked on the host, each bench model exported by
# scripts/export-models.py (the host's torch), compiled for the GPU and for the host's
# CPU, run on both on the same seeded input, outputs compared (<= 1e-3 x max |output|).
models() {
    t=/tmp/tessel-gpu && rm -rf "$t" && mkdir -p "$t" && xz -dc "$out/tessel.tar.xz" | tar -C "$t" -xf -
    export LD_LIBRARY_PATH="$t/tessel/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" TESSEL_PLUGIN_PATH="$t/tessel/plugins"
    tc="$t/tessel/bin/tesselc" tr="$t/tessel/bin/tessel-run"
    "$tc" plugins | tail -4 || { echo "FAILED: tesselc does not start here"; return 0; }
    for m in ${MODELS:-resnet18 resnet50 mobilenet_v2 transformer_encoder dcgan_generator}; do
        echo "-- $m"
        timeout 300 python3 scripts/export-models.py "$t/models" --models "$m" > "$t/export.log" 2>&1 \
            || { tail -5 "$t/export.log"; echo "FAILED: export $m"; continue; }
        onnx="$t/models/$m/model.onnx"
        timeout 300 "$tc" compile "$onnx" --target "cuda -mcpu=sm_90" -o "$t/gpu-$m" || { echo "FAILED: compile $m for the GPU"; continue; }
        timeout 300 "$tc" compile "$onnx" -o "$t/cpu-$m" || { echo "FAILED: compile $m for the CPU"; continue; }
        timeout 120 "$tr" "$t/cpu-$m" --repeat 0 --save-outputs "$t/cpu-$m/out" > /dev/null || { echo "FAILED: $m on the CPU"; continue; }
        timeout 120 "$tr" "$t/gpu-$m" --repeat 50 --save-outputs "$t/gpu-$m/out" || { echo "FAILED: $m on the GPU"; continue; }
        python3 - "$t/gpu-$m/out" "$t/cpu-$m/out" "$m" <<'PY' || echo "FAILED: compare $m"
import sys, glob, os, numpy as np
got_dir, want_dir, name = sys.argv[1:]
for w in sorted(glob.glob(os.path.join(want_dir, "output*.bin"))):
    want = np.fromfile(w, dtype=np.float32); got = np.fromfile(os.path.join(got_dir, os.path.basename(w)), dtype=np.float32)
    err = float(np.abs(got - want).max()); scale = float(np.abs(want).max())
    print(f"{name} {os.path.basename(w)}: GPU vs CPU max abs err {err:.3g}, max |output| {scale:.3g}: {'ok' if err <= 1e-3 * scale else 'FAILED'}")
PY
    done
    # Tuning rounds on the host: export what the model picks next, measure, import.
    rec="$t/gemm_cuda-records.json"
    for r in $(seq 1 "${ROUNDS:-3}"); do
        "$tc" tune resources/templates/gemm_cuda.te --target "cuda -mcpu=sm_90" --workload M=4096,N=4096,K=4096 \
            --trials 32 --records "$rec" --export-trials "$t/round" --no-expected --seed "$r" > /dev/null &&
        timeout 120 "$tr" "$t/round" --repeat 10 > /dev/null &&
        "$tc" tune --import-trials "$t/round" --records "$rec" || { echo "FAILED: tuning round $r"; break; }
    done
    "$tc" records "$rec" || true
    test -n "${OUT:-}" && cp "$rec" "$OUT/" || true
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
    rm -f "$out"/*.te
    if [ "${TOOLCHAIN:-1}" != 1 ]; then # ResNet-18 compiled here instead, with this CPU's outputs
        build/bin/tesselc zoo resnet18 -o "$out/resnet18.onnx"
        build/bin/tesselc compile "$out/resnet18.onnx" --target "cuda -mcpu=sm_90" -o "$out/resnet18-gpu"
        build/bin/tesselc compile "$out/resnet18.onnx" -o "$out/resnet18-cpu"
        build/bin/tessel-run "$out/resnet18-cpu" --repeat 0 --save-outputs "$out/resnet18-expected"
        rm -rf "$out/resnet18-cpu" "$out/resnet18.onnx"
    fi
    # tesselc for the host, with the libraries it links that a GPU host may lack (LLVM and
    # what it links; glibc and libstdc++ are the host's) and the XGBoost plugin: the models
    # are exported, compiled and tuned there (their weights do not fit what a run carries).
    if [ "${TOOLCHAIN:-1}" = 1 ]; then # 48 MiB
        t=$(mktemp -d) && mkdir -p "$t/tessel/bin" "$t/tessel/lib" "$t/tessel/plugins"
        cp build/bin/tesselc build/bin/tessel-run "$t/tessel/bin/"
        cp -r build/plugins/costmodel-xgboost "$t/tessel/plugins/" && rm -rf "$t/tessel/plugins/costmodel-xgboost/CMakeFiles"
        for lib in $( (ldd build/bin/tesselc; ldd build/plugins/costmodel-xgboost/*.so) | awk '/=> \//{print $3}' | sort -u); do
            case $(basename "$lib") in libc.so*|libm.so*|libstdc++*|libgcc_s*|libpthread*|libdl.so*|librt.so*) ;;
                *) cp -L "$lib" "$t/tessel/lib/" ;; esac
        done
        tar -C "$t" -cf - tessel | xz -T2 -6 > "$out/tessel.tar.xz"
        rm -rf "$t"
    fi
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
        [ -d "$out/resnet18-gpu" ] && {
        echo "== ResNet-18 on the GPU (Tessel, compiled here)"
        run "$out/resnet18-gpu" --repeat 50 --save-outputs "$out/resnet18-got" || echo "FAILED ($?): resnet18"
        python3 - "$out" <<'PY' || echo "no numpy here: ResNet-18 outputs not compared"
import sys, numpy as np
out = sys.argv[1]
got = np.fromfile(f"{out}/resnet18-got/output0.bin", dtype=np.float32)
want = np.fromfile(f"{out}/resnet18-expected/output0.bin", dtype=np.float32)
err = float(np.abs(got - want).max()); scale = float(np.abs(want).max())
print(f"ResNet-18 GPU vs CPU: max abs err {err:.3g}, max |output| {scale:.3g}: {'ok' if err <= 1e-3 * scale else 'FAILED'}")
PY
        }
        if [ -f "$out/tessel.tar.xz" ]; then
            echo "== the bench models on the GPU against this host's CPU (tesselc here)"
            models
        fi
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
