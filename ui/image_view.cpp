#include "ui/image_view.h"

#include <QGraphicsPixmapItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

constexpr int kCheckerCell = 8;

QBrush checkerBrush()
{
    // Shows through transparent pixels so alpha is visible against the dark background.
    QPixmap tile(2 * kCheckerCell, 2 * kCheckerCell);
    tile.fill(QColor(0x99, 0x99, 0x99));
    QPainter p(&tile);
    const QColor light(0xcc, 0xcc, 0xcc);
    p.fillRect(0, 0, kCheckerCell, kCheckerCell, light);
    p.fillRect(kCheckerCell, kCheckerCell, kCheckerCell, kCheckerCell, light);
    return QBrush(tile);
}

}  // namespace

ImageView::ImageView(QWidget* parent)
    : QGraphicsView(parent), scene_(new QGraphicsScene(this))
{
    setScene(scene_);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setAlignment(Qt::AlignCenter);
    setFrameShape(QFrame::NoFrame);
    setBackgroundBrush(QColor(0x30, 0x30, 0x30));
    // Drops belong to the main window, which owns the "open this file" decision.
    setAcceptDrops(false);
    setToolTip(tr("Ctrl+wheel zooms around the cursor; drag to pan"));
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
    }
    scene_->setSceneRect(item_->boundingRect());
    fitToWindow();
}

void ImageView::replaceImage(const QImage& image)
{
    if (item_ == nullptr || image.isNull() || image.size() != imageSize()) {
        setImage(image);
        return;
    }
    item_->setPixmap(QPixmap::fromImage(image));
}

void ImageView::clear()
{
    delete item_;
    item_ = nullptr;
    scene_->setSceneRect(QRectF());
    leaveFitMode();
    applyZoom(1.0);
}

bool ImageView::hasImage() const
{
    return item_ != nullptr;
}

QSize ImageView::imageSize() const
{
    return item_ != nullptr ? item_->pixmap().size() : QSize();
}

void ImageView::setZoom(double factor)
{
    leaveFitMode();
    applyZoom(factor);
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
}

void ImageView::drawBackground(QPainter* painter, const QRectF& rect)
{
    QGraphicsView::drawBackground(painter, rect);
    if (item_ != nullptr) {
        static const QBrush checker = checkerBrush();
        painter->save();
        painter->setBrushOrigin(0, 0);
        painter->fillRect(item_->boundingRect().intersected(rect), checker);
        painter->restore();
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
    }
    setTransform(QTransform::fromScale(clamped, clamped));
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

}  // namespace tessera::ui
