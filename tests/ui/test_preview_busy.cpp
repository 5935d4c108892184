// SPDX-License-Identifier: Apache-2.0
// While a preview is on its way the window says so: the view shows a "Computing…" badge and the
// Preview field reads "computing…" instead of the last preview's time; both go when it arrives.

#include "gui_test_support.h"
#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QSignalSpy>

namespace {

class PreviewBusyTest : public tessera::test::WindowFixture {};

TEST_F(PreviewBusyTest, TheViewAndTheStatusSayAPreviewIsComingUntilItComes)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_FALSE(window_.imageView()->isBusy());
    QSignalSpy shown(&controller_, &tessera::app::GuiController::previewShown);
    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    // Asked for, not yet computed: the worker thread cannot have answered within this call.
    ASSERT_TRUE(controller_.isPreviewPending());
    EXPECT_TRUE(window_.imageView()->isBusy());
    EXPECT_EQ(window_.previewStatus(), QStringLiteral("Preview: computing\u2026"));
    if (const QString dir = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        EXPECT_TRUE(window_.grab().save(QDir(dir).filePath(QStringLiteral("preview-computing-cpu.png"))));
    }
    ASSERT_TRUE(QTest::qWaitFor([this] { return !controller_.isPreviewPending(); }, 20'000));
    EXPECT_FALSE(window_.imageView()->isBusy());
    EXPECT_TRUE(window_.previewStatus().startsWith(QStringLiteral("Preview: CPU")))
        << window_.previewStatus().toStdString();
    EXPECT_TRUE(window_.previewStatus().contains(QStringLiteral(" ms"))) << window_.previewStatus().toStdString();
}

}  // namespace
