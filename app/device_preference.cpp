#include "app/device_preference.h"

#include <algorithm>
#include <charconv>

namespace tessera::app {

std::string toString(const DevicePreference& preference)
{
    switch (preference.kind) {
    case DevicePreference::Kind::Cpu: return "cpu";
    case DevicePreference::Kind::Gpu: return "gpu:" + std::to_string(preference.gpu);
    default: return "auto";
    }
}

DevicePreference parseDevicePreference(const std::string& text)
{
    if (text == "cpu") {
        return {DevicePreference::Kind::Cpu, 0};
    }
    const std::string prefix = "gpu:";
    if (text.rfind(prefix, 0) == 0) {
        int id = -1;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data() + prefix.size(), end, id);
        if (ec == std::errc() && ptr == end && id >= 0) {
            return {DevicePreference::Kind::Gpu, id};
        }
    }
    return {};
}

DevicePreference restrictPreference(const DevicePreference& preference, const AllowedDevices& allowed)
{
    const auto contains = [](const std::vector<int>& ids, int id) { return std::ranges::find(ids, id) != ids.end(); };
    const DevicePreference fallback = allowed.gpus.empty() ? DevicePreference{DevicePreference::Kind::Cpu, 0}
                                                           : DevicePreference{DevicePreference::Kind::Gpu, allowed.gpus.front()};
    switch (preference.kind) {
    case DevicePreference::Kind::Cpu:
        return allowed.cpu ? preference : fallback;
    case DevicePreference::Kind::Gpu:
        return contains(allowed.gpus, preference.gpu) || !contains(allowed.present, preference.gpu) ? preference : fallback;
    default:
        // Auto runs on every enabled GPU, so it stays Auto while any is enabled (or none exists).
        return allowed.present.empty() || !allowed.gpus.empty() ? preference
                                                                : DevicePreference{DevicePreference::Kind::Cpu, 0};
    }
}

}  // namespace tessera::app
