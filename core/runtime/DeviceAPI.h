/// \file
/// What the runtime asks of a kind of device (TVM's DeviceAPI): memory
/// (allocate, free, copy between the host and the device and within it),
/// streams to queue work on and wait for, timing events, and loading a
/// module of kernels compiled for it.
///
/// The CPU's API is always there, and so is CUDA's (runtime/CudaDeviceAPI.h:
/// the driver is opened at run time; without it the API counts no device and
/// says why). The table is the runtime's one process-wide table: a device's
/// memory, contexts and loaded modules belong to the process, whoever asked
/// for them.
///
/// Copies and launches on a stream may run asynchronously; synchronize()
/// waits for them. On the CPU everything runs to completion at once, a stream
/// is the null stream, and an event is the steady clock's reading when it is
/// recorded.
#pragma once

#include "runtime/Device.h"
#include "runtime/Module.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tessel::runtime {

/// A queue of work on a device; nullptr is the device's default stream.
using Stream = void*;
/// A point in a stream's work, for timing (createEvent/recordEvent).
using Event = void*;

class DeviceAPI {
public:
    virtual ~DeviceAPI() = default;
    virtual DeviceKind kind() const = 0;
    /// How many devices of this kind there are (0: none, e.g. no driver).
    virtual int count() const = 0;
    /// Why there is no device `id` (empty when there is one), for messages.
    virtual std::string whyNot(int id) const;

    /// `bytes` (0 allowed) on `device`, aligned to at least `alignment`
    /// bytes; throws std::bad_alloc when the device has no room.
    virtual void* alloc(Device device, size_t bytes, size_t alignment) = 0;
    virtual void free(Device device, void* ptr) = 0;
    /// Host -> device, device -> host, and within one device; queued on
    /// `stream` where the device can (synchronize() to wait).
    virtual void copyToDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream = nullptr) = 0;
    virtual void copyFromDevice(Device device, void* dst, const void* src, size_t bytes, Stream stream = nullptr) = 0;
    virtual void copyWithinDevice(Device device, void* dst, const void* src, size_t bytes,
                                  Stream stream = nullptr) = 0;

    virtual Stream createStream(Device device) = 0;
    virtual void freeStream(Device device, Stream stream) = 0;
    /// Waits until the work queued on `stream` has finished.
    virtual void synchronize(Device device, Stream stream = nullptr) = 0;

    virtual Event createEvent(Device device) = 0;
    virtual void freeEvent(Device device, Event event) = 0;
    /// Marks the point in `stream`'s work that the event stands for.
    virtual void recordEvent(Device device, Event event, Stream stream = nullptr) = 0;
    /// Milliseconds between two recorded events; waits for the later one.
    virtual double elapsedMs(Device device, Event start, Event end) = 0;

    /// Loads a module of kernels for `device` from the file at `path` (an ELF
    /// shared object for the CPU). Throws std::runtime_error naming the file.
    virtual ModulePtr loadModule(Device device, const std::string& path) = 0;
};

/// The host: aligned memory (64 bytes at least; large blocks on 2 MiB
/// boundaries with transparent huge pages asked for), memcpy, no streams,
/// steady-clock events, modules loaded with dlopen.
class CpuDeviceAPI : public DeviceAPI {
public:
    DeviceKind kind() const override { return DeviceKind::CPU; }
    int count() const override { return 1; }
    void* alloc(Device device, size_t bytes, size_t alignment) override;
    void free(Device device, void* ptr) override;
    void copyToDevice(Device, void* dst, const void* src, size_t bytes, Stream) override;
    void copyFromDevice(Device, void* dst, const void* src, size_t bytes, Stream) override;
    void copyWithinDevice(Device, void* dst, const void* src, size_t bytes, Stream) override;
    Stream createStream(Device) override { return nullptr; }
    void freeStream(Device, Stream) override {}
    void synchronize(Device, Stream) override {}
    Event createEvent(Device) override;
    void freeEvent(Device, Event event) override;
    void recordEvent(Device, Event event, Stream) override;
    double elapsedMs(Device, Event start, Event end) override;
    ModulePtr loadModule(Device device, const std::string& path) override;
};

/// The device APIs of this process, by kind.
class DeviceAPIs {
public:
    /// This process's table; it holds the CPU's API from the start.
    static DeviceAPIs& global();

    /// Adds (or replaces) the API of `api->kind()`.
    void add(std::unique_ptr<DeviceAPI> api);
    /// The API of `kind`, or null.
    DeviceAPI* find(DeviceKind kind) const;
    /// The API of `device`'s kind when that device exists; throws
    /// std::runtime_error saying why not ("no cuda device API in this
    /// process: ...", "cuda:3 does not exist: 1 device").
    DeviceAPI& get(Device device) const;
    /// Every device there is, the CPU first.
    std::vector<Device> devices() const;

private:
    DeviceAPIs();
    mutable std::mutex m_;
    std::vector<std::unique_ptr<DeviceAPI>> apis_;
};

/// DeviceAPIs::global().get(device).
inline DeviceAPI& deviceAPI(Device device) { return DeviceAPIs::global().get(device); }

/// An event pair that times work on one device's stream: start(), the work,
/// stop(), then ms() (which waits for the work).
class DeviceTimer {
public:
    explicit DeviceTimer(Device device, Stream stream = nullptr);
    ~DeviceTimer();
    DeviceTimer(const DeviceTimer&) = delete;
    DeviceTimer& operator=(const DeviceTimer&) = delete;
    void start();
    void stop();
    double ms();

private:
    Device device_;
    Stream stream_;
    DeviceAPI& api_;
    Event start_, stop_;
};

} // namespace tessel::runtime
