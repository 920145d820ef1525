#include "runtime/DeviceAPI.h"

#include "runtime/CudaDeviceAPI.h"

#include "runtime/ExportedModel.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace tessel::runtime {

std::string DeviceAPI::whyNot(int id) const {
    const int n = count();
    if (id >= 0 && id < n) return {};
    return std::string(deviceKindName(kind())) + ":" + std::to_string(id) + " does not exist (" + std::to_string(n) +
           " device" + (n == 1 ? "" : "s") + " of that kind here)";
}

// ---------------------------------------------------------------- CPU

void* CpuDeviceAPI::alloc(Device, size_t bytes, size_t alignment) {
    alignment = std::max<size_t>(alignment, 64);
    // Rounded up to whole alignment units, so vector loads of the last
    // elements stay inside the block.
    size_t rounded = std::max(alignment, (bytes + alignment - 1) / alignment * alignment);
    // Large blocks start on a 2 MiB boundary and ask for transparent huge
    // pages: kernels walk them with page-sized strides (a row of a 1024-wide
    // float matrix is one 4 KiB page), and huge pages keep those walks out of
    // the TLB's way.
    constexpr size_t kHuge = size_t(2) << 20;
    const bool huge = rounded >= kHuge;
    if (huge) {
        rounded = (rounded + kHuge - 1) / kHuge * kHuge;
        alignment = std::max(alignment, kHuge);
    }
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, rounded, MADV_HUGEPAGE); // a hint: failure changes nothing
#endif
    return p;
}

void CpuDeviceAPI::free(Device, void* ptr) { std::free(ptr); }

void CpuDeviceAPI::copyToDevice(Device, void* dst, const void* src, size_t bytes, Stream) {
    if (bytes && dst != src) std::memmove(dst, src, bytes);
}

void CpuDeviceAPI::copyFromDevice(Device, void* dst, const void* src, size_t bytes, Stream) {
    if (bytes && dst != src) std::memmove(dst, src, bytes);
}

void CpuDeviceAPI::copyWithinDevice(Device, void* dst, const void* src, size_t bytes, Stream) {
    if (bytes && dst != src) std::memmove(dst, src, bytes);
}

namespace {
using Clock = std::chrono::steady_clock;
}

Event CpuDeviceAPI::createEvent(Device) { return new Clock::time_point(); }

void CpuDeviceAPI::freeEvent(Device, Event event) { delete static_cast<Clock::time_point*>(event); }

void CpuDeviceAPI::recordEvent(Device, Event event, Stream) { *static_cast<Clock::time_point*>(event) = Clock::now(); }

double CpuDeviceAPI::elapsedMs(Device, Event start, Event end) {
    return std::chrono::duration<double, std::milli>(*static_cast<Clock::time_point*>(end) -
                                                     *static_cast<Clock::time_point*>(start))
        .count();
}

ModulePtr CpuDeviceAPI::loadModule(Device, const std::string& path) { return loadSharedLibrary(path); }

// ---------------------------------------------------------------- the table

DeviceAPIs::DeviceAPIs() {
    apis_.push_back(std::make_unique<CpuDeviceAPI>());
    // Always in the table: without a driver it counts no device and says why.
    apis_.push_back(std::make_unique<CudaDeviceAPI>());
}

DeviceAPIs& DeviceAPIs::global() {
    static DeviceAPIs table;
    return table;
}

void DeviceAPIs::add(std::unique_ptr<DeviceAPI> api) {
    std::lock_guard<std::mutex> lock(m_);
    for (auto& a : apis_)
        if (a->kind() == api->kind()) {
            a = std::move(api);
            return;
        }
    apis_.push_back(std::move(api));
}

DeviceAPI* DeviceAPIs::find(DeviceKind kind) const {
    std::lock_guard<std::mutex> lock(m_);
    for (auto& a : apis_)
        if (a->kind() == kind) return a.get();
    return nullptr;
}

DeviceAPI& DeviceAPIs::get(Device device) const {
    DeviceAPI* api = find(device.kind);
    if (!api)
        throw std::runtime_error(std::string("no ") + deviceKindName(device.kind) +
                                 " device API in this process (a build or a server without support for " +
                                 deviceKindName(device.kind) + " devices)");
    if (device.kind != DeviceKind::CPU || device.id != 0) {
        const std::string why = api->whyNot(device.id);
        if (!why.empty()) throw std::runtime_error(why);
    }
    return *api;
}

std::vector<Device> DeviceAPIs::devices() const {
    std::vector<Device> out;
    std::lock_guard<std::mutex> lock(m_);
    for (auto& a : apis_)
        for (int i = 0, n = a->count(); i < n; ++i) out.push_back(Device{a->kind(), i});
    return out;
}

// ---------------------------------------------------------------- timer

DeviceTimer::DeviceTimer(Device device, Stream stream)
    : device_(device), stream_(stream), api_(deviceAPI(device)), start_(api_.createEvent(device)),
      stop_(api_.createEvent(device)) {}

DeviceTimer::~DeviceTimer() {
    api_.freeEvent(device_, start_);
    api_.freeEvent(device_, stop_);
}

void DeviceTimer::start() { api_.recordEvent(device_, start_, stream_); }
void DeviceTimer::stop() { api_.recordEvent(device_, stop_, stream_); }
double DeviceTimer::ms() { return api_.elapsedMs(device_, start_, stop_); }

} // namespace tessel::runtime
