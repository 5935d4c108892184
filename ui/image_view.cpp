// SPDX-License-Identifier: Apache-2.0
#include "ui/image_view.h"

#include "ui/checker_background.h"
#include "ui/preview_patch.h"
#include "ui/split_overlay.h"
#include "ui/tile_overlay.h"
#include "ui/view_navigation.h"

#include <QGraphicsPixmapItem>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

// Screen pixels either side of the divider that still grab it; wide enough to hit comfortably.
constexpr double kDividerGrab = 6.0;

}  // namespace

ImageView::ImageView(QWidget* parent) : QGraphicsView(parent), scene_(new QGraphicsScene(this))
{
    setScene(scene_);
    patch_ = new PreviewPatch();
    patch_->setZValue(0.5);
    scene_->addItem(patch_);
    overlay_ = new SplitOverlay();
    overlay_->setZValue(1.0);
    scene_->addItem(overlay_);
    tiles_ = new TileOverlay();
    tiles_->setZValue(2.0);
    tiles_->setVisible(false);
    scene_->addItem(tiles_);
    // The pixel readout follows the mouse without a button held.
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setAlignment(Qt::AlignCenter);
    setFrameShape(QFrame::NoFrame);
    setBackgroundBrush(QColor(0x30, 0x30, 0x30));
    // Drops belong to the main window, which owns the "open this file" decision.
    setAcceptDrops(false);
    setToolTip(tr("Ctrl+wheel zooms around the cursor; drag (or middle-drag) to pan; Shift+wheel scrolls "
                  "sideways; + and - zoom, 1 shows actual size, 0 fits the window"));
    setFocusPolicy(Qt::StrongFocus);
    new ViewNavigation(this);
}

void ImageView::setImage(const QImage& image)
{
    if (image.isNull()) {
        clear();
        return;
    }
    const QPixmap pixmap = QPixmap::fromImage(image);
    if (item_ == nullptr) {
        item_ = scene_->addPixmap(pixmap);
    } else {
        item_->setPixmap(pixmap);
        item_->setTransform(QTransform());
        item_->setTransformationMode(Qt::FastTransformation);
    }
    if (overlay_->original().size() != image.size()) {
        dropOriginal();
    }
    patch_->setPatch(QPixmap(), QPoint());
    patch_->setImageSize(image.size());
    tiles_->setRecords({});
    scene_->setSceneRect(item_->boundingRect());
    updateSplitClip();
    fitToWindow();
    updateHover();
    emit visibleAreaChanged();
}

void ImageView::replaceImage(const QImage& image, QSize logicalSize)
{
    const QSize logical = logicalSize.isEmpty() ? image.size() : logicalSize;
    if (item_ == nullptr || image.isNull() || logical != imageSize()) {
        setImage(image);
        return;
    }
    item_->setPixmap(QPixmap::fromImage(image));
    if (image.size() == logical) {
        item_->setTransform(QTransform());
        item_->setTransformationMode(Qt::FastTransformation);
    } else {
        item_->setTransform(
            QTransform::fromScale(double(logical.width()) / image.width(), double(logical.height()) / image.height()));
        item_->setTransformationMode(Qt::SmoothTransformation);
    }
}

double ImageView::renderingScale() const
{
    return item_ != nullptr ? item_->transform().m11() : 1.0;
}

QImage ImageView::shownImage() const
{
    if (item_ == nullptr) {
        return {};
    }
    const QImage shown = item_->pixmap().toImage();
    return shown.size() == imageSize() ? shown
                                       : shown.scaled(imageSize(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

void ImageView::clear()
{
    dropOriginal();
    patch_->setPatch(QPixmap(), QPoint());
    patch_->setImageSize(QSize());
    tiles_->setRecords({});
    delete item_;
    item_ = nullptr;
    scene_->setSceneRect(QRectF());
    leaveFitMode();
    applyZoom(1.0);
    updateHover();
}

void ImageView::setOriginal(const QImage& original)
{
    if (original.isNull()) {
        dropOriginal();
        return;
    }
    overlay_->setOriginal(QPixmap::fromImage(original));
    overlay_->setTransformationMode(item_ != nullptr ? item_->transformationMode() : Qt::FastTransformation);
    if (!hasOriginal()) {
        setSplitEnabled(false);
    }
}

void ImageView::setPatch(const QImage& patch, QPoint at)
{
    patch_->setPatch(item_ != nullptr && !patch.isNull() ? QPixmap::fromImage(patch) : QPixmap(), at);
}

values::Rect ImageView::patchRect() const
{
    return patch_->patchRect();
}

values::Rect ImageView::visibleImageRect() const
{
    if (item_ == nullptr) {
        return {};
    }
    const QRectF shown = viewportTransform().inverted().mapRect(QRectF(viewport()->rect()));
    const int left = static_cast<int>(std::floor(shown.left()));
    const int top = static_cast<int>(std::floor(shown.top()));
    const int right = static_cast<int>(std::ceil(shown.right()));
    const int bottom = static_cast<int>(std::ceil(shown.bottom()));
    const values::Rect partlyShown{left, top, right - left, bottom - top};
    return partlyShown.intersected(values::imageRect(imageSize().width(), imageSize().height()));
}

bool ImageView::hasOriginal() const
{
    return item_ != nullptr && !overlay_->original().isNull() && overlay_->original().size() == imageSize();
}

bool ImageView::showsOriginalAt(QPoint imagePos) const
{
    return split_ && imagePos.x() < splitPos_ * imageSize().width();
}

void ImageView::setSplitEnabled(bool enabled)
{
    const bool on = enabled && hasOriginal();
    if (on == split_) {
        return;
    }
    split_ = on;
    overlay_->setVisible(on);
    if (!on) {
        draggingDivider_ = false;
        showDividerCursor(false);
    }
    keepDividerInView();
    viewport()->update();
    emit splitEnabledChanged(on);
}

void ImageView::setSplitPosition(double position)
{
    const double clamped = std::isnan(position) ? splitPos_ : std::clamp(position, 0.0, 1.0);
    if (clamped == splitPos_) {
        return;
    }
    splitPos_ = clamped;
    updateSplitClip();
    if (split_) {
        viewport()->update();
    }
    emit splitPositionChanged(splitPos_);
}

void ImageView::setTileOverlay(const std::vector<values::TimingRecord>& records)
{
    tiles_->setRecords(records);
}

void ImageView::setTileOverlayVisible(bool visible)
{
    tiles_->setVisible(visible);
}

bool ImageView::isTileOverlayVisible() const
{
    return tiles_->isVisible();
}

bool ImageView::hasImage() const
{
    return item_ != nullptr;
}

QSize ImageView::imageSize() const
{
    return item_ != nullptr ? item_->sceneBoundingRect().size().toSize() : QSize();
}

void ImageView::setZoom(double factor)
{
    // The scroll bars come back when fit mode ends, and the view's own anchor then loses the
    // centre; hold on to it explicitly.
    const QPointF centre = viewportTransform().inverted().map(QRectF(viewport()->rect()).center());
    leaveFitMode();
    applyZoom(factor);
    if (item_ != nullptr) {
        centerOn(centre);
    }
}

void ImageView::zoomIn()
{
    setZoom(zoom_ * kZoomStep);
}

void ImageView::zoomOut()
{
    setZoom(zoom_ / kZoomStep);
}

void ImageView::fitToWindow()
{
    if (item_ == nullptr) {
        return;
    }
    // No scroll bars while fitted: they would shrink the viewport and make the fit oscillate.
    fit_ = true;
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const QSize image = imageSize();
    const QSize room = maximumViewportSize();
    if (image.isEmpty() || room.isEmpty()) {
        applyZoom(1.0);
        return;
    }
    const double sx = static_cast<double>(room.width()) / image.width();
    const double sy = static_cast<double>(room.height()) / image.height();
    applyZoom(std::min(sx, sy));
}

void ImageView::actualSize()
{
    setZoom(1.0);
}

void ImageView::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || item_ == nullptr) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        event->accept();
        return;
    }
    // Keep the image point under the cursor where it is, whatever the zoom does.
    const QPointF cursor = event->position();
    const QPointF anchor = mapToScene(cursor.toPoint());
    setZoom(zoom_ * std::pow(kZoomStep, delta / 120.0));
    const QPointF moved = QPointF(mapFromScene(anchor)) - cursor;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(moved.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(moved.y()));
    event->accept();
}

void ImageView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (fit_) {
        fitToWindow();
    }
    updateHover();
    emit visibleAreaChanged();
}

void ImageView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && isNearDivider(event->position())) {
        // Not passed on: the base class would start a hand-drag pan.
        draggingDivider_ = true;
        dragOffset_ = event->position().x() - dividerViewX();
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void ImageView::mouseMoveEvent(QMouseEvent* event)
{
    mousePos_ = event->position();
    if (draggingDivider_) {
        const QPointF scenePos =
            viewportTransform().inverted().map(QPointF(event->position().x() - dragOffset_, event->position().y()));
        setSplitPosition(scenePos.x() / imageSize().width());
        event->accept();
    } else {
        QGraphicsView::mouseMoveEvent(event);
        if (event->buttons() == Qt::NoButton) {
            showDividerCursor(isNearDivider(event->position()));
        }
    }
    updateHover();
}

void ImageView::mouseReleaseEvent(QMouseEvent* event)
{
    if (draggingDivider_ && event->button() == Qt::LeftButton) {
        draggingDivider_ = false;
        event->accept();
    } else {
        QGraphicsView::mouseReleaseEvent(event);
        // The base class has just put the drag mode's cursor back.
        dividerCursor_ = false;
    }
    showDividerCursor(isNearDivider(event->position()));
}

bool ImageView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Leave) {
        mousePos_.reset();
        showDividerCursor(false);
        updateHover();
    }
    return QGraphicsView::viewportEvent(event);
}

void ImageView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    keepDividerInView();
    // The handle sits mid-way down the visible part of the divider, so a scrolled copy of the
    // old frame would show it twice.
    if (split_) {
        viewport()->update();
    }
    updateHover();
    emit visibleAreaChanged();
}

void ImageView::drawBackground(QPainter* painter, const QRectF& rect)
{
    QGraphicsView::drawBackground(painter, rect);
    if (item_ != nullptr) {
        paintCheckerBackground(*painter, item_->sceneBoundingRect(), rect);
        return;
    }
    // The empty view says how to get started instead of showing nothing.
    painter->save();
    painter->resetTransform();
    painter->setPen(QColor(0xb0, 0xb0, 0xb0));
    painter->drawText(viewport()->rect(), Qt::AlignCenter,
                      tr("Open an image with File > Open (Ctrl+O),\nor drop an image file here."));
    painter->restore();
}

void ImageView::applyZoom(double factor)
{
    const double clamped = std::clamp(factor, kMinZoom, kMaxZoom);
    // Smooth when shrinking; sharp pixels when enlarging, so single pixels stay visible.
    if (item_ != nullptr) {
        item_->setTransformationMode(clamped < 1.0 ? Qt::SmoothTransformation : Qt::FastTransformation);
        overlay_->setTransformationMode(item_->transformationMode());
        patch_->setTransformationMode(item_->transformationMode());
    }
    setTransform(QTransform::fromScale(clamped, clamped));
    keepDividerInView();
    updateHover();
    emit visibleAreaChanged();
    if (clamped != zoom_) {
        zoom_ = clamped;
        emit zoomChanged(zoom_);
    }
}

void ImageView::leaveFitMode()
{
    if (!fit_) {
        return;
    }
    fit_ = false;
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

void ImageView::setBusy(bool busy)
{
    if (busy_ != busy) {
        busy_ = busy;
        viewport()->update();
    }
}

void ImageView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QGraphicsView::drawForeground(painter, rect);
    const QRectF shown = imageViewRect().intersected(QRectF(viewport()->rect()));
    // Drawn in viewport pixels so the divider and the badge keep their size at every zoom.
    painter->save();
    painter->resetTransform();
    if (split_ && !shown.isEmpty()) {
        paintSplitDivider(*painter, dividerViewX(), shown);
    }
    if (busy_) {
        const QString text = tr("Computing\u2026");
        const QFontMetrics metrics(font());
        const QRectF badge(viewport()->width() - metrics.horizontalAdvance(text) - 28, 8,
                           metrics.horizontalAdvance(text) + 20, metrics.height() + 10);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0, 0, 0, 170));
        painter->drawRoundedRect(badge, 6, 6);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, text);
    }
    painter->restore();
}

void ImageView::dropOriginal()
{
    setSplitEnabled(false);
    overlay_->setOriginal(QPixmap());
}

void ImageView::updateSplitClip()
{
    overlay_->setDivider(splitPos_, imageSize());
}

QRectF ImageView::imageViewRect() const
{
    return viewportTransform().mapRect(QRectF(QPointF(0.0, 0.0), QSizeF(imageSize())));
}

double ImageView::dividerViewX() const
{
    return viewportTransform().map(QPointF(splitPos_ * imageSize().width(), 0.0)).x();
}

bool ImageView::isNearDivider(QPointF viewPos) const
{
    // Only the handle: a left drag anywhere else pans, as it does without the divider.
    const QRectF shown = imageViewRect().intersected(QRectF(viewport()->rect()));
    return split_ && !shown.isEmpty() && splitHandleGrabRect(dividerViewX(), shown).contains(viewPos);
}

void ImageView::keepDividerInView()
{
    const QRectF shown = imageViewRect().intersected(QRectF(viewport()->rect()));
    if (!split_ || draggingDivider_ || shown.width() < 4 * kDividerGrab) {
        return;
    }
    const double x = dividerViewX();
    if (x < shown.left() + kDividerGrab || x > shown.right() - kDividerGrab) {
        setSplitPosition(mapToScene(shown.center().toPoint()).x() / imageSize().width());
    }
}

void ImageView::showDividerCursor(bool show)
{
    if (show == dividerCursor_) {
        return;
    }
    dividerCursor_ = show;
    if (show) {
        viewport()->setCursor(Qt::SplitHCursor);
    } else if (dragMode() == QGraphicsView::ScrollHandDrag) {
        viewport()->setCursor(Qt::OpenHandCursor);
    } else {
        viewport()->unsetCursor();
    }
}

void ImageView::updateHover()
{
    // Called after anything that can change the pixel under a still mouse: moves, scrolls,
    // zooms, resizes, new images.
    std::optional<QPoint> pixel;
    if (mousePos_ && item_ != nullptr) {
        const QPointF p = viewportTransform().inverted().map(*mousePos_);
        const QSize size = imageSize();
        if (p.x() >= 0.0 && p.y() >= 0.0 && p.x() < size.width() && p.y() < size.height()) {
            pixel = QPoint(static_cast<int>(p.x()), static_cast<int>(p.y()));
        }
    }
    if (pixel == hoveredPixel_) {
        return;
    }
    hoveredPixel_ = pixel;
    if (pixel) {
        emit pixelHovered(*pixel);
    } else {
        emit pixelLeft();
    }
}

}  // namespace tessera::ui
