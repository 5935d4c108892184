// SPDX-License-Identifier: Apache-2.0
#include "app/compare/compare_json.h"
#include "app/compare/compare_runner.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace {

using namespace tessera;
using app::CompareTarget;
using app::TargetRun;

/// A target that returns the CPU result (plus offset on every pixel) and reports the given
/// run times in turn, as a fake device would.
CompareTarget fake(const std::string& key, const std::vector<int>& gpus, std::vector<double> ms, double offset = 0.0)
{
    CompareTarget t;
    t.key = key;
    t.label = key;
    for (const int ordinal : gpus) {  // the ordinals as the keys spell them
        t.gpus.push_back(values::DeviceId{ordinal});
    }
    auto next = std::make_shared<std::size_t>(0);
    t.run = [ms, offset, next](const cv::Mat& src, const filters::FilterChain& chain) {
        TargetRun run;
        run.output = filters::applyCpu(src, chain);
        if (offset != 0.0) {
            cv::add(run.output, cv::Scalar::all(offset), run.output);
        }
        run.wallMs = ms[(*next)++ % ms.size()];
        run.kernels.push_back({values::DeviceId{0}, "separable", run.wallMs, 2e9, 1e9});
        return run;
    };
    return t;
}

cv::Mat image()
{
    cv::Mat m(64, 80, CV_8UC4);
    cv::randu(m, 0, 200);
    return m;
}

const filters::FilterChain kChain{{filters::makeGaussian(1.0, 5)}};

TEST(CompareRunner, SpeedupEfficiencyAndRatesFromKnownTimings)
{
    app::CompareOptions options;
    options.warmup = 1;
    options.repeats = 3;
    int calls = 0;
    options.progress = [&](int done, int total, const std::string&) {
        ++calls;
        EXPECT_LE(done, total);
        EXPECT_EQ(total, 4 * 4);
    };
    // Warm-up values come first and are dropped: 100 ms never counts.
    const auto report =
        app::runComparison(image(), kChain,
                           {fake("gpu:0", {0}, {100, 10, 12, 8}), fake("gpu:1", {1}, {100, 20, 20, 20}),
                            fake("gpus:0,1", {0, 1}, {100, 6, 5, 7}), fake("cpu", {}, {100, 40, 40, 40})},
                           options);
    EXPECT_EQ(calls, 16);
    ASSERT_EQ(report.results.size(), 4u);
    EXPECT_EQ(report.baseline, "gpu:0");
    const auto& g0 = report.results[0];
    EXPECT_DOUBLE_EQ(g0.minMs, 8);
    EXPECT_DOUBLE_EQ(g0.medianMs, 10);
    EXPECT_DOUBLE_EQ(g0.maxMs, 12);
    const double pixels = 64.0 * 80.0;
    EXPECT_DOUBLE_EQ(g0.mpixS, pixels / 10e3);
    EXPECT_DOUBLE_EQ(g0.mpixMax, pixels / 8e3);
    EXPECT_DOUBLE_EQ(g0.mpixMin, pixels / 12e3);
    EXPECT_DOUBLE_EQ(g0.speedup, 1.0);
    EXPECT_DOUBLE_EQ(report.results[1].speedup, 0.5);
    EXPECT_DOUBLE_EQ(report.results[2].speedup, 10.0 / 6.0);
    EXPECT_DOUBLE_EQ(report.results[2].efficiency, 10.0 / 6.0 / 2.0);
    EXPECT_DOUBLE_EQ(report.results[3].speedup, 0.25);
    EXPECT_DOUBLE_EQ(report.results[3].efficiency, 0.0);
    // Roofline: 2e9 flops and 1e9 bytes in 10 ms per run.
    ASSERT_FALSE(g0.roofline.empty());
    EXPECT_DOUBLE_EQ(g0.roofline[0].intensity, 2.0);
    EXPECT_NEAR(g0.roofline[0].gflops, 3 * 2.0 / 0.030, 1e-9);
}

TEST(CompareRunner, ErrorsAgainstTheCpuPath)
{
    const auto report = app::runComparison(image(), kChain, {fake("gpu:0", {0}, {1}, 3.0), fake("cpu", {}, {2})}, {});
    ASSERT_EQ(report.results.size(), 2u);
    EXPECT_DOUBLE_EQ(report.results[0].maxAbsError, 3.0);
    EXPECT_NEAR(report.results[0].psnr, 10 * std::log10(255.0 * 255.0 / 9.0), 1e-9);
    EXPECT_TRUE(std::isinf(report.results[1].psnr));
    EXPECT_DOUBLE_EQ(report.results[1].maxAbsError, 0.0);
    const cv::Mat& heat = report.results[0].heatMap;
    ASSERT_EQ(heat.type(), CV_8UC3);
    EXPECT_EQ(heat.size(), cv::Size(80, 64));
    EXPECT_EQ(cv::countNonZero(report.results[1].heatMap.reshape(1)), 0);
}

TEST(CompareRunner, HeatMapIsHottestWhereTheErrorIsLargest)
{
    cv::Mat a(4, 4, CV_8UC1, cv::Scalar(10));
    cv::Mat b = a.clone();
    b.at<uchar>(1, 2) = 30;
    b.at<uchar>(3, 3) = 11;
    const cv::Mat heat = app::errorHeatMap(a, b);
    const cv::Vec3b hot = heat.at<cv::Vec3b>(1, 2);
    const cv::Vec3b mild = heat.at<cv::Vec3b>(3, 3);
    EXPECT_GT(hot[2], mild[2]);  // red channel: turbo's hot end
    EXPECT_DOUBLE_EQ(app::maxAbsError(a, b), 20.0);
}

TEST(CompareRunner, PsnrOfSixteenBitAndFloat)
{
    cv::Mat a(2, 2, CV_16UC1, cv::Scalar(1000));
    cv::Mat b(2, 2, CV_16UC1, cv::Scalar(1010));
    EXPECT_NEAR(app::psnr(a, b), 10 * std::log10(65535.0 * 65535.0 / 100.0), 1e-9);
    cv::Mat f(2, 2, CV_32FC1, cv::Scalar(0.5f));
    cv::Mat g(2, 2, CV_32FC1, cv::Scalar(0.6f));
    EXPECT_NEAR(app::psnr(f, g), 20.0, 1e-4);
}

TEST(CompareRunner, FailingTargetKeepsTheOthers)
{
    CompareTarget broken = fake("gpu:3", {3}, {1});
    broken.run = [](const cv::Mat&, const filters::FilterChain&) -> TargetRun { throw std::runtime_error("boom"); };
    const auto report = app::runComparison(image(), kChain, {broken, fake("gpu:1", {1}, {4})}, {});
    ASSERT_EQ(report.results.size(), 2u);
    EXPECT_EQ(report.results[0].error, "boom");
    EXPECT_TRUE(report.results[1].ok());
    EXPECT_EQ(report.baseline, "gpu:1");
}

TEST(CompareRunner, CancelStopsBetweenRuns)
{
    std::atomic<bool> cancel{false};
    app::CompareOptions options;
    options.repeats = 10;
    options.cancel = &cancel;
    options.progress = [&](int done, int, const std::string&) { cancel = done >= 3; };
    const auto report = app::runComparison(image(), kChain, {fake("gpu:0", {0}, {1}), fake("cpu", {}, {1})}, options);
    EXPECT_TRUE(report.cancelled);
}

TEST(CompareRunner, ChainWorkCountsTapsPixelsAndChannels)
{
    const filters::FilterChain chain{{filters::makeBox(3, true)}};
    const auto [flops, bytes] = app::chainWork(chain, cv::Size(10, 20), CV_8UC4);
    EXPECT_DOUBLE_EQ(flops, 2.0 * 9 * 200 * 4);
    EXPECT_DOUBLE_EQ(bytes, 200.0 * 4 * 2);
}

TEST(CompareRunner, CpuTargetRunsTheCpuPath)
{
    const auto report = app::runComparison(image(), kChain, {app::cpuTarget()}, {0, 2, {}, nullptr, nullptr, {}});
    ASSERT_EQ(report.results.size(), 1u);
    EXPECT_TRUE(report.results[0].ok());
    EXPECT_EQ(report.results[0].runMs.size(), 2u);
    EXPECT_DOUBLE_EQ(report.results[0].speedup, 1.0);
    EXPECT_FALSE(report.results[0].roofline.empty());
}

TEST(CompareJson, SaveLoadRoundTrip)
{
    app::SavedComparison saved;
    saved.report = app::runComparison(image(), kChain, {fake("gpu:0", {0}, {3, 4}), fake("cpu", {}, {9})}, {});
    saved.host = "machine-a";
    saved.snapshot.driverVersion = 13000;
    saved.snapshot.devices.push_back({});
    saved.snapshot.devices[0].id = values::DeviceId{0};
    saved.snapshot.devices[0].name = "Fake GPU";
    saved.calibrations["gpu:0"] = {3000, 60000, 9000, "fake"};
    const std::string path = (std::filesystem::temp_directory_path() / "tessera-compare-roundtrip.json").string();
    app::saveComparison(path, saved);
    const app::SavedComparison back = app::loadComparison(path);
    std::remove(path.c_str());
    EXPECT_EQ(back.host, "machine-a");
    EXPECT_EQ(back.snapshot.devices.at(0).name, "Fake GPU");
    EXPECT_EQ(back.calibrations.at("gpu:0"), saved.calibrations.at("gpu:0"));
    ASSERT_EQ(back.report.results.size(), saved.report.results.size());
    for (std::size_t i = 0; i < back.report.results.size(); ++i) {
        const auto& a = saved.report.results[i];
        const auto& b = back.report.results[i];
        EXPECT_EQ(a.key, b.key);
        EXPECT_EQ(a.runMs, b.runMs);
        EXPECT_DOUBLE_EQ(a.medianMs, b.medianMs);
        EXPECT_DOUBLE_EQ(a.speedup, b.speedup);
        EXPECT_DOUBLE_EQ(a.maxAbsError, b.maxAbsError);
        EXPECT_EQ(std::isinf(a.psnr), std::isinf(b.psnr));
        EXPECT_EQ(a.roofline.size(), b.roofline.size());
    }
    EXPECT_THROW(app::loadComparison("/nonexistent/x.json"), std::runtime_error);
}

// Found by fuzz_comparison (tests/fuzz/regressions/fuzz_comparison): a number beyond double's
// range escaped loadComparison as a raw JSON-library exception, and one beyond an int's range
// was cast to int (undefined behaviour). Both are errors naming the file now.
TEST(CompareJson, NumbersOutOfRangeAreErrorsNamingTheFile)
{
    const std::string path = (std::filesystem::temp_directory_path() / "tessera-compare-range.json").string();
    for (const char* text : {R"({"tessera_comparison": 1e999, "results": []})",
                             R"({"tessera_comparison": 1, "image": {"width": 1e300}, "results": []})",
                             R"({"tessera_comparison": 1, "image": {"height": 2.5}, "results": []})",
                             R"({"tessera_comparison": 1, "devices": [{"sms": 99999999999}], "results": []})",
                             R"({"tessera_comparison": 1, "results": [{"key": "gpu:0", "gpus": [-1e20]}]})"}) {
        {
            std::ofstream out(path);
            out << text;
        }
        try {
            app::loadComparison(path);
            ADD_FAILURE() << "loaded " << text;
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
        } catch (...) {
            ADD_FAILURE() << "not a std::runtime_error for " << text;
        }
    }
    std::remove(path.c_str());
}

TEST(CompareRunner, RelativeSpeedsFollowTheFilterRate)
{
    const auto speeds = values::relativeSpeeds({{0, 0, 50, ""}, {0, 0, 100, ""}});
    EXPECT_DOUBLE_EQ(speeds[0], 0.5);
    EXPECT_DOUBLE_EQ(speeds[1], 1.0);
    const auto even = values::relativeSpeeds({{0, 0, 50, ""}, {}});
    EXPECT_DOUBLE_EQ(even[0], 1.0);
    EXPECT_DOUBLE_EQ(values::relativeSpeed({0, 0, 30, ""}, {0, 0, 10, ""}), 3.0);
}

}  // namespace
