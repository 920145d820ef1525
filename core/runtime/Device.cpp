#include "runtime/Device.h"

#include <charconv>

namespace tessel::runtime {

const char* deviceKindName(DeviceKind kind) {
    switch (kind) {
    case DeviceKind::CPU: return "cpu";
    case DeviceKind::CUDA: return "cuda";
    }
    return "unknown";
}

std::optional<DeviceKind> deviceKindFromName(std::string_view name) {
    if (name == "cpu") return DeviceKind::CPU;
    if (name == "cuda") return DeviceKind::CUDA;
    return std::nullopt;
}

bool isDeviceKind(int32_t value) {
    return value == static_cast<int32_t>(DeviceKind::CPU) || value == static_cast<int32_t>(DeviceKind::CUDA);
}

std::string Device::str() const { return std::string(deviceKindName(kind)) + ":" + std::to_string(id); }

std::optional<Device> Device::parse(std::string_view text) {
    const size_t colon = text.find(':');
    const auto kind = deviceKindFromName(text.substr(0, colon));
    if (!kind) return std::nullopt;
    Device d{*kind, 0};
    if (colon == std::string_view::npos) return d;
    const std::string_view idText = text.substr(colon + 1);
    const auto [end, ec] = std::from_chars(idText.data(), idText.data() + idText.size(), d.id);
    if (ec != std::errc() || end != idText.data() + idText.size() || idText.empty() || d.id < 0) return std::nullopt;
    return d;
}

} // namespace tessel::runtime
