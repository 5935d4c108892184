// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::values {

/// What one kind of work (same device, phase and label) cost over a run's records.
struct TimingStats {
    DeviceId device;
    Phase phase = Phase::Host;
    std::string label;
    int count = 0;
    double minUs = 0.0;
    double medianUs = 0.0;  ///< the mean of the two middle durations for an even count
    double maxUs = 0.0;
    double totalUs = 0.0;
    std::uint64_t pixels = 0;  ///< sum of the records' tile areas
    std::uint64_t bytes = 0;
    double mpixelsPerS = 0.0;  ///< pixels / totalUs; 0 when no time or no tile area was recorded
    double gbPerS = 0.0;       ///< bytes / totalUs (1 GB = 1e9 bytes); 0 when no time or no bytes
    /// gbPerS as a percentage of the device's theoretical DRAM bandwidth; empty for the CPU, for
    /// a device the snapshot lacks or whose bandwidth is unknown, and without bytes.
    std::optional<double> percentOfPeak;
};

/// One (device, stream) pair of a run: a lane of a timeline, a thread of a trace.
struct TimingLane {
    DeviceId device;
    int stream = 0;
    auto operator<=>(const TimingLane&) const = default;
};

/// Groups records by (device, phase, label) and summarises each group; GPUs in id order first,
/// the CPU last, phases in pipeline order, labels alphabetically. Never throws on odd records:
/// a negative duration counts as zero.
std::vector<TimingStats> computeTimingStats(const std::vector<TimingRecord>& records,
                                            const DeviceSnapshot& devices = {});

/// The distinct (device, stream) pairs of records, GPUs in id order first, the CPU last.
std::vector<TimingLane> timingLanes(const std::vector<TimingRecord>& records);

/// "GPU 0 (NVIDIA H200)" when devices knows the name, "GPU 0" when not, "CPU" for the CPU:
/// deviceLabel's WithModel form.
std::string deviceTitle(DeviceId device, const DeviceSnapshot& devices = {});

/// The earliest begin and the latest end of records; {0, 0} when there are none.
std::pair<double, double> timeSpan(const std::vector<TimingRecord>& records);

}  // namespace tessera::values
