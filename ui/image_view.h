#pragma once

#include <QGraphicsView>
#include <QImage>

class QGraphicsPixmapItem;
class QGraphicsScene;

namespace tessera::ui {

/// Shows one image with zoom and pan. Ctrl+wheel zooms around the cursor, the plain wheel and
/// the scroll bars scroll, a left-button drag pans. GUI thread only.
class ImageView : public QGraphicsView {
    Q_OBJECT

public:
    /// Zoom limits; setZoom() clamps to them.
    static constexpr double kMinZoom = 1.0 / 64.0;
    static constexpr double kMaxZoom = 64.0;
    /// Factor applied by one zoom step (a button, a shortcut, one wheel notch).
    static constexpr double kZoomStep = 1.25;

    /// Creates an empty view.
    explicit ImageView(QWidget* parent = nullptr);

    /// Replaces the shown image and fits it to the window; a null image clears the view.
    void setImage(const QImage& image);
    /// Swaps in a new rendering of the same picture (a filter preview): zoom and scroll position
    /// stay where the user left them. A different size behaves as setImage().
    void replaceImage(const QImage& image);
    /// Removes the image.
    void clear();
    /// True when an image is shown.
    bool hasImage() const;
    /// Size of the shown image in pixels; empty without an image.
    QSize imageSize() const;
    /// Screen pixels per image pixel (1.0 = actual size).
    double zoomFactor() const { return zoom_; }
    /// True while the view refits the image whenever the window changes size.
    bool isFitToWindow() const { return fit_; }

public slots:
    /// Sets the zoom, clamped to [kMinZoom, kMaxZoom], keeping the view centre in place.
    void setZoom(double factor);
    /// One step closer.
    void zoomIn();
    /// One step further.
    void zoomOut();
    /// Scales the whole image into the window and keeps it fitted on resize.
    void fitToWindow();
    /// Shows the image at 1:1.
    void actualSize();

signals:
    /// Emitted after every change of zoomFactor().
    void zoomChanged(double factor);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    void applyZoom(double factor);
    void leaveFitMode();

    QGraphicsScene* scene_ = nullptr;
    QGraphicsPixmapItem* item_ = nullptr;
    double zoom_ = 1.0;
    bool fit_ = false;
};

}  // namespace tessera::ui
