// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "tessera/gpu/device_info.h"
#include "ui/device_panel.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QThread>

namespace {

using tessera::ui::DevicePanel;
using tessera::values::DeviceId;
using tessera::values::DeviceInfo;
using tessera::values::DeviceSnapshot;

constexpr std::uint64_t kGiB = 1ull << 30;

/// Four made-up GPUs: 0 and 1 reach each other, 2 reaches 3 only, 3 reaches nobody.
DeviceSnapshot fourGpus()
{
    DeviceSnapshot snapshot;
    snapshot.driverVersion = 13010;
    snapshot.runtimeVersion = 13000;
    const std::vector<std::vector<bool>> peers{{false, true, false, false},
                                               {true, false, false, false},
                                               {false, false, false, true},
                                               {false, false, false, false}};
    for (int id = 0; id < 4; ++id) {
        DeviceInfo device;
        device.id = DeviceId{id};
        device.name = "Fake Tensor " + std::to_string(100 + id);
        device.ccMajor = 9;
        device.ccMinor = id;
        device.smCount = 100 + id;
        device.memoryTotal = 80 * kGiB;
        device.memoryFree = static_cast<std::uint64_t>(10 + id) * kGiB;
        device.l2CacheBytes = 50 << 20;
        device.sharedMemPerBlock = 48 << 10;
        device.sharedMemPerBlockOptin = 227 << 10;
        device.clockKHz = 1980000;
        device.memoryClockKHz = 2619000;
        device.pciBusId = "0000:1" + std::to_string(id) + ":00.0";
        device.peerAccess = peers[static_cast<std::size_t>(id)];
        snapshot.devices.push_back(device);
    }
    return snapshot;
}

class DevicePanelTest : public testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }

    QString text(const DevicePanel& panel, const QString& name) const
    {
        const auto* label = panel.findChild<QLabel*>(name);
        return label == nullptr ? QStringLiteral("<no %1>").arg(name) : label->text();
    }
    QCheckBox* check(const DevicePanel& panel, const char* key) const
    {
        return panel.findChild<QCheckBox*>(QStringLiteral("deviceCheck_%1").arg(QLatin1String(key)));
    }
};

TEST_F(DevicePanelTest, ListsEveryGpuOfTheSnapshotAndTheCpu)
{
    DevicePanel panel;
    panel.setSnapshot(fourGpus());
    // Four GPUs, the CPU, and the peer access grid that several GPUs add.
    EXPECT_EQ(panel.findChildren<QGroupBox*>().size(), 6);
    EXPECT_NE(panel.findChild<QGroupBox*>(QStringLiteral("devicePeers")), nullptr);
    for (int id = 0; id < 4; ++id) {
        const auto* box = panel.findChild<QGroupBox*>(QStringLiteral("deviceSection_gpu%1").arg(id));
        ASSERT_NE(box, nullptr) << id;
        EXPECT_EQ(box->title(), QStringLiteral("GPU %1: Fake Tensor %2").arg(id).arg(100 + id));
        const QString prefix = QStringLiteral("gpu%1_").arg(id);
        EXPECT_EQ(text(panel, prefix + QStringLiteral("capability")), QStringLiteral("9.%1").arg(id));
        EXPECT_EQ(text(panel, prefix + QStringLiteral("sms")), QString::number(100 + id));
        EXPECT_EQ(text(panel, prefix + QStringLiteral("pci")), QStringLiteral("0000:1%1:00.0").arg(id));
        EXPECT_TRUE(text(panel, prefix + QStringLiteral("memory"))
                        .startsWith(QStringLiteral("%1.0 GiB free of 80.0 GiB").arg(10 + id)))
            << text(panel, prefix + QStringLiteral("memory")).toStdString();
        EXPECT_EQ(text(panel, prefix + QStringLiteral("clocks")), QStringLiteral("SM 1.98 GHz, memory 2.62 GHz"));
        EXPECT_EQ(text(panel, prefix + QStringLiteral("l2")), QStringLiteral("50.0 MiB"));
        EXPECT_EQ(text(panel, prefix + QStringLiteral("shared")),
                  QStringLiteral("48.0 KiB per block (227.0 KiB opt-in)"));
        ASSERT_NE(check(panel, QStringLiteral("gpu%1").arg(id).toLatin1().constData()), nullptr) << id;
    }
    EXPECT_EQ(text(panel, QStringLiteral("gpu0_peers")), QStringLiteral("GPU 1"));
    EXPECT_EQ(text(panel, QStringLiteral("gpu1_peers")), QStringLiteral("GPU 0"));
    EXPECT_EQ(text(panel, QStringLiteral("gpu2_peers")), QStringLiteral("GPU 3"));
    EXPECT_EQ(text(panel, QStringLiteral("gpu3_peers")), QStringLiteral("none"));
    EXPECT_EQ(text(panel, QStringLiteral("deviceVersions")), QStringLiteral("CUDA driver 13.1, runtime 13.0"));
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("deviceReason")), nullptr);
    EXPECT_EQ(text(panel, QStringLiteral("cpu_threads")), QString::number(QThread::idealThreadCount()));
    EXPECT_TRUE(text(panel, QStringLiteral("cpu_path")).contains(QStringLiteral("OpenCV CPU path")));
    EXPECT_EQ(panel.enabledDevices(),
              (QStringList{QStringLiteral("gpu:0"), QStringLiteral("gpu:1"), QStringLiteral("gpu:2"),
                           QStringLiteral("gpu:3"), QStringLiteral("cpu")}));
}

TEST_F(DevicePanelTest, SaysWhetherTheFftMethodIsAvailable)
{
    DevicePanel panel;
    DeviceSnapshot withFft = fourGpus();
    withFft.cufftVersion = 12000;
    withFft.fft = "FFT method: cuFFT 12.0.0 (/usr/local/cuda/lib64/libcufft.so.12)";
    panel.setSnapshot(withFft);
    EXPECT_EQ(text(panel, QStringLiteral("deviceFft")),
              QStringLiteral("FFT method: cuFFT 12.0.0 (/usr/local/cuda/lib64/libcufft.so.12)"));
    // The same devices, cuFFT gone: the line changes with them.
    DeviceSnapshot without = fourGpus();
    without.fft = "FFT method unavailable: libcufft.so.12 not found (tried /x/libcufft.so.12)";
    panel.setSnapshot(without);
    EXPECT_EQ(text(panel, QStringLiteral("deviceFft")),
              QStringLiteral("FFT method unavailable: libcufft.so.12 not found (tried /x/libcufft.so.12)"));
    EXPECT_NE(panel.findChild<QGroupBox*>(QStringLiteral("deviceSection_gpu0")), nullptr);
    // Nobody looked (a snapshot made by hand): no line at all.
    panel.setSnapshot(fourGpus());
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("deviceFft")), nullptr);
}

TEST_F(DevicePanelTest, WithoutAGpuSaysWhyAndListsTheCpu)
{
    DevicePanel panel;
    panel.setSnapshot(fourGpus());
    DeviceSnapshot none;
    none.reason = "no CUDA driver is installed";
    panel.setSnapshot(none);
    EXPECT_EQ(panel.findChild<QGroupBox*>(QStringLiteral("deviceSection_gpu0")), nullptr) << "old sections are gone";
    EXPECT_EQ(text(panel, QStringLiteral("deviceReason")),
              QStringLiteral("No GPU: no CUDA driver is installed. Previews run on the CPU path."));
    EXPECT_EQ(text(panel, QStringLiteral("deviceVersions")), QStringLiteral("CUDA driver none, runtime none"));
    EXPECT_NE(panel.findChild<QGroupBox*>(QStringLiteral("deviceSection_cpu")), nullptr);
    EXPECT_TRUE(text(panel, QStringLiteral("cpu_path")).contains(QStringLiteral("in use")));
    // The CPU is the only device: it cannot be switched off.
    QCheckBox* cpu = check(panel, "cpu");
    ASSERT_NE(cpu, nullptr);
    EXPECT_TRUE(cpu->isChecked());
    EXPECT_FALSE(cpu->isEnabled());
    EXPECT_EQ(panel.enabledDevices(), QStringList{QStringLiteral("cpu")});
}

TEST_F(DevicePanelTest, UncheckedDevicesAreRememberedAndReported)
{
    {
        DevicePanel panel;
        panel.setSnapshot(fourGpus());
        QSignalSpy changed(&panel, &DevicePanel::enabledDevicesChanged);
        check(panel, "gpu1")->setChecked(false);
        check(panel, "cpu")->setChecked(false);
        ASSERT_EQ(changed.size(), 2);
        const QStringList want{QStringLiteral("gpu:0"), QStringLiteral("gpu:2"), QStringLiteral("gpu:3")};
        EXPECT_EQ(changed.last().at(0).toStringList(), want);
        EXPECT_EQ(panel.enabledDevices(), want);
    }
    DevicePanel again;
    again.setSnapshot(fourGpus());
    EXPECT_FALSE(check(again, "gpu1")->isChecked());
    EXPECT_FALSE(check(again, "cpu")->isChecked());
    EXPECT_TRUE(check(again, "gpu2")->isChecked());
    EXPECT_EQ(DevicePanel::storedDisabled(), (QStringList{QStringLiteral("gpu:1"), QStringLiteral("cpu")}));
    // Down to one device, that one is locked on.
    check(again, "gpu0")->setChecked(false);
    check(again, "gpu2")->setChecked(false);
    EXPECT_EQ(again.enabledDevices(), QStringList{QStringLiteral("gpu:3")});
    EXPECT_FALSE(check(again, "gpu3")->isEnabled());
    EXPECT_TRUE(check(again, "gpu0")->isEnabled());
}

TEST_F(DevicePanelTest, RefreshAsksForANewSnapshot)
{
    DevicePanel panel;
    QSignalSpy refresh(&panel, &DevicePanel::refreshRequested);
    auto* button = panel.findChild<QPushButton*>(QStringLiteral("deviceRefresh"));
    ASSERT_NE(button, nullptr);
    button->click();
    EXPECT_EQ(refresh.size(), 1);
}

class DeviceDockTest : public tessera::test::WindowFixture {};

TEST_F(DeviceDockTest, TheViewMenuTogglesTheDock)
{
    QDockWidget* dock = window_.runDocks()->deviceDock();
    ASSERT_NE(dock, nullptr);
    EXPECT_EQ(window_.dockWidgetArea(dock), Qt::RightDockWidgetArea);
    auto* toggle = window_.findChild<QAction*>(QStringLiteral("actionShowDevices"));
    ASSERT_NE(toggle, nullptr);
    bool inViewMenu = false;
    for (QAction* menu : window_.menuBar()->actions()) {
        if (menu->menu() != nullptr && menu->menu()->actions().contains(toggle)) {
            inViewMenu = menu->text() == QStringLiteral("&View");
        }
    }
    EXPECT_TRUE(inViewMenu);
    const bool before = dock->isVisible();
    toggle->trigger();
    EXPECT_NE(dock->isVisible(), before);
    toggle->trigger();
    EXPECT_EQ(dock->isVisible(), before);
}

TEST_F(DeviceDockTest, TheControllerFillsTheDockAndRefreshReadsAgain)
{
    // The window shows whatever snapshot it is given; the controller gives it the real one.
    window_.runDocks()->setDevices(fourGpus());
    EXPECT_EQ(window_.runDocks()->enabledDevices().size(), 5);
    controller_.refreshDeviceInfo();
    const DeviceSnapshot real = tessera::gpu::enumerateDevices();
    EXPECT_EQ(window_.runDocks()->enabledDevices().size(), static_cast<qsizetype>(real.devices.size() + 1));
    window_.runDocks()->setDevices(fourGpus());
    window_.runDocks()->devicePanel()->findChild<QPushButton*>(QStringLiteral("deviceRefresh"))->click();
    EXPECT_EQ(window_.runDocks()->devicePanel()->findChild<QGroupBox*>(QStringLiteral("deviceSection_gpu3")) != nullptr,
              real.devices.size() > 3);
}

}  // namespace
