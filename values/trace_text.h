// SPDX-License-Identifier: Apache-2.0
#pragma once

// A run's timing records as text: Chrome trace JSON, CSV and a JSON array, the same for every
// front end (the CLI's --trace, the profiler's export, the Python module's trace). No Qt, no
// CUDA: the C library for Python links it too.

#include "values/device_info.h"
#include "values/timing_record.h"

#include <string>
#include <vector>

namespace tessera::values {

/// Chrome trace JSON: one complete event ("ph":"X", ts and dur in microseconds) per record, one
/// process per device named from devices ("GPU 0 (NVIDIA H200)", "CPU"), one thread per stream.
/// Each event's args carry what parseChromeTrace() needs to rebuild the record. Strings that
/// are not UTF-8 are written with U+FFFD for the bytes JSON cannot hold. Throws only bad_alloc.
std::string toChromeTrace(const std::vector<TimingRecord>& records, const DeviceSnapshot& devices = {});

/// Reads the complete events of a trace written by toChromeTrace() back into records, in the
/// file's order; metadata and foreign events without Tessera's args are skipped. Throws
/// std::runtime_error when text is not JSON or has no traceEvents array.
std::vector<TimingRecord> parseChromeTrace(const std::string& text);

/// CSV with the header timingCsvHeader() and one row per record, in the order given; labels
/// are quoted where they need it.
std::string timingCsv(const std::vector<TimingRecord>& records);

/// The CSV header row, without the line end.
std::string timingCsvHeader();

/// A JSON array with one object per record (device, stream, tile, phase, label, begin_us,
/// end_us, duration_us, bytes, x, y, width, height).
std::string timingJson(const std::vector<TimingRecord>& records);

}  // namespace tessera::values
