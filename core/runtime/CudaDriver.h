/// \file
/// The CUDA driver API, loaded at run time (`dlopen("libcuda.so.1")`), so
/// that Tessel builds and runs everywhere and says clearly when a machine
/// has no NVIDIA driver or no GPU. Only the calls the runtime makes, declared
/// here with the driver's ABI (no CUDA header is needed to build).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

/// The driver's entry points; null members were not found.
struct Driver {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int*);
    CUresult (*cuDeviceGet)(CUdevice*, int);
    CUresult (*cuDeviceGetName)(char*, int, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
    CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*cuStreamCreate)(CUstream*, unsigned);
    CUresult (*cuStreamDestroy)(CUstream);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuEventCreate)(CUevent*, unsigned);
    CUresult (*cuEventDestroy)(CUevent);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
    CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void**, void**);
    CUresult (*cuGetErrorName)(CUresult, const char**);
    CUresult (*cuGetErrorString)(CUresult, const char**);
};

/// The loaded and initialised driver, or null; `why` says why not ("no
/// NVIDIA driver (libcuda.so.1) on this machine", "cuInit: CUDA_ERROR_NO_DEVICE").
/// Loaded once per process.
const Driver* driver(std::string* why = nullptr);

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string errorText(CUresult r);

/// Throws std::runtime_error "`what`: <errorText>" unless `r` is success.
void check(CUresult r, const char* what);

} // namespace tessel::runtime::cuda
