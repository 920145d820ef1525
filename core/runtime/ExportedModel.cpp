#include "runtime/ExportedModel.h"

#include "runtime/DeviceAPI.h"
#include "runtime/ParallelABI.h"
#include "runtime/ReadFile.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tessel::runtime {

namespace {

class SharedLibraryModule : public CpuModule {
public:
    explicit SharedLibraryModule(const std::string& path) {
        // RTLD_NOW: an unresolved symbol fails here, not in the middle of a run.
        handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) throw std::runtime_error("cannot load '" + path + "': " + dlerror());
    }
    ~SharedLibraryModule() override {
        if (handle_) dlclose(handle_);
    }
    KernelFunction function(const std::string& name) const override {
        return reinterpret_cast<KernelFunction>(dlsym(handle_, name.c_str()));
    }
    std::vector<std::string> functionNames() const override { return {}; }

private:
    void* handle_ = nullptr;
};


} // namespace

CpuModulePtr loadSharedLibrary(const std::string& path) {
    // The kernels call the runtime's C ABI, which the loading executable
    // exports. Taking the addresses here makes a static link keep all of it,
    // even in a program that itself calls none of these functions.
    static void* volatile abi[] = {reinterpret_cast<void*>(&TesselParallelLaunch),
                                   reinterpret_cast<void*>(&TesselParallelNumThreads),
                                   reinterpret_cast<void*>(&TesselWorkspaceAlloc),
                                   reinterpret_cast<void*>(&TesselWorkspaceFree)};
    (void)abi;
    return std::make_shared<SharedLibraryModule>(path);
}

ExportedModel loadExportedModel(const std::string& dir, Device device) {
    ExportedModel m;
    const std::string planPath = dir + "/" + kExportPlan;
    try {
        m.plan = ExecutorPlan::fromJson(readFile(planPath));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(planPath + ": " + e.what());
    }
    const std::string weightsPath = dir + "/" + kExportWeights;
    std::string bytes = readFile(weightsPath);
    if (static_cast<int64_t>(bytes.size()) != m.plan.weightsBytes)
        throw std::runtime_error(weightsPath + ": holds " + std::to_string(bytes.size()) + " bytes, the plan needs " +
                                 std::to_string(m.plan.weightsBytes));
    m.weights = NDArray::empty({std::max<int64_t>(m.plan.weightsBytes, 1)}, DataType::int8());
    if (!bytes.empty()) std::copy(bytes.begin(), bytes.end(), static_cast<char*>(m.weights.rawData()));
    // A model with nothing to compute (an identity, a constant) has no kernels
    // and its export no library.
    if (m.plan.steps.empty()) return m;
    const std::string ptx = dir + "/" + kExportPtx;
    if (std::filesystem::exists(ptx)) {
        if (device.isCpu()) device = Device::cuda(0);
        m.module = deviceAPI(device).loadModule(device, ptx);
    } else {
        m.module = deviceAPI(device).loadModule(device, dir + "/" + kExportLibrary);
    }
    return m;
}

} // namespace tessel::runtime
