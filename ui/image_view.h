// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/geometry.h"
#include "values/timing_record.h"

#include <QGraphicsView>
#include <QImage>

#include <optional>
#include <vector>

class QGraphicsPixmapItem;
class QGraphicsScene;

namespace tessera::ui {

class PreviewPatch;
class SplitOverlay;
class TileOverlay;

/// Shows one image with zoom and pan. Ctrl+wheel zooms around the cursor, the plain wheel and
/// the scroll bars scroll, a left-button drag pans. Optionally splits the picture into the
/// unfiltered original (left of a draggable divider) and the shown image (right), and reports
/// the image pixel under the mouse. GUI thread only.
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
    /// stay where the user left them. A different size behaves as setImage(). A logicalSize
    /// larger than image's says image is a reduced rendering (a fit-zoom preview) of a picture
    /// of that size: it is drawn scaled up to it, smoothly.
    void replaceImage(const QImage& image, QSize logicalSize = {});
    /// Image pixels per pixel of the shown rendering (1 unless a reduced preview is shown).
    double renderingScale() const;
    /// Removes the image and the original, and turns the split off.
    void clear();
    /// Sets the unfiltered picture for the split's left side. It shows only while its size equals
    /// the shown image's; setImage() of another size drops it. A null image drops it.
    void setOriginal(const QImage& original);
    /// True when an original of the shown image's size is set.
    bool hasOriginal() const;
    /// Shows patch (the preview of part of the image) over the image with its top-left corner at
    /// image pixel at, and dims the rest of the image as not previewed; a null patch removes it.
    /// setImage() and clear() remove it too.
    void setPatch(const QImage& patch, QPoint at);
    /// The image pixels the patch covers; empty without one.
    values::Rect patchRect() const;
    /// The image pixels the viewport shows, partly shown ones included; empty without an image.
    values::Rect visibleImageRect() const;
    /// True while the before/after split is shown.
    bool isSplitEnabled() const { return split_; }
    /// Divider position as a fraction of the image width, in [0, 1]; 0.5 by default.
    double splitPosition() const { return splitPos_; }
    /// True when the split shows the original, not the shown image, at this image pixel.
    bool showsOriginalAt(QPoint imagePos) const;
    /// True when an image is shown.
    bool hasImage() const;
    /// The shown picture (right of the divider when split), as an image at imageSize() (a reduced
    /// rendering scaled up); null without one.
    QImage shownImage() const;
    /// Size of the shown image in pixels; empty without an image.
    QSize imageSize() const;
    /// Screen pixels per image pixel (1.0 = actual size).
    double zoomFactor() const { return zoom_; }
    /// True while the view refits the image whenever the window changes size.
    bool isFitToWindow() const { return fit_; }
    /// Sets the tile grid of a run from its timing records (tile rectangles, devices, times);
    /// empty records remove it. setImage() and clear() remove it too.
    void setTileOverlay(const std::vector<values::TimingRecord>& records);
    /// The tile grid item; its marks() say which tiles it shows.
    TileOverlay* tileOverlay() const { return tiles_; }
    /// True while the tile grid is shown (View > Show Tiles).
    bool isTileOverlayVisible() const;

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
    /// Shows or hides the before/after split; stays off unless hasOriginal().
    void setSplitEnabled(bool enabled);
    /// Moves the divider to this fraction of the image width, clamped to [0, 1].
    void setSplitPosition(double position);
    /// Shows or hides the tile grid of the last run.
    void setTileOverlayVisible(bool visible);
    /// Shows (or takes away) a "Computing…" badge in the view's top-right corner while a preview
    /// is on its way, so the picture on screen is not taken for the new one.
    void setBusy(bool busy);
    bool isBusy() const { return busy_; }

signals:
    /// Emitted after every change of zoomFactor().
    void zoomChanged(double factor);
    /// Emitted after every change of isSplitEnabled(), including the automatic switch-off.
    void splitEnabledChanged(bool enabled);
    /// Emitted after every change of splitPosition(), from code or from a divider drag.
    void splitPositionChanged(double position);
    /// The mouse is over this image pixel; emitted when the pixel changes.
    void pixelHovered(QPoint imagePos);
    /// The mouse is no longer over any image pixel.
    void pixelLeft();
    /// What visibleImageRect() covers may have changed (scroll, zoom, resize, new image).
    void visibleAreaChanged();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void applyZoom(double factor);
    void leaveFitMode();
    void dropOriginal();
    void updateSplitClip();
    QRectF imageViewRect() const;
    double dividerViewX() const;
    bool isNearDivider(QPointF viewPos) const;
    void showDividerCursor(bool show);
    /// Moves the divider to the middle of what is shown when zooming or scrolling took it out.
    void keepDividerInView();
    void updateHover();

    QGraphicsScene* scene_ = nullptr;
    QGraphicsPixmapItem* item_ = nullptr;
    PreviewPatch* patch_ = nullptr;    // owned by scene_, drawn above item_
    SplitOverlay* overlay_ = nullptr;  // owned by scene_, drawn above patch_
    TileOverlay* tiles_ = nullptr;     // owned by scene_, drawn above everything
    double zoom_ = 1.0;
    bool fit_ = false;
    bool split_ = false;
    bool busy_ = false;
    double splitPos_ = 0.5;
    bool draggingDivider_ = false;
    double dragOffset_ = 0.0;
    bool dividerCursor_ = false;
    std::optional<QPointF> mousePos_;
    std::optional<QPoint> hoveredPixel_;
};

}  // namespace tessera::ui
