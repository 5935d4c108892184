// SPDX-License-Identifier: Apache-2.0
#include "values/timing_stats.h"
#include "tests/timing_fixtures.h"
#include "ui/profiler_dock.h"
#include "ui/timeline_view.h"
#include "ui/timing_format.h"
#include "ui/timing_table.h"

#include <gtest/gtest.h>

#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace {

using tessera::ui::ProfilerDock;
using tessera::ui::TimingTable;
using tessera::values::TimingRecord;

/// What the table should say for one group, worked out here without the statistics code.
struct Expected {
    int count = 0;
    std::vector<double> durations;
};

class ProfilerDockTest : public testing::Test {
protected:
    void SetUp() override
    {
        dock_.resize(1200, 600);
        dock_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dock_));
        dock_.setDevices(tessera::test::fakeFourGpuSnapshot());
    }

    ProfilerDock dock_;
};

TEST_F(ProfilerDockTest, TableAgreesWithTheRecords)
{
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    dock_.setRecords(records, QStringLiteral("run"));
    std::map<std::tuple<QString, QString, QString>, std::vector<double>> groups;
    for (const TimingRecord& r : records) {
        groups[{QString::fromStdString(tessera::values::deviceTitle(r.device, dock_.devices())),
                tessera::ui::phaseTitle(r.phase), QString::fromStdString(r.label)}]
            .push_back(r.endUs - r.beginUs);
    }
    TimingTable* table = dock_.table();
    ASSERT_EQ(table->rowCount(), static_cast<int>(groups.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto key =
            std::make_tuple(table->item(row, TimingTable::Device)->text(), table->item(row, TimingTable::Phase)->text(),
                            table->item(row, TimingTable::Label)->text());
        ASSERT_TRUE(groups.count(key)) << std::get<0>(key).toStdString() << " " << std::get<2>(key).toStdString();
        std::vector<double> d = groups[key];
        std::sort(d.begin(), d.end());
        const double median = d.size() % 2 == 1 ? d[d.size() / 2] : 0.5 * (d[d.size() / 2 - 1] + d[d.size() / 2]);
        EXPECT_EQ(table->value(row, TimingTable::Count), static_cast<double>(d.size()));
        EXPECT_EQ(table->value(row, TimingTable::Min), d.front());
        EXPECT_EQ(table->value(row, TimingTable::Median), median);
        EXPECT_EQ(table->value(row, TimingTable::Max), d.back());
    }
    // GPUs first in id order, the CPU last: the order the statistics give, not a sorted column.
    EXPECT_EQ(table->item(0, TimingTable::Device)->text(), QStringLiteral("GPU 0 (NVIDIA H200)"));
    EXPECT_EQ(table->item(table->rowCount() - 1, TimingTable::Device)->text(), QStringLiteral("CPU"));
}

TEST_F(ProfilerDockTest, BandwidthColumnsAreFilledWhereBytesAndPeakAreKnown)
{
    dock_.setRecords(tessera::test::fakeFourGpuRun(), QStringLiteral("run"));
    TimingTable* table = dock_.table();
    for (int row = 0; row < table->rowCount(); ++row) {
        const bool cpu = table->item(row, TimingTable::Device)->text() == QStringLiteral("CPU");
        EXPECT_GT(table->value(row, TimingTable::GBs), 0.0);
        EXPECT_EQ(std::isnan(table->value(row, TimingTable::PeakShare)), cpu);
    }
}

TEST(TimingFormat, LaneTitlesNameTheDeviceAndItsStream)
{
    EXPECT_EQ(tessera::ui::laneTitle(tessera::values::TimingLane{tessera::values::DeviceId{0}, 1}),
              QString::fromUtf8("GPU 0 \u00b7 stream 1"));
    EXPECT_EQ(tessera::ui::laneTitle(tessera::values::TimingLane{tessera::values::DeviceId::cpu(), 0}),
              QString::fromUtf8("CPU \u00b7 thread 0"));
}

TEST_F(ProfilerDockTest, OneLanePerDeviceAndStream)
{
    dock_.setRecords(tessera::test::fakeFourGpuRun(), QStringLiteral("run"));
    const QStringList titles = dock_.timeline()->laneTitles();
    ASSERT_EQ(titles.size(), 9);  // 4 GPUs x 2 streams, one CPU thread
    EXPECT_EQ(titles.front(), QStringLiteral("GPU 0 \u00b7 stream 0"));
    EXPECT_EQ(titles[1], QStringLiteral("GPU 0 \u00b7 stream 1"));
    EXPECT_EQ(titles[7], QStringLiteral("GPU 3 \u00b7 stream 1"));
    EXPECT_EQ(titles.back(), QStringLiteral("CPU \u00b7 thread 0"));
}

TEST_F(ProfilerDockTest, FreezeIgnoresNewRecordsUntilFollowingAgain)
{
    const std::vector<TimingRecord> first = tessera::test::fakeFourGpuRun();
    std::vector<TimingRecord> second(first.begin(), first.begin() + 4);
    dock_.setRecords(first, QStringLiteral("first"));
    auto* freeze = dock_.findChild<QToolButton*>(QStringLiteral("freezeButton"));
    ASSERT_NE(freeze, nullptr);
    QSignalSpy frozen(&dock_, &ProfilerDock::frozenChanged);
    freeze->click();
    EXPECT_TRUE(dock_.isFrozen());
    EXPECT_EQ(frozen.count(), 1);
    const int rows = dock_.table()->rowCount();
    dock_.setRecords(second, QStringLiteral("second"));
    EXPECT_EQ(dock_.records(), first);
    EXPECT_EQ(dock_.title(), QStringLiteral("first"));
    EXPECT_EQ(dock_.timeline()->records().size(), first.size());
    EXPECT_EQ(dock_.table()->rowCount(), rows);
    freeze->click();
    EXPECT_FALSE(dock_.isFrozen());
    dock_.setRecords(second, QStringLiteral("second"));
    EXPECT_EQ(dock_.records(), second);
    EXPECT_EQ(dock_.timeline()->laneTitles().size(), 2);
}

TEST_F(ProfilerDockTest, ZoomChangesTheVisibleSpanAndFitRestoresIt)
{
    dock_.setRecords(tessera::test::fakeFourGpuRun(), QStringLiteral("run"));
    tessera::ui::TimelineView* timeline = dock_.timeline();
    const auto [begin, end] = tessera::values::timeSpan(dock_.records());
    const double whole = timeline->visibleSpanUs();
    EXPECT_NEAR(whole, end - begin, 1e-6);

    dock_.findChild<QToolButton*>(QStringLiteral("timelineZoomIn"))->click();
    EXPECT_NEAR(timeline->visibleSpanUs(), whole / tessera::ui::TimelineView::kZoomStep, 1e-6);

    // Two wheel notches over the plot zoom in further, around the cursor.
    const QPoint at(timeline->viewport()->width() / 2, timeline->viewport()->height() / 2);
    QWheelEvent wheel(at, timeline->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(timeline->viewport(), &wheel);
    const double zoomed = timeline->visibleSpanUs();
    EXPECT_LT(zoomed, whole / 1.5);

    // Panning moves the start, not the span.
    const double start = timeline->visibleBeginUs();
    timeline->horizontalScrollBar()->setValue(timeline->horizontalScrollBar()->value() + 50);
    EXPECT_GT(timeline->visibleBeginUs(), start);
    EXPECT_NEAR(timeline->visibleSpanUs(), zoomed, 1e-6);

    dock_.findChild<QToolButton*>(QStringLiteral("timelineZoomOut"))->click();
    EXPECT_GT(timeline->visibleSpanUs(), zoomed);

    dock_.findChild<QToolButton*>(QStringLiteral("timelineFit"))->click();
    EXPECT_NEAR(timeline->visibleSpanUs(), whole, 1e-6);
    EXPECT_NEAR(timeline->visibleBeginUs(), begin, 1e-6);
    // Zooming out never goes past the whole run.
    timeline->zoomOut();
    EXPECT_NEAR(timeline->visibleSpanUs(), whole, 1e-6);
}

TEST_F(ProfilerDockTest, DragPansTheTimeAxis)
{
    dock_.setRecords(tessera::test::fakeFourGpuRun(), QStringLiteral("run"));
    tessera::ui::TimelineView* timeline = dock_.timeline();
    timeline->setVisibleRange(1000.0, 1500.0);
    const double start = timeline->visibleBeginUs();
    QWidget* viewport = timeline->viewport();
    const QPoint from(viewport->width() / 2, 60);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(viewport, from - QPoint(100, 0));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, from - QPoint(100, 0));
    EXPECT_GT(timeline->visibleBeginUs(), start);
}

TEST_F(ProfilerDockTest, BarsAreFoundUnderTheMouseWithTheirDetails)
{
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    dock_.setRecords(records, QStringLiteral("run"));
    tessera::ui::TimelineView* timeline = dock_.timeline();
    // The first kernel of GPU 0, stream 0, in the middle of its bar.
    const TimingRecord& kernel = records[2];
    ASSERT_EQ(kernel.phase, tessera::values::Phase::Kernel);
    const QPoint at(static_cast<int>(timeline->xOf(0.5 * (kernel.beginUs + kernel.endUs))),
                    timeline->laneRect(0).center().y());
    const auto hit = timeline->recordAt(at);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(*hit, 2u);
    const QString text = tessera::ui::describeRecord(kernel, QStringLiteral("GPU 0 (NVIDIA H200)"));
    EXPECT_TRUE(text.contains(QStringLiteral("direct")));
    EXPECT_TRUE(text.contains(QStringLiteral("1024 \u00d7 1024")));
    EXPECT_TRUE(text.contains(QStringLiteral("GB/s")));
    EXPECT_TRUE(text.contains(QStringLiteral("GPU 0 (NVIDIA H200)")));
    EXPECT_FALSE(timeline->recordAt(QPoint(5, at.y())).has_value());  // the lane titles
}

TEST_F(ProfilerDockTest, ExportAsksWithTheFormatAndPath)
{
    dock_.setRecords(tessera::test::fakeFourGpuRun(), QStringLiteral("run"));
    QSignalSpy spy(&dock_, &ProfilerDock::exportRequested);
    dock_.exportTo(ProfilerDock::ExportFormat::ChromeTrace, QStringLiteral("/tmp/x.json"));
    dock_.exportTo(ProfilerDock::ExportFormat::Csv, QString());
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy[0][0].value<ProfilerDock::ExportFormat>(), ProfilerDock::ExportFormat::ChromeTrace);
    EXPECT_EQ(spy[0][1].toString(), QStringLiteral("/tmp/x.json"));
}

TEST(TimingFormat, RulerLabelsUseOneUnitAndTheDecimalsTheStepNeeds)
{
    EXPECT_EQ(tessera::ui::formatTick(250.0, 50.0), QStringLiteral("250 \u00b5s"));
    EXPECT_EQ(tessera::ui::formatTick(2400.0, 200.0), QStringLiteral("2.4 ms"));
    EXPECT_EQ(tessera::ui::formatTick(1500.0, 500.0), QStringLiteral("1.5 ms"));
    EXPECT_EQ(tessera::ui::formatTick(2000.0, 1000.0), QStringLiteral("2 ms"));
    EXPECT_EQ(tessera::ui::formatTick(0.4, 0.2), QStringLiteral("0.4 \u00b5s"));
    EXPECT_DOUBLE_EQ(tessera::ui::niceTickStep(130.0), 200.0);
    EXPECT_DOUBLE_EQ(tessera::ui::niceTickStep(0.03), 0.05);
    EXPECT_DOUBLE_EQ(tessera::ui::niceTickStep(600.0), 1000.0);
    EXPECT_DOUBLE_EQ(tessera::ui::niceTickStep(100.0), 100.0);
    EXPECT_EQ(tessera::ui::formatDuration(1420.0), QStringLiteral("1.42 ms"));
    EXPECT_EQ(tessera::ui::formatDuration(12.44), QStringLiteral("12.4 \u00b5s"));
}

}  // namespace
