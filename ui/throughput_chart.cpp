// SPDX-License-Identifier: Apache-2.0
#include "ui/throughput_chart.h"

#include "ui/chart_painter.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

constexpr double kGroupShare = 0.6;  // of a category's width, for its bars together
constexpr double kMaxBarWidth = 64.0;
constexpr double kBarGap = 2.0;        // between the bars of one category
constexpr double kCapHalfWidth = 4.0;  // a whisker's end caps

int tickDecimals(double step)
{
    return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
}

QString rate(double mpixS)
{
    return QLocale().toString(mpixS, 'f', 1);
}

QVector<chart::LegendEntry> legendOf(const ThroughputModel& model)
{
    // The legend names the sets only when there are two of them; it shows the first target's
    // colour solid and pale.
    QVector<chart::LegendEntry> legend;
    if (model.setTitles.size() < 2 || model.bars.isEmpty()) {
        return legend;
    }
    const QColor solid = model.bars.front().colour;
    QColor pale = solid;
    for (const ThroughputBar& b : model.bars) {
        if (b.set == 1 && b.category == model.bars.front().category) {
            pale = b.colour;
        }
    }
    legend.push_back({chart::Swatch::Bar, solid, model.setTitles[0]});
    legend.push_back({chart::Swatch::PaleBar, pale, model.setTitles[1]});
    return legend;
}

}  // namespace

ThroughputChart::ThroughputChart(QWidget* parent) : ChartWidget(parent)
{
}

void ThroughputChart::setResults(const CompareResults& current, const CompareResults& loaded)
{
    model_ = makeThroughputModel(current, loaded);
    update();
}

double ThroughputChart::yLabelWidth() const
{
    const QFontMetricsF metrics(font());
    const int decimals = tickDecimals(model_.step);
    double widest = 0.0;
    for (double v = 0.0; v <= model_.axisTop + model_.step * 1e-6; v += model_.step) {
        widest = std::max(widest, metrics.horizontalAdvance(QLocale().toString(v, 'f', decimals)));
    }
    return widest;
}

QRectF ThroughputChart::plotRect() const
{
    return chart::layoutChart(QRectF(rect()), QFontMetricsF(font()), yLabelWidth(), legendOf(model_)).plot;
}

double ThroughputChart::yOf(double mpixS) const
{
    const QRectF plot = plotRect();
    return plot.bottom() - mpixS / model_.axisTop * plot.height();
}

QRectF ThroughputChart::categoryRect(int i) const
{
    const QRectF plot = plotRect();
    const double width = plot.width() / std::max<qsizetype>(1, model_.categories.size());
    return QRectF(plot.left() + i * width, plot.top(), width, plot.height());
}

QRectF ThroughputChart::barRect(int index) const
{
    if (index < 0 || index >= model_.bars.size()) {
        return {};
    }
    const ThroughputBar& bar = model_.bars[index];
    const QRectF category = categoryRect(bar.category);
    const int sets = static_cast<int>(model_.setTitles.size());
    const double group = std::min(category.width() * kGroupShare, kMaxBarWidth * sets);
    const double width = group / sets;
    const double left = category.center().x() - group / 2.0 + bar.set * width;
    const double top = yOf(bar.median);
    return QRectF(QPointF(left + kBarGap / 2.0, top), QPointF(left + width - kBarGap / 2.0, category.bottom()));
}

QString ThroughputChart::toolTipAt(QPointF pos) const
{
    const QRectF plot = plotRect();
    for (int i = 0; i < model_.bars.size(); ++i) {
        const ThroughputBar& b = model_.bars[i];
        const QRectF bar = barRect(i);
        // The bar's whole column counts, so that short bars and whiskers are easy to hit.
        const QRectF column(bar.left(), std::min(bar.top(), yOf(b.high)) - kCapHalfWidth, bar.width(),
                            plot.bottom() - std::min(bar.top(), yOf(b.high)) + kCapHalfWidth);
        if (column.contains(pos)) {
            QString text = tr("%1 \u2013 %2\nmedian %3 Mpixel/s")
                               .arg(model_.labels[b.category], model_.setTitles[b.set], rate(b.median));
            if (b.high > 0.0) {
                text += tr("\nslowest run %1, fastest run %2 Mpixel/s").arg(rate(b.low), rate(b.high));
            }
            return text;
        }
    }
    for (int i = 0; i < model_.categories.size(); ++i) {
        if (!model_.errors[i].isEmpty() && categoryRect(i).contains(pos)) {
            return tr("%1 failed: %2").arg(model_.labels[i], model_.errors[i]);
        }
    }
    return {};
}

void ThroughputChart::paintEvent(QPaintEvent*)
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
    chart::drawTitle(p, layout.title, tr("Throughput (median, whiskers: slowest to fastest run)"), palette());
    p.setFont(font());
    chart::drawPlotFrame(p, plot, palette());
    if (model_.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No results yet.\nRun a comparison to see each target's rate."));
        return;
    }

    drawYAxis(p, plot, layout.yTitle, metrics);
    drawCategories(p, plot, layout.xTitle, metrics);
    drawBars(p);
    chart::drawLegend(p, layout.legend, metrics, legend, palette());
}

void ThroughputChart::drawYAxis(QPainter& p, const QRectF& plot, const QRectF& yTitle,
                                const QFontMetricsF& metrics) const
{
    // The y axis: labelled ticks with grid lines across the plot.
    const int decimals = tickDecimals(model_.step);
    for (int k = 0; k * model_.step <= model_.axisTop * (1.0 + 1e-9); ++k) {
        const double v = k * model_.step;
        const double y = yOf(v);
        if (k > 0) {
            chart::drawGridLine(p, QPointF(plot.left() + 1, y), QPointF(plot.right(), y), palette());
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawLine(QPointF(plot.left() - 5.0, y), QPointF(plot.left(), y));
        p.drawText(
            QRectF(yTitle.right(), y - metrics.height() / 2.0, plot.left() - 8.0 - yTitle.right(), metrics.height()),
            Qt::AlignRight | Qt::AlignVCenter, QLocale().toString(v, 'f', decimals));
    }
    chart::drawVerticalTitle(p, yTitle, tr("Mpixel/s"), palette());
}

void ThroughputChart::drawCategories(QPainter& p, const QRectF& plot, const QRectF& xTitle,
                                     const QFontMetricsF& metrics) const
{
    // Categories along the x axis.
    for (int i = 0; i < model_.categories.size(); ++i) {
        const QRectF category = categoryRect(i);
        p.setPen(palette().color(QPalette::WindowText));
        const QRectF label(category.left(), plot.bottom() + 8.0, category.width(), metrics.height());
        p.drawText(label, Qt::AlignHCenter | Qt::AlignTop,
                   metrics.elidedText(model_.categories[i], Qt::ElideRight, category.width() - 2.0));
        if (!model_.errors[i].isEmpty()) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(category.adjusted(0, 0, 0, -4), Qt::AlignHCenter | Qt::AlignBottom, tr("failed"));
        }
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(xTitle, Qt::AlignCenter, tr("Target"));
}

void ThroughputChart::drawBars(QPainter& p) const
{
    // Bars, then whiskers over them, then values above.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF smallMetrics(small);
    // Values above the bars only when every one fits over its bar: a few labels alone read as noise.
    bool labelsFit = true;
    for (int i = 0; i < model_.bars.size(); ++i) {
        const double median = model_.bars[i].median;
        labelsFit =
            labelsFit && smallMetrics.horizontalAdvance(QLocale().toString(median, 'f', median < 10.0 ? 1 : 0)) <=
                             barRect(i).width() + kBarGap;
    }
    for (int i = 0; i < model_.bars.size(); ++i) {
        const ThroughputBar& b = model_.bars[i];
        const QRectF bar = barRect(i);
        p.fillRect(bar, b.colour);
        p.setPen(b.colour.darker(150));
        p.drawRect(bar.adjusted(0.5, 0.5, -0.5, -0.5));
        double labelBottom = bar.top();
        if (b.high > 0.0) {
            const double x = bar.center().x();
            const double low = yOf(b.low);
            const double high = yOf(b.high);
            p.save();
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(b.colour.darker(200), 1.6));
            p.drawLine(QPointF(x, low), QPointF(x, high));
            const double cap = std::min(kCapHalfWidth, bar.width() / 2.0);
            p.drawLine(QPointF(x - cap, low), QPointF(x + cap, low));
            p.drawLine(QPointF(x - cap, high), QPointF(x + cap, high));
            p.restore();
            labelBottom = std::min(labelBottom, high);
        }
        const QString value = QLocale().toString(b.median, 'f', b.median < 10.0 ? 1 : 0);
        if (labelsFit) {
            p.setFont(small);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(
                QRectF(bar.center().x() - 40.0, labelBottom - smallMetrics.height() - 2.0, 80.0, smallMetrics.height()),
                Qt::AlignHCenter | Qt::AlignBottom, value);
            p.setFont(font());
        }
    }
}

}  // namespace tessera::ui
