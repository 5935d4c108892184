// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/compare_charts.h"

#include "ui/chart_widget.h"

#include <QRectF>

class QFontMetricsF;
class QPainter;

namespace tessera::ui {

/// The comparison's throughput bars, painted: per target a bar of the median Mpixel/s for the
/// current results and one for the loaded results beside it, each with a whisker from the
/// slowest to the fastest run and its value above when there is room. Hovering a bar tells
/// its numbers. GUI thread only.
class ThroughputChart : public ChartWidget {
    Q_OBJECT

public:
    /// An empty chart that says there is nothing to show yet.
    explicit ThroughputChart(QWidget* parent = nullptr);

    /// Shows current, and loaded beside it when loaded is not empty.
    void setResults(const CompareResults& current, const CompareResults& loaded);
    /// What is shown now.
    const ThroughputModel& model() const { return model_; }
    /// Where the bar model().bars[index] is drawn at the present size.
    QRectF barRect(int index) const;
    /// The data area at the present size: y = 0 at its bottom, axisTop at its top.
    QRectF plotRect() const;
    /// The vertical position of a rate at the present size.
    double yOf(double mpixS) const;
    /// The hover text at pos (a bar's target, set and rates, or a failed target's error); empty
    /// where there is nothing.
    QString toolTipAt(QPointF pos) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double yLabelWidth() const;
    /// The y axis: labelled ticks with grid lines across plot, and its title in yTitle.
    void drawYAxis(QPainter& p, const QRectF& plot, const QRectF& yTitle, const QFontMetricsF& metrics) const;
    /// The category names under plot (and "failed" where a target failed), the axis title in xTitle.
    void drawCategories(QPainter& p, const QRectF& plot, const QRectF& xTitle, const QFontMetricsF& metrics) const;
    /// The bars, their whiskers and, where every one fits, their values.
    void drawBars(QPainter& p) const;
    /// The x span of category i in the plot.
    QRectF categoryRect(int i) const;

    ThroughputModel model_;
};

}  // namespace tessera::ui
