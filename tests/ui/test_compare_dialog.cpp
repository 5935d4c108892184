// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/gui/compare_controller.h"
#include "app/compare/compare_runner.h"
#include "app/devices/device_scheduler.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "ui/compare_dialog.h"
#include "ui/roofline_chart.h"
#include "ui/throughput_chart.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <opencv2/core.hpp>

#include <cmath>
#include <thread>

namespace {

using namespace tessera;

const filters::FilterChain kChain{{filters::makeGaussian(2.0, 0)}};

cv::Mat testImage(int side)
{
    cv::Mat m(side, side, CV_8UC4);
    cv::randu(m, 0, 256);
    return m;
}

/// A fake GPU target: the CPU result (with a patch of off-by-one pixels when noisy), run times
/// ms around a median, kernels as a separable pass would report them.
app::CompareTarget fakeGpu(std::vector<values::DeviceId> gpus, double ms, bool noisy = false, int sleepMs = 0)
{
    const std::string label =
        gpus.size() == 1 ? values::describe(gpus[0]) + " (NVIDIA H200)" : std::to_string(gpus.size()) + " GPUs";
    app::CompareTarget t = app::gpuTarget(gpus, label);
    auto turn = std::make_shared<int>(0);
    t.run = [gpus, ms, noisy, sleepMs, turn](const cv::Mat& src, const filters::FilterChain& chain) {
        if (sleepMs > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
        }
        app::TargetRun run;
        run.output = filters::applyCpu(src, chain);
        if (noisy) {
            cv::Mat patch = run.output(cv::Rect(src.cols / 4, src.rows / 3, src.cols / 5, src.rows / 6));
            cv::add(patch, cv::Scalar::all(1), patch);
        }
        run.wallMs = ms * (1.0 + 0.05 * ((*turn)++ % 3 - 1));
        const auto [flops, bytes] = app::chainWork(chain, src.size(), src.type(), {"separable"});
        for (const values::DeviceId g : gpus) {
            run.kernels.push_back(
                {g, "separable", run.wallMs * 0.8, flops / double(gpus.size()), bytes / double(gpus.size())});
        }
        return run;
    };
    return t;
}

app::CompareSetup fourGpuSetup(int sleepMs = 0)
{
    app::CompareSetup s;
    for (int id = 0; id < 4; ++id) {
        values::DeviceInfo d;
        d.id = values::DeviceId{id};
        d.name = "NVIDIA H200";
        s.snapshot.devices.push_back(d);
        s.targets.push_back(fakeGpu({d.id}, 0.125 + 0.003 * id, false, sleepMs));
        s.calibrations["gpu:" + std::to_string(id)] = {3900, 61000, 9000, "fake"};
    }
    const std::vector<values::DeviceId> all{values::DeviceId{0}, values::DeviceId{1}, values::DeviceId{2},
                                            values::DeviceId{3}};
    s.targets.push_back(fakeGpu(all, 0.036, true, sleepMs));
    s.targets.push_back(app::cpuTarget());
    s.calibrations["cpu"] = {12, 400, 150, "fake"};
    return s;
}

QString outputDir(const QTemporaryDir& temp)
{
    const QString dir = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR");
    if (dir.isEmpty()) {
        return temp.path();
    }
    QDir().mkpath(dir);
    return dir;
}

class CompareDialogTest : public testing::Test {
protected:
    void start(std::function<app::CompareSetup()> setup, cv::Mat image)
    {
        image_ = std::move(image);
        controller_ = std::make_unique<app::CompareController>(
            dialog_, scheduler_, [this] { return image_; }, [] { return kChain; }, std::move(setup));
    }

    bool runAndWait(int warmup = 1, int repeats = 3)
    {
        dialog_.findChild<QSpinBox*>(QStringLiteral("compareWarmup"))->setValue(warmup);
        dialog_.findChild<QSpinBox*>(QStringLiteral("compareRepeats"))->setValue(repeats);
        QSignalSpy finished(controller_.get(), &app::CompareController::finished);
        dialog_.findChild<QPushButton*>(QStringLiteral("compareRun"))->click();
        for (int i = 0; i < 300 && finished.isEmpty(); ++i) {
            finished.wait(100);
        }
        return !finished.isEmpty();
    }

    const ui::ThroughputModel& bars() const
    {
        return dialog_.findChild<ui::ThroughputChart*>(QStringLiteral("compareThroughputChart"))->model();
    }

    /// The median of the bar of category in set, or NaN when there is no such bar.
    double barValue(int category, int set) const
    {
        for (const ui::ThroughputBar& b : bars().bars) {
            if (b.category == category && b.set == set) {
                return b.median;
            }
        }
        return std::nan("");
    }

    ui::CompareDialog dialog_;
    app::DeviceScheduler scheduler_;
    cv::Mat image_;
    std::unique_ptr<app::CompareController> controller_;
};

TEST_F(CompareDialogTest, CpuOnlyRun)
{
    start(
        [] {
            app::CompareSetup s;
            s.targets.push_back(app::cpuTarget());
            return s;
        },
        testImage(96));
    ASSERT_TRUE(runAndWait(0, 2));
    const auto& report = controller_->lastReport();
    ASSERT_EQ(report.results.size(), 1u);
    EXPECT_TRUE(report.results[0].ok());
    auto* table = dialog_.findChild<QTableWidget*>(QStringLiteral("compareTable"));
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("CPU"));
    // Alone, the CPU path is not compared with itself: it is the reference, and the dialog says
    // there is no GPU to compare it with.
    EXPECT_EQ(table->item(0, 4)->text(), QStringLiteral("\u2013"));
    EXPECT_EQ(table->item(0, 6)->text(), QStringLiteral("reference"));
    EXPECT_EQ(table->item(0, 7)->text(), QStringLiteral("reference"));
    table->selectRow(0);
    bool said = false;
    for (const QLabel* label : dialog_.findChildren<QLabel*>()) {
        said = said || label->text().startsWith(QStringLiteral("No GPU on this machine"));
    }
    EXPECT_TRUE(said);
}

// A comparison waits while a batch uses its device, and the dialog says so; then it times the
// device alone and gives the CPU path's exact pixels.
TEST_F(CompareDialogTest, WaitsForABatchOnItsDeviceAndSaysSo)
{
    start(
        [] {
            app::CompareSetup s;
            s.targets.push_back(app::cpuTarget());
            return s;
        },
        testImage(96));
    scheduler_.setRecording(true);
    app::DeviceLease batch = scheduler_.acquire({{values::DeviceId::cpu()}, app::LeaseKind::Batch, 0, "batch"});
    QSignalSpy finished(controller_.get(), &app::CompareController::finished);
    dialog_.findChild<QPushButton*>(QStringLiteral("compareRun"))->click();
    auto* status = dialog_.findChild<QLabel*>(QStringLiteral("compareStatus"));
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return status->text() == QStringLiteral("waiting for CPU (batch running)"); }, 5000))
        << status->text().toStdString();
    EXPECT_TRUE(controller_->isRunning());
    EXPECT_TRUE(finished.isEmpty());
    batch.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
    ASSERT_EQ(controller_->lastReport().results.size(), 1u);
    EXPECT_TRUE(controller_->lastReport().results[0].ok());
    EXPECT_EQ(controller_->lastReport().results[0].maxAbsError, 0.0);
    const auto intervals = scheduler_.intervals();
    ASSERT_EQ(intervals.size(), 2u);
    EXPECT_EQ(intervals[1].request.kind, app::LeaseKind::Exclusive);
    EXPECT_GT(intervals[1].begin, intervals[0].end);
}

TEST_F(CompareDialogTest, FakeGpusTableAndBarsAgreeWithResults)
{
    start([] { return fourGpuSetup(); }, testImage(256));
    auto* list = dialog_.findChild<QListWidget*>(QStringLiteral("compareTargets"));
    ASSERT_EQ(list->count(), 6);
    ASSERT_TRUE(runAndWait());
    const auto& report = controller_->lastReport();
    ASSERT_EQ(report.results.size(), 6u);
    auto* table = dialog_.findChild<QTableWidget*>(QStringLiteral("compareTable"));
    ASSERT_EQ(table->rowCount(), 6);
    ASSERT_EQ(bars().setTitles.size(), 1);
    ASSERT_EQ(bars().categories.size(), 6);
    for (int i = 0; i < 6; ++i) {
        const auto& r = report.results[static_cast<std::size_t>(i)];
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(table->item(i, 0)->text().toStdString(), r.label);
        const int decimals = r.medianMs < 1.0 ? 3 : r.medianMs < 10.0 ? 2 : 1;
        EXPECT_EQ(table->item(i, 1)->text(), QLocale().toString(r.medianMs, 'f', decimals));
        EXPECT_EQ(table->item(i, 3)->text(), QLocale().toString(r.mpixS, 'f', 1));
        EXPECT_DOUBLE_EQ(barValue(i, 0), r.mpixS);
    }
    const auto& all = report.results[4];
    EXPECT_NEAR(all.speedup, 0.125 / 0.036, 1e-9);
    EXPECT_EQ(table->item(4, 4)->text(), QStringLiteral("%1\u00d7").arg(QLocale().toString(all.speedup, 'f', 2)));
    EXPECT_EQ(table->item(4, 5)->text(), QStringLiteral("%1 %").arg(QLocale().toString(all.efficiency * 100, 'f', 0)));
    EXPECT_DOUBLE_EQ(all.maxAbsError, 1.0);
    EXPECT_EQ(table->item(4, 6)->text(), QStringLiteral("1"));
    // Selecting the noisy target shows its error map.
    table->selectRow(4);
    auto* heat = dialog_.findChild<QLabel*>(QStringLiteral("compareHeatMap"));
    EXPECT_FALSE(heat->pixmap().isNull());
    // Roofline: log axes over whole decades, one point series per device model and method.
    const ui::RooflineModel& roof =
        dialog_.findChild<ui::RooflineChart*>(QStringLiteral("compareRooflineChart"))->model();
    for (const double end : {roof.xMin, roof.xMax, roof.yMin, roof.yMax}) {
        EXPECT_DOUBLE_EQ(std::log10(end), std::round(std::log10(end))) << end;
    }
    EXPECT_LT(roof.xMin, roof.xMax);
    EXPECT_LT(roof.yMin, roof.yMax);
    ASSERT_EQ(roof.marks.size(), 2);  // "GPU 0-3 separable" and "CPU"
    EXPECT_EQ(roof.marks[0].name, QStringLiteral("GPU 0\u20133 separable"));
    EXPECT_EQ(roof.marks[1].name, QStringLiteral("CPU"));
    EXPECT_EQ(roof.roofs.size(), 2);
}

TEST_F(CompareDialogTest, CancelStopsTheRun)
{
    start([] { return fourGpuSetup(30); }, testImage(64));
    dialog_.findChild<QSpinBox*>(QStringLiteral("compareRepeats"))->setValue(200);
    QSignalSpy finished(controller_.get(), &app::CompareController::finished);
    dialog_.findChild<QPushButton*>(QStringLiteral("compareRun"))->click();
    EXPECT_TRUE(controller_->isRunning());
    auto* cancel = dialog_.findChild<QPushButton*>(QStringLiteral("compareCancel"));
    EXPECT_TRUE(cancel->isEnabled());
    QTest::qWait(100);
    cancel->click();
    EXPECT_TRUE(finished.wait(5000));
    EXPECT_FALSE(controller_->isRunning());
    EXPECT_TRUE(controller_->lastReport().results.empty());
    EXPECT_TRUE(
        dialog_.findChild<QLabel*>(QStringLiteral("compareStatus"))->text().contains(QStringLiteral("Cancelled")));
    EXPECT_TRUE(dialog_.findChild<QPushButton*>(QStringLiteral("compareRun"))->isEnabled());
}

TEST_F(CompareDialogTest, SaveLoadRoundTripAndScreenshot)
{
    start([] { return fourGpuSetup(); }, testImage(512));
    ASSERT_TRUE(runAndWait());
    QTemporaryDir temp;
    const QString path = QDir(temp.path()).filePath(QStringLiteral("run.json"));
    controller_->save(path);
    controller_->load(path);
    const ui::CompareResults& now = dialog_.results();
    const ui::CompareResults& loaded = dialog_.loadedResults();
    ASSERT_EQ(loaded.rows.size(), now.rows.size());
    for (int i = 0; i < now.rows.size(); ++i) {
        EXPECT_EQ(loaded.rows[i].key, now.rows[i].key);
        EXPECT_DOUBLE_EQ(loaded.rows[i].medianMs, now.rows[i].medianMs);
        EXPECT_DOUBLE_EQ(loaded.rows[i].mpixS, now.rows[i].mpixS);
        EXPECT_DOUBLE_EQ(loaded.rows[i].speedup, now.rows[i].speedup);
        EXPECT_DOUBLE_EQ(loaded.rows[i].maxError, now.rows[i].maxError);
    }
    ASSERT_EQ(bars().setTitles.size(), 2);
    for (int i = 0; i < now.rows.size(); ++i) {
        EXPECT_DOUBLE_EQ(barValue(i, 1), now.rows[i].mpixS);
    }

    dialog_.findChild<QTableWidget*>(QStringLiteral("compareTable"))->selectRow(4);
    dialog_.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog_));
    QTest::qWait(50);
    const QString shot = QDir(outputDir(temp)).filePath(QStringLiteral("compare-dialog.png"));
    EXPECT_TRUE(dialog_.grab().save(shot));
}

using CompareFromWindow = test::WindowFixture;

TEST_F(CompareFromWindow, ToolsMenuOpensTheDialogOnTheOpenImage)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/camera.png"));
    window_.findChild<QAction*>(QStringLiteral("actionCompareDevices"))->trigger();
    auto* dialog = window_.findChild<ui::CompareDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->checkedTargets().contains(QStringLiteral("cpu")));
    ASSERT_NE(controller_.compareController(), nullptr);
    // No filter enabled: Run says so instead of timing nothing.
    QSignalSpy finished(controller_.compareController(), &app::CompareController::finished);
    dialog->findChild<QPushButton*>(QStringLiteral("compareRun"))->click();
    EXPECT_EQ(finished.count(), 1);
    EXPECT_TRUE(dialog->findChild<QLabel*>(QStringLiteral("compareStatus"))->text().contains(QStringLiteral("filter")));
    dialog->close();
}

}  // namespace
