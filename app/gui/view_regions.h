// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include "values/geometry.h"

#include <QSize>
#include <QSize>

class QTimer;

namespace tessera::ui {
class ImageView;
}  // namespace tessera::ui

namespace tessera::app {

/// Decides which part of the image a preview covers: all of a small image, what the view shows
/// plus a margin of a large one, so that small scrolls need no new preview. Tells, once the view
/// has settled after a scroll, zoom or resize, that another region may be needed. GUI thread only.
class ViewRegions : public QObject {
    Q_OBJECT

public:
    /// Images with more pixels than this are previewed only where the view shows them.
    static constexpr qint64 kDefaultThreshold = 4'000'000;
    /// How long the view must rest before viewSettled(): a scroll or zoom step's worth.
    static constexpr int kSettleMs = 30;

    /// Follows view, which must outlive this object.
    explicit ViewRegions(const ui::ImageView& view, QObject* parent = nullptr);

    /// Sets the pixel count above which only the view is previewed.
    void setThreshold(qint64 pixels) { threshold_ = pixels; }
    qint64 threshold() const { return threshold_; }
    /// The part of image (its whole rectangle) to preview now: all of it when it is small or the view
    /// shows nothing; else the visible part grown by a quarter of its size each side, clipped.
    values::Rect wanted(const values::Rect& image) const;
    /// True when region holds every image pixel the view shows.
    bool coversView(const values::Rect& region) const;
    /// Emits viewSettled() once the view has rested again (e.g. after a region preview arrived
    /// while the view kept moving).
    void recheckSoon();

signals:
    /// The view has rested kSettleMs after its last move.
    void viewSettled();

private:
    const ui::ImageView& view_;
    QTimer* settle_ = nullptr;
    qint64 threshold_ = kDefaultThreshold;
};

}  // namespace tessera::app
