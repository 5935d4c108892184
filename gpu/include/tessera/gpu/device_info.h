// SPDX-License-Identifier: Apache-2.0
#pragma once

// The CUDA query behind the device values of values/device_info.h.

#include "values/device_info.h"
#include "tessera/gpu/values.h"

#include <cstdint>

namespace tessera::gpu {

/// The devices of this machine: the CUDA runtime is queried at the first call of the process
/// (or of rescanDevices()) and that snapshot is kept, so that front ends, batches and pipelines
/// ask as often as they like for the cost of a copy. memoryFree is as it was at that query.
/// Thread-safe. Never throws and never aborts: failures end up in `reason`.
DeviceSnapshot enumerateDevices();

/// Queries the CUDA runtime again (a user's "refresh"), keeps the new snapshot for
/// enumerateDevices() and returns it. Thread-safe. Never throws.
DeviceSnapshot rescanDevices();

/// How many times this process has queried the CUDA runtime for its devices. For tests.
/// Never throws.
std::uint64_t deviceScans() noexcept;

}  // namespace tessera::gpu
