/// \file
/// A GPU kernel as files, for a machine that has the GPU but no compiler:
/// `tesselc compile F.te --target cuda -o DIR` writes DIR/kernels.ptx, the
/// launch table DIR/kernels.json (the function's signature, its kernels in
/// order with grid, block, shared bytes and arguments, the global workspaces,
/// the flops of one call) and, computed on the compiling machine by the
/// default schedule on its CPU, DIR/expected<i>.bin for every output. `tessel-run DIR`
/// (the runtime alone: no LLVM, no Qt) loads it on a CUDA device, fills the
/// inputs as every Tessel run does (input k: seed 1 + k, uniform in [0, 1)),
/// launches the kernels, times them with CUDA events and checks the outputs.
#pragma once

#include "runtime/Artifact.h"
#include "runtime/CudaDeviceAPI.h"
#include "runtime/NDArray.h"

#include <string>
#include <vector>

namespace tessel::runtime {

struct KernelBundle {
    struct Launch {
        KernelShape shape;
        /// Per kernel parameter: index into signature.args, or
        /// signature.args.size() + i for workspace i.
        std::vector<size_t> args;
    };

    /// The folder it was read from.
    std::string dir;
    KernelSignature signature;
    std::string target;
    double flops = 0;
    std::vector<size_t> workspaceBytes;
    std::vector<Launch> launches;
    /// Per output (in signature order): its expected elements' file, or "".
    std::vector<std::string> expected;

    /// Reads DIR/kernels.json; throws std::runtime_error naming what is wrong.
    static KernelBundle load(const std::string& dir);
    /// The launch table's JSON text (what load() reads).
    std::string json() const;
    /// True when DIR holds a kernel bundle: a kernels.json and no model plan
    /// (a model exported for a GPU has both).
    static bool isBundle(const std::string& dir);
};

struct BundleRun {
    /// Per repeat: one call (every launch), milliseconds by CUDA events.
    std::vector<double> ms;
    double medianMs = 0;
    /// The outputs, on the host.
    std::vector<NDArray> outputs;
    /// Against the expected outputs, when the bundle has them.
    bool checked = false, ok = true;
    double maxAbsErr = 0;
    std::string message;
};

/// Runs `bundle` on `device` (a CUDA device): one warm-up call, then
/// `repeat` timed calls. Throws std::runtime_error when the device or the
/// PTX is not usable (no driver, no GPU, a JIT error), with the reason.
BundleRun runBundle(const KernelBundle& bundle, Device device, int repeat = 10,
                    double tolerance = 1e-4);

} // namespace tessel::runtime
