#include "runtime/CudaDriver.h"

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>

namespace tessel::runtime::cuda {

namespace {

struct Loaded {
    Driver d{};
    bool ok = false;
    std::string why;
};

template <class F> bool bind(void* lib, F& slot, std::initializer_list<const char*> names, std::string& missing) {
    for (const char* n : names)
        if (void* p = dlsym(lib, n)) {
            slot = reinterpret_cast<F>(p);
            return true;
        }
    missing = *names.begin();
    return false;
}

Loaded load() {
    Loaded l;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        l.why = "no NVIDIA driver on this machine (libcuda.so.1 not found): CUDA targets build here but run only "
                "on a machine with an NVIDIA GPU and its driver";
        return l;
    }
    Driver& d = l.d;
    std::string missing;
    bool all = bind(lib, d.cuInit, {"cuInit"}, missing) && bind(lib, d.cuDeviceGetCount, {"cuDeviceGetCount"}, missing) &&
               bind(lib, d.cuDeviceGet, {"cuDeviceGet"}, missing) &&
               bind(lib, d.cuDeviceGetName, {"cuDeviceGetName"}, missing) &&
               bind(lib, d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, missing) &&
               bind(lib, d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, missing) &&
               bind(lib, d.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing) &&
               bind(lib, d.cuCtxSynchronize, {"cuCtxSynchronize"}, missing) &&
               bind(lib, d.cuMemAlloc, {"cuMemAlloc_v2"}, missing) && bind(lib, d.cuMemFree, {"cuMemFree_v2"}, missing) &&
               bind(lib, d.cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"}, missing) &&
               bind(lib, d.cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"}, missing) &&
               bind(lib, d.cuMemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2"}, missing) &&
               bind(lib, d.cuStreamCreate, {"cuStreamCreate"}, missing) &&
               bind(lib, d.cuStreamDestroy, {"cuStreamDestroy_v2"}, missing) &&
               bind(lib, d.cuStreamSynchronize, {"cuStreamSynchronize"}, missing) &&
               bind(lib, d.cuEventCreate, {"cuEventCreate"}, missing) &&
               bind(lib, d.cuEventDestroy, {"cuEventDestroy_v2"}, missing) &&
               bind(lib, d.cuEventRecord, {"cuEventRecord"}, missing) &&
               bind(lib, d.cuEventSynchronize, {"cuEventSynchronize"}, missing) &&
               bind(lib, d.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing) &&
               bind(lib, d.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, missing) &&
               bind(lib, d.cuModuleUnload, {"cuModuleUnload"}, missing) &&
               bind(lib, d.cuModuleGetFunction, {"cuModuleGetFunction"}, missing) &&
               bind(lib, d.cuLaunchKernel, {"cuLaunchKernel"}, missing) &&
               bind(lib, d.cuGetErrorName, {"cuGetErrorName"}, missing) &&
               bind(lib, d.cuGetErrorString, {"cuGetErrorString"}, missing);
    if (!all) {
        l.why = "the NVIDIA driver (libcuda.so.1) has no " + missing + ": it is older than Tessel needs";
        return l;
    }
    if (CUresult r = d.cuInit(0); r != 0) {
        const char* name = nullptr;
        d.cuGetErrorName(r, &name);
        l.why = std::string("the NVIDIA driver found no usable GPU (cuInit: ") + (name ? name : "error") + ")";
        return l;
    }
    l.ok = true;
    return l;
}

const Loaded& loaded() {
    static const Loaded l = load();
    return l;
}

} // namespace

const Driver* driver(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok ? &l.d : nullptr;
}

std::string errorText(CUresult r) {
    const Driver* d = driver();
    const char *name = nullptr, *text = nullptr;
    if (d) {
        d->cuGetErrorName(r, &name);
        d->cuGetErrorString(r, &text);
    }
    std::string s = name ? name : "CUDA error " + std::to_string(r);
    if (text) s += std::string(" (") + text + ")";
    return s;
}

void check(CUresult r, const char* what) {
    if (r != 0) throw std::runtime_error(std::string(what) + ": " + errorText(r));
}

} // namespace tessel::runtime::cuda
