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

values::Rect ViewRegions::wanted(const values::Rect& whole) const
{
    // Small images are previewed whole: about as fast as a region, and right at every scroll
    // position without another request.
    const values::Rect visible = view_.visibleImageRect();
    if (whole.area() <= threshold_ || visible.empty()) {
        return whole;
    }
    return visible.grown(visible.width / 4, visible.height / 4).intersected(whole);
}

bool ViewRegions::coversView(const values::Rect& region) const
{
    const values::Rect visible = view_.visibleImageRect();
    return !region.empty() && !visible.empty() && region.contains(visible);
}

void ViewRegions::recheckSoon()
{
    settle_->start();
}

}  // namespace tessera::app
