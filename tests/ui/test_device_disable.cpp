// SPDX-License-Identifier: Apache-2.0
// The Devices dock's check boxes reach the previews: with every GPU enabled the preview's timing
// records (what the Profiler shows) name every GPU; unchecking one removes it from the next
// preview's records. Needs two GPUs or more (the GPU machine); skips elsewhere.

#include "app/gui/gui_controller.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/device_info.h"
#include "gui_test_support.h"
#include "filters/registry.h"
#include "ui/device_panel.h"
#include "ui/filter_panel.h"
#include "ui/filter_stack.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"
#include "ui/profiler_dock.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QSignalSpy>

#include <set>

namespace {

using tessera::app::GuiController;
using DeviceDisableTest = tessera::test::WindowFixture;

std::set<int> devicesIn(const std::vector<tessera::values::TimingRecord>& records)
{
    std::set<int> ids;
    for (const auto& r : records) {
        ids.insert(r.device.value());
    }
    return ids;
}

TEST_F(DeviceDisableTest, UncheckingAGpuTakesItOutOfTheNextPreview)
{
    const auto snap = tessera::gpu::enumerateDevices();
    if (snap.devices.size() < 2) {
        GTEST_SKIP() << "needs two GPUs or more; this machine has " << snap.devices.size()
                     << (snap.hasGpu() ? "" : " (" + snap.reason + ")");
    }
    controller_.refreshDeviceInfo();
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    // A Gaussian in the filter stack, as a user adds it: a device change previews the stack again.
    const auto* desc = tessera::filters::builtinRegistry().find("gaussian");
    ASSERT_NE(desc, nullptr);
    const tessera::filters::FilterChoice choice = tessera::filters::defaultChoice(*desc);
    const tessera::filters::FilterChain chain{{desc->build(choice.values)}};
    QSignalSpy shown(&controller_, &GuiController::previewShown);
    tessera::filters::StackState stack = controller_.document().stack();
    stack.entries.push_back(tessera::filters::StackEntry{choice});
    stack.current = 0;
    controller_.document().resetStack(stack);
    ASSERT_TRUE(shown.wait(30000));
    while (controller_.isPreviewPending()) {
        ASSERT_TRUE(shown.wait(30000));
    }
    std::set<int> all;
    for (const auto& d : snap.devices) {
        all.insert(d.id.value());
    }
    EXPECT_EQ(devicesIn(window_.runDocks()->profilerDock()->records()), all);

    const tessera::values::DeviceId off = snap.devices[1].id;
    auto* check =
        window_.runDocks()->devicePanel()->findChild<QCheckBox*>(QStringLiteral("deviceCheck_gpu%1").arg(off.value()));
    ASSERT_NE(check, nullptr);
    ASSERT_TRUE(check->isChecked());
    check->click();  // as the user does; the controller previews again on the devices left
    ASSERT_FALSE(check->isChecked());
    EXPECT_FALSE(window_.runDocks()->enabledDevices().contains(QStringLiteral("gpu:%1").arg(off.value())));
    ASSERT_TRUE(shown.wait(30000));
    while (controller_.isPreviewPending()) {
        ASSERT_TRUE(shown.wait(30000));
    }
    std::set<int> left = all;
    left.erase(off.value());
    EXPECT_EQ(devicesIn(window_.runDocks()->profilerDock()->records()), left);
    EXPECT_LE(
        cv::norm(controller_.previewData(), tessera::filters::applyCpu(controller_.sourceImage(), chain), cv::NORM_INF),
        1.0);
}

}  // namespace
