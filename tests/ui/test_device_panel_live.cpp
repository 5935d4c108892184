// SPDX-License-Identifier: Apache-2.0
#include "app/gui/calibration_controller.h"
#include "app/compare/calibration_cache.h"
#include "app/devices/device_scheduler.h"
#include "values/device_info.h"
#include "ui/device_panel.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

using tessera::ui::DevicePanel;
using tessera::values::DeviceCalibration;
using tessera::values::DeviceId;
using tessera::values::DeviceInfo;
using tessera::values::DeviceSnapshot;

constexpr std::uint64_t kGiB = 1ull << 30;

/// Four H200-like GPUs on two NVLink pairs: 0-1 and 2-3 reach each other, nothing else.
DeviceSnapshot fourGpus()
{
    DeviceSnapshot snapshot;
    snapshot.driverVersion = 13010;
    snapshot.runtimeVersion = 13000;
    for (int id = 0; id < 4; ++id) {
        DeviceInfo d;
        d.id = DeviceId{id};
        d.name = "NVIDIA H200";
        d.ccMajor = 9;
        d.smCount = 132;
        d.memoryTotal = 141 * kGiB;
        d.memoryFree = static_cast<std::uint64_t>(120 + id) * kGiB;
        d.l2CacheBytes = 60 << 20;
        d.sharedMemPerBlock = 48 << 10;
        d.sharedMemPerBlockOptin = 227 << 10;
        d.clockKHz = 1980000;
        d.memoryClockKHz = 2619000;
        d.pciBusId = "0000:" + std::to_string(18 + id) + ":00.0";
        d.peerAccess = {false, false, false, false};
        d.peerAccess[static_cast<std::size_t>(id ^ 1)] = true;
        snapshot.devices.push_back(d);
    }
    return snapshot;
}

QString text(const QWidget& panel, const QString& name)
{
    const auto* label = panel.findChild<QLabel*>(name);
    return label == nullptr ? QStringLiteral("<missing %1>").arg(name) : label->text();
}

/// Pictures go to $TESSERA_SCREENSHOT_DIR when set, else to a folder removed afterwards.
QString screenshotDir(const QTemporaryDir& temp)
{
    const QString dir = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR");
    if (dir.isEmpty()) {
        return temp.path();
    }
    QDir().mkpath(dir);
    return dir;
}

class DevicePanelLive : public testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
};

TEST_F(DevicePanelLive, ListsFourGpusWithPeersVersionsAndCalibration)
{
    DevicePanel panel;
    panel.setRefreshInterval(0);
    panel.setSnapshot(fourGpus());
    for (int id = 0; id < 4; ++id) {
        const QString prefix = QStringLiteral("gpu%1").arg(id);
        EXPECT_TRUE(text(panel, prefix + "_memory").contains(QLocale().formattedDataSize(qint64(120 + id) * kGiB, 1)));
        EXPECT_EQ(text(panel, prefix + "_capability"), QStringLiteral("9.0"));
        EXPECT_EQ(text(panel, prefix + "_calibration"), QStringLiteral("not measured"));
        for (int j = 0; j < 4; ++j) {
            const QString cell = text(panel, QStringLiteral("peer_%1_%2").arg(id).arg(j));
            const QString want = id == j ? QStringLiteral("\u00b7")
                                         : (j == (id ^ 1) ? QStringLiteral("\u2713") : QStringLiteral("\u2013"));
            EXPECT_EQ(cell, want) << id << "->" << j;
        }
    }
    EXPECT_TRUE(text(panel, "gpu2_pci").contains(QStringLiteral("0000:20:00.0")));
    EXPECT_TRUE(text(panel, "deviceVersions").contains(QStringLiteral("driver 13.1")));
    EXPECT_TRUE(text(panel, "deviceVersions").contains(QStringLiteral("runtime 13.0")));
    EXPECT_EQ(text(panel, "cpu_calibration"), QStringLiteral("not measured"));

    QSignalSpy measure(&panel, &DevicePanel::measureRequested);
    auto* button = panel.findChild<QPushButton*>(QStringLiteral("gpu1_measure"));
    ASSERT_NE(button, nullptr);
    button->click();
    ASSERT_EQ(measure.count(), 1);
    EXPECT_EQ(measure.front().front().toString(), QStringLiteral("gpu:1"));

    panel.setMeasuring(QStringLiteral("gpu:1"), true);
    EXPECT_FALSE(button->isEnabled());
    panel.setCalibration(QStringLiteral("gpu:1"), {3900, 61000, 9100, "fake"});
    panel.setMeasuring(QStringLiteral("gpu:1"), false);
    EXPECT_TRUE(button->isEnabled());
    const QString shown = text(panel, "gpu1_calibration");
    EXPECT_TRUE(shown.contains(QLocale().toString(3900.0, 'f', 0) + " GB/s")) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QLocale().toString(61000.0, 'f', 0) + " GFLOP/s")) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QLocale().toString(9100.0, 'f', 0) + " Mpixel/s")) << shown.toStdString();
    panel.setMeasuring(QStringLiteral("gpu:2"), false, QStringLiteral("cudaErrorLaunchFailure"));
    EXPECT_TRUE(text(panel, "gpu2_calibration").contains(QStringLiteral("cudaErrorLaunchFailure")));
}

TEST_F(DevicePanelLive, SameDevicesUpdateInPlaceAndKeepCalibration)
{
    DevicePanel panel;
    panel.setRefreshInterval(0);
    DeviceSnapshot snapshot = fourGpus();
    panel.setSnapshot(snapshot);
    panel.setCalibration(QStringLiteral("cpu"), {20, 5, 150, "fake"});
    auto* memory = panel.findChild<QLabel*>(QStringLiteral("gpu0_memory"));
    snapshot.devices[0].memoryFree = 7 * kGiB;
    panel.setSnapshot(snapshot);
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("gpu0_memory")), memory);
    EXPECT_TRUE(memory->text().startsWith(QLocale().formattedDataSize(qint64(7) * kGiB, 1)));
    snapshot.devices.pop_back();
    panel.setSnapshot(snapshot);
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("gpu3_memory")), nullptr);
    EXPECT_TRUE(text(panel, "cpu_calibration").contains(QStringLiteral("Mpixel/s")));
}

TEST_F(DevicePanelLive, NoGpuSaysWhy)
{
    DevicePanel panel;
    DeviceSnapshot none;
    none.reason = "no CUDA-capable device is detected";
    panel.setSnapshot(none);
    const QString reason = text(panel, "deviceReason");
    EXPECT_TRUE(reason.contains(QStringLiteral("no CUDA-capable device is detected")));
    EXPECT_TRUE(reason.contains(QStringLiteral("CPU path")));
    EXPECT_NE(panel.findChild<QPushButton*>(QStringLiteral("cpu_measure")), nullptr);
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("peer_0_1")), nullptr);
}

TEST_F(DevicePanelLive, AsksForFreshDevicesWhileVisibleOnly)
{
    DevicePanel panel;
    panel.setRefreshInterval(30);
    QSignalSpy refresh(&panel, &DevicePanel::refreshRequested);
    QTest::qWait(100);
    EXPECT_EQ(refresh.count(), 0);  // hidden: no polling
    panel.show();
    EXPECT_TRUE(refresh.wait(1000));
    panel.hide();
    refresh.clear();
    QTest::qWait(100);
    EXPECT_EQ(refresh.count(), 0);
}

TEST_F(DevicePanelLive, MeasureRunsOffTheGuiThreadAndIsCached)
{
    DevicePanel panel;
    panel.setRefreshInterval(0);
    std::atomic<int> calls{0};
    tessera::app::DeviceScheduler scheduler;
    tessera::app::CalibrationController controller(panel, scheduler, [&](const QString& key) {
        ++calls;
        if (key == QLatin1String("gpu:3")) {
            throw std::runtime_error("device lost");
        }
        return DeviceCalibration{4000, 60000, key == QLatin1String("cpu") ? 120.0 : 9000.0, "fake"};
    });
    panel.setSnapshot(fourGpus());
    controller.setSnapshot(fourGpus());
    QSignalSpy measured(&controller, &tessera::app::CalibrationController::measured);
    panel.findChild<QPushButton*>(QStringLiteral("gpu0_measure"))->click();
    panel.findChild<QPushButton*>(QStringLiteral("gpu3_measure"))->click();
    panel.findChild<QPushButton*>(QStringLiteral("cpu_measure"))->click();
    for (int i = 0; i < 50 && measured.count() < 3; ++i) {
        measured.wait(100);
    }
    ASSERT_EQ(measured.count(), 3);
    EXPECT_TRUE(text(panel, "gpu0_calibration").contains(QStringLiteral("Mpixel/s")));
    EXPECT_TRUE(text(panel, "gpu3_calibration").contains(QStringLiteral("device lost")));
    EXPECT_EQ(controller.known().size(), 2u);

    // A new panel and controller find the result in the cache without measuring.
    DevicePanel again;
    tessera::app::CalibrationController cached(again, scheduler, [&](const QString&) -> DeviceCalibration {
        ADD_FAILURE() << "measured although cached";
        return {};
    });
    again.setSnapshot(fourGpus());
    cached.setSnapshot(fourGpus());
    EXPECT_TRUE(text(again, "gpu0_calibration").contains(QStringLiteral("GB/s")));
    EXPECT_EQ(text(again, "gpu1_calibration"), QStringLiteral("not measured"));
}

TEST_F(DevicePanelLive, Screenshot)
{
    QTemporaryDir temp;
    DevicePanel panel;
    panel.setRefreshInterval(0);
    panel.setCpuName(QStringLiteral("AMD EPYC 9654 96-Core Processor"));
    panel.setSnapshot(fourGpus());
    for (int id = 0; id < 4; ++id) {
        panel.setCalibration(QStringLiteral("gpu:%1").arg(id),
                             {3950.0 - id * 10, 61200.0 + id * 100, 9400.0 - id * 50, "fake"});
    }
    panel.resize(350, 1800);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto* scroll = panel.findChild<QScrollArea*>(QStringLiteral("deviceScroll"));
    ASSERT_NE(scroll, nullptr);
    const QString path = QDir(screenshotDir(temp)).filePath(QStringLiteral("device-panel.png"));
    EXPECT_TRUE(panel.grab().save(path));
    // The labels fit the dock's width: no horizontal scroll bar.
    EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible());
}

// A measurement waits while a batch uses its GPU (and says so), then has the GPU alone: no
// other lease can be had on it while it measures, and the other GPUs stay free.
TEST_F(DevicePanelLive, MeasurementWaitsForItsGpuAndHasItAlone)
{
    DevicePanel panel;
    panel.setRefreshInterval(0);
    tessera::app::DeviceScheduler scheduler;
    scheduler.setRecording(true);
    const tessera::values::DeviceId gpu1{1};
    std::atomic<bool> othersKeptOff{false};
    std::atomic<bool> otherGpuFree{false};
    tessera::app::CalibrationController controller(panel, scheduler, [&](const QString&) {
        using tessera::app::LeaseKind;
        othersKeptOff = !scheduler.tryAcquire({{gpu1}, LeaseKind::Preview, 0, "preview"}).held() &&
                        !scheduler.tryAcquire({{gpu1}, LeaseKind::Batch, 0, "batch"}).held();
        otherGpuFree = scheduler.tryAcquire({{tessera::values::DeviceId{2}}, LeaseKind::Batch, 0, "batch"}).held();
        return DeviceCalibration{4000, 60000, 9000.0, "fake"};
    });
    panel.setSnapshot(fourGpus());
    controller.setSnapshot(fourGpus());
    QSignalSpy waiting(&controller, &tessera::app::CalibrationController::waiting);
    QSignalSpy measured(&controller, &tessera::app::CalibrationController::measured);
    tessera::app::DeviceLease batch = scheduler.acquire({{gpu1}, tessera::app::LeaseKind::Batch, 0, "batch"});
    panel.findChild<QPushButton*>(QStringLiteral("gpu1_measure"))->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return waiting.count() > 0; }, 5000));
    EXPECT_EQ(waiting.front().at(1).toString(), QStringLiteral("waiting for GPU 1 (batch running)"));
    EXPECT_EQ(measured.count(), 0);
    EXPECT_TRUE(controller.isBusy());
    batch.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return measured.count() == 1; }, 5000));
    EXPECT_TRUE(othersKeptOff);
    EXPECT_TRUE(otherGpuFree);
    EXPECT_TRUE(text(panel, "gpu1_calibration").contains(QStringLiteral("Mpixel/s")));
    const auto intervals = scheduler.intervals();
    const auto calibration = std::ranges::find_if(
        intervals, [](const auto& i) { return i.request.kind == tessera::app::LeaseKind::Exclusive; });
    ASSERT_NE(calibration, intervals.end());
    for (const auto& other : intervals) {
        if (&other != &*calibration && other.request.devices == calibration->request.devices) {
            EXPECT_FALSE(other.begin < calibration->end && calibration->begin < other.end);
        }
    }
}

}  // namespace
