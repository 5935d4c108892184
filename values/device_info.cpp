// SPDX-License-Identifier: Apache-2.0
// DeviceInfo's arithmetic and version text, apart from the CUDA queries in gpu/runtime/device_info.cpp,
// so that code without the CUDA runtime (ui/, the CLI's values) can call them.

#include "values/device_info.h"

#include <cstdio>
#include <string>

namespace tessera::values {

std::string formatCudaVersion(int version)
{
    if (version <= 0) {
        return "none";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d.%d", version / 1000, (version % 1000) / 10);
    return buf;
}

std::string formatCufftVersion(int version)
{
    if (version <= 0) {
        return "none";
    }
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 100) + "." +
           std::to_string(version % 100);
}

double DeviceInfo::peakBandwidthGBs() const
{
    // DDR: two transfers per memory clock.
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
}

}  // namespace tessera::values
