// SPDX-License-Identifier: Apache-2.0
#include "ui/chart_painter.h"
#include "ui/compare_charts.h"
#include "ui/roofline_chart.h"
#include "ui/throughput_chart.h"
#include "ui/timing_format.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QLocale>

#include <cmath>

namespace {

using namespace tessera::ui;

CompareRow row(const QString& key, const QString& label, double median, double low, double high)
{
    CompareRow r;
    r.key = key;
    r.label = label;
    r.mpixS = median;
    r.mpixMin = low;
    r.mpixMax = high;
    return r;
}

CompareResults current()
{
    CompareResults c;
    c.title = QStringLiteral("this machine");
    c.rows << row(QStringLiteral("gpu:0"), QStringLiteral("GPU 0 (NVIDIA H200)"), 2000.0, 1800.0, 2200.0)
           << row(QStringLiteral("gpus:0,1"), QStringLiteral("2 GPUs"), 3800.0, 3500.0, 4100.0)
           << row(QStringLiteral("cpu"), QStringLiteral("CPU"), 120.0, 100.0, 130.0);
    CompareRow failed = row(QStringLiteral("gpu:1"), QStringLiteral("GPU 1 (NVIDIA H200)"), 0.0, 0.0, 0.0);
    failed.error = QStringLiteral("out of device memory");
    c.rows << failed;
    RooflineDevice gpu{QStringLiteral("GPU 0\u20131"), 4000.0, 60000.0, {}};
    gpu.marks << RooflineMark{QStringLiteral("separable"), 20.0, 500.0}
              << RooflineMark{QStringLiteral("direct"), 50.0, 3000.0};
    RooflineDevice cpu{QStringLiteral("CPU"), 0.0, 0.0, {}};
    cpu.marks << RooflineMark{QStringLiteral("cpu"), 20.0, 8.0};
    c.roofline << gpu << cpu;
    return c;
}

CompareResults loaded()
{
    CompareResults l;
    l.title = QStringLiteral("other machine");
    // Matched by label for the first row, by key for the CPU; the two GPUs have no counterpart.
    l.rows << row(QStringLiteral("old:0"), QStringLiteral("GPU 0 (NVIDIA H200)"), 1500.0, 1400.0, 1600.0)
           << row(QStringLiteral("cpu"), QStringLiteral("CPU (other)"), 90.0, 0.0, 0.0);
    return l;
}

const ThroughputBar* findBar(const ThroughputModel& m, int category, int set, int* index = nullptr)
{
    for (int i = 0; i < m.bars.size(); ++i) {
        if (m.bars[i].category == category && m.bars[i].set == set) {
            if (index != nullptr) {
                *index = i;
            }
            return &m.bars[i];
        }
    }
    return nullptr;
}

TEST(CompareCharts, ThroughputModelMatchesLoadedRowsAndLeavesFailuresBare)
{
    const ThroughputModel m = makeThroughputModel(current(), loaded());
    EXPECT_EQ(m.categories, (QStringList{"GPU 0", "2 GPUs", "CPU", "GPU 1"}));
    EXPECT_EQ(m.setTitles, (QStringList{"this machine", "other machine"}));
    EXPECT_EQ(m.bars.size(), 5);  // three current bars, two loaded ones, none for the failure
    ASSERT_NE(findBar(m, 0, 1), nullptr);
    EXPECT_DOUBLE_EQ(findBar(m, 0, 1)->median, 1500.0);
    ASSERT_NE(findBar(m, 2, 1), nullptr);
    EXPECT_DOUBLE_EQ(findBar(m, 2, 1)->median, 90.0);
    EXPECT_EQ(findBar(m, 1, 1), nullptr);
    EXPECT_EQ(findBar(m, 3, 0), nullptr);
    EXPECT_EQ(m.errors[3], QStringLiteral("out of device memory"));
    EXPECT_DOUBLE_EQ(findBar(m, 1, 0)->high, 4100.0);
    // The axis clears the fastest run by a tenth and ends on a whole step.
    EXPECT_GE(m.axisTop, 4100.0 * 1.1);
    EXPECT_NEAR(std::fmod(m.axisTop, m.step), 0.0, 1e-9);
    EXPECT_LE(m.axisTop / m.step, 10.0);
    // Colours follow the device; the loaded bar is a paler tint of its target's colour.
    EXPECT_EQ(findBar(m, 0, 0)->colour, deviceColor(tessera::values::DeviceId{0}));
    EXPECT_EQ(findBar(m, 2, 0)->colour, deviceColor(tessera::values::DeviceId::cpu()));
    EXPECT_GT(findBar(m, 0, 1)->colour.lightnessF(), deviceColor(tessera::values::DeviceId{0}).lightnessF());
}

TEST(CompareCharts, ThroughputModelWithoutLoadedHasOneSet)
{
    const ThroughputModel m = makeThroughputModel(current(), {});
    EXPECT_EQ(m.setTitles.size(), 1);
    for (const ThroughputBar& b : m.bars) {
        EXPECT_EQ(b.set, 0);
    }
    EXPECT_TRUE(makeThroughputModel({}, {}).isEmpty());
}

TEST(CompareCharts, ThroughputBarsStandOnTheAxisAtTheirValue)
{
    ThroughputChart chart;
    chart.resize(600, 420);
    chart.setResults(current(), loaded());
    const ThroughputModel& m = chart.model();
    const QRectF plot = chart.plotRect();
    ASSERT_GT(plot.width(), 100.0);
    ASSERT_GT(plot.height(), 100.0);
    EXPECT_DOUBLE_EQ(chart.yOf(0.0), plot.bottom());
    EXPECT_DOUBLE_EQ(chart.yOf(m.axisTop), plot.top());
    double previousRight = plot.left();
    for (int category = 0; category < 3; ++category) {
        for (int set = 0; set < 2; ++set) {
            int index = -1;
            if (findBar(m, category, set, &index) == nullptr) {
                continue;
            }
            const QRectF bar = chart.barRect(index);
            EXPECT_DOUBLE_EQ(bar.bottom(), plot.bottom());
            EXPECT_NEAR(bar.height(), m.bars[index].median / m.axisTop * plot.height(), 1e-6);
            EXPECT_GE(bar.left(), previousRight) << "bars overlap or are out of order";
            EXPECT_GT(bar.width(), 2.0);
            previousRight = bar.right();
        }
    }
    EXPECT_LE(previousRight, plot.right());
    EXPECT_TRUE(chart.barRect(99).isNull());
}

TEST(CompareCharts, ThroughputToolTipsNameTheBarUnderTheMouse)
{
    ThroughputChart chart;
    chart.resize(600, 420);
    chart.setResults(current(), loaded());
    int index = -1;
    ASSERT_NE(findBar(chart.model(), 0, 1, &index), nullptr);
    const QString tip = chart.toolTipAt(chart.barRect(index).center());
    EXPECT_TRUE(tip.contains(QStringLiteral("GPU 0 (NVIDIA H200)"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("other machine"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QLocale().toString(1500.0, 'f', 1))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QLocale().toString(1600.0, 'f', 1))) << tip.toStdString();
    // The failed target's column tells why it has no bar.
    const QRectF plot = chart.plotRect();
    const double failedX = plot.left() + plot.width() * 3.5 / 4.0;
    EXPECT_TRUE(chart.toolTipAt(QPointF(failedX, plot.center().y())).contains(QStringLiteral("out of device memory")));
    // Over the plot's empty top-left corner there is nothing to tell.
    EXPECT_TRUE(chart.toolTipAt(plot.topLeft() + QPointF(2, 2)).isEmpty());
    EXPECT_TRUE(chart.toolTipAt(QPointF(1, 1)).isEmpty());
}

TEST(CompareCharts, RooflineModelHasDecadeRangesRoofsAndMarks)
{
    const RooflineModel m = makeRooflineModel(current());
    for (const double end : {m.xMin, m.xMax, m.yMin, m.yMax}) {
        EXPECT_DOUBLE_EQ(std::log10(end), std::round(std::log10(end))) << end;
    }
    EXPECT_LE(m.xMin, 10.0);
    EXPECT_GE(m.xMax, 100.0);
    EXPECT_GE(m.yMax, 120000.0);
    ASSERT_EQ(m.roofs.size(), 1);  // the CPU has no calibration here
    const RooflineRoof& roof = m.roofs[0];
    EXPECT_EQ(roof.name, QStringLiteral("GPU 0\u20131 roof"));
    ASSERT_EQ(roof.points.size(), 3);
    EXPECT_DOUBLE_EQ(roof.points[1].x(), 15.0);  // the ridge: 60000 / 4000
    EXPECT_DOUBLE_EQ(roof.points[1].y(), 60000.0);
    EXPECT_DOUBLE_EQ(roof.points[0].y(), 4000.0 * m.xMin);
    EXPECT_DOUBLE_EQ(roof.points[2].y(), 60000.0);
    ASSERT_EQ(m.marks.size(), 3);
    EXPECT_EQ(m.marks[0].name, QStringLiteral("GPU 0\u20131 separable"));
    EXPECT_EQ(m.marks[1].name, QStringLiteral("GPU 0\u20131 direct"));
    EXPECT_NE(m.marks[0].shape, m.marks[1].shape);
    EXPECT_EQ(m.marks[2].name, QStringLiteral("CPU"));
    EXPECT_EQ(m.legendOrder,
              (QStringList{"GPU 0\u20131 roof", "GPU 0\u20131 separable", "GPU 0\u20131 direct", "CPU"}));
    EXPECT_EQ(m.marks[0].colour, deviceColor(tessera::values::DeviceId{0}));
    EXPECT_EQ(m.marks[2].colour, deviceColor(tessera::values::DeviceId::cpu()));
}

TEST(CompareCharts, RooflineMapsLogValuesAndNamesWhatIsHovered)
{
    RooflineChart chart;
    chart.resize(600, 420);
    chart.setResults(current());
    const RooflineModel& m = chart.model();
    const QRectF plot = chart.plotRect();
    EXPECT_NEAR(chart.pointOf(QPointF(m.xMin, m.yMin)).x(), plot.left(), 1e-9);
    EXPECT_NEAR(chart.pointOf(QPointF(m.xMin, m.yMin)).y(), plot.bottom(), 1e-9);
    EXPECT_NEAR(chart.pointOf(QPointF(m.xMax, m.yMax)).x(), plot.right(), 1e-9);
    EXPECT_NEAR(chart.pointOf(QPointF(m.xMax, m.yMax)).y(), plot.top(), 1e-9);
    // Each decade takes the same width.
    const double decade = chart.pointOf(QPointF(10.0, 1.0)).x() - chart.pointOf(QPointF(1.0, 1.0)).x();
    EXPECT_NEAR(chart.pointOf(QPointF(100.0, 1.0)).x() - chart.pointOf(QPointF(10.0, 1.0)).x(), decade, 1e-9);

    const QString mark = chart.toolTipAt(chart.pointOf(QPointF(50.0, 3000.0)) + QPointF(2, -1));
    EXPECT_TRUE(mark.contains(QStringLiteral("GPU 0\u20131 direct"))) << mark.toStdString();
    EXPECT_TRUE(mark.contains(QLocale().toString(3000.0, 'f', 0))) << mark.toStdString();
    const QString cpu = chart.toolTipAt(chart.pointOf(QPointF(20.0, 8.0)));
    EXPECT_TRUE(cpu.startsWith(QStringLiteral("CPU\n"))) << cpu.toStdString();
    // Halfway along the flat part of the roof, between the ridge and the right edge.
    const QPointF flat = (chart.pointOf(QPointF(15.0, 60000.0)) + chart.pointOf(QPointF(m.xMax, 60000.0))) / 2.0;
    const QString roof = chart.toolTipAt(flat);
    EXPECT_TRUE(roof.contains(QStringLiteral("roof"))) << roof.toStdString();
    EXPECT_TRUE(roof.contains(QLocale().toString(4000.0, 'f', 0))) << roof.toStdString();
    EXPECT_TRUE(chart.toolTipAt(QPointF(plot.right() - 3, plot.bottom() - 3)).isEmpty());
}

TEST(CompareCharts, ColoursFollowTheDevice)
{
    EXPECT_EQ(targetColour(QStringLiteral("gpu:2")), deviceColor(tessera::values::DeviceId{2}));
    EXPECT_EQ(targetColour(QStringLiteral("cpu")), deviceColor(tessera::values::DeviceId::cpu()));
    for (int id = 0; id < 8; ++id) {
        EXPECT_NE(targetColour(QStringLiteral("gpus:0,1")), deviceColor(tessera::values::DeviceId{id}));
    }
    EXPECT_EQ(rooflineColour(QStringLiteral("GPU 3")), deviceColor(tessera::values::DeviceId{3}));
    EXPECT_EQ(rooflineColour(QStringLiteral("GPUs 2,5")), deviceColor(tessera::values::DeviceId{2}));
    EXPECT_EQ(rooflineColour(QStringLiteral("CPU")), deviceColor(tessera::values::DeviceId::cpu()));
}

TEST(CompareCharts, LogTickLabelsAndLegendLayout)
{
    EXPECT_EQ(chart::decadeLabel(1.0), QStringLiteral("1"));
    EXPECT_EQ(chart::decadeLabel(100.0), QStringLiteral("100"));
    EXPECT_EQ(chart::decadeLabel(10000.0), QStringLiteral("10k"));
    EXPECT_EQ(chart::decadeLabel(1e6), QStringLiteral("1M"));
    EXPECT_EQ(chart::decadeLabel(0.1), QLocale().toString(0.1, 'g', 6));
    EXPECT_DOUBLE_EQ(chart::distanceToSegment({0, 5}, {-10, 0}, {10, 0}), 5.0);
    EXPECT_DOUBLE_EQ(chart::distanceToSegment({13, 4}, {-10, 0}, {10, 0}), 5.0);
    // A narrow legend wraps into rows; no cell leaves the area or overlaps another.
    QFont font;
    const QFontMetricsF metrics(font);
    QVector<chart::LegendEntry> legend;
    for (int i = 0; i < 6; ++i) {
        legend.push_back({chart::Swatch::Circle, Qt::red, QStringLiteral("GPU %1 separable").arg(i)});
    }
    const QRectF area(0, 0, 300, 200);
    const QVector<QRectF> cells = chart::legendCells(area, metrics, legend);
    ASSERT_EQ(cells.size(), 6);
    EXPECT_GT(cells.back().top(), cells.front().top());
    for (int i = 0; i < cells.size(); ++i) {
        EXPECT_TRUE(area.contains(cells[i])) << i;
        for (int j = i + 1; j < cells.size(); ++j) {
            EXPECT_FALSE(cells[i].intersects(cells[j])) << i << " " << j;
        }
    }
}

TEST(CompareCharts, PaintEmptyAndFilledInLightAndDarkPalettes)
{
    for (const bool dark : {false, true}) {
        ThroughputChart bars;
        RooflineChart roof;
        if (dark) {
            QPalette p;
            p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
            p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
            p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
            bars.setPalette(p);
            roof.setPalette(p);
        }
        bars.resize(480, 360);
        roof.resize(480, 360);
        EXPECT_FALSE(bars.grab().isNull());
        EXPECT_FALSE(roof.grab().isNull());
        bars.setResults(current(), loaded());
        roof.setResults(current());
        const QImage shot = bars.grab().toImage();
        // The first bar is painted in its device's colour at its centre.
        int index = -1;
        ASSERT_NE(findBar(bars.model(), 0, 0, &index), nullptr);
        const QPointF centre = bars.barRect(index).center() * shot.devicePixelRatioF();
        EXPECT_EQ(shot.pixelColor(centre.toPoint()).rgb(), deviceColor(tessera::values::DeviceId{0}).rgb());
        EXPECT_FALSE(roof.grab().isNull());
    }
}

}  // namespace
