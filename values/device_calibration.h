// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace tessera::values {

/// What a short measurement found one device (a GPU or the CPU) able to do; plain data, so that
/// ui/ can show it. A field left at 0 was not measured.
struct DeviceCalibration {
    double copyGBs = 0.0;      ///< device-to-device copy, bytes read plus bytes written per second / 1e9
    double fmaGflops = 0.0;    ///< FP32 fused multiply-add throughput, 2 flops per FMA
    double filterMpixS = 0.0;  ///< RGBA8 2048 x 2048 Gaussian 15 x 15, megapixels per second
    std::string method;        ///< how the numbers were taken, e.g. "cudaMemcpyAsync 256 MiB x 20; ..."

    bool measured() const { return copyGBs > 0.0 || fmaGflops > 0.0 || filterMpixS > 0.0; }
    bool operator==(const DeviceCalibration&) const = default;
};

/// device's filter throughput relative to reference's (2.0: twice as fast); 1.0 when either
/// was not measured, so that unmeasured devices share work evenly.
double relativeSpeed(const DeviceCalibration& device, const DeviceCalibration& reference);

/// Each calibration's filter throughput relative to the fastest of them (the fastest gets 1.0):
/// the speed weights of multi-GPU slots. All 1.0 when any of them was not measured.
std::vector<double> relativeSpeeds(const std::vector<DeviceCalibration>& calibrations);

}  // namespace tessera::values
