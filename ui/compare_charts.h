// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/compare_results.h"

#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

namespace tessera::ui {

/// One bar of the throughput chart: a target's median rate in one set of results, with the
/// slowest and fastest run as its whisker.
struct ThroughputBar {
    int category = 0;  ///< index into ThroughputModel::categories (the current results' row)
    int set = 0;       ///< 0: current results, 1: loaded results
    double median = 0.0;
    double low = 0.0;   ///< Mpixel/s of the slowest run
    double high = 0.0;  ///< Mpixel/s of the fastest run; 0: no whisker
    QColor colour;
};

/// What the throughput chart shows, computed from the results alone (no widget, no painter).
struct ThroughputModel {
    QStringList categories;  ///< short target labels on the x axis ("GPU 0")
    QStringList labels;      ///< the full target labels, for tool tips
    QStringList errors;      ///< per category: why it has no numbers; empty when it has
    QStringList setTitles;   ///< the legend: current title, then the loaded one when present
    QVector<ThroughputBar> bars;
    double axisTop = 1.0;  ///< the y axis runs from 0 to here, a whole number of steps
    double step = 1.0;     ///< between labelled y ticks

    bool isEmpty() const { return categories.isEmpty(); }
};

/// Bars per target of current, and of loaded (matched by target key or label) when it is not
/// empty. Bars are coloured by the target's device, the loaded ones lighter.
ThroughputModel makeThroughputModel(const CompareResults& current, const CompareResults& loaded);

/// One device's roof: memory bandwidth rising to the FMA ceiling, as (flop/byte, GFLOP/s) points.
struct RooflineRoof {
    QString name;  ///< "GPU 0-3 roof"
    QColor colour;
    double bandwidthGBs = 0.0;
    double peakGflops = 0.0;
    QVector<QPointF> points;  ///< left edge, ridge (when inside the range), right edge
};

/// One method's measured points on one device.
struct RooflineMarks {
    QString name;  ///< "GPU 0-3 separable", or "CPU" for the CPU path
    QColor colour;
    int shape = 0;            ///< 0 circle, 1 square, 2 triangle, 3 star
    QVector<QPointF> points;  ///< (flop/byte, GFLOP/s), all positive
};

/// What the roofline chart shows: whole-decade log ranges, roofs and marks in legend order.
struct RooflineModel {
    double xMin = 0.1;
    double xMax = 100.0;
    double yMin = 1.0;
    double yMax = 10.0;
    QVector<RooflineRoof> roofs;
    QVector<RooflineMarks> marks;
    QStringList legendOrder;  ///< every roof and mark name, device by device

    bool isEmpty() const { return roofs.isEmpty() && marks.isEmpty(); }
};

/// Roofs for calibrated devices (others get marks only) and one mark series per device and method.
RooflineModel makeRooflineModel(const CompareResults& results);

/// A short category label: "GPU 0" for "GPU 0 (NVIDIA H200)", so that axis labels fit.
QString shortTargetLabel(const QString& label);

/// The colour of a comparison target by its key: "gpu:N" takes deviceColor(N), "cpu" the CPU's
/// grey, several GPUs together a colour of their own.
QColor targetColour(const QString& key);

/// The colour of a roofline device by its name: "CPU" grey, else the first GPU id it names.
QColor rooflineColour(const QString& name);

}  // namespace tessera::ui
