// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_calibration.h"
#include "values/device_id.h"

#include <string>

namespace tessera::gpu {

/// Measures one GPU in well under half a second: a 256 MiB device-to-device copy, a
/// register-only FMA kernel filling every SM, and the standard filter (RGBA8 2048 x 2048
/// Gaussian 15) on a resident image. Synchronises the device; throws CudaError (or
/// OutOfDeviceMemory when 600 MiB do not fit).
DeviceCalibration calibrateDevice(DeviceId device);

/// Measures the CPU path: memcpy bandwidth, a multiply-add loop on every thread, and the
/// standard filter through filters::applyCpu. Takes about half a second on a few cores.
DeviceCalibration calibrateCpu();

/// The CPU's model name ("AMD EPYC 9654 96-Core Processor") from /proc/cpuinfo; empty when
/// it cannot be read.
std::string cpuModelName();

}  // namespace tessera::gpu
