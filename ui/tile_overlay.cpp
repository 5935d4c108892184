// SPDX-License-Identifier: Apache-2.0
#include "ui/tile_overlay.h"

#include "ui/timing_format.h"
#include "values/device_label.h"

#include <QCoreApplication>
#include <QGraphicsRectItem>
#include <QPainter>

#include <algorithm>
#include <map>

namespace tessera::ui {

namespace {

/// r as a Qt scene rectangle, for the items that draw it.
QRectF sceneRect(const values::Rect& r)
{
    return QRectF(r.x, r.y, r.width, r.height);
}

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::ui::TileOverlay", text);
}

QString deviceName(values::DeviceId device)
{
    return QString::fromStdString(values::deviceLabel(device));
}

/// One tile: a tinted rectangle whose label is drawn in screen pixels, so it stays readable at
/// every zoom, and only when the tile is large enough on screen to hold it.
class TileMarkItem : public QGraphicsRectItem {
public:
    TileMarkItem(const TileMark& mark, QGraphicsItem* parent)
        : QGraphicsRectItem(sceneRect(mark.rect), parent), mark_(mark)
    {
        setAcceptedMouseButtons(Qt::NoButton);
        QColor fill = mark.tint;
        fill.setAlpha(55);
        setBrush(fill);
        QPen pen(mark.tint, 2.0);
        pen.setCosmetic(true);
        pen.setJoinStyle(Qt::MiterJoin);
        setPen(pen);
        setData(0, mark.device.value());
        // The CPU path copies nothing to or from a device: its tiles name only the filtering.
        const QString phases = mark.device.isCpu()
                                   ? tr("filter %1").arg(formatDuration(mark.kernelUs))
                                   : tr("upload %1 \u00b7 kernel %2 \u00b7 download %3")
                                         .arg(formatDuration(mark.uploadUs), formatDuration(mark.kernelUs),
                                              formatDuration(mark.downloadUs));
        setToolTip(
            tr("<b>Tile %1 \u2014 %2 \u00b7 %3 %4</b><br>x %5, y %6, %7 \u00d7 %8 px<br>%9<br>%10 to %11 of the run")
                .arg(mark.tile)
                .arg(deviceName(mark.device), mark.device.isCpu() ? tr("thread") : tr("stream"))
                .arg(mark.stream)
                .arg(mark.rect.x)
                .arg(mark.rect.y)
                .arg(mark.rect.width)
                .arg(mark.rect.height)
                .arg(phases, formatDuration(mark.beginUs), formatDuration(mark.endUs)));
    }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override
    {
        QGraphicsRectItem::paint(painter, option, widget);
        const QRectF screen = painter->worldTransform().mapRect(rect());
        const QString text =
            QStringLiteral("%1 \u00b7 %2").arg(deviceName(mark_.device), formatDuration(mark_.kernelUs));
        const QFontMetrics metrics(painter->font());
        const QSize need(metrics.horizontalAdvance(text) + 10, metrics.height() + 4);
        if (screen.width() < need.width() + 8 || screen.height() < need.height() + 8) {
            return;
        }
        painter->save();
        painter->resetTransform();
        const QRectF label(screen.topLeft() + QPointF(4, 4), QSizeF(need));
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0, 0, 0, 150));
        painter->drawRoundedRect(label, 3, 3);
        painter->setBrush(mark_.tint);
        painter->drawRect(QRectF(label.left(), label.top() + 2, 3, label.height() - 4));
        painter->setPen(Qt::white);
        painter->drawText(label.adjusted(5, 0, 0, 0), Qt::AlignCenter, text);
        painter->restore();
    }

private:
    TileMark mark_;
};

}  // namespace

std::vector<TileMark> tileMarks(const std::vector<values::TimingRecord>& records)
{
    std::map<int, TileMark> byTile;
    std::map<int, bool> hasKernel;
    for (const values::TimingRecord& r : records) {
        if (r.tile < 0 || r.width <= 0 || r.height <= 0) {
            continue;
        }
        auto [it, fresh] = byTile.try_emplace(r.tile);
        TileMark& m = it->second;
        if (fresh) {
            m.tile = r.tile;
            m.rect = values::Rect{r.x, r.y, r.width, r.height};
            m.beginUs = r.beginUs;
            m.endUs = r.endUs;
        }
        // The kernel says who computed the tile; copies may run elsewhere (staging on the CPU).
        if (fresh || (r.phase == values::Phase::Kernel && !hasKernel[r.tile])) {
            m.device = r.device;
            m.stream = r.stream;
            hasKernel[r.tile] = r.phase == values::Phase::Kernel;
        }
        m.beginUs = std::min(m.beginUs, r.beginUs);
        m.endUs = std::max(m.endUs, r.endUs);
        const double d = std::max(0.0, r.durationUs());
        switch (r.phase) {
        case values::Phase::Upload: m.uploadUs += d; break;
        case values::Phase::Kernel: m.kernelUs += d; break;
        case values::Phase::Download: m.downloadUs += d; break;
        case values::Phase::Host: m.kernelUs += d; break;  // CPU-path tiles filter on the host
        }
    }
    std::vector<TileMark> marks;
    marks.reserve(byTile.size());
    for (auto& [tile, m] : byTile) {
        m.tint = deviceColor(m.device);
        marks.push_back(m);
    }
    return marks;
}

TileOverlay::TileOverlay()
{
    setAcceptedMouseButtons(Qt::NoButton);
    setFlag(QGraphicsItem::ItemHasNoContents);
}

void TileOverlay::setRecords(const std::vector<values::TimingRecord>& records)
{
    for (QGraphicsItem* item : items_) {
        delete item;
    }
    items_.clear();
    prepareGeometryChange();
    marks_ = tileMarks(records);
    bounds_ = QRectF();
    for (const TileMark& m : marks_) {
        items_.push_back(new TileMarkItem(m, this));
        bounds_ = bounds_.united(sceneRect(m.rect));
    }
}

QGraphicsItem* TileOverlay::markItem(int index) const
{
    return index >= 0 && index < static_cast<int>(items_.size()) ? items_[static_cast<std::size_t>(index)] : nullptr;
}

QRectF TileOverlay::boundingRect() const
{
    return bounds_;
}

void TileOverlay::paint(QPainter*, const QStyleOptionGraphicsItem*, QWidget*)
{
}

}  // namespace tessera::ui
