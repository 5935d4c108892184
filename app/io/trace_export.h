// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"
#include "values/trace_text.h"

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

// The text forms are values/trace_text.h's, the same for every front end; here under the
// names the app has used.
using values::parseChromeTrace;
using values::toChromeTrace;
inline std::string toCsv(const std::vector<values::TimingRecord>& records)
{
    return values::timingCsv(records);
}
inline std::string csvHeader()
{
    return values::timingCsvHeader();
}
inline std::string toJson(const std::vector<values::TimingRecord>& records)
{
    return values::timingJson(records);
}

/// Writes records in format to path under the output rule (files::writeOutputFile): a file is
/// replaced through a temporary renamed into place, so a failed write leaves it whole; a pipe or
/// character device is written straight. Throws std::runtime_error naming the file on failure.
void writeTrace(const std::string& path, TraceFormat format, const std::vector<values::TimingRecord>& records,
                const values::DeviceSnapshot& devices = {});
/// The same for a path from a file dialog, turned into bytes with QFile::encodeName().
void writeTrace(const QString& path, TraceFormat format, const std::vector<values::TimingRecord>& records,
                const values::DeviceSnapshot& devices = {});

}  // namespace tessera::app
