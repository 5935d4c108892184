// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/device_info.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

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

// The runtime is read once per process; only a rescan reads it again, and what the rescan
// found is what later calls get.
TEST(DeviceDiscovery, ReadOnceUntilRescanned)
{
    const auto first = enumerateDevices();
    const std::uint64_t scans = deviceScans();
    EXPECT_GE(scans, 1u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(enumerateDevices().devices.size(), first.devices.size());
    }
    EXPECT_EQ(deviceScans(), scans) << "enumerateDevices read the runtime again";
    const auto again = rescanDevices();
    EXPECT_EQ(deviceScans(), scans + 1);
    EXPECT_EQ(again.devices.size(), first.devices.size());
    EXPECT_EQ(again.reason, first.reason);
    enumerateDevices();
    EXPECT_EQ(deviceScans(), scans + 1);
}

// Threads asking at once share one read.
TEST(DeviceDiscovery, ConcurrentFirstCallsShareOneRead)
{
    const std::uint64_t before = deviceScans();
    std::vector<std::thread> threads;
    std::vector<std::size_t> counts(4);
    for (std::size_t i = 0; i < counts.size(); ++i) {
        threads.emplace_back([&counts, i] { counts[i] = enumerateDevices().devices.size(); });
    }
    for (auto& t : threads) {
        t.join();
    }
    EXPECT_EQ(deviceScans(), std::max<std::uint64_t>(before, 1)) << "more than one read for the first calls";
    for (const std::size_t c : counts) {
        EXPECT_EQ(c, counts.front());
    }
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
