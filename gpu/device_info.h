// SPDX-License-Identifier: Apache-2.0
#pragma once

// The CUDA query behind the device values of values/device_info.h.

#include "values/device_info.h"

namespace tessera::gpu {

/// Queries the CUDA runtime. Never throws and never aborts: failures end up in `reason`.
DeviceSnapshot enumerateDevices();

}  // namespace tessera::gpu
