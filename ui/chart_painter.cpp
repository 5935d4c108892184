// SPDX-License-Identifier: Apache-2.0
#include "ui/chart_painter.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tessera::ui::chart {

namespace {

constexpr double kMargin = 10.0;
constexpr double kSwatchWidth = 16.0;
constexpr double kSwatchGap = 5.0;
constexpr double kCellGap = 16.0;
constexpr double kTickLength = 5.0;

double cellWidth(const QFontMetricsF& metrics, const LegendEntry& entry)
{
    return kSwatchWidth + kSwatchGap + metrics.horizontalAdvance(entry.text);
}

/// The legend's rows: each a list of entry indices that fit in width.
QVector<QVector<int>> legendRows(double width, const QFontMetricsF& metrics, const QVector<LegendEntry>& legend)
{
    QVector<QVector<int>> rows;
    double used = 0.0;
    for (int i = 0; i < legend.size(); ++i) {
        const double w = cellWidth(metrics, legend[i]);
        if (rows.isEmpty() || (used + kCellGap + w > width && !rows.back().isEmpty())) {
            rows.push_back({});
            used = -kCellGap;
        }
        rows.back().push_back(i);
        used += kCellGap + w;
    }
    return rows;
}

}  // namespace

Layout layoutChart(const QRectF& bounds, const QFontMetricsF& metrics, double yLabelWidth,
                   const QVector<LegendEntry>& legend)
{
    const QRectF inner = bounds.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const double line = metrics.height();
    Layout l;
    l.title = QRectF(inner.left(), inner.top(), inner.width(), line + 6.0);
    const double legendHeight = legendRows(inner.width(), metrics, legend).size() * (line + 4.0);
    l.legend =
        legend.isEmpty() ? QRectF() : QRectF(inner.left(), inner.bottom() - legendHeight, inner.width(), legendHeight);
    const double bottom = inner.bottom() - legendHeight - (legend.isEmpty() ? 0.0 : 6.0);
    l.xTitle = QRectF(inner.left(), bottom - line, inner.width(), line);
    // Tick labels sit under the plot: a tick, a gap, a line of text, a gap.
    const double plotBottom = l.xTitle.top() - (kTickLength + 3.0 + line + 4.0);
    l.yTitle = QRectF(inner.left(), l.title.bottom() + 6.0, line, plotBottom - l.title.bottom() - 6.0);
    const double plotLeft = l.yTitle.right() + 6.0 + yLabelWidth + kTickLength + 3.0;
    // Room on the right for half of the last x tick label.
    l.plot = QRectF(QPointF(plotLeft, l.yTitle.top()), QPointF(inner.right() - 12.0, plotBottom));
    l.xTitle.setLeft(l.plot.left());
    l.xTitle.setRight(l.plot.right());
    return l;
}

QVector<QRectF> legendCells(const QRectF& area, const QFontMetricsF& metrics, const QVector<LegendEntry>& legend)
{
    QVector<QRectF> cells(legend.size());
    const double line = metrics.height() + 4.0;
    double y = area.top();
    for (const QVector<int>& row : legendRows(area.width(), metrics, legend)) {
        double total = -kCellGap;
        for (const int i : row) {
            total += kCellGap + cellWidth(metrics, legend[i]);
        }
        double x = area.left() + std::max(0.0, (area.width() - total) / 2.0);
        for (const int i : row) {
            const double w = cellWidth(metrics, legend[i]);
            cells[i] = QRectF(x, y, w, line);
            x += w + kCellGap;
        }
        y += line;
    }
    return cells;
}

void drawTitle(QPainter& p, const QRectF& rect, const QString& text, const QPalette& palette)
{
    p.setPen(palette.color(QPalette::WindowText));
    p.drawText(rect, Qt::AlignCenter, QFontMetricsF(p.font()).elidedText(text, Qt::ElideRight, rect.width()));
}

void drawVerticalTitle(QPainter& p, const QRectF& rect, const QString& text, const QPalette& palette)
{
    p.save();
    p.translate(rect.center());
    p.rotate(-90.0);
    p.setPen(palette.color(QPalette::WindowText));
    const QRectF turned(-rect.height() / 2.0, -rect.width() / 2.0, rect.height(), rect.width());
    p.drawText(turned, Qt::AlignCenter, text);
    p.restore();
}

void drawMarker(QPainter& p, QPointF at, double size, Swatch shape, const QColor& colour)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(colour.darker(150), 1.0));
    p.setBrush(colour);
    const double r = size / 2.0;
    switch (shape) {
    case Swatch::Square: p.drawRect(QRectF(at.x() - r * 0.85, at.y() - r * 0.85, r * 1.7, r * 1.7)); break;
    case Swatch::Triangle:
        p.drawPolygon(QPolygonF{{at.x(), at.y() - r}, {at.x() + r, at.y() + r * 0.8}, {at.x() - r, at.y() + r * 0.8}});
        break;
    case Swatch::Star: {
        QPolygonF star;
        for (int k = 0; k < 10; ++k) {
            const double angle = -M_PI / 2.0 + k * M_PI / 5.0;
            const double radius = k % 2 == 0 ? r * 1.15 : r * 0.5;
            star << QPointF(at.x() + radius * std::cos(angle), at.y() + radius * std::sin(angle));
        }
        p.drawPolygon(star);
        break;
    }
    default: p.drawEllipse(at, r, r); break;
    }
    p.restore();
}

void drawLegend(QPainter& p, const QRectF& area, const QFontMetricsF& metrics, const QVector<LegendEntry>& legend,
                const QPalette& palette)
{
    const QVector<QRectF> cells = legendCells(area, metrics, legend);
    for (int i = 0; i < legend.size(); ++i) {
        const LegendEntry& e = legend[i];
        const QRectF cell = cells[i];
        const QRectF swatch(cell.left(), cell.center().y() - 5.0, kSwatchWidth, 10.0);
        switch (e.swatch) {
        case Swatch::Bar:
        case Swatch::PaleBar:
            p.fillRect(swatch, e.colour);
            p.setPen(e.colour.darker(150));
            p.drawRect(swatch.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        case Swatch::Line:
            p.save();
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(e.colour, 2.0));
            p.drawLine(QPointF(swatch.left(), swatch.center().y()), QPointF(swatch.right(), swatch.center().y()));
            p.restore();
            break;
        default: drawMarker(p, swatch.center(), 9.0, e.swatch, e.colour); break;
        }
        p.setPen(palette.color(QPalette::WindowText));
        p.drawText(cell.adjusted(kSwatchWidth + kSwatchGap, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, e.text);
    }
}

void drawPlotFrame(QPainter& p, const QRectF& plot, const QPalette& palette)
{
    p.fillRect(plot, palette.base());
    p.setPen(palette.color(QPalette::WindowText));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
}

void drawGridLine(QPainter& p, QPointF from, QPointF to, const QPalette& palette)
{
    p.setPen(QPen(palette.color(QPalette::Mid), 0, Qt::DotLine));
    p.drawLine(from, to);
}

QString decadeLabel(double value)
{
    static const struct {
        double scale;
        const char* suffix;
    } units[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto& u : units) {
        if (value >= u.scale) {
            return QLocale().toString(value / u.scale, 'g', 6) + QLatin1String(u.suffix);
        }
    }
    return QLocale().toString(value, 'g', 6);
}

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t = length2 > 0.0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF nearest = a + t * ab;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

}  // namespace tessera::ui::chart
