#include "runtime/Module.h"

namespace tessel::runtime {

namespace {

int32_t launchCpu(const void* handle, void* const* args, int32_t, void*) {
    return reinterpret_cast<KernelFunction>(const_cast<void*>(handle))(args);
}

} // namespace

Kernel CpuModule::kernel(const std::string& name) const {
    const KernelFunction f = function(name);
    if (!f) return {};
    return Kernel(Device::cpu(), &launchCpu, reinterpret_cast<const void*>(f));
}

} // namespace tessel::runtime
