// SPDX-License-Identifier: Apache-2.0
// tessera-bench's result lines (app/bench/bench_result.cpp): a named variant that cannot take a
// case is a skipped line, in the JSON and in the table, and is told apart from an error.

#include "app/bench/bench_result.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

namespace tessera::app::bench {
namespace {

Result line(const std::string& method)
{
    Result r;
    r.caseName = "f32c1-custom31";
    r.format = "f32c1";
    r.kernel = "custom31";
    r.method = method;
    r.width = 8192;
    r.height = 8192;
    r.device = values::DeviceId{0};
    r.deviceName = "GPU";
    return r;
}

TEST(BenchResult, SkippedVariantIsALineOfItsOwnNotAnError)
{
    Result skipped = line("variant:direct-fixed");
    skipped.skipped = "direct-fixed: fixed-size direct kernels are compiled for square sizes 3 to 15";
    const auto json = toJson(skipped);
    EXPECT_EQ(json.value("skipped", std::string()), skipped.skipped);
    EXPECT_FALSE(json.contains("error"));
    EXPECT_FALSE(json.contains("ms_median")) << "a skipped line has no timings";

    Result failed = line("variant:fft");
    failed.error = "cuFFT could not be loaded";
    const auto failedJson = toJson(failed);
    EXPECT_EQ(failedJson.value("error", std::string()), failed.error);
    EXPECT_FALSE(failedJson.contains("skipped"));

    Result timed = line("variant:fft-rows");
    timed.ms = {0.68, 0.67, 0.69};
    timed.bytes = 8192.0 * 8192.0 * 8.0;
    const auto timedJson = toJson(timed);
    EXPECT_DOUBLE_EQ(timedJson.value("ms_median", 0.0), 0.68);
    EXPECT_FALSE(timedJson.contains("skipped"));

    const std::string table = formatTable({skipped, failed, timed});
    EXPECT_NE(table.find("variant:direct-fixed skipped: direct-fixed: fixed-size"), std::string::npos) << table;
    EXPECT_NE(table.find("error: cuFFT could not be loaded"), std::string::npos) << table;
    EXPECT_EQ(table.find("error: direct-fixed"), std::string::npos) << table;
}

}  // namespace
}  // namespace tessera::app::bench
