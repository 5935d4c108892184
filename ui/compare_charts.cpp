// SPDX-License-Identifier: Apache-2.0
#include "ui/compare_charts.h"

#include "ui/timing_format.h"

#include <QObject>
#include <QRegularExpression>

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

/// The loaded set's tint of a device colour: the same hue, paler, so pairs read as one target.
QColor loadedTint(const QColor& colour)
{
    QColor c = colour.toHsl();
    c.setHslF(c.hslHueF(), c.hslSaturationF() * 0.55, std::min(1.0, c.lightnessF() * 0.45 + 0.5));
    return c.toRgb();
}

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

}  // namespace

QString shortTargetLabel(const QString& label)
{
    const qsizetype paren = label.indexOf(QLatin1String(" ("));
    return paren > 0 ? label.left(paren) : label;
}

QColor targetColour(const QString& key)
{
    if (key == QLatin1String("cpu")) {
        return deviceColor(values::DeviceId::cpu());
    }
    if (key.startsWith(QLatin1String("gpu:"))) {
        bool ok = false;
        const int id = key.mid(4).toInt(&ok);
        if (ok && id >= 0) {
            return deviceColor(values::DeviceId{id});
        }
    }
    // Several GPUs together: a deep blue that none of the single devices uses.
    return QColor(0x2f, 0x4b, 0xb8);
}

QColor rooflineColour(const QString& name)
{
    if (name.startsWith(QLatin1String("CPU"))) {
        return deviceColor(values::DeviceId::cpu());
    }
    static const QRegularExpression firstId(QStringLiteral("(\\d+)"));
    const QRegularExpressionMatch m = firstId.match(name);
    return deviceColor(values::DeviceId{m.hasMatch() ? m.captured(1).toInt() : 0});
}

ThroughputModel makeThroughputModel(const CompareResults& current, const CompareResults& loaded)
{
    ThroughputModel model;
    model.setTitles << (current.title.isEmpty() ? QObject::tr("This run") : current.title);
    const bool withLoaded = !loaded.isEmpty();
    if (withLoaded) {
        model.setTitles << (loaded.title.isEmpty() ? QObject::tr("Loaded") : loaded.title);
    }
    double top = 0.0;
    for (int i = 0; i < current.rows.size(); ++i) {
        const CompareRow& row = current.rows[i];
        model.categories << shortTargetLabel(row.label);
        model.labels << row.label;
        model.errors << row.error;
        const QColor colour = targetColour(row.key);
        if (row.error.isEmpty()) {
            model.bars.push_back({i, 0, row.mpixS, row.mpixMin, row.mpixMax, colour});
            top = std::max({top, row.mpixS, row.mpixMax});
        }
        if (withLoaded) {
            const CompareRow* other = matching(loaded, row);
            if (other != nullptr && other->error.isEmpty()) {
                model.bars.push_back({i, 1, other->mpixS, other->mpixMin, other->mpixMax, loadedTint(colour)});
                top = std::max({top, other->mpixS, other->mpixMax});
            }
        }
    }
    // A tenth of headroom over the fastest run, then whole 1-2-5 steps, about five of them.
    const double want = top > 0.0 ? top * 1.1 : 1.0;
    model.step = niceTickStep(want / 5.0);
    model.axisTop = std::ceil(want / model.step - 1e-9) * model.step;
    return model;
}

RooflineModel makeRooflineModel(const CompareResults& results)
{
    RooflineModel model;
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
    model.xMin = decadeBelow(xLow);
    model.xMax = decadeAbove(xHigh);
    model.yMin = decadeBelow(yLow);
    model.yMax = decadeAbove(yHigh);

    for (const RooflineDevice& d : results.roofline) {
        const QColor colour = rooflineColour(d.name);
        if (d.bandwidthGBs > 0.0 && d.peakGflops > 0.0) {
            RooflineRoof roof{QObject::tr("%1 roof").arg(d.name), colour, d.bandwidthGBs, d.peakGflops, {}};
            const double ridge = d.peakGflops / d.bandwidthGBs;
            roof.points << QPointF(model.xMin, std::min(d.peakGflops, d.bandwidthGBs * model.xMin));
            if (ridge > model.xMin && ridge < model.xMax) {
                roof.points << QPointF(ridge, d.peakGflops);
            }
            roof.points << QPointF(model.xMax, std::min(d.peakGflops, d.bandwidthGBs * model.xMax));
            model.legendOrder << roof.name;
            model.roofs.push_back(roof);
        }
        QStringList methods;
        for (const RooflineMark& m : d.marks) {
            if (!methods.contains(m.method)) {
                methods << m.method;
            }
        }
        for (int k = 0; k < methods.size(); ++k) {
            RooflineMarks marks;
            // "CPU" rather than "CPU cpu": the CPU path has one method.
            marks.name = methods[k] == QLatin1String("cpu") ? d.name : QObject::tr("%1 %2").arg(d.name, methods[k]);
            marks.colour = colour;
            marks.shape = k % 4;
            for (const RooflineMark& m : d.marks) {
                if (m.method == methods[k] && m.intensity > 0.0 && m.gflops > 0.0) {
                    marks.points << QPointF(m.intensity, m.gflops);
                }
            }
            model.legendOrder << marks.name;
            model.marks.push_back(marks);
        }
    }
    return model;
}

}  // namespace tessera::ui
