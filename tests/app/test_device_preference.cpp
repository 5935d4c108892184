#include "app/device_preference.h"

#include <gtest/gtest.h>

namespace tessera::app {
namespace {

using Kind = DevicePreference::Kind;

TEST(DevicePreference, RoundTripsThroughItsText)
{
    for (const DevicePreference& p : {DevicePreference{}, DevicePreference{Kind::Cpu, 0}, DevicePreference{Kind::Gpu, 3}}) {
        EXPECT_EQ(parseDevicePreference(toString(p)), p) << toString(p);
    }
    EXPECT_EQ(toString(DevicePreference{Kind::Gpu, 12}), "gpu:12");
}

TEST(DevicePreference, UnknownTextMeansAuto)
{
    for (const char* text : {"", "gpu", "gpu:", "gpu:-1", "gpu:1x", "GPU:1", "fastest"}) {
        EXPECT_EQ(parseDevicePreference(text), DevicePreference{}) << text;
    }
}

TEST(DevicePreference, ThePanelRestrictsWhereItRuns)
{
    const AllowedDevices all{{0, 1, 2, 3}, {0, 1, 2, 3}, true};
    const AllowedDevices noFirst{{0, 1, 2, 3}, {2, 3}, true};
    const AllowedDevices cpuOnly{{0, 1}, {}, true};
    const AllowedDevices gpuOnly{{0, 1}, {1}, false};
    EXPECT_EQ(restrictPreference({}, all), DevicePreference{});
    // Auto is every enabled GPU together: still Auto without the first one.
    EXPECT_EQ(restrictPreference({}, noFirst), DevicePreference{});
    EXPECT_EQ(restrictPreference({}, gpuOnly), DevicePreference{});
    EXPECT_EQ(restrictPreference({}, cpuOnly), (DevicePreference{Kind::Cpu, 0}));
    EXPECT_EQ(restrictPreference({Kind::Gpu, 3}, noFirst), (DevicePreference{Kind::Gpu, 3}));
    EXPECT_EQ(restrictPreference({Kind::Gpu, 1}, noFirst), (DevicePreference{Kind::Gpu, 2}));
    EXPECT_EQ(restrictPreference({Kind::Gpu, 1}, cpuOnly), (DevicePreference{Kind::Cpu, 0}));
    // A GPU that is gone stays chosen, so that the Engine reports it missing.
    EXPECT_EQ(restrictPreference({Kind::Gpu, 7}, noFirst), (DevicePreference{Kind::Gpu, 7}));
    EXPECT_EQ(restrictPreference({Kind::Cpu, 0}, all), (DevicePreference{Kind::Cpu, 0}));
    EXPECT_EQ(restrictPreference({Kind::Cpu, 0}, gpuOnly), (DevicePreference{Kind::Gpu, 1}));
    // No GPU at all: Auto means the CPU path anyway.
    EXPECT_EQ(restrictPreference({}, AllowedDevices{}), DevicePreference{});
}

}  // namespace
}  // namespace tessera::app
