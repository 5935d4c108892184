// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/calibration.h"
#include "tessera/gpu/device_info.h"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using namespace tessera::gpu;

TEST(Calibration, EveryGpuGivesPlausibleNumbersQuickly)
{
    const DeviceSnapshot snapshot = enumerateDevices();
    if (!snapshot.hasGpu()) {
        GTEST_SKIP() << "no CUDA device: " << snapshot.reason;
    }
    for (const DeviceInfo& device : snapshot.devices) {
        calibrateDevice(device.id);  // first use: context creation and module loading, untimed
        const auto start = std::chrono::steady_clock::now();
        const DeviceCalibration c = calibrateDevice(device.id);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        SCOPED_TRACE(device.name + " (GPU " + std::to_string(device.id.value()) + "): " + c.method);
        EXPECT_GT(c.copyGBs, 100.0);
        EXPECT_LT(c.copyGBs, 10000.0);
        EXPECT_GT(c.fmaGflops, 100.0);
        EXPECT_GT(c.filterMpixS, 0.0);
        EXPECT_LT(seconds, 0.5);
        std::printf("GPU %d %s: copy %.0f GB/s, FMA %.0f GFLOP/s, filter %.0f Mpixel/s, %.3f s\n", device.id.value(),
                    device.name.c_str(), c.copyGBs, c.fmaGflops, c.filterMpixS, seconds);
    }
}

}  // namespace
