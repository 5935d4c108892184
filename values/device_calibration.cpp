// SPDX-License-Identifier: Apache-2.0
#include "values/device_calibration.h"

#include <algorithm>

namespace tessera::values {

double relativeSpeed(const DeviceCalibration& device, const DeviceCalibration& reference)
{
    if (device.filterMpixS <= 0.0 || reference.filterMpixS <= 0.0) {
        return 1.0;
    }
    return device.filterMpixS / reference.filterMpixS;
}

std::vector<double> relativeSpeeds(const std::vector<DeviceCalibration>& calibrations)
{
    std::vector<double> speeds(calibrations.size(), 1.0);
    // A mix of measured and unmeasured devices has no common scale: share evenly instead.
    const bool all = std::all_of(calibrations.begin(), calibrations.end(),
                                 [](const DeviceCalibration& c) { return c.filterMpixS > 0.0; });
    if (!all || calibrations.empty()) {
        return speeds;
    }
    const auto fastest = *std::max_element(calibrations.begin(), calibrations.end(),
                                           [](const auto& a, const auto& b) { return a.filterMpixS < b.filterMpixS; });
    for (std::size_t i = 0; i < calibrations.size(); ++i) {
        speeds[i] = relativeSpeed(calibrations[i], fastest);
    }
    return speeds;
}

}  // namespace tessera::values
