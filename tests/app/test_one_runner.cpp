// SPDX-License-Identifier: Apache-2.0
// One chain through the front ends a C++ process drives: the window's Engine, the comparison
// and `tessera-cli apply` (the Python module's side is python/tests/test_one_runner.py). They
// run the same pipeline, so they give the same pixels and a report of the same shape.

#include "app/compare/compare_runner.h"
#include "app/engine/engine.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"
#include "core_app.h"
#include "filters/factories.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "values/run_report_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include <set>
#include <string>

namespace tessera::app {
namespace {

using test::TempFolder;

filters::FilterChain theChain()
{
    return filters::FilterChain{{filters::makeGaussian(1.7), filters::makeSharpen(0.8)}};
}

constexpr const char* kChainOptions = "--filter gaussian --param sigma=1.7 --filter sharpen --param amount=0.8";

cv::Mat photo()
{
    cv::Mat img(97, 131, CV_8UC3);
    cv::RNG rng(41);
    rng.fill(img, cv::RNG::UNIFORM, 0, 256);
    return img;
}

std::set<std::string> keysOf(const nlohmann::json& object)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items()) {
        keys.insert(key);
    }
    return keys;
}

TEST(OneRunner, EngineComparisonAndApplyGiveTheSamePixelsAndReportShape)
{
    test::coreApp();
    const cv::Mat image = photo();
    const filters::FilterChain chain = theChain();

    // The CPU path as the pipeline runs it: what every front end must give on the CPU.
    gpu::RunOptions cpu;
    cpu.deviceSlots = gpu::cpuSlots();
    values::RunReport streamedReport;
    const cv::Mat want = gpu::runStreamed(image, chain, cpu, &streamedReport);

    // The window's engine.
    Engine engine(false);
    engine.setImage(image);
    const PreviewResult preview = engine.resultOf(engine.requestPreview(chain)).result();
    ASSERT_TRUE(preview.error.isEmpty()) << preview.error.toStdString();
    EXPECT_EQ(cv::norm(preview.data, want, cv::NORM_INF), 0.0);

    // The comparison: its CPU target runs the pipeline's CPU slot.
    CompareOptions options;
    options.warmup = 0;
    options.repeats = 1;
    const CompareReport compared = runComparison(image, chain, {cpuTarget()}, options);
    ASSERT_EQ(compared.results.size(), 1u);
    const TargetResult& cpuResult = compared.results.front();
    ASSERT_TRUE(cpuResult.ok()) << cpuResult.error;
    EXPECT_EQ(cpuResult.maxAbsError, 0.0);

    // tessera-cli apply with its JSON report.
    const TempFolder dir("one-runner");
    const std::string in = dir.file("photo.tif");
    const std::string out = dir.file("applied.tif");
    writeImage(in, image);
    const test::CliRun run = test::cli(dir, "apply " + test::quoted(in) + " -o " + test::quoted(out) +
                                                " --device cpu --json " + kChainOptions);
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(cv::norm(readImage(out), want, cv::NORM_INF), 0.0);
    const nlohmann::json cliRun = nlohmann::json::parse(run.out).at("run");

    // One report shape: every front end's report has the same fields, and says the same about
    // where the work ran and how each step was done.
    const nlohmann::json fromEngine = nlohmann::json::parse(values::runReportJson(preview.report));
    const nlohmann::json fromComparison = nlohmann::json::parse(values::runReportJson(cpuResult.lastRun));
    const nlohmann::json fromPipeline = nlohmann::json::parse(values::runReportJson(streamedReport));
    EXPECT_EQ(keysOf(cliRun), keysOf(fromPipeline));
    EXPECT_EQ(keysOf(fromEngine), keysOf(fromPipeline));
    EXPECT_EQ(keysOf(fromComparison), keysOf(fromPipeline));
    for (const nlohmann::json* report : {&cliRun, &fromEngine, &fromComparison}) {
        EXPECT_EQ(report->at("devices"), nlohmann::json::array({"cpu"})) << report->dump();
        EXPECT_EQ(report->at("step_methods"), fromPipeline.at("step_methods")) << report->dump();
        EXPECT_EQ(report->at("fallback"), fromPipeline.at("fallback")) << report->dump();
        EXPECT_FALSE(report->at("records").empty()) << report->dump();
    }
}

// On a machine with GPUs the comparison's GPU targets and the engine's bands run the same
// pipeline: their pixels match the CPU path within the rounding of an 8-bit output.
TEST(OneRunner, GpuTargetsMatchTheCpuPathWhereThereAreGpus)
{
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    if (!snapshot.hasGpu()) {
        GTEST_SKIP() << "no GPU here: " << snapshot.reason;
    }
    test::coreApp();
    const cv::Mat image = photo();
    const filters::FilterChain chain = theChain();
    CompareOptions options;
    options.warmup = 0;
    options.repeats = 1;
    const CompareReport compared = runComparison(image, chain, defaultTargets(snapshot, {}), options);
    for (const TargetResult& r : compared.results) {
        ASSERT_TRUE(r.ok()) << r.key << ": " << r.error;
        EXPECT_LE(r.maxAbsError, 1.0) << r.key;
        const nlohmann::json report = nlohmann::json::parse(values::runReportJson(r.lastRun));
        EXPECT_FALSE(report.at("devices").empty()) << r.key;
    }
    Engine engine(true);
    engine.setImage(image);
    const PreviewResult preview = engine.resultOf(engine.requestPreview(chain)).result();
    ASSERT_TRUE(preview.error.isEmpty()) << preview.error.toStdString();
    gpu::RunOptions cpu;
    cpu.deviceSlots = gpu::cpuSlots();
    EXPECT_LE(cv::norm(preview.data, gpu::runStreamed(image, chain, cpu), cv::NORM_INF), 1.0);
    EXPECT_NE(nlohmann::json::parse(values::runReportJson(preview.report)).at("devices"),
              nlohmann::json::array({"cpu"}));
}

}  // namespace
}  // namespace tessera::app
