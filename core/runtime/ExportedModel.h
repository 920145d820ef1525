/// \file
/// Loading an exported model with the runtime alone (no LLVM): the kernels'
/// shared library, the executor plan (JSON) and the weights file that
/// `tesselc compile -o DIR` writes, as a board's RPC server will load them.
/// A model with nothing to compute (its plan has no steps: an identity, a
/// constant, a shape) has no library.
#pragma once

#include "runtime/ExecutorPlan.h"
#include "runtime/GraphExecutor.h"
#include "runtime/Module.h"
#include "runtime/NDArray.h"

#include <memory>
#include <string>

namespace tessel::runtime {

/// The files of an exported model inside its folder.
inline constexpr const char* kExportLibrary = "model.so";
inline constexpr const char* kExportPlan = "plan.json";
inline constexpr const char* kExportWeights = "weights.bin";
/// A model exported for a CUDA GPU has these instead of the library: the
/// kernels' PTX and their launch table (runtime/CudaDeviceAPI.h).
inline constexpr const char* kExportPtx = "kernels.ptx";
inline constexpr const char* kExportLaunches = "kernels.json";

/// A module over a shared library opened with dlopen; it stays open while
/// any handle to the module lives.
CpuModulePtr loadSharedLibrary(const std::string& path);

struct ExportedModel {
    ExecutorPlan plan;
    /// Null when the plan has no steps and the export no library.
    ModulePtr module;
    /// On the host; the executor puts them on the module's device.
    NDArray weights;
    std::unique_ptr<GraphExecutor> makeExecutor() const {
        return std::make_unique<GraphExecutor>(plan, module, weights);
    }
};

/// Loads `dir`/{model.so, plan.json, weights.bin}, the library as a module
/// for `device` (DeviceAPI::loadModule); a GPU export ({kernels.ptx,
/// kernels.json} instead of the library) on cuda:0 when `device` is the CPU.
/// Throws std::runtime_error naming the file for a missing, truncated or
/// inconsistent one, and saying why for a GPU that is not there.
ExportedModel loadExportedModel(const std::string& dir, Device device = Device::cpu());

} // namespace tessel::runtime
