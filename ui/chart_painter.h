// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QFontMetricsF>
#include <QPalette>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

class QPainter;

namespace tessera::ui::chart {

/// How a legend entry (and a roofline mark) is drawn.
enum class Swatch { Bar, PaleBar, Line, Circle, Square, Triangle, Star };

/// One legend entry: its swatch, colour and text.
struct LegendEntry {
    Swatch swatch = Swatch::Bar;
    QColor colour;
    QString text;
};

/// Where a chart's parts go inside its widget.
struct Layout {
    QRectF title;   ///< empty when there is no title
    QRectF yTitle;  ///< the strip left of the tick labels, read bottom to top
    QRectF plot;    ///< the data area; axes run along its left and bottom edges
    QRectF xTitle;
    QRectF legend;  ///< empty without entries
};

/// Lays a chart out in bounds: title on top, the legend's rows at the bottom, the y axis'
/// title and tick labels (yLabelWidth wide) on the left, x tick labels and title below the plot.
Layout layoutChart(const QRectF& bounds, const QFontMetricsF& metrics, double yLabelWidth,
                   const QVector<LegendEntry>& legend);

/// The legend's cells, centred row by row in a width of area.
QVector<QRectF> legendCells(const QRectF& area, const QFontMetricsF& metrics, const QVector<LegendEntry>& legend);

/// The title centred in its rectangle, in the palette's text colour.
void drawTitle(QPainter& p, const QRectF& rect, const QString& text, const QPalette& palette);

/// An axis title turned a quarter to read bottom to top, centred in rect.
void drawVerticalTitle(QPainter& p, const QRectF& rect, const QString& text, const QPalette& palette);

/// The legend's entries in their cells.
void drawLegend(QPainter& p, const QRectF& area, const QFontMetricsF& metrics, const QVector<LegendEntry>& legend,
                const QPalette& palette);

/// A mark of the given shape centred on at, size pixels across, filled with colour.
void drawMarker(QPainter& p, QPointF at, double size, Swatch shape, const QColor& colour);

/// The plot's background, frame and its left and bottom axis lines.
void drawPlotFrame(QPainter& p, const QRectF& plot, const QPalette& palette);

/// A dotted grid line across the plot, at a labelled tick.
void drawGridLine(QPainter& p, QPointF from, QPointF to, const QPalette& palette);

/// A tick mark's label on a log axis: "0.1", "1", "100", "10k", "1M", "1G".
QString decadeLabel(double value);

/// The distance from p to the segment from a to b, in the same units.
double distanceToSegment(QPointF p, QPointF a, QPointF b);

}  // namespace tessera::ui::chart
