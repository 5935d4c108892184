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

}  // namespace
}  // namespace tessera::app
