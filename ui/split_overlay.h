// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QGraphicsRectItem>
#include <QPixmap>

class QGraphicsPixmapItem;
class QPainter;

namespace tessera::ui {

/// The "before" side of ImageView's before/after split: the original picture, clipped to the
/// image area left of the divider. Lives in the view's scene, above the shown image. GUI thread only.
class SplitOverlay : public QGraphicsRectItem {
public:
    /// Creates a hidden overlay without an original.
    SplitOverlay();

    /// Sets the original picture; a null pixmap removes it.
    void setOriginal(const QPixmap& original);
    /// The original picture; null when none is set.
    QPixmap original() const;
    /// Matches the shown image's scaling so both halves look alike at every zoom.
    void setTransformationMode(Qt::TransformationMode mode);
    /// Clips the original to [0, position * imageSize.width()) x [0, imageSize.height()).
    void setDivider(double position, QSize imageSize);

private:
    QGraphicsPixmapItem* originalItem_ = nullptr;
};

/// Draws the divider line, its grab handle and the "Before" / "After" labels of its sides at
/// viewport x over `shown`, the visible part of the image; the painter must be in viewport
/// coordinates.
void paintSplitDivider(QPainter& painter, double x, const QRectF& shown);
/// Where the divider at viewport x can be grabbed: its handle, with a margin for the hand.
QRectF splitHandleGrabRect(double x, const QRectF& shown);

}  // namespace tessera::ui
