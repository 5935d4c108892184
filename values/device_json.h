// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"

#include <string>

namespace tessera::values {

/// A device snapshot as one JSON object (versions, every device with its properties and peer
/// access, why there is no GPU, the FFT method's state): what `tessera-cli devices --json` prints
/// and what the Python module's devices() reads. indent as nlohmann's dump (-1: one line).
std::string devicesJson(const DeviceSnapshot& snapshot, int indent);

}  // namespace tessera::values
