// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "tessera/gpu/values.h"

#include <string>

namespace tessera::gpu {

/// Launches a small kernel on `device`, copies its result back and checks it. Returns an empty
/// string on success, otherwise what failed. Never throws; synchronises the device it used.
std::string runSelfTest(DeviceId device);

}  // namespace tessera::gpu
