#include "runtime/CudaDeviceAPI.h"

#include "runtime/CudaDriver.h"
#include "runtime/ReadFile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace tessel::runtime {

using namespace cuda;

namespace {

const Driver& need() {
    std::string why;
    const Driver* d = driver(&why);
    if (!d) throw std::runtime_error(why);
    return *d;
}

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

/// A loaded PTX module and its kernels' launch shapes.
class CudaModule final : public Module {
public:
    struct Entry {
        CUfunction fn = nullptr;
        KernelShape shape;
    };

    /// A fused function: its launches and the workspaces they share.
    struct Function {
        std::vector<std::pair<const Entry*, std::vector<size_t>>> launches;
        std::vector<void*> workspaces;
        size_t numParams = 0;
    };

    CudaModule(Device device, CUmodule module, std::map<std::string, Entry> entries)
        : device_(device), module_(module), entries_(std::move(entries)) {}
    ~CudaModule() override {
        const Driver* d = driver();
        if (!d) return;
        for (auto& [n, f] : functions_)
            for (void* w : f.workspaces) d->cuMemFree(dptr(w));
        d->cuModuleUnload(module_);
    }

    /// Adds a fused function (its workspaces allocated now); throws for a
    /// launch of a kernel the PTX does not have.
    void addFunction(const FunctionLaunches& fl) {
        Function f;
        f.numParams = size_t(fl.numParams);
        for (auto& l : fl.launches) {
            auto it = entries_.find(l.kernel);
            if (it == entries_.end()) throw std::runtime_error("function '" + fl.name + "' launches an unknown kernel '" + l.kernel + "'");
            for (size_t a : l.args)
                if (a >= f.numParams + fl.workspaceBytes.size())
                    throw std::runtime_error("function '" + fl.name + "' passes argument " + std::to_string(a) + ", which does not exist");
            f.launches.emplace_back(&it->second, l.args);
        }
        for (size_t bytes : fl.workspaceBytes) {
            CUdeviceptr p = 0;
            check(need().cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc (a workspace)");
            f.workspaces.push_back(reinterpret_cast<void*>(p));
        }
        functions_[fl.name] = std::move(f);
    }

    Device device() const override { return device_; }

    Kernel kernel(const std::string& name) const override {
        if (auto f = functions_.find(name); f != functions_.end()) return Kernel(device_, &launchFunction, &f->second);
        auto it = entries_.find(name);
        return it == entries_.end() ? Kernel() : Kernel(device_, &launch, &it->second);
    }

    std::vector<std::string> functionNames() const override {
        std::vector<std::string> names;
        for (auto& [n, f] : functions_) names.push_back(n);
        for (auto& [n, e] : entries_) names.push_back(n);
        return names;
    }

private:
    /// The CUDA driver takes a pointer to each parameter's value: here the
    /// buffers' device pointers themselves.
    static int32_t launch(const void* handle, void* const* args, int32_t numArgs, void* stream) {
        auto* e = static_cast<const Entry*>(handle);
        std::vector<void*> params(static_cast<size_t>(numArgs));
        for (int32_t i = 0; i < numArgs; ++i) params[size_t(i)] = const_cast<void**>(&args[i]);
        const KernelShape& s = e->shape;
        CUresult r = need().cuLaunchKernel(e->fn, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1],
                                           s.block[2], s.sharedBytes, static_cast<CUstream>(stream),
                                           params.data(), nullptr);
        return r == 0 ? 0 : -r;
    }

    static int32_t launchFunction(const void* handle, void* const* args, int32_t numArgs, void* stream) {
        auto* f = static_cast<const Function*>(handle);
        if (size_t(numArgs) != f->numParams) return -1;
        for (auto& [entry, indices] : f->launches) {
            std::vector<void*> kargs;
            for (size_t a : indices) kargs.push_back(a < f->numParams ? args[a] : f->workspaces[a - f->numParams]);
            if (int32_t rc = launch(entry, kargs.data(), int32_t(kargs.size()), stream); rc != 0) return rc;
        }
        return 0;
    }

    Device device_;
    CUmodule module_;
    std::map<std::string, Entry> entries_;
    std::map<std::string, Function> functions_;
};


} // namespace

std::vector<KernelShape> parseKernelShapes(const std::string& text) {
    std::vector<KernelShape> out;
    try {
        auto j = nlohmann::json::parse(text);
        for (auto& k : j.at("kernels")) {
            KernelShape s;
            s.name = k.at("name").get<std::string>();
            for (int i = 0; i < 3; ++i) {
                s.grid[size_t(i)] = k.at("grid").at(size_t(i)).get<unsigned>();
                s.block[size_t(i)] = k.at("block").at(size_t(i)).get<unsigned>();
            }
            s.sharedBytes = k.value("shared", 0u);
            out.push_back(std::move(s));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("bad kernel launch table: ") + e.what());
    }
    return out;
}

std::vector<FunctionLaunches> parseFunctionLaunches(const std::string& text) {
    std::vector<FunctionLaunches> out;
    try {
        auto j = nlohmann::json::parse(text);
        if (!j.contains("functions")) return out;
        for (auto& f : j.at("functions")) {
            FunctionLaunches fl;
            fl.name = f.at("name").get<std::string>();
            fl.numParams = f.at("params").get<int>();
            fl.workspaceBytes = f.value("workspaces", std::vector<size_t>{});
            for (auto& l : f.at("launches"))
                fl.launches.push_back({l.at("kernel").get<std::string>(), l.at("args").get<std::vector<size_t>>()});
            out.push_back(std::move(fl));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("bad kernel launch table: ") + e.what());
    }
    return out;
}

int CudaDeviceAPI::count() const {
    const Driver* d = driver();
    int n = 0;
    if (d && d->cuDeviceGetCount(&n) != 0) n = 0;
    return n;
}

std::string CudaDeviceAPI::whyNot(int id) const {
    std::string why;
    if (!driver(&why)) return why;
    int n = count();
    if (id < 0 || id >= n)
        return "cuda:" + std::to_string(id) + " does not exist: this machine has " + std::to_string(n) + " CUDA device" +
               (n == 1 ? "" : "s");
    return {};
}

void CudaDeviceAPI::use(int id) const {
    static std::mutex m;
    static std::map<int, CUcontext> contexts;
    const Driver& d = need();
    CUcontext ctx = nullptr;
    {
        std::lock_guard<std::mutex> lock(m);
        auto it = contexts.find(id);
        if (it == contexts.end()) {
            CUdevice dev = 0;
            check(d.cuDeviceGet(&dev, id), "cuDeviceGet");
            check(d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
            contexts[id] = ctx;
        } else {
            ctx = it->second;
        }
    }
    check(d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

std::string CudaDeviceAPI::describe(int id) const {
    use(id);
    const Driver& d = need();
    CUdevice dev = 0;
    check(d.cuDeviceGet(&dev, id), "cuDeviceGet");
    char name[256] = {};
    check(d.cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
    int major = 0, minor = 0, sms = 0;
    d.cuDeviceGetAttribute(&major, 75, dev);
    d.cuDeviceGetAttribute(&minor, 76, dev);
    d.cuDeviceGetAttribute(&sms, 16, dev);
    return std::string(name) + ", sm_" + std::to_string(major) + std::to_string(minor) + ", " + std::to_string(sms) +
           " SMs";
}

void* CudaDeviceAPI::alloc(Device device, size_t bytes, size_t) {
    use(device.id);
    CUdeviceptr p = 0;
    // cuMemAlloc aligns to 256 bytes, more than any kernel assumes.
    CUresult r = need().cuMemAlloc(&p, bytes ? bytes : 1);
    if (r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */) throw std::bad_alloc();
    check(r, "cuMemAlloc");
    return reinterpret_cast<void*>(p);
}

void CudaDeviceAPI::free(Device device, void* ptr) {
    if (!ptr) return;
    use(device.id);
    need().cuMemFree(dptr(ptr));
}

void CudaDeviceAPI::copyToDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) {
    use(device.id);
    check(need().cuMemcpyHtoDAsync(dptr(dst), src, bytes, static_cast<CUstream>(stream)), "copy to the GPU");
}

void CudaDeviceAPI::copyFromDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) {
    use(device.id);
    check(need().cuMemcpyDtoHAsync(dst, dptr(src), bytes, static_cast<CUstream>(stream)), "copy from the GPU");
    // The host reads what it asked for right after: wait for it.
    synchronize(device, stream);
}

void CudaDeviceAPI::copyWithinDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream) {
    use(device.id);
    check(need().cuMemcpyDtoDAsync(dptr(dst), dptr(src), bytes, static_cast<CUstream>(stream)), "copy on the GPU");
}

Stream CudaDeviceAPI::createStream(Device device) {
    use(device.id);
    CUstream s = nullptr;
    check(need().cuStreamCreate(&s, 0), "cuStreamCreate");
    return s;
}

void CudaDeviceAPI::freeStream(Device device, Stream stream) {
    if (!stream) return;
    use(device.id);
    need().cuStreamDestroy(static_cast<CUstream>(stream));
}

void CudaDeviceAPI::synchronize(Device device, Stream stream) {
    use(device.id);
    if (stream)
        check(need().cuStreamSynchronize(static_cast<CUstream>(stream)), "a kernel on the GPU failed");
    else
        check(need().cuCtxSynchronize(), "a kernel on the GPU failed");
}

Event CudaDeviceAPI::createEvent(Device device) {
    use(device.id);
    CUevent e = nullptr;
    check(need().cuEventCreate(&e, 0), "cuEventCreate");
    return e;
}

void CudaDeviceAPI::freeEvent(Device device, Event event) {
    if (!event) return;
    use(device.id);
    need().cuEventDestroy(static_cast<CUevent>(event));
}

void CudaDeviceAPI::recordEvent(Device device, Event event, Stream stream) {
    use(device.id);
    check(need().cuEventRecord(static_cast<CUevent>(event), static_cast<CUstream>(stream)), "cuEventRecord");
}

double CudaDeviceAPI::elapsedMs(Device device, Event start, Event end) {
    use(device.id);
    const Driver& d = need();
    check(d.cuEventSynchronize(static_cast<CUevent>(end)), "a kernel on the GPU failed");
    float ms = 0;
    check(d.cuEventElapsedTime(&ms, static_cast<CUevent>(start), static_cast<CUevent>(end)), "cuEventElapsedTime");
    return ms;
}

ModulePtr CudaDeviceAPI::loadModule(Device device, const std::string& path) {
    std::filesystem::path table = std::filesystem::path(path).replace_extension(".json");
    const std::string json = readFile(table.string());
    return loadPtx(device, readFile(path), parseKernelShapes(json), parseFunctionLaunches(json));
}

ModulePtr CudaDeviceAPI::loadPtx(Device device, const std::string& ptx, const std::vector<KernelShape>& kernels,
                                 const std::vector<FunctionLaunches>& functions) {
    use(device.id);
    const Driver& d = need();
    std::string log(8192, '\0');
    int options[] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */};
    void* values[] = {log.data(), reinterpret_cast<void*>(log.size())};
    CUmodule module = nullptr;
    if (CUresult r = d.cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values); r != 0) {
        log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
        throw std::runtime_error("the GPU driver cannot load the PTX: " + errorText(r) + (log.empty() ? "" : "\n" + log));
    }
    std::map<std::string, CudaModule::Entry> entries;
    for (auto& k : kernels) {
        CudaModule::Entry e;
        e.shape = k;
        if (CUresult r = d.cuModuleGetFunction(&e.fn, module, k.name.c_str()); r != 0) {
            d.cuModuleUnload(module);
            throw std::runtime_error("the PTX has no kernel '" + k.name + "': " + errorText(r));
        }
        entries[k.name] = std::move(e);
    }
    auto m = std::make_shared<CudaModule>(device, module, std::move(entries));
    for (auto& f : functions) m->addFunction(f);
    return m;
}

} // namespace tessel::runtime
