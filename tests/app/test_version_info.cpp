// SPDX-License-Identifier: Apache-2.0
#include "app/version_info.h"

#include <gtest/gtest.h>

namespace tessera::app {
namespace {

values::DeviceInfo fakeDevice(int id, const std::string& name)
{
    values::DeviceInfo d;
    d.id = values::DeviceId{id};
    d.name = name;
    d.ccMajor = 9;
    d.smCount = 132;
    d.memoryTotal = std::uint64_t{140} << 30;
    d.memoryFree = std::uint64_t{139} << 30;
    d.pciBusId = "0000:1" + std::to_string(id) + ":00.0";
    return d;
}

TEST(VersionInfo, NamesEveryLibrary)
{
    values::DeviceSnapshot snap;
    snap.runtimeVersion = 13000;
    const auto v = collectVersions(snap);
    EXPECT_FALSE(v.tessera.empty());
    EXPECT_EQ(v.qt.substr(0, 2), "6.");
    EXPECT_EQ(v.opencv.substr(0, 2), "4.");
    EXPECT_EQ(v.cudaRuntime, "13.0");
    EXPECT_EQ(v.cudaDriver, "none");
    EXPECT_EQ(v.cufft, "none") << "no cuFFT in the snapshot";
    snap.cufftVersion = 11201;
    EXPECT_EQ(collectVersions(snap).cufft, "11.2.1");
}

TEST(VersionInfo, SummaryWithoutGpuGivesTheReason)
{
    values::DeviceSnapshot snap;
    snap.reason = "no NVIDIA driver is installed";
    EXPECT_EQ(computeSummary(snap), "CPU path (no NVIDIA driver is installed)");
    EXPECT_NE(describeDevices(snap).find("no NVIDIA driver"), std::string::npos);
}

TEST(VersionInfo, SummaryGroupsIdenticalGpus)
{
    values::DeviceSnapshot snap;
    for (int i = 0; i < 4; ++i) {
        snap.devices.push_back(fakeDevice(i, "NVIDIA H200"));
    }
    EXPECT_EQ(computeSummary(snap), "GPU: 4 x NVIDIA H200");
    const auto text = describeDevices(snap);
    EXPECT_NE(text.find("GPU 3: NVIDIA H200 (sm_90, 132 SMs, 140.0 GiB"), std::string::npos) << text;
}

}  // namespace
}  // namespace tessera::app
