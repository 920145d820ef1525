/// \file
/// A module: the compiled kernels of one device, reachable by name and
/// launched through it.
///
/// A Kernel is a cheap handle (looked up once, launched many times, as the
/// graph executor does): it launches on its device, on a stream, with one
/// pointer per PrimFunc buffer parameter in order, and returns 0 on success.
/// How a launch reaches the code is the module's: a CPU module (CpuModule)
/// calls the kernel function directly in the CPU kernel ABI below, on the
/// calling thread (parallel loops go to the runtime's thread pool); a GPU
/// module launches its kernel on the device's stream. JIT modules (codegen)
/// and shared libraries loaded from disk (runtime, for boards) are CPU modules.
#pragma once

#include "runtime/Device.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessel::runtime {

/// The CPU kernel ABI: one pointer per argument, 0 on success.
using KernelFunction = int32_t (*)(void* const* args);

class Module;

class Kernel {
public:
    /// How a module launches one of its kernels: `handle` is the module's
    /// own (the function pointer for the CPU).
    using LaunchFn = int32_t (*)(const void* handle, void* const* args, int32_t numArgs, void* stream);

    Kernel() = default;
    Kernel(Device device, LaunchFn launch, const void* handle) : device_(device), launch_(launch), handle_(handle) {}

    explicit operator bool() const { return launch_ != nullptr; }
    Device device() const { return device_; }
    /// Launches on `stream` (null: the device's default stream); returns the
    /// kernel's status (0: success). On the CPU the kernel has finished
    /// when this returns; elsewhere synchronize the stream to wait for it.
    int32_t launch(void* const* args, int32_t numArgs, void* stream = nullptr) const {
        return launch_(handle_, args, numArgs, stream);
    }

private:
    Device device_;
    LaunchFn launch_ = nullptr;
    const void* handle_ = nullptr;
};

class Module {
public:
    virtual ~Module() = default;
    /// The device the kernels run on.
    virtual Device device() const = 0;
    /// The kernel called `name`; an empty Kernel when there is none. The
    /// handle is valid while the module lives.
    virtual Kernel kernel(const std::string& name) const = 0;
    /// The kernels' names, where the module can list them (a shared library
    /// cannot: empty).
    virtual std::vector<std::string> functionNames() const = 0;
};

/// A module of CPU code in the kernel ABI above.
class CpuModule : public Module {
public:
    Device device() const final { return Device::cpu(); }
    Kernel kernel(const std::string& name) const final;
    /// The function called `name` in the CPU kernel ABI, or nullptr.
    virtual KernelFunction function(const std::string& name) const = 0;
};

using ModulePtr = std::shared_ptr<Module>;
using CpuModulePtr = std::shared_ptr<CpuModule>;

} // namespace tessel::runtime
