// SPDX-License-Identifier: Apache-2.0
#include "ui/roofline_chart.h"

#include "ui/chart_painter.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

constexpr double kMarkSize = 11.0;
constexpr double kHitRadius = 8.0;  // pixels from a mark's centre that still name it
constexpr double kRoofHit = 4.0;    // pixels from a roof's line

chart::Swatch markShape(int shape)
{
    static const chart::Swatch shapes[] = {chart::Swatch::Circle, chart::Swatch::Square, chart::Swatch::Triangle,
                                           chart::Swatch::Star};
    return shapes[shape % 4];
}

QVector<chart::LegendEntry> legendOf(const RooflineModel& model)
{
    QVector<chart::LegendEntry> legend;
    for (const QString& name : model.legendOrder) {
        for (const RooflineRoof& r : model.roofs) {
            if (r.name == name) {
                legend.push_back({chart::Swatch::Line, r.colour, name});
            }
        }
        for (const RooflineMarks& m : model.marks) {
            if (m.name == name) {
                legend.push_back({markShape(m.shape), m.colour, name});
            }
        }
    }
    return legend;
}

/// The decades from low to high, both powers of ten.
QVector<double> decades(double low, double high)
{
    QVector<double> out;
    for (int e = static_cast<int>(std::lround(std::log10(low))); e <= std::lround(std::log10(high)); ++e) {
        out << std::pow(10.0, e);
    }
    return out;
}

QString number(double v)
{
    return QLocale().toString(v, 'f', v < 10.0 ? 2 : v < 100.0 ? 1 : 0);
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : ChartWidget(parent)
{
}

void RooflineChart::setResults(const CompareResults& results)
{
    model_ = makeRooflineModel(results);
    update();
}

double RooflineChart::yLabelWidth() const
{
    const QFontMetricsF metrics(font());
    double widest = 0.0;
    for (const double v : decades(model_.yMin, model_.yMax)) {
        widest = std::max(widest, metrics.horizontalAdvance(chart::decadeLabel(v)));
    }
    return widest;
}

QRectF RooflineChart::plotRect() const
{
    return chart::layoutChart(QRectF(rect()), QFontMetricsF(font()), yLabelWidth(), legendOf(model_)).plot;
}

QPointF RooflineChart::pointOf(QPointF value) const
{
    const QRectF plot = plotRect();
    const double fx = std::log10(value.x() / model_.xMin) / std::log10(model_.xMax / model_.xMin);
    const double fy = std::log10(value.y() / model_.yMin) / std::log10(model_.yMax / model_.yMin);
    return QPointF(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height());
}

QString RooflineChart::toolTipAt(QPointF pos) const
{
    double best = kHitRadius;
    QString text;
    for (const RooflineMarks& m : model_.marks) {
        for (const QPointF& v : m.points) {
            const QPointF at = pointOf(v);
            const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
            if (d <= best) {
                best = d;
                text = tr("%1\n%2 flop/byte, %3 GFLOP/s").arg(m.name, number(v.x()), number(v.y()));
            }
        }
    }
    if (!text.isEmpty()) {
        return text;
    }
    for (const RooflineRoof& r : model_.roofs) {
        for (int k = 1; k < r.points.size(); ++k) {
            if (chart::distanceToSegment(pos, pointOf(r.points[k - 1]), pointOf(r.points[k])) <= kRoofHit) {
                return tr("%1\nmemory %2 GB/s, FMA ceiling %3 GFLOP/s\nridge at %4 flop/byte")
                    .arg(r.name, number(r.bandwidthGBs), number(r.peakGflops), number(r.peakGflops / r.bandwidthGBs));
            }
        }
    }
    return {};
}

void RooflineChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QFontMetricsF metrics(font());
    const QVector<chart::LegendEntry> legend = legendOf(model_);
    const chart::Layout layout = chart::layoutChart(QRectF(rect()), metrics, yLabelWidth(), legend);
    const QRectF plot = layout.plot;
    QFont titleFont = font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    chart::drawTitle(p, layout.title, tr("Roofline: kernels against each device's measured ceilings"), palette());
    p.setFont(font());
    chart::drawPlotFrame(p, plot, palette());

    // Decades on both axes, with grid lines; minor ticks at 2..9 on the axes only.
    const QColor text = palette().color(QPalette::WindowText);
    for (const double v : decades(model_.xMin, model_.xMax)) {
        const double x = pointOf(QPointF(v, model_.yMin)).x();
        if (v > model_.xMin) {
            chart::drawGridLine(p, QPointF(x, plot.top()), QPointF(x, plot.bottom() - 1), palette());
        }
        p.setPen(text);
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 5.0));
        p.drawText(QRectF(x - 40.0, plot.bottom() + 8.0, 80.0, metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                   chart::decadeLabel(v));
        for (int m = 2; m < 10 && v < model_.xMax; ++m) {
            const double mx = pointOf(QPointF(v * m, model_.yMin)).x();
            p.drawLine(QPointF(mx, plot.bottom()), QPointF(mx, plot.bottom() + 3.0));
        }
    }
    for (const double v : decades(model_.yMin, model_.yMax)) {
        const double y = pointOf(QPointF(model_.xMin, v)).y();
        if (v > model_.yMin) {
            chart::drawGridLine(p, QPointF(plot.left() + 1, y), QPointF(plot.right(), y), palette());
        }
        p.setPen(text);
        p.drawLine(QPointF(plot.left() - 5.0, y), QPointF(plot.left(), y));
        p.drawText(QRectF(layout.yTitle.right(), y - metrics.height() / 2.0, plot.left() - 8.0 - layout.yTitle.right(),
                          metrics.height()),
                   Qt::AlignRight | Qt::AlignVCenter, chart::decadeLabel(v));
        for (int m = 2; m < 10 && v < model_.yMax; ++m) {
            const double my = pointOf(QPointF(model_.xMin, v * m)).y();
            p.drawLine(QPointF(plot.left() - 3.0, my), QPointF(plot.left(), my));
        }
    }
    chart::drawVerticalTitle(p, layout.yTitle, tr("GFLOP/s"), palette());
    p.setPen(text);
    p.drawText(layout.xTitle, Qt::AlignCenter, tr("Arithmetic intensity (flop/byte)"));

    if (model_.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, tr("No kernels measured yet."));
        return;
    }
    p.save();
    p.setClipRect(plot.adjusted(-kMarkSize, -kMarkSize, kMarkSize, 0));
    p.setRenderHint(QPainter::Antialiasing);
    for (const RooflineRoof& r : model_.roofs) {
        QPainterPath path;
        for (int k = 0; k < r.points.size(); ++k) {
            const QPointF at = pointOf(r.points[k]);
            k == 0 ? path.moveTo(at) : path.lineTo(at);
        }
        p.setPen(QPen(r.colour, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    for (const RooflineMarks& m : model_.marks) {
        for (const QPointF& v : m.points) {
            chart::drawMarker(p, pointOf(v), kMarkSize, markShape(m.shape), m.colour);
        }
    }
    p.restore();
    chart::drawLegend(p, layout.legend, metrics, legend, palette());
}

}  // namespace tessera::ui
