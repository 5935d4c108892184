// SPDX-License-Identifier: Apache-2.0
#include "app/gui/view_regions.h"

#include "ui/image_view.h"

#include <QTimer>

namespace tessera::app {

ViewRegions::ViewRegions(const ui::ImageView& view, QObject* parent)
    : QObject(parent), view_(view), settle_(new QTimer(this))
{
    settle_->setSingleShot(true);
    settle_->setInterval(kSettleMs);
    connect(&view_, &ui::ImageView::visibleAreaChanged, this, &ViewRegions::recheckSoon);
    connect(settle_, &QTimer::timeout, this, &ViewRegions::viewSettled);
}

QRect ViewRegions::wanted(QSize image) const
{
    const QRect whole(QPoint(0, 0), image);
    // Small images are previewed whole: about as fast as a region, and right at every scroll
    // position without another request.
    const QRect visible = view_.visibleImageRect();
    if (static_cast<qint64>(image.width()) * image.height() <= threshold_ || visible.isEmpty()) {
        return whole;
    }
    const int dx = visible.width() / 4;
    const int dy = visible.height() / 4;
    return visible.adjusted(-dx, -dy, dx, dy).intersected(whole);
}

bool ViewRegions::coversView(const QRect& region) const
{
    return region.contains(view_.visibleImageRect());
}

void ViewRegions::recheckSoon()
{
    settle_->start();
}

}  // namespace tessera::app
