/// \file
/// Writes a function lowered for a GPU as a kernel bundle
/// (runtime/KernelBundle.h): its kernels' PTX, the launch table, and the
/// outputs the default schedule computes on this machine's CPU, so that a GPU
/// host without a compiler runs and checks it (`tessel-run DIR`).
#pragma once

#include "driver/TeDriver.h"
#include "runtime/KernelBundle.h"

#include <string>

namespace tessel::driver {

struct BundleOptions {
    /// Compute the expected outputs here (the default schedule on this CPU;
    /// slow for a large naive reference: off for timing-only bundles).
    bool expected = true;
};

/// Builds `f` (lowered for the GPU `target`) and writes the bundle into
/// `dir` (created). Returns what it wrote. Throws CompileError as the build
/// does, std::runtime_error when a file cannot be written.
runtime::KernelBundle exportKernelBundle(const LoweredFunction& f, const std::string& dir, const Target& target,
                                         const BundleOptions& options = {});

} // namespace tessel::driver
