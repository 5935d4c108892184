// SPDX-License-Identifier: Apache-2.0
#include "app/batch/report_merge.h"

#include <nlohmann/json.hpp>

#include <map>
#include <utility>

namespace tessera::app {

namespace {

using Json = nlohmann::ordered_json;

// The settings that make two reports parts of one job; any difference refuses the merge.
constexpr const char* kJobFields[] = {"output_folder", "name_template", "format", "filters", "list_total"};

struct Entry {
    Json file;
    long long finished = 0;
    std::size_t order = 0;  // the report's place among the arguments
};

struct Parsed {
    Json doc;
    long long finished = 0;
};

Parsed parseReport(const ReportText& report)
{
    Parsed parsed;
    try {
        parsed.doc = Json::parse(report.text);
    } catch (const Json::exception& e) {
        throw ReportUnreadable(report.path + ": not a JSON report: " + e.what());
    }
    const Json& doc = parsed.doc;
    if (!doc.is_object() || !doc.contains("files") || !doc["files"].is_array()) {
        throw ReportUnreadable(report.path + ": not a batch report (no \"files\" list)");
    }
    for (const char* field : kJobFields) {
        if (!doc.contains(field) && std::string(field) != "list_total") {
            throw ReportUnreadable(report.path + ": not a batch report (no \"" + field + "\")");
        }
    }
    if (doc.contains("finished_unix_ms")) {
        if (!doc["finished_unix_ms"].is_number_integer()) {
            throw ReportUnreadable(report.path + ": \"finished_unix_ms\" is not a whole number");
        }
        parsed.finished = doc["finished_unix_ms"].get<long long>();
    }
    // A batch list holds at most a few million entries; anything far beyond is not a report of ours.
    if (doc.contains("list_total") &&
        (!doc["list_total"].is_number_unsigned() || doc["list_total"].get<unsigned long long>() > 100'000'000ULL)) {
        throw ReportUnreadable(report.path + ": \"list_total\" is not a count of files");
    }
    for (const Json& file : doc["files"]) {
        const bool shaped = file.is_object() && file.contains("input") && file["input"].is_string() &&
                            file.contains("status") && file["status"].is_string() && file.contains("index") &&
                            file["index"].is_number_integer() &&
                            (!file.contains("position") || file["position"].is_number_integer()) &&
                            (!file.contains("output") || file["output"].is_string());
        if (!shaped) {
            throw ReportUnreadable(report.path + ": a file entry lacks \"input\", \"status\" or \"index\": " +
                                   file.dump().substr(0, 200));
        }
    }
    return parsed;
}

std::string brief(const Json& value)
{
    const std::string text = value.dump();
    return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

long long keyNumber(const Json& file)
{
    return file.contains("position") ? file["position"].get<long long>() : file["index"].get<long long>();
}

// True when the newer entry should replace the older one.
bool replaces(const Entry& newer, const Entry& older)
{
    const std::string nowStatus = newer.file["status"].get<std::string>();
    if (nowStatus == "skipped" && older.file["status"] == "ok" && newer.file.value("output", std::string()) ==
                                                                       older.file.value("output", std::string())) {
        return false;  // the rerun found what the earlier run wrote
    }
    return true;
}

}  // namespace

MergedReport mergeReports(const std::vector<ReportText>& reports)
{
    if (reports.empty()) {
        throw ReportUnreadable("no report to merge");
    }
    std::vector<Parsed> parsed;
    parsed.reserve(reports.size());
    for (const ReportText& report : reports) {
        parsed.push_back(parseReport(report));
    }
    const Json& first = parsed.front().doc;
    for (std::size_t r = 1; r < parsed.size(); ++r) {
        for (const char* field : kJobFields) {
            const Json none;
            const Json& a = first.contains(field) ? first[field] : none;
            const Json& b = parsed[r].doc.contains(field) ? parsed[r].doc[field] : none;
            if (a != b && !a.is_null() && !b.is_null()) {
                throw ReportsDisagree("the reports " + reports.front().path + " and " + reports[r].path +
                                      " are of different jobs: \"" + field + "\" is " + brief(a) + " in one and " +
                                      brief(b) + " in the other");
            }
        }
    }

    std::map<std::pair<long long, std::string>, Entry> files;
    std::size_t newest = 0;
    std::size_t listTotal = 0;
    Json mergedFrom = Json::array();
    for (std::size_t r = 0; r < parsed.size(); ++r) {
        const Json& doc = parsed[r].doc;
        if (parsed[r].finished >= parsed[newest].finished) {
            newest = r;
        }
        if (doc.contains("list_total")) {
            listTotal = doc["list_total"].get<std::size_t>();
        }
        mergedFrom.push_back({{"report", reports[r].path},
                              {"shard", doc.contains("shard") ? doc["shard"] : Json()},
                              {"finished", doc.value("finished", std::string())},
                              {"total", doc["files"].size()}});
        for (const Json& file : doc["files"]) {
            Entry entry{file, parsed[r].finished, r};
            const auto key = std::make_pair(keyNumber(file), file["input"].get<std::string>());
            const auto it = files.find(key);
            if (it == files.end()) {
                files.emplace(key, std::move(entry));
                continue;
            }
            const bool later = entry.finished > it->second.finished ||
                               (entry.finished == it->second.finished && entry.order > it->second.order);
            if (later ? replaces(entry, it->second) : !replaces(it->second, entry)) {
                it->second = std::move(entry);
            }
        }
    }

    MergedReport merged;
    Json list = Json::array();
    std::map<std::string, std::size_t> counts;
    std::vector<bool> seen(listTotal, false);
    for (auto& [key, entry] : files) {
        ++counts[entry.file["status"].get<std::string>()];
        if (key.first >= 1 && static_cast<std::size_t>(key.first) <= listTotal) {
            seen[static_cast<std::size_t>(key.first) - 1] = true;
        }
        list.push_back(std::move(entry.file));
    }
    Json missing = Json::array();
    for (std::size_t i = 0; i < seen.size(); ++i) {
        if (!seen[i]) {
            missing.push_back(i + 1);
        }
    }
    merged.total = list.size();
    merged.ok = counts["ok"];
    merged.skipped = counts["skipped"];
    merged.failed = counts["failed"];
    merged.cancelled = counts["cancelled"];
    merged.missing = missing.size();

    const Json& latest = parsed[newest].doc;
    Json doc;
    doc["total"] = merged.total;
    doc["ok"] = merged.ok;
    doc["skipped"] = merged.skipped;
    doc["failed"] = merged.failed;
    doc["cancelled"] = merged.cancelled;
    doc["missing"] = merged.missing;
    doc["finished"] = latest.value("finished", std::string());
    doc["finished_unix_ms"] = parsed[newest].finished;
    doc["shard"] = nullptr;
    doc["list_total"] = listTotal > 0 ? listTotal : merged.total;
    for (const char* field : {"output_folder", "name_template", "format", "policy", "recursive"}) {
        if (latest.contains(field)) {
            doc[field] = latest[field];
        }
    }
    doc["filters"] = latest["filters"];
    if (latest.contains("versions")) {
        doc["versions"] = latest["versions"];
    }
    doc["merged_from"] = std::move(mergedFrom);
    doc["missing_positions"] = std::move(missing);
    doc["files"] = std::move(list);
    merged.json = doc.dump(2) + "\n";
    return merged;
}

}  // namespace tessera::app
