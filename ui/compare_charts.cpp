// SPDX-License-Identifier: Apache-2.0
#include "ui/compare_charts.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QPen>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

/// The loaded row for the same target, or nullptr.
const CompareRow* matching(const CompareResults& loaded, const CompareRow& row)
{
    for (const CompareRow& other : loaded.rows) {
        if (other.key == row.key || other.label == row.label) {
            return &other;
        }
    }
    return nullptr;
}

/// A short category label: "GPU 0" for "GPU 0 (NVIDIA H200)", so that axis labels fit.
QString shortLabel(const QString& label)
{
    const qsizetype paren = label.indexOf(QLatin1String(" ("));
    return paren > 0 ? label.left(paren) : label;
}

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* marker : chart->legend()->markers(series)) {
        marker->setVisible(false);
    }
}

/// A vertical whisker at category position x from low to high, in colour.
void addWhisker(QChart* chart, QAbstractAxis* xAxis, QAbstractAxis* yAxis, double x, double low, double high,
                const QColor& colour)
{
    auto* line = new QLineSeries;
    QPen pen(colour.darker(160));
    pen.setWidthF(2.0);
    line->setPen(pen);
    const double cap = 0.06;
    // Down the stem and back along it, with caps at both ends: one unbroken polyline.
    line->append({{x - cap, low}, {x + cap, low}, {x, low}, {x, high}, {x - cap, high}, {x + cap, high}});
    chart->addSeries(line);
    line->attachAxis(xAxis);
    line->attachAxis(yAxis);
    hideFromLegend(chart, line);
}

}  // namespace

QChart* makeThroughputChart(const CompareResults& current, const CompareResults& loaded)
{
    auto* chart = new QChart;
    chart->setTitle(QObject::tr("Throughput (median, whiskers: slowest to fastest run)"));
    auto* series = new QBarSeries;
    auto* now = new QBarSet(current.title.isEmpty() ? QObject::tr("This run") : current.title);
    QBarSet* before = nullptr;
    if (!loaded.isEmpty()) {
        before = new QBarSet(loaded.title.isEmpty() ? QObject::tr("Loaded") : loaded.title);
    }
    QStringList categories;
    double top = 0.0;
    for (const CompareRow& row : current.rows) {
        categories << shortLabel(row.label);
        *now << row.mpixS;
        top = std::max({top, row.mpixS, row.mpixMax});
        if (before != nullptr) {
            const CompareRow* other = matching(loaded, row);
            *before << (other != nullptr ? other->mpixS : 0.0);
            if (other != nullptr) {
                top = std::max({top, other->mpixS, other->mpixMax});
            }
        }
    }
    series->append(now);
    if (before != nullptr) {
        series->append(before);
    }
    // No value labels on the bars: they overlap the whiskers and each other; the table has them.
    chart->addSeries(series);

    auto* xAxis = new QBarCategoryAxis;
    xAxis->append(categories);
    chart->addAxis(xAxis, Qt::AlignBottom);
    series->attachAxis(xAxis);
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(QObject::tr("Mpixel/s"));
    yAxis->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    yAxis->setLabelFormat(QStringLiteral("%.0f"));
    yAxis->applyNiceNumbers();
    chart->addAxis(yAxis, Qt::AlignLeft);
    series->attachAxis(yAxis);

    // Bars of one category share barWidth of it (0.5 by default), set after set.
    const int sets = series->count();
    const double width = series->barWidth() / sets;
    for (int i = 0; i < current.rows.size(); ++i) {
        const CompareRow& row = current.rows[i];
        if (row.error.isEmpty() && row.mpixMax > 0.0) {
            addWhisker(chart, xAxis, yAxis, i - series->barWidth() / 2 + width / 2, row.mpixMin, row.mpixMax,
                       now->color());
        }
        if (before != nullptr) {
            const CompareRow* other = matching(loaded, row);
            if (other != nullptr && other->mpixMax > 0.0) {
                addWhisker(chart, xAxis, yAxis, i - series->barWidth() / 2 + width * 1.5, other->mpixMin,
                           other->mpixMax, before->color());
            }
        }
    }
    chart->legend()->setVisible(sets > 1);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QChart* makeRooflineChart(const CompareResults& results)
{
    auto* chart = new QChart;
    chart->setTitle(QObject::tr("Roofline: kernels against each device's measured ceilings"));
    double xLow = 0.1;
    double xHigh = 100.0;
    double yLow = 1.0;
    double yHigh = 10.0;
    for (const RooflineDevice& d : results.roofline) {
        for (const RooflineMark& m : d.marks) {
            if (m.intensity > 0.0 && m.gflops > 0.0) {
                xLow = std::min(xLow, m.intensity / 2);
                xHigh = std::max(xHigh, m.intensity * 2);
                yLow = std::min(yLow, m.gflops / 2);
                yHigh = std::max(yHigh, m.gflops * 2);
            }
        }
        if (d.peakGflops > 0.0) {
            yHigh = std::max(yHigh, d.peakGflops * 2);
        }
        if (d.bandwidthGBs > 0.0) {
            yLow = std::min(yLow, d.bandwidthGBs * xLow / 2);
        }
    }
    auto* xAxis = new QLogValueAxis;
    xAxis->setBase(10);
    xAxis->setTitleText(QObject::tr("Arithmetic intensity (flop/byte)"));
    xAxis->setLabelFormat(QStringLiteral("%g"));
    xAxis->setRange(std::pow(10.0, std::floor(std::log10(xLow))), std::pow(10.0, std::ceil(std::log10(xHigh))));
    auto* yAxis = new QLogValueAxis;
    yAxis->setBase(10);
    yAxis->setTitleText(QObject::tr("GFLOP/s"));
    yAxis->setLabelFormat(QStringLiteral("%g"));
    yAxis->setRange(std::pow(10.0, std::floor(std::log10(yLow))), std::pow(10.0, std::ceil(std::log10(yHigh))));
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);

    for (const RooflineDevice& d : results.roofline) {
        QColor colour;
        if (d.bandwidthGBs > 0.0 && d.peakGflops > 0.0) {
            auto* roof = new QLineSeries;
            roof->setName(QObject::tr("%1 roof").arg(d.name));
            const double left = xAxis->min();
            const double right = xAxis->max();
            const double ridge = d.peakGflops / d.bandwidthGBs;
            roof->append(left, d.bandwidthGBs * left);
            if (ridge > left && ridge < right) {
                roof->append(ridge, d.peakGflops);
            }
            roof->append(right, std::min(d.peakGflops, d.bandwidthGBs * right));
            chart->addSeries(roof);
            roof->attachAxis(xAxis);
            roof->attachAxis(yAxis);
            colour = roof->color();
        }
        // One point series per method, so that the legend names what each marker is.
        QStringList methods;
        for (const RooflineMark& m : d.marks) {
            if (!methods.contains(m.method)) {
                methods << m.method;
            }
        }
        const QList<QScatterSeries::MarkerShape> shapes{QScatterSeries::MarkerShapeCircle,
                                                        QScatterSeries::MarkerShapeRectangle,
                                                        QScatterSeries::MarkerShapeTriangle,
                                                        QScatterSeries::MarkerShapeStar};
        for (int k = 0; k < methods.size(); ++k) {
            auto* points = new QScatterSeries;
            // "CPU" rather than "CPU cpu": the CPU path has one method.
            points->setName(methods[k] == QLatin1String("cpu") ? d.name : QObject::tr("%1 %2").arg(d.name, methods[k]));
            points->setMarkerSize(11.0);
            points->setMarkerShape(shapes[k % shapes.size()]);
            if (colour.isValid()) {
                points->setColor(colour);
            }
            for (const RooflineMark& m : d.marks) {
                if (m.method == methods[k] && m.intensity > 0.0 && m.gflops > 0.0) {
                    points->append(m.intensity, m.gflops);
                }
            }
            chart->addSeries(points);
            points->attachAxis(xAxis);
            points->attachAxis(yAxis);
        }
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

}  // namespace tessera::ui
