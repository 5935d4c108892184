// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"
#include "tests/timing_fixtures.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"
#include "ui/profiler_dock.h"
#include "ui/tile_overlay.h"
#include "ui/timing_format.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsRectItem>
#include <QMenuBar>

namespace {

using tessera::ui::ImageView;
using tessera::values::TimingRecord;

class TileOverlayTest : public testing::Test {
protected:
    void SetUp() override
    {
        view_.resize(600, 500);
        view_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view_));
        QImage image(1000, 800, QImage::Format_RGB32);
        image.fill(Qt::darkGray);
        view_.setImage(image);
    }

    ImageView view_;
};

TEST_F(TileOverlayTest, OneTintedRectanglePerTile)
{
    view_.setTileOverlay(tessera::test::fakeFourGpuRun(1000, 800));
    view_.setTileOverlayVisible(true);
    const auto& marks = view_.tileOverlay()->marks();
    ASSERT_EQ(marks.size(), 16u);
    qint64 area = 0;
    for (int i = 0; i < 16; ++i) {
        const tessera::ui::TileMark& mark = marks[static_cast<std::size_t>(i)];
        EXPECT_EQ(mark.tile, i);
        EXPECT_EQ(mark.device, tessera::values::DeviceId{i / 4});
        area += mark.rect.area();
        auto* item = dynamic_cast<QGraphicsRectItem*>(view_.tileOverlay()->markItem(i));
        ASSERT_NE(item, nullptr);
        EXPECT_EQ(item->rect(), QRectF(mark.rect.x, mark.rect.y, mark.rect.width, mark.rect.height));
        EXPECT_EQ(item->brush().color().rgb(), tessera::ui::deviceColor(tessera::values::DeviceId{i / 4}).rgb());
        EXPECT_EQ(item->pen().color(), tessera::ui::deviceColor(tessera::values::DeviceId{i / 4}));
        EXPECT_TRUE(item->toolTip().contains(QStringLiteral("GPU %1").arg(i / 4)));
        EXPECT_TRUE(item->toolTip().contains(QStringLiteral("kernel")));
        EXPECT_TRUE(item->isVisible());
    }
    EXPECT_EQ(area, 1000 * 800);  // the tiles cover the image once
    // The grid is the only thing in the scene with tooltips.
    int tinted = 0;
    for (QGraphicsItem* item : view_.scene()->items()) {
        tinted += item->toolTip().isEmpty() ? 0 : 1;
    }
    EXPECT_EQ(tinted, 16);
}

TEST_F(TileOverlayTest, DevicesKeepTheirColoursAndDiffer)
{
    EXPECT_EQ(tessera::ui::deviceColor(tessera::values::DeviceId{2}),
              tessera::ui::deviceColor(tessera::values::DeviceId{2}));
    for (int a = -1; a < 8; ++a) {
        for (int b = a + 1; b < 8; ++b) {
            EXPECT_NE(tessera::ui::deviceColor(tessera::values::DeviceId{a}),
                      tessera::ui::deviceColor(tessera::values::DeviceId{b}))
                << a << " " << b;
        }
    }
}

TEST_F(TileOverlayTest, HiddenUntilTurnedOnAndClearedByANewImage)
{
    EXPECT_FALSE(view_.isTileOverlayVisible());
    view_.setTileOverlay(tessera::test::fakeFourGpuRun(1000, 800));
    EXPECT_FALSE(view_.isTileOverlayVisible());
    view_.setTileOverlayVisible(true);
    EXPECT_TRUE(view_.isTileOverlayVisible());
    view_.replaceImage(view_.shownImage());
    EXPECT_EQ(view_.tileOverlay()->marks().size(), 16u);
    QImage other(300, 200, QImage::Format_RGB32);
    other.fill(Qt::black);
    view_.setImage(other);
    EXPECT_TRUE(view_.tileOverlay()->marks().empty());
    EXPECT_EQ(view_.tileOverlay()->markItem(0), nullptr);
}

TEST_F(TileOverlayTest, RecordsWithoutTilesDrawNothing)
{
    TimingRecord stage;
    stage.phase = tessera::values::Phase::Host;
    stage.width = 1000;
    stage.height = 800;
    view_.setTileOverlay({stage});
    EXPECT_TRUE(view_.tileOverlay()->marks().empty());
}

TEST_F(TileOverlayTest, TheKernelNamesTheDeviceOfATile)
{
    std::vector<TimingRecord> records(2);
    records[0].device = tessera::values::DeviceId::cpu();  // staged on the CPU first
    records[0].phase = tessera::values::Phase::Host;
    records[1].device = tessera::values::DeviceId{3};
    records[1].stream = 1;
    records[1].phase = tessera::values::Phase::Kernel;
    for (TimingRecord& r : records) {
        r.tile = 0;
        r.width = 10;
        r.height = 10;
    }
    const auto marks = tessera::ui::tileMarks(records);
    ASSERT_EQ(marks.size(), 1u);
    EXPECT_EQ(marks[0].device, tessera::values::DeviceId{3});
    EXPECT_EQ(marks[0].stream, 1);
}

TEST_F(TileOverlayTest, ACpuTileSaysFilterWithoutUploadOrDownload)
{
    TimingRecord record;
    record.device = tessera::values::DeviceId::cpu();
    record.phase = tessera::values::Phase::Kernel;
    record.tile = 0;
    record.width = 1000;
    record.height = 800;
    record.endUs = 2000.0;
    view_.setTileOverlay({record});
    view_.setTileOverlayVisible(true);
    auto* item = dynamic_cast<QGraphicsRectItem*>(view_.tileOverlay()->markItem(0));
    ASSERT_NE(item, nullptr);
    EXPECT_TRUE(item->toolTip().contains(QStringLiteral("filter"))) << item->toolTip().toStdString();
    EXPECT_FALSE(item->toolTip().contains(QStringLiteral("upload"))) << item->toolTip().toStdString();
    EXPECT_FALSE(item->toolTip().contains(QStringLiteral("download")));
}

class ProfilerWindowTest : public tessera::test::WindowFixture {};

TEST_F(ProfilerWindowTest, ViewMenuTogglesTilesAndTheProfiler)
{
    QAction* tiles = window_.findChild<QAction*>(QStringLiteral("actionShowTiles"));
    ASSERT_NE(tiles, nullptr);
    EXPECT_EQ(tiles->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T));
    // No other action of the window has Ctrl+T.
    for (QAction* action : window_.findChildren<QAction*>()) {
        if (action != tiles) {
            EXPECT_NE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T)) << action->objectName().toStdString();
        }
    }
    EXPECT_TRUE(tiles->isCheckable());
    tiles->setChecked(true);
    EXPECT_TRUE(window_.imageView()->isTileOverlayVisible());
    tiles->setChecked(false);
    EXPECT_FALSE(window_.imageView()->isTileOverlayVisible());

    QAction* profiler = window_.findChild<QAction*>(QStringLiteral("actionShowProfiler"));
    ASSERT_NE(profiler, nullptr);
    EXPECT_FALSE(window_.runDocks()->profilerDock()->isVisible());
    profiler->trigger();
    EXPECT_TRUE(window_.runDocks()->profilerDock()->isVisible());
}

TEST_F(ProfilerWindowTest, TimingRecordsReachTheDockAndTheTileGrid)
{
    QImage image(1000, 800, QImage::Format_RGB32);
    image.fill(Qt::gray);
    window_.showImage(image, QString(), QStringLiteral("u8x4"));
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun(1000, 800);
    window_.runDocks()->setTimingRecords(records, QStringLiteral("Gaussian"));
    EXPECT_EQ(window_.runDocks()->profilerDock()->records(), records);
    EXPECT_EQ(window_.runDocks()->profilerDock()->title(), QStringLiteral("Gaussian"));
    EXPECT_EQ(window_.imageView()->tileOverlay()->marks().size(), 16u);
}

TEST_F(ProfilerWindowTest, ExportWritesTheDocksRecords)
{
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    window_.runDocks()->setTimingRecords(records, QStringLiteral("run"));
    const QString path = tessera::test::tempPath(QStringLiteral("profiler"), QStringLiteral("timing.csv"));
    window_.runDocks()->profilerDock()->exportTo(tessera::ui::ProfilerDock::ExportFormat::Csv, path);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << window_.lastError().toStdString();
    EXPECT_EQ(file.readAll().count('\n'), static_cast<qsizetype>(records.size() + 1));
    file.remove();
    window_.runDocks()->profilerDock()->exportTo(tessera::ui::ProfilerDock::ExportFormat::ChromeTrace,
                                                 QStringLiteral("/no/such/dir/t.json"));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("/no/such/dir/t.json")));
}

}  // namespace
