// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "values/device_calibration.h"
#include "values/device_id.h"
#include "tessera/gpu/values.h"

#include <opencv2/core/mat.hpp>

namespace tessera::gpu {

/// Measures one GPU in well under half a second: a 256 MiB device-to-device copy, a
/// register-only FMA kernel filling every SM, and the standard filter (RGBA8 2048 x 2048
/// Gaussian 15) on a resident image. Synchronises the device; throws CudaError (or
/// OutOfDeviceMemory when 600 MiB do not fit).
DeviceCalibration calibrateDevice(DeviceId device);

/// The standard filter every calibration times, on a GPU here and on the CPU path in the
/// comparison (app/compare/cpu_calibration.h): RGBA8 2048 x 2048 random pixels, the same every
/// time, and a Gaussian of 15 taps.
cv::Mat calibrationImage();
filters::FilterChain calibrationChain();
/// The standard image's megapixels per second when one filter run takes `milliseconds`.
double calibrationMegapixelsPerSecond(double milliseconds);

}  // namespace tessera::gpu
