// SPDX-License-Identifier: Apache-2.0
#include "ui/timeline_view.h"

#include "ui/timing_format.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

constexpr int kRulerHeight = 28;
constexpr int kLaneHeight = 26;
constexpr int kBarInset = 4;            // space between a bar and its lane's edges
constexpr int kRightPad = 10;           // room so the last tick label is not cut
constexpr double kTickSpacing = 110.0;  // screen pixels wanted between labelled ticks

/// Black or white, whichever reads better on background.
QColor textOn(const QColor& background)
{
    return background.lightnessF() > 0.62 ? QColor(0x20, 0x20, 0x20) : Qt::white;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("timelineView"));
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setCursor(Qt::OpenHandCursor);
    setMinimumHeight(kRulerHeight + 2 * kLaneHeight + 20);
    updateLabelWidth();
}

void TimelineView::setRecords(const std::vector<values::TimingRecord>& records)
{
    records_ = records;
    lanes_ = values::timingLanes(records_);
    laneOf_.clear();
    laneOf_.reserve(records_.size());
    for (const values::TimingRecord& r : records_) {
        const values::TimingLane key{r.device, r.stream};
        const auto it = std::find(lanes_.begin(), lanes_.end(), key);
        laneOf_.push_back(static_cast<int>(it - lanes_.begin()));
    }
    const auto [begin, end] = values::timeSpan(records_);
    runBeginUs_ = begin;
    // A run without length still needs a scale.
    runEndUs_ = end > begin ? end : begin + 1.0;
    updateLabelWidth();
    updateGeometry();
    fit();
}

void TimelineView::setDevices(const values::DeviceSnapshot& devices)
{
    devices_ = devices;
}

QStringList TimelineView::laneTitles() const
{
    QStringList titles;
    for (const values::TimingLane& lane : lanes_) {
        titles << laneTitle(lane);
    }
    return titles;
}

double TimelineView::visibleSpanUs() const
{
    return usPerPixel_ * plotWidth();
}

void TimelineView::setVisibleRange(double beginUs, double endUs)
{
    if (!(endUs > beginUs)) {
        return;
    }
    applyView(beginUs, (endUs - beginUs) / plotWidth());
}

void TimelineView::zoomIn()
{
    zoomAround(kZoomStep, viewBeginUs_ + 0.5 * visibleSpanUs());
}

void TimelineView::zoomOut()
{
    zoomAround(1.0 / kZoomStep, viewBeginUs_ + 0.5 * visibleSpanUs());
}

void TimelineView::fit()
{
    applyView(runBeginUs_, maxUsPerPixel());
}

double TimelineView::xOf(double us) const
{
    return labelWidth() + (us - viewBeginUs_) / usPerPixel_;
}

QRect TimelineView::laneRect(int index) const
{
    return QRect(0, kRulerHeight + index * kLaneHeight - verticalScrollBar()->value(), viewport()->width(),
                 kLaneHeight);
}

std::optional<std::size_t> TimelineView::recordAt(QPoint pos) const
{
    if (pos.x() < labelWidth() || pos.y() < kRulerHeight) {
        return std::nullopt;
    }
    const int lane = (pos.y() - kRulerHeight + verticalScrollBar()->value()) / kLaneHeight;
    // Later records are drawn on top, so they win; a bar is never thinner than a pixel to hit.
    for (std::size_t i = records_.size(); i-- > 0;) {
        if (laneOf_[i] != lane) {
            continue;
        }
        const double x0 = xOf(records_[i].beginUs);
        const double x1 = std::max(xOf(records_[i].endUs), x0 + 1.0);
        if (pos.x() >= std::floor(x0) - 1.0 && pos.x() <= std::ceil(x1) + 1.0) {
            return i;
        }
    }
    return std::nullopt;
}

void TimelineView::zoomAround(double factor, double anchorUs)
{
    const double upp = std::clamp(usPerPixel_ / factor, minUsPerPixel(), std::max(minUsPerPixel(), maxUsPerPixel()));
    // The time under the anchor stays under it.
    applyView(anchorUs - (anchorUs - viewBeginUs_) * upp / usPerPixel_, upp);
}

void TimelineView::applyView(double beginUs, double usPerPixel)
{
    usPerPixel_ = std::clamp(usPerPixel, minUsPerPixel(), std::max(minUsPerPixel(), maxUsPerPixel()));
    const double span = visibleSpanUs();
    viewBeginUs_ = std::clamp(beginUs, runBeginUs_, std::max(runBeginUs_, runEndUs_ - span));
    updateScrollBars();
    viewport()->update();
    emit visibleRangeChanged(viewBeginUs_, span);
}

void TimelineView::updateScrollBars()
{
    syncingScrollBar_ = true;
    const double width = plotWidth();
    const double total = (runEndUs_ - runBeginUs_) / usPerPixel_;
    QScrollBar* h = horizontalScrollBar();
    h->setRange(0, static_cast<int>(std::max(0.0, std::ceil(total - width))));
    h->setPageStep(static_cast<int>(width));
    h->setSingleStep(std::max(1, static_cast<int>(width / 20.0)));
    h->setValue(static_cast<int>(std::lround((viewBeginUs_ - runBeginUs_) / usPerPixel_)));
    QScrollBar* v = verticalScrollBar();
    const int lanesHeight = static_cast<int>(lanes_.size()) * kLaneHeight;
    const int room = viewport()->height() - kRulerHeight;
    v->setRange(0, std::max(0, lanesHeight - room));
    v->setPageStep(std::max(1, room));
    v->setSingleStep(kLaneHeight);
    syncingScrollBar_ = false;
}

double TimelineView::plotWidth() const
{
    return std::max(1.0, static_cast<double>(viewport()->width() - labelWidth() - kRightPad));
}

double TimelineView::minUsPerPixel() const
{
    // The scroll bar counts pixels in an int: a long run stops zooming before it overflows.
    return std::max(kMinUsPerPixel, (runEndUs_ - runBeginUs_) / 1e9);
}

double TimelineView::maxUsPerPixel() const
{
    return (runEndUs_ - runBeginUs_) / plotWidth();
}

int TimelineView::labelWidth() const
{
    return labelWidth_;
}

void TimelineView::updateLabelWidth()
{
    // Cached: every bar's position depends on it.
    int widest = fontMetrics().horizontalAdvance(QStringLiteral("GPU 0 \u00b7 stream 0"));
    for (const QString& title : laneTitles()) {
        widest = std::max(widest, fontMetrics().horizontalAdvance(title));
    }
    labelWidth_ = widest + 24;
}

double TimelineView::tickStep() const
{
    return niceTickStep(usPerPixel_ * kTickSpacing);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    p.fillRect(viewport()->rect(), palette().base());
    if (records_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   tr("No timing records yet.\nRun a filter to see where its time goes."));
        return;
    }
    const double step = tickStep();
    paintLanes(p);
    paintRuler(p, step);
}

void TimelineView::paintLanes(QPainter& p) const
{
    const int left = labelWidth();
    const QRect lanesArea(0, kRulerHeight, viewport()->width(), viewport()->height() - kRulerHeight);
    p.save();
    p.setClipRect(lanesArea);
    for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
        const QRect row = laneRect(i);
        p.fillRect(row, i % 2 == 0 ? palette().base() : palette().alternateBase());
    }
    // Grid lines under the bars, at the ruler's ticks.
    const double step = tickStep();
    p.setPen(QPen(palette().color(QPalette::Mid), 0, Qt::DotLine));
    for (double t = std::ceil(viewBeginUs_ / step) * step; t <= viewBeginUs_ + visibleSpanUs(); t += step) {
        const double x = xOf(t);
        p.drawLine(QPointF(x, kRulerHeight), QPointF(x, lanesArea.bottom()));
    }
    p.setClipRect(QRect(left, kRulerHeight, viewport()->width() - left, lanesArea.height()));
    const QFontMetrics metrics = fontMetrics();
    for (std::size_t i = 0; i < records_.size(); ++i) {
        const values::TimingRecord& r = records_[i];
        const double x0 = xOf(r.beginUs);
        const double x1 = std::max(xOf(r.endUs), x0 + 1.0);
        if (x1 < left || x0 > viewport()->width()) {
            continue;
        }
        const QRect row = laneRect(laneOf_[i]);
        const QRectF bar(QPointF(x0, row.top() + kBarInset), QPointF(x1, row.bottom() - kBarInset + 1));
        const QColor colour = phaseColor(r.phase);
        p.fillRect(bar, colour);
        if (bar.width() >= 4.0) {
            p.setPen(colour.darker(140));
            p.drawRect(bar.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        // Visible part only, so that a long bar scrolled half off still shows its name.
        const QRectF shown = bar.intersected(QRectF(left, bar.top(), viewport()->width() - left, bar.height()));
        if (shown.width() > 36.0) {
            const QString text = r.label.empty() ? phaseTitle(r.phase) : QString::fromStdString(r.label);
            p.setPen(textOn(colour));
            p.drawText(shown.adjusted(4, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       metrics.elidedText(text, Qt::ElideRight, static_cast<int>(shown.width()) - 7));
        }
    }
    p.setClipRect(lanesArea);
    // The lane titles sit in a column of their own that does not scroll sideways.
    p.fillRect(QRect(0, kRulerHeight, left, lanesArea.height()), palette().window());
    for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
        const QRect row = laneRect(i);
        p.fillRect(QRect(0, row.top() + 3, 4, row.height() - 6),
                   deviceColor(lanes_[static_cast<std::size_t>(i)].device));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(row.adjusted(10, 0, -left + row.width() - 4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   laneTitle(lanes_[static_cast<std::size_t>(i)]));
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(left - 1, kRulerHeight, left - 1, lanesArea.bottom());
    p.restore();
}

void TimelineView::paintRuler(QPainter& p, double step) const
{
    const int left = labelWidth();
    const QRect ruler(0, 0, viewport()->width(), kRulerHeight);
    p.fillRect(ruler, palette().window());
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, ruler.right(), kRulerHeight - 1);
    p.save();
    p.setClipRect(QRect(left, 0, viewport()->width() - left, kRulerHeight));
    const double end = viewBeginUs_ + visibleSpanUs();
    const double minor = step / 5.0;
    for (double t = std::ceil(viewBeginUs_ / minor) * minor; t <= end + minor; t += minor) {
        const double x = xOf(t);
        p.drawLine(QPointF(x, kRulerHeight - 5), QPointF(x, kRulerHeight - 1));
    }
    p.setPen(palette().color(QPalette::WindowText));
    for (double t = std::floor(viewBeginUs_ / step) * step; t <= end + step; t += step) {
        const double x = xOf(t);
        p.drawLine(QPointF(x, kRulerHeight - 10), QPointF(x, kRulerHeight - 1));
        // Round away -0 and the sums' drift before labelling.
        const double shown = std::abs(t) < step * 1e-6 ? 0.0 : t;
        p.drawText(QRectF(x + 3, 2, kTickSpacing - 6, kRulerHeight - 12), Qt::AlignLeft | Qt::AlignVCenter,
                   formatTick(shown, step));
    }
    p.restore();
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(8, 0, left - 12, kRulerHeight - 1), Qt::AlignVCenter | Qt::AlignLeft, tr("Time"));
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    const bool fitted = usPerPixel_ >= maxUsPerPixel() * (1.0 - 1e-9);
    QAbstractScrollArea::resizeEvent(event);
    // A whole run stays whole; a zoomed-in view keeps its scale.
    if (fitted) {
        fit();
    } else {
        applyView(viewBeginUs_, usPerPixel_);
    }
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const int notches = delta.y() != 0 ? delta.y() : delta.x();
    if (notches == 0 || records_.empty()) {
        event->accept();
        return;
    }
    if ((event->modifiers() & Qt::ShiftModifier) || delta.y() == 0) {
        // Sideways: an eighth of the plot per notch.
        applyView(viewBeginUs_ - notches / 120.0 * visibleSpanUs() / 8.0, usPerPixel_);
    } else {
        const double x =
            std::clamp(event->position().x(), static_cast<double>(labelWidth()), labelWidth() + plotWidth());
        zoomAround(std::pow(kZoomStep, notches / 120.0), viewBeginUs_ + (x - labelWidth()) * usPerPixel_);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && event->position().x() >= labelWidth()) {
        dragFrom_ = event->position().toPoint();
        dragBeginUs_ = viewBeginUs_;
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (dragFrom_ && (event->buttons() & Qt::LeftButton)) {
        const double dx = event->position().x() - dragFrom_->x();
        applyView(dragBeginUs_ - dx * usPerPixel_, usPerPixel_);
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseMoveEvent(event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (dragFrom_ && event->button() == Qt::LeftButton) {
        dragFrom_.reset();
        viewport()->setCursor(Qt::OpenHandCursor);
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseReleaseEvent(event);
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto index = recordAt(help->pos())) {
            const values::TimingRecord& r = records_[*index];
            QToolTip::showText(help->globalPos(),
                               describeRecord(r, QString::fromStdString(values::deviceTitle(r.device, devices_))),
                               viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::scrollContentsBy(int dx, int dy)
{
    if (syncingScrollBar_) {
        return;
    }
    if (dx != 0) {
        applyView(runBeginUs_ + horizontalScrollBar()->value() * usPerPixel_, usPerPixel_);
    }
    if (dy != 0) {
        viewport()->update();
    }
}

QSize TimelineView::sizeHint() const
{
    const int lanes = std::max<int>(2, static_cast<int>(lanes_.size()));
    return QSize(900, kRulerHeight + lanes * kLaneHeight + horizontalScrollBar()->sizeHint().height() + 4);
}

}  // namespace tessera::ui
