// SPDX-License-Identifier: Apache-2.0
#include "ui/split_overlay.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsPixmapItem>
#include <QPainter>
#include <QPen>

namespace tessera::ui {

namespace {

constexpr double kHandleWidth = 12.0;
constexpr double kHandleHeight = 32.0;
constexpr double kGrabMargin = 6.0;

QRectF handleRect(double x, const QRectF& shown)
{
    QRectF handle(0.0, 0.0, kHandleWidth, kHandleHeight);
    handle.moveCenter(QPointF(x, shown.center().y()));
    return handle;
}

/// A label on a dark, rounded plate; right-aligned to x when alignRight, else left-aligned.
void paintSideLabel(QPainter& painter, const QString& text, double x, double top, bool alignRight)
{
    const QFontMetricsF metrics(painter.font());
    QRectF box(0.0, 0.0, metrics.horizontalAdvance(text) + 12.0, metrics.height() + 6.0);
    box.moveTop(top + 8.0);
    if (alignRight) {
        box.moveRight(x - 8.0);
    } else {
        box.moveLeft(x + 8.0);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 150));
    painter.drawRoundedRect(box, 4.0, 4.0);
    painter.setPen(Qt::white);
    painter.drawText(box, Qt::AlignCenter, text);
}

}  // namespace

SplitOverlay::SplitOverlay() : originalItem_(new QGraphicsPixmapItem(this))
{
    // Without a pen the shape is exactly the rectangle, so the clip ends on the divider.
    setPen(Qt::NoPen);
    setBrush(Qt::NoBrush);
    setFlag(QGraphicsItem::ItemClipsChildrenToShape);
    setVisible(false);
}

void SplitOverlay::setOriginal(const QPixmap& original)
{
    originalItem_->setPixmap(original);
}

QPixmap SplitOverlay::original() const
{
    return originalItem_->pixmap();
}

void SplitOverlay::setTransformationMode(Qt::TransformationMode mode)
{
    originalItem_->setTransformationMode(mode);
}

void SplitOverlay::setDivider(double position, QSize imageSize)
{
    setRect(0.0, 0.0, position * imageSize.width(), imageSize.height());
}

void paintSplitDivider(QPainter& painter, double x, const QRectF& shown)
{
    const QColor edge(0, 0, 0, 160);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    // A light line on a dark edge stays visible over both light and dark pictures.
    painter.setPen(QPen(edge, 3.0));
    painter.drawLine(QPointF(x, shown.top()), QPointF(x, shown.bottom()));
    painter.setPen(QPen(Qt::white, 1.0));
    painter.drawLine(QPointF(x, shown.top()), QPointF(x, shown.bottom()));
    const QRectF handle = handleRect(x, shown);
    painter.setPen(QPen(edge, 1.0));
    painter.setBrush(Qt::white);
    painter.drawRoundedRect(handle, 4.0, 4.0);
    painter.setPen(QPen(QColor(0x60, 0x60, 0x60), 1.0));
    for (const double dx : {-2.0, 2.0}) {
        painter.drawLine(QPointF(x + dx, handle.top() + 8.0), QPointF(x + dx, handle.bottom() - 8.0));
    }
    // The sides named where they meet, as long as there is room for the names.
    const QString before = QCoreApplication::translate("SplitOverlay", "Before");
    const QString after = QCoreApplication::translate("SplitOverlay", "After");
    const double room = QFontMetricsF(painter.font()).horizontalAdvance(before) + 24.0;
    if (x - shown.left() >= room) {
        paintSideLabel(painter, before, x, shown.top(), true);
    }
    if (shown.right() - x >= room) {
        paintSideLabel(painter, after, x, shown.top(), false);
    }
    painter.restore();
}

QRectF splitHandleGrabRect(double x, const QRectF& shown)
{
    return handleRect(x, shown).adjusted(-kGrabMargin, -kGrabMargin, kGrabMargin, kGrabMargin);
}

}  // namespace tessera::ui
