// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/device_info.h"
#include "self_test.h"

#include <gtest/gtest.h>

#include <set>

namespace tessera::gpu {
namespace {

class GpuDevices : public ::testing::Test {
protected:
    void SetUp() override
    {
        snap_ = enumerateDevices();
        if (!snap_.hasGpu()) {
            GTEST_SKIP() << "no CUDA device: " << snap_.reason;
        }
    }
    DeviceSnapshot snap_;
};

TEST_F(GpuDevices, PropertiesAreSane)
{
    EXPECT_GE(snap_.driverVersion, snap_.runtimeVersion / 1000 * 1000)
        << "driver older than the runtime should have been reported as a reason";
    std::set<std::string> busIds;
    for (const auto& d : snap_.devices) {
        SCOPED_TRACE(d.name);
        EXPECT_FALSE(d.name.empty());
        EXPECT_GE(d.ccMajor, 7);
        EXPECT_GT(d.smCount, 0);
        EXPECT_GT(d.memoryTotal, std::uint64_t{1} << 30);
        EXPECT_GT(d.memoryFree, 0u);
        EXPECT_LE(d.memoryFree, d.memoryTotal);
        EXPECT_GT(d.l2CacheBytes, 0);
        EXPECT_GE(d.sharedMemPerBlock, 48u * 1024u);
        EXPECT_GE(d.sharedMemPerBlockOptin, d.sharedMemPerBlock);
        EXPECT_GT(d.clockKHz, 100000);
        EXPECT_GT(d.memoryClockKHz, 0);
        EXPECT_GT(d.peakBandwidthGBs(), 100.0);
        EXPECT_EQ(d.warpSize, 32);
        EXPECT_EQ(d.peerAccess.size(), snap_.devices.size());
        EXPECT_FALSE(d.peerAccess.at(static_cast<size_t>(d.id.value()))) << "a device is not its own peer";
        EXPECT_TRUE(busIds.insert(d.pciBusId).second) << "duplicate PCI bus id " << d.pciBusId;
    }
}

TEST_F(GpuDevices, PeerAccessIsSymmetric)
{
    const auto n = snap_.devices.size();
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
            EXPECT_EQ(snap_.devices[i].peerAccess[j], snap_.devices[j].peerAccess[i]) << i << "," << j;
        }
    }
}

TEST_F(GpuDevices, EveryDeviceRunsAKernel)
{
    for (const auto& d : snap_.devices) {
        EXPECT_EQ(runSelfTest(d.id), "") << describe(d.id);
    }
}

TEST_F(GpuDevices, SelfTestOnMissingDeviceFailsCleanly)
{
    const DeviceId missing{static_cast<int>(snap_.devices.size()) + 3};
    EXPECT_NE(runSelfTest(missing), "");
    // The failure must not poison later work.
    EXPECT_EQ(runSelfTest(DeviceId{0}), "");
}

}  // namespace
}  // namespace tessera::gpu
