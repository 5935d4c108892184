// SPDX-License-Identifier: Apache-2.0
#pragma once

// The CPU path's calibration, beside the GPUs' (tessera/gpu/calibration.h) in the comparison:
// the same standard filter, timed through filters::applyCpu.

#include "values/device_calibration.h"

#include <string>

namespace tessera::app {

/// Measures the CPU path: memcpy bandwidth, a multiply-add loop on every thread, and the
/// standard filter (gpu::calibrationImage, gpu::calibrationChain) through filters::applyCpu.
/// Takes about half a second on a few cores.
values::DeviceCalibration calibrateCpu();

/// The CPU's model name ("AMD EPYC 9654 96-Core Processor") from /proc/cpuinfo; empty when
/// it cannot be read.
std::string cpuModelName();

}  // namespace tessera::app
