/// \file
/// Which device a tensor lives on and a kernel runs on: a kind (the CPU, a
/// CUDA GPU) and an index among the devices of that kind, as TVM's DLDevice.
/// The kinds' numbers are DLPack's (kDLCPU = 1, kDLCUDA = 2), so they mean the
/// same on the wire (docs/rpc.md) as anywhere else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::runtime {

enum class DeviceKind : int32_t {
    CPU = 1,
    CUDA = 2,
};

/// "cpu", "cuda".
const char* deviceKindName(DeviceKind kind);
/// The kind called `name` ("cpu", "cuda"); nullopt for another name.
std::optional<DeviceKind> deviceKindFromName(std::string_view name);
/// Whether `value` is the number of a kind this runtime knows.
bool isDeviceKind(int32_t value);

struct Device {
    DeviceKind kind = DeviceKind::CPU;
    int32_t id = 0;

    static constexpr Device cpu(int32_t id = 0) { return {DeviceKind::CPU, id}; }
    static constexpr Device cuda(int32_t id = 0) { return {DeviceKind::CUDA, id}; }
    /// Host memory: what the process can read and write directly.
    bool isCpu() const { return kind == DeviceKind::CPU; }
    /// "cpu:0", "cuda:1".
    std::string str() const;
    /// Reads what str() writes, or a kind alone ("cuda" is "cuda:0");
    /// nullopt for anything else.
    static std::optional<Device> parse(std::string_view text);

    bool operator==(const Device&) const = default;
};

} // namespace tessel::runtime
