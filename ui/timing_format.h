// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/timing_record.h"
#include "values/timing_stats.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace tessera::ui {

/// The colour of a phase's bars in the timeline and its legend.
QColor phaseColor(values::Phase phase);

/// A stable tint per device for the tile overlay: the same GPU id always gets the same colour,
/// the CPU (-1) a neutral grey.
QColor deviceColor(values::DeviceId device);

/// "Upload", "Kernel", "Download", "Host".
QString phaseTitle(values::Phase phase);

/// A duration in the unit that suits it: "850 ns", "12.4 µs", "1.42 ms", "2.10 s".
QString formatDuration(double us);

/// A byte count in binary units: "512 B", "16.0 MiB".
QString formatBytes(std::uint64_t bytes);

/// The smallest of 1, 2 or 5 times a power of ten that is at least minUs (> 0): where a ruler
/// puts its labelled ticks.
double niceTickStep(double minUs);

/// A time on a ruler whose ticks are stepUs apart, with just the decimals the step needs:
/// "250 µs", "1.5 ms".
QString formatTick(double us, double stepUs);

/// The hover text of one record: label and phase, device and stream, tile rectangle, bytes,
/// GB/s and duration; deviceTitle names the device ("GPU 0 (NVIDIA H200)").
QString describeRecord(const values::TimingRecord& record, const QString& deviceTitle);

/// A timeline lane's title: "GPU 0 · stream 1" or "CPU · thread 0".
QString laneTitle(const values::TimingLane& lane);

}  // namespace tessera::ui
