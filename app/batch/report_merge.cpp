// SPDX-License-Identifier: Apache-2.0
#include "app/batch/report_merge.h"

#include "app/batch/batch_shard.h"
#include "app/io/path_text.h"
#include "files/input_file.h"
#include "files/json_bounds.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace tessera::app {

namespace {

using Json = nlohmann::ordered_json;

// The settings that make two reports parts of one job; any difference refuses the merge.
constexpr const char* kJobFields[] = {"output_folder", "name_template", "format", "filters", "list_total"};

// What a file's run can end as; the counts of the same names sit at the report's top level.
constexpr const char* kStatuses[] = {"ok", "skipped", "failed", "cancelled"};

// A batch list holds at most a few million entries; anything far beyond is not a report of ours.
constexpr unsigned long long kMaxListTotal = 100'000'000ULL;

struct Entry {
    Json file;
    long long finished = 0;
    std::size_t order = 0;  // the report's place among the arguments
};

struct Parsed {
    Json doc;
    long long finished = 0;
    std::optional<BatchShard> shard;
    std::optional<std::size_t> listTotal;
    bool merged = false;    // made by a merge: it may miss positions, and says which
    bool positions = true;  // every entry has its "position" (older reports key by "index")
};

std::string brief(const Json& value)
{
    const std::string text = value.dump();
    return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

bool knownStatus(const std::string& status)
{
    for (const char* known : kStatuses) {
        if (status == known) {
            return true;
        }
    }
    return false;
}

long long keyNumber(const Json& file)
{
    return file.contains("position") ? file["position"].get<long long>() : file["index"].get<long long>();
}

std::optional<BatchShard> readShard(const ReportText& report, const Json& doc)
{
    if (!doc.contains("shard") || doc["shard"].is_null()) {
        return std::nullopt;
    }
    const Json& shard = doc["shard"];
    const auto number = [&shard](const char* key) {
        return shard.is_object() && shard.contains(key) && shard[key].is_number_unsigned()
                   ? shard[key].get<unsigned long long>()
                   : 0ULL;
    };
    const unsigned long long index = number("index");
    const unsigned long long count = number("count");
    if (index < 1 || index > count || count > static_cast<unsigned long long>(kMaxShards)) {
        throw ReportUnreadable(report.path + ": \"shard\" is not {\"index\": K, \"count\": N} with 1 <= K <= N <= " +
                               std::to_string(kMaxShards) + ": " + brief(shard));
    }
    return BatchShard{static_cast<int>(index), static_cast<int>(count)};
}

Parsed parseReport(const ReportText& report)
{
    Parsed parsed;
    try {
        // Bounded nesting: the messages below print entries, and printing recurses per level.
        parsed.doc = files::parseBoundedJson<Json>(report.text);
    } catch (const files::JsonTooDeep& e) {
        throw ReportUnreadable(report.path + ": not a batch report: " + e.what());
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
    if (doc.contains("finished") && !doc["finished"].is_string()) {
        throw ReportUnreadable(report.path + ": \"finished\" is not a time as text: " + brief(doc["finished"]));
    }
    if (doc.contains("list_total")) {
        if (!doc["list_total"].is_number_unsigned() || doc["list_total"].get<unsigned long long>() > kMaxListTotal) {
            throw ReportUnreadable(report.path + ": \"list_total\" is not a count of files");
        }
        parsed.listTotal = doc["list_total"].get<std::size_t>();
    }
    try {
        (void)pathFrom(doc, "output_folder");
    } catch (const std::invalid_argument& e) {
        throw ReportUnreadable(report.path + ": " + e.what());
    }
    parsed.shard = readShard(report, doc);
    parsed.merged = doc.contains("merged_from");
    for (const Json& file : doc["files"]) {
        const bool shaped = file.is_object() && file.contains("input") && file["input"].is_string() &&
                            file.contains("status") && file["status"].is_string() && file.contains("index") &&
                            file["index"].is_number_integer() &&
                            (!file.contains("position") || file["position"].is_number_integer()) &&
                            (!file.contains("output") || file["output"].is_string());
        if (!shaped) {
            throw ReportUnreadable(report.path +
                                   ": a file entry lacks \"input\", \"status\" or \"index\": " + brief(file));
        }
        try {  // names that are not UTF-8 carry their exact bytes beside them (app/io/path_text.h)
            (void)pathFrom(file, "input");
            if (file.contains("output")) {
                (void)pathFrom(file, "output");
            }
        } catch (const std::invalid_argument& e) {
            throw ReportUnreadable(report.path + ": a file entry's name: " + e.what() + ": " + brief(file));
        }
        if (!knownStatus(file["status"].get<std::string>())) {
            throw ReportUnreadable(report.path + ": a file entry has the status " + brief(file["status"]) +
                                   " (a report's are ok, skipped, failed and cancelled): " + brief(file));
        }
        if (keyNumber(file) < 1) {
            throw ReportUnreadable(report.path + ": a file entry's place in the list is not from 1: " + brief(file));
        }
        parsed.positions = parsed.positions && file.contains("position");
    }
    return parsed;
}

// How many positions of a list of total the shard takes.
std::size_t positionsOf(const BatchShard& shard, std::size_t total)
{
    const auto index = static_cast<std::size_t>(shard.index);
    return index <= total ? (total - index) / static_cast<std::size_t>(shard.count) + 1 : 0;
}

// Refuses a report that contradicts itself: its counts against its entries, a position listed
// twice, past the list or outside its shard, fewer or more entries than its shard holds, a
// merged report whose files and missing places do not make its list. A report passing these
// backs its list_total with what it lists: a run lists every place of its shard, so list_total
// is below (entries + 1) x the shard count, and a merged report lists its missing places, so
// what the merge allocates for the list stays in proportion to the reports' own size.
void refuseContradictions(const ReportText& report, const Parsed& parsed)
{
    const Json& doc = parsed.doc;
    const Json& list = doc["files"];
    const auto disagree = [&report](const std::string& what) {
        throw ReportsDisagree(report.path + " contradicts itself: " + what);
    };
    if (doc.contains("total") && doc["total"].is_number() && doc["total"] != list.size()) {
        disagree("\"total\" is " + brief(doc["total"]) + " but it lists " + std::to_string(list.size()) + " files");
    }
    for (const char* status : kStatuses) {
        if (!doc.contains(status) || !doc[status].is_number()) {
            continue;
        }
        std::size_t count = 0;
        for (const Json& file : list) {
            count += file["status"] == status ? 1 : 0;
        }
        if (doc[status] != count) {
            disagree("\"" + std::string(status) + "\" is " + brief(doc[status]) + " but it lists " +
                     std::to_string(count) + " files with that status");
        }
    }
    std::map<long long, const Json*> seen;
    for (const Json& file : list) {
        const long long key = keyNumber(file);
        if (!seen.emplace(key, &file).second) {
            disagree("it lists place " + std::to_string(key) + " in the list twice");
        }
        if (parsed.listTotal && static_cast<unsigned long long>(key) > *parsed.listTotal) {
            disagree("it lists place " + std::to_string(key) + " of a list of " + std::to_string(*parsed.listTotal));
        }
        if (parsed.shard && parsed.positions && !parsed.shard->holds(static_cast<std::size_t>(key) - 1)) {
            disagree("it is shard " + parsed.shard->text() + " but lists position " + std::to_string(key) +
                     ", which that shard does not take");
        }
    }
    if (!parsed.listTotal) {
        return;
    }
    if (parsed.merged) {
        // A merged report may miss places, and lists which: together they make the whole list.
        const bool counted = doc.contains("missing") && doc["missing"].is_number_unsigned() &&
                             doc.contains("missing_positions") && doc["missing_positions"].is_array() &&
                             doc["missing_positions"].size() == doc["missing"].get<std::size_t>();
        if (!counted) {
            disagree("it is a merged report of a list of " + std::to_string(*parsed.listTotal) +
                     " without \"missing\" and as many \"missing_positions\"");
        }
        if (list.size() + doc["missing"].get<std::size_t>() != *parsed.listTotal) {
            disagree("it lists " + std::to_string(list.size()) + " files and " + brief(doc["missing"]) +
                     " missing of a list of " + std::to_string(*parsed.listTotal));
        }
        return;
    }
    // A run lists every file of its shard (or of the whole list), cancelled ones included.
    const std::size_t expected = parsed.shard ? positionsOf(*parsed.shard, *parsed.listTotal) : *parsed.listTotal;
    if (list.size() != expected) {
        disagree("it lists " + std::to_string(list.size()) + " files, but " +
                 (parsed.shard ? "shard " + parsed.shard->text() : std::string("a run")) + " of a list of " +
                 std::to_string(*parsed.listTotal) + " takes " + std::to_string(expected));
    }
}

// An entry's output as exact bytes; empty when it names none.
std::string outputOf(const Json& file)
{
    return file.contains("output") ? pathFrom(file, "output") : std::string();
}

// True when the newer entry should replace the older one.
bool replaces(const Entry& newer, const Entry& older)
{
    const std::string nowStatus = newer.file["status"].get<std::string>();
    if (nowStatus == "skipped" && older.file["status"] == "ok" && outputOf(newer.file) == outputOf(older.file)) {
        return false;  // the rerun found what the earlier run wrote
    }
    return true;
}

}  // namespace

std::string readReportFile(const std::string& path)
{
    try {
        return files::readInputFile(path, {"a batch report", kMaxReportBytes, false});
    } catch (const files::InputFileError& e) {
        throw ReportUnreadable(e.what());
    }
}

namespace {

/// Throws ReportsDisagree when two reports are of different jobs: a job field or the output
/// folder differs.
void refuseOtherJobs(const std::vector<ReportText>& reports, const std::vector<Parsed>& parsed)
{
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
        // Two folder names that differ only in bytes that are not UTF-8 read alike as text.
        const std::string folder = pathFrom(first, "output_folder");
        const std::string other = pathFrom(parsed[r].doc, "output_folder");
        if (folder != other) {
            throw ReportsDisagree("the reports " + reports.front().path + " and " + reports[r].path +
                                  " are of different jobs: \"output_folder\" is " + percentEncodeName(folder) +
                                  " in one and " + percentEncodeName(other) + " in the other (percent-encoded)");
        }
    }
}

/// The files of every report, one entry per place in the list: two reports naming different
/// files at one place were made from different lists (the list changed between the shards'
/// runs). Sets newest to the report that finished last and mergedFrom to one line per report.
std::map<long long, Entry> collectFiles(const std::vector<ReportText>& reports, std::vector<Parsed>& parsed,
                                        const std::optional<std::size_t>& listTotal, std::size_t& newest,
                                        Json& mergedFrom)
{
    std::map<long long, Entry> files;
    for (std::size_t r = 0; r < parsed.size(); ++r) {
        Json& doc = parsed[r].doc;
        if (parsed[r].finished >= parsed[newest].finished) {
            newest = r;
        }
        Json from = Json::object();
        putPath(from, "report", reports[r].path);
        from["shard"] = doc.contains("shard") ? doc["shard"] : Json();
        from["finished"] = doc.value("finished", std::string());
        from["total"] = doc["files"].size();
        mergedFrom.push_back(std::move(from));
        for (Json& file : doc["files"]) {
            const long long key = keyNumber(file);
            if (listTotal && static_cast<unsigned long long>(key) > *listTotal) {
                throw ReportsDisagree(reports[r].path + " lists place " + std::to_string(key) +
                                      " but the other reports' list holds " + std::to_string(*listTotal));
            }
            Entry entry{std::move(file), parsed[r].finished, r};
            const auto it = files.find(key);
            if (it == files.end()) {
                files.emplace(key, std::move(entry));
                continue;
            }
            if (pathFrom(it->second.file, "input") != pathFrom(entry.file, "input")) {
                throw ReportsDisagree("the reports " + reports[it->second.order].path + " and " + reports[r].path +
                                      " were made from different lists: place " + std::to_string(key) + " is " +
                                      brief(it->second.file["input"]) + " in one and " + brief(entry.file["input"]) +
                                      " in the other");
            }
            const bool later = entry.finished > it->second.finished ||
                               (entry.finished == it->second.finished && entry.order > it->second.order);
            if (later ? replaces(entry, it->second) : !replaces(it->second, entry)) {
                it->second = std::move(entry);
            }
        }
    }

    return files;
}

/// The merged list in place order, the counts per status and the places no report covers,
/// found between the sorted keys: nothing is allocated per place beyond what is listed.
MergedReport countFiles(std::map<long long, Entry>& files, const std::optional<std::size_t>& listTotal, Json& list,
                        Json& missing)
{
    MergedReport merged;
    std::map<std::string, std::size_t> counts;
    const std::size_t last = listTotal.value_or(0);
    std::size_t next = 1;
    for (auto& [key, entry] : files) {
        ++counts[entry.file["status"].get<std::string>()];
        for (; next < static_cast<std::size_t>(key) && next <= last; ++next) {
            missing.push_back(next);
        }
        next = std::max(next, static_cast<std::size_t>(key) + 1);
        list.push_back(std::move(entry.file));
    }
    for (; next <= last; ++next) {
        missing.push_back(next);
    }
    merged.total = list.size();
    merged.ok = counts["ok"];
    merged.skipped = counts["skipped"];
    merged.failed = counts["failed"];
    merged.cancelled = counts["cancelled"];
    merged.missing = missing.size();
    return merged;
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
    refuseOtherJobs(reports, parsed);
    for (std::size_t r = 0; r < parsed.size(); ++r) {
        refuseContradictions(reports[r], parsed[r]);
    }
    // Every report that states list_total states the same one (a job field); unknown when none
    // does (reports from before shards).
    std::optional<std::size_t> listTotal;
    for (const Parsed& p : parsed) {
        listTotal = p.listTotal ? p.listTotal : listTotal;
    }
    std::size_t newest = 0;
    Json mergedFrom = Json::array();
    std::map<long long, Entry> files = collectFiles(reports, parsed, listTotal, newest, mergedFrom);
    Json list = Json::array();
    Json missing = Json::array();
    MergedReport merged = countFiles(files, listTotal, list, missing);

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
    if (listTotal) {
        doc["list_total"] = *listTotal;  // else unknown, and missing places cannot be told
    }
    for (const char* field :
         {"output_folder", "output_folder_bytes", "name_template", "format", "policy", "recursive"}) {
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
    merged.json = jsonText(doc, 2) + "\n";
    return merged;
}

}  // namespace tessera::app
