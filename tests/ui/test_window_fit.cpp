// SPDX-License-Identifier: Apache-2.0
// The window fits the screen it opens on: the first window and the dialogs are sized to the
// screen's free area (not a fixed 1200 x 800 that leaves the status bar off a small screen), a
// geometry saved on a larger screen comes back within this one, and the docks come back at the
// width they were left at.

#include "ui/compare_dialog.h"
#include "ui/filter_dock.h"
#include "ui/kernel_dock.h"
#include "ui/main_window.h"
#include "ui/screen_fit.h"

#include <gtest/gtest.h>

#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTest>

#include <memory>

namespace {

using tessera::ui::MainWindow;

class WindowFitTest : public testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        area_ = QGuiApplication::primaryScreen()->availableGeometry();
    }
    void TearDown() override { QSettings().clear(); }

    /// True when rect lies within the screen's free area.
    bool onScreen(const QRect& rect) const { return area_.contains(rect); }

    QRect area_;
};

TEST_F(WindowFitTest, TheFirstWindowFitsTheScreen)
{
    ASSERT_LT(area_.width(), 1200) << "the test screen is meant to be smaller than the old fixed size";
    MainWindow window;
    window.setModalDialogsEnabled(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_TRUE(onScreen(window.frameGeometry()))
        << window.frameGeometry().width() << " x " << window.frameGeometry().height() << ", at least "
        << window.minimumSizeHint().width() << " x " << window.minimumSizeHint().height();
}

TEST_F(WindowFitTest, AGeometrySavedOnALargerScreenComesBackWithinThisOne)
{
    {
        MainWindow big;
        big.setModalDialogsEnabled(false);
        big.setGeometry(area_.x() + 200, area_.y() + 150, area_.width() + 600, area_.height() + 400);
        big.close();  // keeps its geometry, as on a larger monitor
    }
    MainWindow restored;
    restored.setModalDialogsEnabled(false);
    restored.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&restored));
    EXPECT_TRUE(onScreen(restored.frameGeometry()))
        << restored.frameGeometry().x() << "," << restored.frameGeometry().y() << " "
        << restored.frameGeometry().width() << " x " << restored.frameGeometry().height() << ", at least "
        << restored.minimumSizeHint().width() << " x " << restored.minimumSizeHint().height();
}

TEST_F(WindowFitTest, DocksComeBackAtTheWidthTheyWereLeftAt)
{
    int left = 0;
    {
        MainWindow first;
        first.setModalDialogsEnabled(false);
        first.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&first));
        first.resizeDocks({first.filterDock()}, {first.filterDock()->width() - 37}, Qt::Horizontal);
        QTest::qWait(50);
        left = first.filterDock()->width();
        first.close();
    }
    for (int restart = 0; restart < 3; ++restart) {
        MainWindow again;
        again.setModalDialogsEnabled(false);
        again.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
        QTest::qWait(50);
        EXPECT_EQ(again.filterDock()->width(), left) << "after restart " << restart + 1;
        again.close();
    }
}

TEST_F(WindowFitTest, CompareDevicesOpensWithinTheScreen)
{
    MainWindow window;
    window.setModalDialogsEnabled(false);
    tessera::ui::CompareDialog dialog(&window);
    EXPECT_LE(dialog.width(), area_.width());
    EXPECT_LE(dialog.height(), area_.height());
}

}  // namespace
