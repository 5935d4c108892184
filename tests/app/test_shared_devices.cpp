#include "app/batch_devices.h"
#include "app/batch_plan.h"
#include "app/batch_runner.h"
#include "app/compare_runner.h"
#include "app/device_scheduler.h"
#include "app/engine.h"
#include "app/image_io.h"
#include "batch_test_data.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <future>
#include <random>

// Every kind of work the app starts, at once, on one scheduler: each finishes with the CPU
// path's exact pixels, and the comparison's timed runs never share the device with the rest.
namespace tessera::app {
namespace {

QCoreApplication& app()
{
    // One per process, whichever test file asks first.
    if (QCoreApplication* existing = QCoreApplication::instance()) {
        return *existing;
    }
    static int argc = 1;
    static char name[] = "tessera_app_tests";
    static char* argv[] = {name, nullptr};
    static QCoreApplication instance(argc, argv);
    return instance;
}

cv::Mat randomImage(std::mt19937& random, int type)
{
    cv::Mat image(90 + static_cast<int>(random() % 60), 70 + static_cast<int>(random() % 60), type);
    cv::randu(image, cv::Scalar::all(0), cv::Scalar::all(255));
    return image;
}

bool sharesDevice(const LeaseInterval& a, const LeaseInterval& b)
{
    return std::ranges::any_of(a.request.devices,
                               [&b](gpu::DeviceId d) { return std::ranges::find(b.request.devices, d) != b.request.devices.end(); });
}

TEST(SharedDevices, PreviewBatchAndComparisonTogetherAllExact)
{
    app();
    const std::uint32_t seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const filters::FilterChain chain{{filters::makeGaussian(1.0, 5), filters::makeBox(3)}};

    auto scheduler = std::make_shared<DeviceScheduler>();
    scheduler->setRecording(true);

    test::TempFolder in("shared-in");
    test::TempFolder out("shared-out");
    for (int i = 0; i < 12; ++i) {
        cv::imwrite(in.file("f" + std::to_string(i) + ".tif"), randomImage(random, i % 2 ? CV_8UC3 : CV_8UC1));
    }
    BatchJob job;
    job.inputs = {in.path().string()};
    job.outputDir = out.file("results");
    job.nameTemplate = "{stem}_out";
    job.format = "tif";
    job.chain = chain;
    job.jobs = 2;
    const BatchPlan plan = planBatch(job);
    const std::atomic<bool> never{false};

    const cv::Mat image = randomImage(random, CV_8UC3);
    CompareOptions options;
    options.warmup = 1;
    options.repeats = 3;
    options.scheduler = scheduler.get();

    Engine engine(false, nullptr, scheduler);
    std::vector<PreviewResult> previews;
    QObject::connect(&engine, &Engine::previewReady, [&previews](const PreviewResult& r) { previews.push_back(r); });
    engine.setImage(image);

    // All three start before any is done.
    auto batch = std::async(std::launch::async, [&] {
        return runBatch(plan, job, makeProcessors({}, *scheduler), never);
    });
    auto comparison = std::async(std::launch::async, [&] {
        return runComparison(image, chain, {cpuTarget()}, options);
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
    EXPECT_EQ(cv::norm(previews.front().data, want, cv::NORM_INF), 0.0);

    const CompareReport report = comparison.get();
    ASSERT_EQ(report.results.size(), 1u);
    ASSERT_TRUE(report.results.front().ok()) << report.results.front().error;
    EXPECT_EQ(report.results.front().maxAbsError, 0.0);
    EXPECT_EQ(report.results.front().runMs.size(), 3u);

    const BatchSummary summary = batch.get();
    ASSERT_EQ(summary.files.size(), 12u);
    EXPECT_EQ(summary.ok, 12);
    for (const FileResult& r : summary.files) {
        SCOPED_TRACE(r.input);
        ASSERT_EQ(r.status, FileStatus::Ok) << r.error;
        EXPECT_EQ(cv::norm(readImage(r.output), filters::applyCpu(readImage(r.input), chain), cv::NORM_INF), 0.0);
    }

    // One preview, one lease per file, one exclusive lease for the comparison's target; the
    // exclusive one overlaps nothing on its device.
    const std::vector<LeaseInterval> intervals = scheduler->intervals();
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
                EXPECT_FALSE(a.begin < b.end && b.begin < a.end) << toString(b.request.kind) << " beside the comparison";
            }
        }
    }
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
    BatchJob job;
    job.inputs = {in.path().string()};
    job.outputDir = out.file("results");
    job.nameTemplate = "{stem}_out";
    job.format = "tif";
    job.chain = filters::FilterChain{{filters::makeBox(3)}};
    DeviceLease calibration = scheduler.acquire({{gpu::DeviceId::cpu()}, LeaseKind::Exclusive, 0, "calibration"});
    std::atomic<bool> cancel{false};
    std::atomic<bool> waited{false};
    auto batch = std::async(std::launch::async, [&] {
        return runBatch(planBatch(job), job,
                        makeProcessors({}, scheduler, gpu::Method::Auto, 0, [&](const std::string&) { waited = true; }),
                        cancel);
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

}  // namespace
}  // namespace tessera::app
