// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/geometry.h"

#include <QGraphicsItem>
#include <QPixmap>
#include <QPoint>
#include <QRect>
#include <QSize>

namespace tessera::ui {

/// The preview of a part of the image, drawn over the image in ImageView's scene, with the
/// rest of the image dimmed so that it does not pass for previewed. Sits between the image
/// and the split's original. GUI thread only.
class PreviewPatch : public QGraphicsItem {
public:
    /// Creates an item that draws nothing until setPatch().
    PreviewPatch();

    /// Sets the size of the image the patch lies on (the area dimmed outside the patch).
    void setImageSize(QSize size);
    /// Shows patch with its top-left corner at image pixel at; a null pixmap removes it.
    void setPatch(const QPixmap& patch, QPoint at);
    /// The image pixels the patch covers; empty without one.
    values::Rect patchRect() const;
    /// Matches the image's scaling so the patch and the image look alike at every zoom.
    void setTransformationMode(Qt::TransformationMode mode);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QSize imageSize_;
    QPixmap patch_;
    QPoint at_;
    Qt::TransformationMode mode_ = Qt::FastTransformation;
};

}  // namespace tessera::ui
