// DeviceInfo's arithmetic lives apart from the CUDA queries in device_info.cpp, so that code
// without the CUDA runtime (the profiler's statistics in ui/) can call it.

#include "gpu/device_info.h"

namespace tessera::gpu {

double DeviceInfo::peakBandwidthGBs() const
{
    // DDR: two transfers per memory clock.
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
}

}  // namespace tessera::gpu
