// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_report.h"

#include "app/batch/batch_json.h"
#include "app/io/path_text.h"
#include "files/output_file.h"
#include "values/log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

namespace tessera::app {

namespace {

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

}  // namespace

ReportTime reportTimeNow()
{
    const auto now = std::chrono::system_clock::now();
    const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
    return {text, ms};
}

std::string resultsCsv(const std::vector<FileResult>& files, const std::optional<BatchShard>& shard)
{
    std::ostringstream out;
    out << (shard ? "shard,position," : "") << "file,status,device,decoder,milliseconds,output,error\r\n";
    for (const FileResult& r : files) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.3f", r.computeMs);
        if (shard) {
            out << shard->text() << ',' << r.position << ',';
        }
        out << csvField(r.input) << ',' << toString(r.status) << ',' << csvField(r.device) << ',' << csvField(r.decoder)
            << ',' << ms << ',' << csvField(r.output) << ',' << csvField(r.error) << "\r\n";
    }
    return out.str();
}

std::string reportJson(const BatchSummary& summary, const BatchJob& job, const filters::FilterChain& chain,
                       const VersionInfo& versions, const ReportScope& scope)
{
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const FileResult& r : summary.files) {
        files.push_back(fileResultJson(r));
    }
    nlohmann::ordered_json doc;
    const ReportTime finished = reportTimeNow();
    doc["total"] = summary.files.size();
    doc["ok"] = summary.ok;
    doc["skipped"] = summary.skipped;
    doc["failed"] = summary.failed;
    doc["cancelled"] = summary.cancelled;
    doc["was_cancelled"] = summary.wasCancelled;
    doc["wall_milliseconds"] = summary.wallMs;
    doc["files_per_second"] = summary.wallMs > 0 ? 1000.0 * (summary.ok + summary.failed) / summary.wallMs : 0.0;
    doc["peak_resident_mib"] = summary.peakResidentMiB;
    doc["finished"] = finished.iso;
    doc["finished_unix_ms"] = finished.unixMs;
    if (scope.shard) {
        doc["shard"] = {{"index", scope.shard->index}, {"count", scope.shard->count}};
    } else {
        doc["shard"] = nullptr;
    }
    doc["list_total"] = scope.listTotal > 0 ? scope.listTotal : summary.files.size();
    doc["devices"] = summary.devices;
    doc["note"] = summary.note;
    putPath(doc, "output_folder", job.outputDir);
    doc["name_template"] = job.nameTemplate;
    doc["format"] = job.format.empty() ? std::string("keep") : job.format;
    doc["policy"] = toString(job.policy);
    doc["recursive"] = job.recursive;
    doc["filters"] = chainJson(chain);
    doc["versions"] = versionsJson(versions);
    doc["files"] = std::move(files);
    return jsonText(doc, 2) + "\n";
}

void saveTextFile(const std::string& path, const std::string& text)
{
    files::writeOutputFile(path, text);
    values::logIf(values::LogCategory::Io,
                  [&] { return "wrote " + path + " (" + std::to_string(text.size()) + " bytes)"; });
}

}  // namespace tessera::app
