// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_preference.h"

#include <gtest/gtest.h>

namespace tessera::app {
namespace {

using values::DeviceId;
using values::DeviceSelection;

DeviceSelection gpuPreference(int id)
{
    return DeviceSelection::gpu(DeviceId{id});
}

std::vector<DeviceId> ids(std::initializer_list<int> values)
{
    std::vector<DeviceId> out;
    for (const int v : values) {
        out.emplace_back(v);
    }
    return out;
}

TEST(DevicePreference, RoundTripsThroughItsText)
{
    for (const DeviceSelection& p : {DeviceSelection::automatic(), DeviceSelection::cpu(), gpuPreference(3)}) {
        EXPECT_EQ(readPreviewPreference(values::toString(p)), p) << values::toString(p);
    }
    EXPECT_EQ(values::toString(gpuPreference(12)), "gpu:12");
}

TEST(DevicePreference, ReadsTheValuesOlderVersionsStored)
{
    EXPECT_EQ(readPreviewPreference("auto"), DeviceSelection::automatic());
    EXPECT_EQ(readPreviewPreference("cpu"), DeviceSelection::cpu());
    EXPECT_EQ(readPreviewPreference("gpu:0"), gpuPreference(0));
    EXPECT_EQ(readPreviewPreference("gpu:7"), gpuPreference(7));
}

TEST(DevicePreference, UnknownTextMeansAuto)
{
    for (const char* text : {"", "gpu", "gpu:", "gpu:-1", "gpu:1x", "GPU:1", "fastest"}) {
        EXPECT_EQ(readPreviewPreference(text), DeviceSelection::automatic()) << text;
    }
    // Forms other contexts take are not a preview preference either.
    for (const char* text : {"all", "each", "gpu:0,1"}) {
        EXPECT_EQ(readPreviewPreference(text), DeviceSelection::automatic()) << text;
    }
}

TEST(DevicePreference, ThePanelRestrictsWhereItRuns)
{
    const AllowedDevices all{ids({0, 1, 2, 3}), ids({0, 1, 2, 3}), true};
    const AllowedDevices noFirst{ids({0, 1, 2, 3}), ids({2, 3}), true};
    const AllowedDevices cpuOnly{ids({0, 1}), {}, true};
    const AllowedDevices gpuOnly{ids({0, 1}), ids({1}), false};
    const DeviceSelection automatic;
    const DeviceSelection cpu = DeviceSelection::cpu();
    EXPECT_EQ(restrictPreference(automatic, all), automatic);
    // Auto is every enabled GPU together: still Auto without the first one.
    EXPECT_EQ(restrictPreference(automatic, noFirst), automatic);
    EXPECT_EQ(restrictPreference(automatic, gpuOnly), automatic);
    EXPECT_EQ(restrictPreference(automatic, cpuOnly), cpu);
    EXPECT_EQ(restrictPreference(gpuPreference(3), noFirst), gpuPreference(3));
    EXPECT_EQ(restrictPreference(gpuPreference(1), noFirst), gpuPreference(2));
    EXPECT_EQ(restrictPreference(gpuPreference(1), cpuOnly), cpu);
    // A GPU that is gone stays chosen, so that the Engine reports it missing.
    EXPECT_EQ(restrictPreference(gpuPreference(7), noFirst), gpuPreference(7));
    EXPECT_EQ(restrictPreference(cpu, all), cpu);
    EXPECT_EQ(restrictPreference(cpu, gpuOnly), gpuPreference(1));
    // No GPU at all: Auto means the CPU path anyway.
    EXPECT_EQ(restrictPreference(automatic, AllowedDevices{}), automatic);
}

}  // namespace
}  // namespace tessera::app
