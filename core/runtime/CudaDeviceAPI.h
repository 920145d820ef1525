/// \file
/// NVIDIA GPUs through the CUDA driver API (runtime/CudaDriver.h, loaded at
/// run time): memory, copies, streams, event timing, and modules of PTX.
///
/// Every process has this API in its table (DeviceAPIs::global()); without a
/// driver or a GPU it counts no device and whyNot() says why, so that
/// `tesselc run --target cuda` and `tessel-run` fail with that sentence.
///
/// A CUDA module is PTX text (`kernels.ptx`, what codegen's NVPTX backend
/// writes) with its launch table (`kernels.json` beside it: per kernel its
/// name, grid, block and shared bytes, from tir::splitHostDevice); the driver
/// JIT-compiles the PTX for the GPU when the module loads. A kernel launches
/// with one device pointer per buffer parameter on a stream. A model's
/// module also names its fused functions, each a sequence of kernel launches
/// (FunctionLaunches), which the graph executor launches like one kernel.
#pragma once

#include "runtime/DeviceAPI.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace tessel::runtime {

/// How one kernel of a module launches.
struct KernelShape {
    std::string name;
    std::array<unsigned, 3> grid{1, 1, 1}, block{1, 1, 1};
    unsigned sharedBytes = 0;
};

/// A model's fused function on the GPU: its kernels in order, each with its
/// arguments (index into the function's parameters, or parameters + i for
/// workspace i), and the workspaces' sizes. The module allocates the
/// workspaces once, on load.
struct FunctionLaunches {
    std::string name;
    int numParams = 0;
    std::vector<size_t> workspaceBytes;
    struct Launch {
        std::string kernel;
        std::vector<size_t> args;
    };
    std::vector<Launch> launches;
};

class CudaDeviceAPI : public DeviceAPI {
public:
    DeviceKind kind() const override { return DeviceKind::CUDA; }
    int count() const override;
    std::string whyNot(int id) const override;
    void* alloc(Device device, size_t bytes, size_t alignment) override;
    void free(Device device, void* ptr) override;
    void copyToDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) override;
    void copyFromDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) override;
    void copyWithinDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) override;
    Stream createStream(Device device) override;
    void freeStream(Device device, Stream stream) override;
    void synchronize(Device device, Stream stream) override;
    Event createEvent(Device device) override;
    void freeEvent(Device device, Event event) override;
    void recordEvent(Device device, Event event, Stream stream) override;
    double elapsedMs(Device device, Event start, Event end) override;
    /// `path`: PTX; its launch table is the `.json` file of the same stem.
    ModulePtr loadModule(Device device, const std::string& path) override;

    /// A module from PTX text and the kernels' launch shapes. Throws
    /// std::runtime_error with the driver's JIT log when the PTX does not load.
    ModulePtr loadPtx(Device device, const std::string& ptx, const std::vector<KernelShape>& kernels,
                      const std::vector<FunctionLaunches>& functions = {});

    /// "NVIDIA H100 80GB HBM3, sm_90, 132 SMs" for device `id`.
    std::string describe(int id) const;

private:
    /// Makes device `id`'s primary context current on this thread.
    void use(int id) const;
};

/// Reads a launch table (`{"kernels": [{"name", "grid", "block", "shared"}]}`).
std::vector<KernelShape> parseKernelShapes(const std::string& json);
/// Reads its "functions" (`[{"name", "params", "workspaces", "launches": [{"kernel", "args"}]}]`), if any.
std::vector<FunctionLaunches> parseFunctionLaunches(const std::string& json);

} // namespace tessel::runtime
