// SPDX-License-Identifier: Apache-2.0
#include "app/io/trace_export.h"

#include "files/output_file.h"
#include "values/trace_text.h"
#include "values/log.h"

#include <QFile>

namespace tessera::app {

void writeTrace(const std::string& path, TraceFormat format, const std::vector<values::TimingRecord>& records,
                const values::DeviceSnapshot& devices)
{
    std::string text;
    switch (format) {
    case TraceFormat::Csv: text = values::timingCsv(records); break;
    case TraceFormat::Json: text = values::timingJson(records); break;
    case TraceFormat::ChromeTrace: text = values::toChromeTrace(records, devices); break;
    }
    // Through the temporary files that a signal's handler removes (QSaveFile's would stay), or
    // straight into a pipe or device such as /dev/stdout.
    files::writeOutputFile(path, text);
    values::logIf(values::LogCategory::Io,
                  [&] { return "wrote the trace " + path + " (" + std::to_string(records.size()) + " records)"; });
}

void writeTrace(const QString& path, TraceFormat format, const std::vector<values::TimingRecord>& records,
                const values::DeviceSnapshot& devices)
{
    writeTrace(QFile::encodeName(path).toStdString(), format, records, devices);
}

}  // namespace tessera::app
