// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_preference.h"

#include <algorithm>

namespace tessera::app {

gpu::DeviceSelection readPreviewPreference(const std::string& stored)
{
    try {
        return gpu::parseDeviceSelection(stored, gpu::kPreviewPreference);
    } catch (const gpu::DeviceSelectionError&) {
        return gpu::DeviceSelection::automatic();
    }
}

gpu::DeviceSelection restrictPreference(const gpu::DeviceSelection& preference, const AllowedDevices& allowed)
{
    using Kind = gpu::DeviceSelection::Kind;
    const auto contains = [](const std::vector<gpu::DeviceId>& ids, gpu::DeviceId id) {
        return std::ranges::find(ids, id) != ids.end();
    };
    const gpu::DeviceSelection fallback =
        allowed.gpus.empty() ? gpu::DeviceSelection::cpu() : gpu::DeviceSelection::gpu(allowed.gpus.front());
    switch (preference.kind()) {
    case Kind::Cpu:
        return allowed.cpu ? preference : fallback;
    case Kind::Gpus:
        return std::ranges::all_of(preference.ids(),
                                   [&](gpu::DeviceId id) {
                                       return contains(allowed.gpus, id) || !contains(allowed.present, id);
                                   })
                   ? preference
                   : fallback;
    default:
        // Auto runs on every enabled GPU, so it stays Auto while any is enabled (or none exists).
        return allowed.present.empty() || !allowed.gpus.empty() ? preference : gpu::DeviceSelection::cpu();
    }
}

}  // namespace tessera::app
