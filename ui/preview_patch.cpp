// SPDX-License-Identifier: Apache-2.0
#include "ui/preview_patch.h"

#include <QPainter>
#include <QRegion>

namespace tessera::ui {

namespace {

// Dark enough to tell "not previewed" at a glance, light enough to still see the picture.
const QColor kNotPreviewed(0, 0, 0, 110);

}  // namespace

PreviewPatch::PreviewPatch()
{
    // Painted from the image's pixels only; nothing here takes the mouse.
    setAcceptedMouseButtons(Qt::NoButton);
}

void PreviewPatch::setImageSize(QSize size)
{
    if (size == imageSize_) {
        return;
    }
    prepareGeometryChange();
    imageSize_ = size;
}

void PreviewPatch::setPatch(const QPixmap& patch, QPoint at)
{
    patch_ = patch;
    at_ = at;
    update();
}

values::Rect PreviewPatch::patchRect() const
{
    return patch_.isNull() ? values::Rect{} : values::Rect{at_.x(), at_.y(), patch_.width(), patch_.height()};
}

void PreviewPatch::setTransformationMode(Qt::TransformationMode mode)
{
    if (mode != mode_) {
        mode_ = mode;
        update();
    }
}

QRectF PreviewPatch::boundingRect() const
{
    return QRectF(QPointF(0.0, 0.0), QSizeF(imageSize_));
}

void PreviewPatch::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (patch_.isNull()) {
        return;
    }
    const QRegion outside = QRegion(QRect(QPoint(0, 0), imageSize_))
                                .subtracted(QRegion(patch_.isNull() ? QRect() : QRect(at_, patch_.size())));
    for (const QRect& part : outside) {
        painter->fillRect(part, kNotPreviewed);
    }
    painter->setRenderHint(QPainter::SmoothPixmapTransform, mode_ == Qt::SmoothTransformation);
    painter->drawPixmap(at_, patch_);
}

}  // namespace tessera::ui
