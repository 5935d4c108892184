// SPDX-License-Identifier: Apache-2.0
#include "app/compare/cpu_calibration.h"

#include <gtest/gtest.h>

namespace tessera::app {
namespace {

TEST(Calibration, CpuPath)
{
    // Needs no GPU; the numbers only need to exist: a busy machine or a sanitizer build (unoptimised,
    // instrumented loops) may measure well under 0.1 GFLOP/s. Speed goals live in the benchmark.
    const values::DeviceCalibration c = calibrateCpu();
    EXPECT_GT(c.copyGBs, 0.0);
    EXPECT_GT(c.fmaGflops, 0.0);
    EXPECT_GT(c.filterMpixS, 0.0);
    EXPECT_NE(c.method.find("CPU path"), std::string::npos) << c.method;
}

}  // namespace
}  // namespace tessera::app
