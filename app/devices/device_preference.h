// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "values/device_selection.h"

#include <string>
#include <vector>

namespace tessera::app {

/// Preferences' preview device as the settings keep it: auto, cpu or gpu:N
/// (values::kPreviewPreference). Anything else, an old or hand-edited value, reads as auto, so a
/// bad setting never stops the previews. Never throws (beyond allocation).
values::DeviceSelection readPreviewPreference(const std::string& stored);

/// Which devices the device panel lets previews use: GPU ids in the panel's order, and the CPU.
struct AllowedDevices {
    std::vector<values::DeviceId> present;  ///< every GPU found, in enumeration order
    std::vector<values::DeviceId> gpus;     ///< the GPUs left enabled
    bool cpu = true;
};

/// preference as far as allowed permits it: kept when every GPU it names is allowed (or not
/// present, so the Engine still says so); otherwise the first allowed GPU, else the CPU. Auto
/// (every enabled GPU together) stays auto while any GPU is enabled. Never throws (beyond
/// allocation).
values::DeviceSelection restrictPreference(const values::DeviceSelection& preference, const AllowedDevices& allowed);

}  // namespace tessera::app
