// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_devices.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/compare/compare_runner.h"
#include "app/devices/device_scheduler.h"
#include "app/engine/engine.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"
#include "core_app.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/device_info.h"
#include "values/device_selection.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <iostream>
#include <future>
#include <random>

// Every kind of work the app starts, at once, on one scheduler: each finishes with the CPU
// path's exact pixels, and the comparison's timed runs never share the device with the rest.
namespace tessera::app {
namespace {

QCoreApplication& app()
{
    return test::coreApp();
}

cv::Mat randomImage(std::mt19937& random, int type)
{
    cv::Mat image(90 + static_cast<int>(random() % 60), 70 + static_cast<int>(random() % 60), type);
    cv::randu(image, cv::Scalar::all(0), cv::Scalar::all(255));
    return image;
}

/// A batch of every TIFF in `in`, written as TIFF to `out`/results.
BatchJob tiffJob(const test::TempFolder& in, const test::TempFolder& out, const filters::FilterChain& chain)
{
    BatchJob job;
    job.inputs = {in.path().string()};
    job.outputDir = out.file("results");
    job.nameTemplate = "{stem}_out";
    job.format = "tif";
    job.chain = chain;
    return job;
}

bool sharesDevice(const LeaseInterval& a, const LeaseInterval& b)
{
    return std::ranges::any_of(a.request.devices, [&b](values::DeviceId d) {
        return std::ranges::find(b.request.devices, d) != b.request.devices.end();
    });
}

// On the CPU slots (CI) the results equal the CPU path's exactly; on GPUs (the GPU machine) every
// result is within the 1-LSB rounding the GPU contract allows for 8-bit output.
/// One preview, one lease per file of the 12, one exclusive lease for the comparison's target;
/// the exclusive one overlaps nothing on its device.
void expectLeasesOfThree(const std::vector<LeaseInterval>& intervals)
{
    const auto count = [&](LeaseKind kind) {
        return std::ranges::count_if(intervals, [kind](const LeaseInterval& i) { return i.request.kind == kind; });
    };
    EXPECT_EQ(count(LeaseKind::Preview), 1);
    EXPECT_EQ(count(LeaseKind::Batch), 12);
    EXPECT_EQ(count(LeaseKind::Exclusive), 1);
    for (const LeaseInterval& a : intervals) {
        if (a.request.kind != LeaseKind::Exclusive) {
            continue;
        }
        for (const LeaseInterval& b : intervals) {
            if (&a != &b && sharesDevice(a, b)) {
                EXPECT_FALSE(a.begin < b.end && b.begin < a.end)
                    << toString(b.request.kind) << " beside the comparison";
            }
        }
    }
}

void runAllTogether(const values::DeviceSnapshot& devices)
{
    const bool gpu = devices.hasGpu();
    const double tolerance = gpu ? 1.0 : 0.0;
    std::vector<values::DeviceId> gpus;
    for (const values::DeviceInfo& d : devices.devices) {
        gpus.push_back(d.id);
    }
    app();
    const std::uint32_t seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const filters::FilterChain chain{{filters::makeGaussian(1.0, 5), filters::makeBox(3)}};

    auto scheduler = std::make_shared<DeviceScheduler>();
    scheduler->setRecording(true);
    if (gpu) {
        scheduler->adoptDevices(devices);
    }

    test::TempFolder in("shared-in");
    test::TempFolder out("shared-out");
    for (int i = 0; i < 12; ++i) {
        cv::imwrite(in.file("f" + std::to_string(i) + ".tif"), randomImage(random, i % 2 ? CV_8UC3 : CV_8UC1));
    }
    BatchJob job = tiffJob(in, out, chain);
    job.jobs = 2;
    const BatchPlan plan = planBatch(job);
    const std::atomic<bool> never{false};

    const cv::Mat image = randomImage(random, CV_8UC3);
    CompareOptions options;
    options.warmup = 1;
    options.repeats = 3;
    options.scheduler = scheduler.get();

    Engine engine(gpu, nullptr, scheduler);
    std::vector<PreviewResult> previews;
    QObject::connect(&engine, &Engine::previewReady, [&previews](const PreviewResult& r) { previews.push_back(r); });
    engine.setImage(image);

    // All three start before any is done.
    auto batch =
        std::async(std::launch::async, [&] { return runBatch(plan, job, makeProcessors(gpus, *scheduler), never); });
    auto comparison = std::async(std::launch::async, [&] {
        return runComparison(image, chain, {gpu ? gpuTarget(gpus, "GPUs") : cpuTarget()}, options);
    });
    const quint64 id = engine.requestPreview(chain);

    QElapsedTimer timer;
    timer.start();
    while (previews.empty() && timer.elapsed() < 30000) {
        app().processEvents(QEventLoop::AllEvents, 20);
    }
    const cv::Mat want = filters::applyCpu(image, chain);
    ASSERT_EQ(previews.size(), 1u);
    EXPECT_EQ(previews.front().id, id);
    ASSERT_TRUE(previews.front().error.isEmpty()) << previews.front().error.toStdString();
    EXPECT_LE(cv::norm(previews.front().data, want, cv::NORM_INF), tolerance);

    const CompareReport report = comparison.get();
    ASSERT_EQ(report.results.size(), 1u);
    ASSERT_TRUE(report.results.front().ok()) << report.results.front().error;
    EXPECT_LE(report.results.front().maxAbsError, tolerance);
    EXPECT_EQ(report.results.front().runMs.size(), 3u);

    const BatchSummary summary = batch.get();
    ASSERT_EQ(summary.files.size(), 12u);
    EXPECT_EQ(summary.ok, 12);
    for (const FileResult& r : summary.files) {
        SCOPED_TRACE(r.input);
        ASSERT_EQ(r.status, FileStatus::Ok) << r.error;
        EXPECT_LE(cv::norm(readImage(r.output), filters::applyCpu(readImage(r.input), chain), cv::NORM_INF), tolerance);
    }

    expectLeasesOfThree(scheduler->intervals());
}

TEST(SharedDevices, PreviewBatchAndComparisonTogetherAllExact)
{
    runAllTogether(values::DeviceSnapshot{});
}

// The same on every GPU of the machine. Needs a GPU.
TEST(SharedDevices, PreviewBatchAndComparisonTogetherOnTheGpus)
{
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    if (!snapshot.hasGpu()) {
        GTEST_SKIP() << "needs a GPU: " << snapshot.reason;
    }
    runAllTogether(snapshot);
}

// A batch waiting for a device that a calibration holds stops waiting when it is cancelled: its
// files come back cancelled, none half-written.
TEST(SharedDevices, BatchCancelledWhileWaitingForTheDevice)
{
    DeviceScheduler scheduler;
    test::TempFolder in("wait-in");
    test::TempFolder out("wait-out");
    std::mt19937 random(std::random_device{}());
    for (int i = 0; i < 3; ++i) {
        cv::imwrite(in.file("f" + std::to_string(i) + ".tif"), randomImage(random, CV_8UC1));
    }
    BatchJob job = tiffJob(in, out, filters::FilterChain{{filters::makeBox(3)}});
    DeviceLease calibration = scheduler.acquire({{values::DeviceId::cpu()}, LeaseKind::Exclusive, 0, "calibration"});
    std::atomic<bool> cancel{false};
    std::atomic<bool> waited{false};
    auto batch = std::async(std::launch::async, [&] {
        return runBatch(
            planBatch(job), job,
            makeProcessors({}, scheduler, values::Method::Auto, 0, [&](const std::string&) { waited = true; }), cancel);
    });
    QElapsedTimer timer;
    timer.start();
    while (!waited && timer.elapsed() < 10000) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(waited);
    cancel = true;
    const BatchSummary summary = batch.get();
    EXPECT_TRUE(summary.wasCancelled);
    EXPECT_EQ(summary.ok, 0);
    EXPECT_EQ(summary.cancelled, 3);
    EXPECT_TRUE(test::leftovers(job.outputDir).empty());
}

// Previews keep answering while a 200-file batch runs on the same GPU. Prints the preview
// latency alone and during the batch (the number the scheduler exists for; no timing goal here,
// the benchmark holds those). Needs a GPU.
TEST(SharedDevices, PreviewLatencyDuringA200FileBatch)
{
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    if (!snapshot.hasGpu()) {
        GTEST_SKIP() << "needs a GPU: " << snapshot.reason;
    }
    app();
    auto scheduler = std::make_shared<DeviceScheduler>();
    scheduler->adoptDevices(snapshot);
    std::mt19937 random(std::random_device{}());
    const filters::FilterChain chain{{filters::makeGaussian(3.0, 0)}};
    test::TempFolder in("latency-in");
    test::TempFolder out("latency-out");
    cv::Mat file(1536, 2048, CV_8UC3);
    for (int i = 0; i < 200; ++i) {
        cv::randu(file, cv::Scalar::all(0), cv::Scalar::all(255));
        cv::imwrite(in.file("f" + std::to_string(1000 + i) + ".tif"), file);
    }
    BatchJob job = tiffJob(in, out, chain);

    cv::Mat image(2048, 2048, CV_8UC3);
    cv::randu(image, cv::Scalar::all(0), cv::Scalar::all(255));
    Engine engine(true, nullptr, scheduler);
    engine.setDevicePreference(values::DeviceSelection::gpu(values::DeviceId{0}));
    engine.setImage(image);
    std::vector<PreviewResult> previews;
    QObject::connect(&engine, &Engine::previewReady, [&previews](const PreviewResult& r) { previews.push_back(r); });
    const cv::Mat want = filters::applyCpu(image, chain);
    // One preview at a time, as a user dragging a slider sees them: request, wait, repeat.
    const auto preview = [&] {
        QElapsedTimer timer;
        timer.start();
        const std::size_t before = previews.size();
        engine.requestPreview(chain);
        while (previews.size() == before && timer.elapsed() < 60000) {
            app().processEvents(QEventLoop::AllEvents, 1);
        }
        EXPECT_EQ(previews.size(), before + 1);
        EXPECT_TRUE(previews.back().error.isEmpty()) << previews.back().error.toStdString();
        EXPECT_LE(cv::norm(previews.back().data, want, cv::NORM_INF), 1.0);
        return static_cast<double>(timer.nsecsElapsed()) / 1e6;
    };
    const auto describe = [](std::vector<double> ms) {
        std::ranges::sort(ms);
        const auto at = [&ms](double q) {
            return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))];
        };
        return "n " + std::to_string(ms.size()) + ", median " + std::to_string(at(0.5)) + " ms, p95 " +
               std::to_string(at(0.95)) + " ms, max " + std::to_string(ms.back()) + " ms";
    };
    preview();  // uploads the image and builds the plans
    std::vector<double> alone;
    for (int i = 0; i < 20; ++i) {
        alone.push_back(preview());
    }
    std::atomic<bool> never{false};
    QElapsedTimer batchTimer;
    batchTimer.start();
    auto batch = std::async(std::launch::async, [&] {
        return runBatch(planBatch(job), job, makeProcessors({values::DeviceId{0}}, *scheduler), never);
    });
    std::vector<double> during;
    while (batch.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
        during.push_back(preview());
    }
    const BatchSummary summary = batch.get();
    const double batchMs = static_cast<double>(batchTimer.elapsed());
    EXPECT_EQ(summary.ok, 200);
    ASSERT_FALSE(during.empty());
    std::cout << "preview latency alone:        " << describe(alone) << "\n"
              << "preview latency during batch: " << describe(during) << "\n"
              << "batch of 200 files (2048x1536 u8x3): " << batchMs << " ms\n";
}

}  // namespace
}  // namespace tessera::app
