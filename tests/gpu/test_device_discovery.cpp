// SPDX-License-Identifier: Apache-2.0
#include "gpu/device_info.h"

#include <gtest/gtest.h>

namespace tessera::gpu {
namespace {

TEST(DeviceDiscovery, AnswersWithoutThrowing)
{
    DeviceSnapshot snap;
    ASSERT_NO_THROW(snap = enumerateDevices());
    if (snap.devices.empty()) {
        // No GPU is a normal state, but it must come with a reason a user can act on.
        EXPECT_FALSE(snap.reason.empty());
        EXPECT_FALSE(snap.hasGpu());
    } else {
        EXPECT_TRUE(snap.reason.empty()) << snap.reason;
    }
    // The runtime linked into Tessera always knows its own version.
    EXPECT_GE(snap.runtimeVersion, 12000);
}

TEST(DeviceDiscovery, RepeatedCallsAgree)
{
    const auto a = enumerateDevices();
    const auto b = enumerateDevices();
    EXPECT_EQ(a.devices.size(), b.devices.size());
    EXPECT_EQ(a.reason, b.reason);
    EXPECT_EQ(a.driverVersion, b.driverVersion);
}

TEST(DeviceDiscovery, NoDeviceReasonNamesTheCause)
{
    const auto snap = enumerateDevices();
    if (snap.hasGpu()) {
        GTEST_SKIP() << "this machine has a GPU";
    }
    if (snap.driverVersion == 0) {
        EXPECT_NE(snap.reason.find("driver"), std::string::npos) << snap.reason;
    } else {
        EXPECT_NE(snap.reason.find("device"), std::string::npos) << snap.reason;
    }
}

TEST(DeviceDiscovery, FormatsCudaVersions)
{
    EXPECT_EQ(formatCudaVersion(13000), "13.0");
    EXPECT_EQ(formatCudaVersion(12080), "12.8");
    EXPECT_EQ(formatCudaVersion(0), "none");
}

TEST(DeviceDiscovery, PeakBandwidthFromClockAndBus)
{
    DeviceInfo d;
    d.memoryClockKHz = 2619000;
    d.memoryBusWidthBits = 6144;
    EXPECT_NEAR(d.peakBandwidthGBs(), 4022.8, 1.0);
    d.memoryBusWidthBits = 0;
    EXPECT_EQ(d.peakBandwidthGBs(), 0.0);
}

}  // namespace
}  // namespace tessera::gpu
