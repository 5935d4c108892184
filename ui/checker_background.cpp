// SPDX-License-Identifier: Apache-2.0
#include "ui/checker_background.h"

#include <QBrush>
#include <QPainter>
#include <QPixmap>

namespace tessera::ui {

namespace {

constexpr int kCheckerCell = 8;

QBrush checkerBrush()
{
    QPixmap tile(2 * kCheckerCell, 2 * kCheckerCell);
    tile.fill(QColor(0x99, 0x99, 0x99));
    QPainter p(&tile);
    const QColor light(0xcc, 0xcc, 0xcc);
    p.fillRect(0, 0, kCheckerCell, kCheckerCell, light);
    p.fillRect(kCheckerCell, kCheckerCell, kCheckerCell, kCheckerCell, light);
    return QBrush(tile);
}

}  // namespace

void paintCheckerBackground(QPainter& painter, const QRectF& image, const QRectF& exposed)
{
    // Made once: the tile never changes.
    static const QBrush checker = checkerBrush();
    painter.save();
    painter.setBrushOrigin(0, 0);
    painter.fillRect(image.intersected(exposed), checker);
    painter.restore();
}

}  // namespace tessera::ui
