// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_preference.h"

#include <algorithm>

namespace tessera::app {

values::DeviceSelection readPreviewPreference(const std::string& stored)
{
    try {
        return values::parseDeviceSelection(stored, values::kPreviewPreference);
    } catch (const values::DeviceSelectionError&) {
        return values::DeviceSelection::automatic();
    }
}

values::DeviceSelection restrictPreference(const values::DeviceSelection& preference, const AllowedDevices& allowed)
{
    using Kind = values::DeviceSelection::Kind;
    const auto contains = [](const std::vector<values::DeviceId>& ids, values::DeviceId id) {
        return std::ranges::find(ids, id) != ids.end();
    };
    const values::DeviceSelection fallback =
        allowed.gpus.empty() ? values::DeviceSelection::cpu() : values::DeviceSelection::gpu(allowed.gpus.front());
    switch (preference.kind()) {
    case Kind::Cpu: return allowed.cpu ? preference : fallback;
    case Kind::Gpus:
        return std::ranges::all_of(
                   preference.ids(),
                   [&](values::DeviceId id) { return contains(allowed.gpus, id) || !contains(allowed.present, id); })
                   ? preference
                   : fallback;
    default:
        // Auto runs on every enabled GPU, so it stays Auto while any is enabled (or none exists).
        return allowed.present.empty() || !allowed.gpus.empty() ? preference : values::DeviceSelection::cpu();
    }
}

}  // namespace tessera::app
