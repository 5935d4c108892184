// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/timing_stats.h"

#include <QTableWidget>

#include <vector>

namespace tessera::ui {

/// The per-kernel summary under the profiler's timeline: one row per (device, phase, label)
/// with count, min / median / max duration, Mpixel/s, GB/s and the share of the device's DRAM
/// bandwidth. Sortable by any column; numbers sort as numbers. GUI thread only.
class TimingTable : public QTableWidget {
    Q_OBJECT

public:
    /// The columns, left to right.
    enum Column { Device, Phase, Label, Count, Min, Median, Max, MPixels, GBs, PeakShare, ColumnCount };

    /// Creates an empty table with its headers.
    explicit TimingTable(QWidget* parent = nullptr);

    /// Shows stats, one row each, in their order (until the user sorts); devices names the GPUs.
    void setStats(const std::vector<values::TimingStats>& stats, const values::DeviceSnapshot& devices);
    /// The exact number behind a numeric cell (durations in µs), or NaN for a text or empty cell.
    double value(int row, Column column) const;
};

}  // namespace tessera::ui
