// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/geometry.h"
#include "values/timing_record.h"

#include <QColor>
#include <QGraphicsItem>
#include <QString>

#include <vector>

namespace tessera::ui {

/// One tile of a run as the overlay shows it.
struct TileMark {
    int tile = -1;
    values::DeviceId device;  ///< the device that filtered it (its kernel's device), or the CPU
    int stream = 0;
    values::Rect rect;      ///< output rectangle in image pixels
    double beginUs = 0.0;   ///< first record of the tile
    double endUs = 0.0;     ///< last record of the tile
    double kernelUs = 0.0;  ///< summed durations per phase
    double uploadUs = 0.0;
    double downloadUs = 0.0;
    QColor tint;
};

/// Gathers the tiles of records: one mark per tile index with a non-empty rectangle, in tile
/// order; records without a tile (-1) are left out.
std::vector<TileMark> tileMarks(const std::vector<values::TimingRecord>& records);

/// The tile grid of the last run over ImageView's image: each tile outlined and tinted with the
/// colour of the device that computed it, labelled when there is room on screen, with its device
/// and times as a tooltip. Takes no mouse buttons, so panning works through it. GUI thread only.
class TileOverlay : public QGraphicsItem {
public:
    /// Creates an overlay without tiles.
    TileOverlay();

    /// Shows the tiles of records, replacing any shown before; empty records remove them.
    void setRecords(const std::vector<values::TimingRecord>& records);
    /// The tiles shown, in tile order.
    const std::vector<TileMark>& marks() const { return marks_; }
    /// The child item drawing mark index (for tests and tooltips).
    QGraphicsItem* markItem(int index) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<TileMark> marks_;
    std::vector<QGraphicsItem*> items_;  // children, owned through Qt's parent item
    QRectF bounds_;
};

}  // namespace tessera::ui
