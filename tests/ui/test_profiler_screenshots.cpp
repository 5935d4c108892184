// SPDX-License-Identifier: Apache-2.0
#include "tests/timing_fixtures.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"
#include "ui/profiler_dock.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// Pictures of the profiler and the tile grid filled with a made-up four-GPU run, for a person
/// to look at. They go to $TESSERA_SCREENSHOT_DIR when set, else to a folder removed afterwards;
/// the test checks only that they were made.
class ProfilerScreenshots : public testing::Test {
protected:
    QString outputDir()
    {
        const QString dir = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QDir().mkpath(dir);
            return dir;
        }
        return temp_.path();
    }

    QTemporaryDir temp_;
};

TEST_F(ProfilerScreenshots, ProfilerDockAndTileGrid)
{
    const QString dir = outputDir();
    tessera::ui::MainWindow window;
    window.setModalDialogsEnabled(false);
    window.resize(1500, 1000);
    window.runDocks()->setDevices(tessera::test::fakeFourGpuSnapshot());
    QImage image(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    ASSERT_FALSE(image.isNull());
    window.showImage(image, QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"), QStringLiteral("u8x3"));
    window.runDocks()->setTimingRecords(
        tessera::test::fakeFourGpuRun(image.width(), image.height()),
        QStringLiteral("Gaussian \u03c3 3.0 \u00b7 4096 \u00d7 4096 \u00b7 4 \u00d7 NVIDIA H200"));
    window.findChild<QAction*>(QStringLiteral("actionShowTiles"))->setChecked(true);
    window.runDocks()->profilerDock()->show();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(50);
    window.imageView()->fitToWindow();

    const QString whole = QDir(dir).filePath(QStringLiteral("profiler-window.png"));
    const QString dock = QDir(dir).filePath(QStringLiteral("profiler-dock.png"));
    const QString tiles = QDir(dir).filePath(QStringLiteral("tile-overlay.png"));
    EXPECT_TRUE(window.grab().save(whole));
    EXPECT_TRUE(window.runDocks()->profilerDock()->grab().save(dock));
    EXPECT_TRUE(window.imageView()->grab().save(tiles));
    EXPECT_FALSE(QImage(dock).isNull());
}

}  // namespace
