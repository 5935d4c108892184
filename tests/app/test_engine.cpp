// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_scheduler.h"
#include "app/engine/engine.h"
#include "app/gui/preview_status.h"
#include "app/io/image_io.h"
#include "core_app.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/device_info.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <set>
#include <vector>

namespace tessera::app {
namespace {

QCoreApplication& app()
{
    return test::coreApp();
}

/// Processes events until pred holds or the time runs out.
template <typename Pred>
bool waitFor(Pred pred, int ms = 20000)
{
    QElapsedTimer timer;
    timer.start();
    while (!pred() && timer.elapsed() < ms) {
        app().processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

cv::Mat sample()
{
    return readImage(std::string(TESSERA_SAMPLE_DIR) + "/coffee.png");
}

/// An Engine on the CPU path that collects every result it delivers.
struct CpuEngine {
    CpuEngine()
    {
        app();
        QObject::connect(&engine, &Engine::previewReady, [this](const PreviewResult& r) { results.push_back(r); });
    }
    /// Gives the image to the Engine and returns it.
    cv::Mat open(const cv::Mat& image)
    {
        engine.setImage(image);
        return image;
    }
    std::vector<PreviewResult> results;  // declared first: outlives the Engine that fills it
    Engine engine{false};
};

TEST(Engine, PreviewMatchesTheCpuPath)
{
    CpuEngine fixture;
    Engine& engine = fixture.engine;
    std::vector<PreviewResult>& results = fixture.results;
    const cv::Mat image = fixture.open(sample());
    const filters::FilterChain chain{{filters::makeGaussian(2.0, 0)}};
    const quint64 id = engine.requestPreview(chain);
    ASSERT_TRUE(waitFor([&] { return !results.empty(); }));
    const PreviewResult& r = results.back();
    EXPECT_EQ(r.id, id);
    EXPECT_TRUE(r.error.isEmpty()) << r.error.toStdString();
    EXPECT_EQ(r.device, "CPU");
    ASSERT_EQ(r.image.width(), image.cols);
    ASSERT_EQ(r.image.height(), image.rows);
    const cv::Mat want = filters::applyCpu(image, chain);
    EXPECT_EQ(cv::norm(r.data, want, cv::NORM_INF), 0.0);
    EXPECT_GE(r.milliseconds, 0.0);
}

// The time a CPU preview reports is its tiles' filtering; the rest of the run (the first run
// starts threads and allocates) is set-up, reported apart and said in the status when it counts.
TEST(Engine, ACpuPreviewReportsItsFilteringAndItsSetUpApart)
{
    CpuEngine fixture;
    Engine& engine = fixture.engine;
    std::vector<PreviewResult>& results = fixture.results;
    const cv::Mat image = fixture.open(sample());
    engine.requestPreview(filters::FilterChain{{filters::makeGaussian(2.0, 0)}});
    ASSERT_TRUE(waitFor([&] { return !results.empty(); }));
    const PreviewResult& r = results.back();
    ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
    double first = 1e300;
    double last = 0.0;
    for (const values::TimingRecord& t : r.report.records) {
        if (t.device.isCpu() && t.tile >= 0) {
            first = std::min(first, t.beginUs);
            last = std::max(last, t.endUs);
        }
    }
    ASSERT_LT(first, last) << "no CPU tile was recorded";
    EXPECT_DOUBLE_EQ(r.milliseconds, (last - first) / 1000.0);
    EXPECT_LE(r.milliseconds, r.report.wallMs);
    EXPECT_DOUBLE_EQ(r.setupMs, r.report.wallMs - r.milliseconds);

    PreviewResult slow = r;
    slow.milliseconds = 12.0;
    slow.setupMs = 80.0;
    const QString text = previewStatusText(slow, r.region);
    EXPECT_TRUE(text.contains(QStringLiteral("12 ms (+80 ms set-up)"))) << text.toStdString();
    slow.setupMs = 1.0;
    EXPECT_FALSE(previewStatusText(slow, r.region).contains(QStringLiteral("set-up")));
}

TEST(Engine, RegionPreviewCoversOnlyTheRegion)
{
    CpuEngine fixture;
    Engine& engine = fixture.engine;
    std::vector<PreviewResult>& results = fixture.results;
    const cv::Mat image = fixture.open(sample());
    const filters::FilterChain chain{{filters::makeBox(7), filters::makeSharpen(1.0)}};
    // Inside, across the right edge (clipped), and wholly outside (an error, no crash).
    const values::Rect inside{40, 30, 120, 70};
    const values::Rect across{image.cols - 50, 10, 100, 40};
    const values::Rect outside{image.cols + 10, 0, 20, 20};
    // One at a time: the newest request wins, so queued ones would be dropped.
    for (const values::Rect& region : {inside, across, outside}) {
        const std::size_t before = results.size();
        engine.requestPreview(chain, region);
        ASSERT_TRUE(waitFor([&] { return results.size() == before + 1; }));
    }
    const cv::Mat whole = filters::applyCpu(image, chain);
    // Clipped by hand: 50 columns are left of the right edge.
    const values::Rect clipped{image.cols - 50, 10, 50, 40};
    for (int i = 0; i < 2; ++i) {
        const PreviewResult& r = results[static_cast<std::size_t>(i)];
        const values::Rect want = i == 0 ? inside : clipped;
        ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
        EXPECT_EQ(r.region, want);
        EXPECT_EQ(r.image.size(), QSize(want.width, want.height));
        const cv::Rect cvRect(want.x, want.y, want.width, want.height);
        EXPECT_EQ(cv::norm(r.data, whole(cvRect), cv::NORM_INF), 0.0) << "request " << i;
    }
    EXPECT_FALSE(results[2].error.isEmpty());
    EXPECT_TRUE(results[2].image.isNull());
}

TEST(Engine, NewestOfRapidRequestsIsShownLast)
{
    CpuEngine fixture;
    Engine& engine = fixture.engine;
    std::vector<PreviewResult>& results = fixture.results;
    const cv::Mat image = fixture.open(sample());
    quint64 last = 0;
    filters::FilterChain lastChain;
    for (int i = 1; i <= 20; ++i) {
        lastChain = filters::FilterChain{{filters::makeBox(2 * i + 1, true)}};
        last = engine.requestPreview(lastChain);
    }
    ASSERT_TRUE(waitFor([&] { return !results.empty() && results.back().id == last; }));
    // Results come in request order, superseded requests are skipped, and the last one shown is
    // the newest request with its own pixels.
    for (size_t i = 1; i < results.size(); ++i) {
        EXPECT_LT(results[i - 1].id, results[i].id);
    }
    EXPECT_LE(results.size(), 20u);
    const cv::Mat want = filters::applyCpu(image, lastChain);
    EXPECT_EQ(cv::norm(results.back().data, want, cv::NORM_INF), 0.0);
}

TEST(Engine, RequestWithoutImageReportsAnError)
{
    CpuEngine fixture;
    Engine& engine = fixture.engine;
    std::vector<PreviewResult>& results = fixture.results;
    engine.requestPreview(filters::FilterChain{{filters::makeBox(3, true)}});
    ASSERT_TRUE(waitFor([&] { return !results.empty(); }));
    EXPECT_FALSE(results.back().error.isEmpty());
    EXPECT_TRUE(results.back().image.isNull());
}

TEST(Engine, GpuPreferredFallsBackToTheCpuWithAReason)
{
    app();
    Engine engine(true);
    std::vector<PreviewResult> results;
    QObject::connect(&engine, &Engine::previewReady, [&](const PreviewResult& r) { results.push_back(r); });
    const cv::Mat image = sample();
    engine.setImage(image);
    const filters::FilterChain chain{{filters::makeSharpen(1.0)}};
    engine.requestPreview(chain);
    ASSERT_TRUE(waitFor([&] { return !results.empty(); }));
    const PreviewResult& r = results.back();
    ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
    if (r.device == "CPU") {
        EXPECT_FALSE(r.note.isEmpty()) << "the CPU ran although a GPU was preferred: say why";
    } else {
        EXPECT_TRUE(r.device.startsWith("GPU"));
        EXPECT_FALSE(r.methods.isEmpty());
    }
    EXPECT_LE(cv::norm(r.data, filters::applyCpu(image, chain), cv::NORM_INF), 1.0);
}

// Auto previews spread over the GPUs the Devices dock leaves enabled: every enabled GPU shows up
// in the preview's timing records, and a GPU switched off is gone from the next preview's.
// Needs two GPUs or more; the CPU path is what runs elsewhere.
TEST(Engine, ADisabledGpuLeavesTheNextPreviewsTimingRecords)
{
    const values::DeviceSnapshot snap = gpu::enumerateDevices();
    if (snap.devices.size() < 2) {
        GTEST_SKIP() << "needs two GPUs or more; this machine has " << snap.devices.size()
                     << (snap.hasGpu() ? "" : " (" + snap.reason + ")");
    }
    app();
    Engine engine(true);
    std::vector<PreviewResult> results;
    QObject::connect(&engine, &Engine::previewReady, [&](const PreviewResult& r) { results.push_back(r); });
    const cv::Mat image = sample();
    engine.setImage(image);
    std::vector<values::DeviceId> all;
    for (const auto& d : snap.devices) {
        all.push_back(d.id);
    }
    const filters::FilterChain chain{{filters::makeGaussian(2.0, 0)}};
    const auto devicesOf = [](const PreviewResult& r) {
        std::set<values::DeviceId> ids;
        for (const auto& rec : r.timings) {
            ids.insert(values::DeviceId{rec.device});
        }
        return ids;
    };
    const auto preview = [&](const std::vector<values::DeviceId>& enabled) {
        values::DeviceSpeeds alike;
        for (const values::DeviceId id : enabled) {
            alike.emplace_back(id, 1.0);
        }
        engine.setDevicePreference(values::DeviceSelection::automatic(), alike);
        const std::size_t before = results.size();
        engine.requestPreview(chain);
        EXPECT_TRUE(waitFor([&] { return results.size() == before + 1; }));
        return results.back();
    };
    const PreviewResult everyGpu = preview(all);
    ASSERT_TRUE(everyGpu.error.isEmpty()) << everyGpu.error.toStdString();
    EXPECT_EQ(devicesOf(everyGpu), std::set<values::DeviceId>(all.begin(), all.end()));
    EXPECT_LE(cv::norm(everyGpu.data, filters::applyCpu(image, chain), cv::NORM_INF), 1.0);

    std::vector<values::DeviceId> without = all;
    without.erase(without.begin() + 1);  // the second GPU switched off
    const PreviewResult fewer = preview(without);
    ASSERT_TRUE(fewer.error.isEmpty()) << fewer.error.toStdString();
    EXPECT_EQ(devicesOf(fewer), std::set<values::DeviceId>(without.begin(), without.end()));
    EXPECT_EQ(devicesOf(fewer).count(all[1]), 0u);
    EXPECT_LE(cv::norm(fewer.data, filters::applyCpu(image, chain), cv::NORM_INF), 1.0);
}

}  // namespace
}  // namespace tessera::app

namespace tessera::app {
namespace {

// The result arrives through a future as well, with no event loop running, whether the worker
// finishes before or after the future is asked for.
TEST(Engine, ResultOfGivesTheResultWithoutAnEventLoop)
{
    CpuEngine fixture;
    const cv::Mat image = fixture.open(sample());
    const filters::FilterChain chain{{filters::makeBox(5)}};
    const quint64 first = fixture.engine.requestPreview(chain);
    const PreviewResult late = fixture.engine.resultOf(first).result();
    EXPECT_EQ(late.id, first);
    EXPECT_EQ(cv::norm(late.data, filters::applyCpu(image, chain), cv::NORM_INF), 0.0);
    // Asked again once the worker is done: answered at once.
    const PreviewResult again = fixture.engine.resultOf(first).result();
    EXPECT_EQ(again.id, first);
}

// A preview waits while a calibration holds its device, says so, and runs once it is free.
TEST(Engine, PreviewWaitsForAnExclusiveLeaseAndSaysWhy)
{
    CpuEngine fixture;
    const cv::Mat image = fixture.open(sample());
    QStringList waits;
    QObject::connect(&fixture.engine, &Engine::previewWaiting, [&waits](const QString& why) { waits << why; });
    DeviceLease calibration =
        fixture.engine.scheduler().acquire({{values::DeviceId::cpu()}, LeaseKind::Exclusive, 0, "calibration"});
    const filters::FilterChain chain{{filters::makeGaussian(1.5, 0)}};
    fixture.engine.requestPreview(chain);
    ASSERT_TRUE(waitFor([&] { return !waits.isEmpty(); }));
    EXPECT_EQ(waits.front(), QStringLiteral("waiting for CPU (calibration running)"));
    QThread::msleep(30);  // long enough for the result to say it waited
    app().processEvents();
    EXPECT_TRUE(fixture.results.empty());
    calibration.release();
    ASSERT_TRUE(waitFor([&] { return !fixture.results.empty(); }));
    EXPECT_TRUE(fixture.results.back().note.startsWith(QStringLiteral("waited")))
        << fixture.results.back().note.toStdString();
    EXPECT_EQ(cv::norm(fixture.results.back().data, filters::applyCpu(image, chain), cv::NORM_INF), 0.0);
}

}  // namespace
}  // namespace tessera::app
