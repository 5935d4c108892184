// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"
#include "values/timing_stats.h"

#include <QAbstractScrollArea>
#include <QStringList>

#include <optional>
#include <vector>

namespace tessera::ui {

/// A timeline of one run's timing records: one lane per (device, stream), GPUs first and the
/// CPU last, a time ruler on top and one bar per record coloured by phase. The wheel zooms
/// around the cursor (with or without Ctrl), Shift+wheel and a left-button drag pan, the
/// horizontal scroll bar pans too. GUI thread only.
class TimelineView : public QAbstractScrollArea {
    Q_OBJECT

public:
    /// Zoom limit: the finest scale, in microseconds per screen pixel (coarser for very long runs).
    static constexpr double kMinUsPerPixel = 0.01;
    /// Factor applied by one zoom step (a button, one wheel notch).
    static constexpr double kZoomStep = 1.25;

    /// Creates an empty timeline.
    explicit TimelineView(QWidget* parent = nullptr);

    /// Shows records (lanes from their distinct device and stream pairs) fitted to the width.
    void setRecords(const std::vector<values::TimingRecord>& records);
    /// Names devices in the tooltips ("GPU 0 (NVIDIA H200)").
    void setDevices(const values::DeviceSnapshot& devices);
    /// The records shown.
    const std::vector<values::TimingRecord>& records() const { return records_; }
    /// The lanes, top to bottom.
    const std::vector<values::TimingLane>& lanes() const { return lanes_; }
    /// The lanes' titles, top to bottom ("GPU 0 · stream 1", "CPU · thread 0").
    QStringList laneTitles() const;
    /// The time at the left edge of the plot, microseconds on the run's clock.
    double visibleBeginUs() const { return viewBeginUs_; }
    /// How much time the plot's width shows, microseconds.
    double visibleSpanUs() const;
    /// Shows [beginUs, endUs] across the plot, clamped to the zoom limits and the run.
    void setVisibleRange(double beginUs, double endUs);
    /// The record whose bar is under pos (viewport coordinates), if any.
    std::optional<std::size_t> recordAt(QPoint pos) const;
    /// The x (viewport coordinates) of time us.
    double xOf(double us) const;
    /// The rectangle (viewport coordinates) of lane index's row.
    QRect laneRect(int index) const;

public slots:
    /// One step closer, around the middle of the plot.
    void zoomIn();
    /// One step further, around the middle of the plot.
    void zoomOut();
    /// Shows the whole run.
    void fit();

signals:
    /// The visible time range changed (zoom, pan, resize, new records).
    void visibleRangeChanged(double beginUs, double spanUs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    QSize sizeHint() const override;

private:
    void zoomAround(double factor, double anchorUs);
    void applyView(double beginUs, double usPerPixel);
    void updateScrollBars();
    double plotWidth() const;
    double minUsPerPixel() const;
    double maxUsPerPixel() const;
    int labelWidth() const;
    void updateLabelWidth();
    void paintRuler(QPainter& p, double stepUs) const;
    void paintLanes(QPainter& p) const;
    double tickStep() const;

    std::vector<values::TimingRecord> records_;
    std::vector<values::TimingLane> lanes_;
    std::vector<int> laneOf_;  ///< lane index of each record
    values::DeviceSnapshot devices_;
    double runBeginUs_ = 0.0;
    double runEndUs_ = 0.0;
    double viewBeginUs_ = 0.0;
    double usPerPixel_ = 1.0;
    int labelWidth_ = 0;
    bool syncingScrollBar_ = false;
    std::optional<QPoint> dragFrom_;
    double dragBeginUs_ = 0.0;
};

}  // namespace tessera::ui
