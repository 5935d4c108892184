// SPDX-License-Identifier: Apache-2.0
// A run's report and its Chrome trace as JSON text for the C interface. The trace comes from
// the writer the CLI's --trace uses (values/trace_text.h): one format for every front end.
#include "lib/c_report.h"

#include "tessera/gpu/device_info.h"
#include "values/run_report_json.h"
#include "values/trace_text.h"

#include <nlohmann/json.hpp>

namespace tessera::capi {

namespace {

using nlohmann::json;

std::string dump(const json& doc, int indent)
{
    return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string reportJson(const values::RunReport& report, const std::string& where, const std::string& note)
{
    json doc = json::parse(values::runReportJson(report));
    doc["where"] = where;
    doc["note"] = note;
    return dump(doc, -1);
}

std::string chromeTrace(const std::vector<values::TimingRecord>& records)
{
    return values::toChromeTrace(records, gpu::enumerateDevices());
}

}  // namespace tessera::capi
