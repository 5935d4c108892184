// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/compare_charts.h"

#include "ui/chart_widget.h"

#include <QRectF>

namespace tessera::ui {

/// The comparison's roofline, painted on log-log axes (flop/byte against GFLOP/s): per
/// calibrated device a roof from its memory bandwidth up to its FMA ceiling, and each kernel
/// method's achieved rate as a mark in the device's colour. Hovering a mark or a roof tells its
/// numbers. GUI thread only.
class RooflineChart : public ChartWidget {
    Q_OBJECT

public:
    /// An empty chart that says there is nothing to show yet.
    explicit RooflineChart(QWidget* parent = nullptr);

    /// Shows the roofline of results.
    void setResults(const CompareResults& results);
    /// What is shown now.
    const RooflineModel& model() const { return model_; }
    /// The data area at the present size.
    QRectF plotRect() const;
    /// Where (intensity in flop/byte, rate in GFLOP/s) lands at the present size; both > 0.
    QPointF pointOf(QPointF value) const;
    /// The hover text at pos: the nearest mark's device, method and numbers, else a roof's
    /// bandwidth and ceiling; empty where there is nothing.
    QString toolTipAt(QPointF pos) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double yLabelWidth() const;

    RooflineModel model_;
};

}  // namespace tessera::ui
