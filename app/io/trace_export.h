// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "gpu/device_info.h"
#include "values/timing_record.h"

#include <QString>

#include <string>
#include <vector>

namespace tessera::app {

/// The files a run's timing records can be written as.
enum class TraceFormat {
    Csv,          ///< header row, then one row per record
    Json,         ///< an array of record objects
    ChromeTrace,  ///< Chrome trace event JSON, for Perfetto and chrome://tracing
};

/// Chrome trace JSON: one complete event ("ph":"X", ts and dur in microseconds) per record, one
/// process per device named from devices ("GPU 0 (NVIDIA H200)", "CPU"), one thread per stream.
/// Each event's args carry what parseChromeTrace() needs to rebuild the record.
std::string toChromeTrace(const std::vector<gpu::TimingRecord>& records, const gpu::DeviceSnapshot& devices = {});

/// CSV with the header csvHeader() and one row per record, in the order given; labels are
/// quoted where they need it.
std::string toCsv(const std::vector<gpu::TimingRecord>& records);

/// The CSV header row, without the line end.
std::string csvHeader();

/// A JSON array with one object per record (device, stream, tile, phase, label, begin_us,
/// end_us, duration_us, bytes, x, y, width, height).
std::string toJson(const std::vector<gpu::TimingRecord>& records);

/// Reads the complete events of a trace written by toChromeTrace() back into records, in the
/// file's order; metadata and foreign events without Tessera's args are skipped. Throws
/// std::runtime_error when text is not JSON or has no traceEvents array.
std::vector<gpu::TimingRecord> parseChromeTrace(const std::string& text);

/// Writes records in format to path under the output rule (files::writeOutputFile): a file is
/// replaced through a temporary renamed into place, so a failed write leaves it whole; a pipe or
/// character device is written straight. Throws std::runtime_error naming the file on failure.
void writeTrace(const std::string& path, TraceFormat format, const std::vector<gpu::TimingRecord>& records,
                const gpu::DeviceSnapshot& devices = {});
/// The same for a path from a file dialog, turned into bytes with QFile::encodeName().
void writeTrace(const QString& path, TraceFormat format, const std::vector<gpu::TimingRecord>& records,
                const gpu::DeviceSnapshot& devices = {});

}  // namespace tessera::app
