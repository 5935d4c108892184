// SPDX-License-Identifier: Apache-2.0
// `batch-report merge`: the input split at NUL bytes into up to 8 shard reports. The first is
// also written to a file under /dev/shm and read back through the input rule (readReportFile).
// Only ReportUnreadable and ReportsDisagree may come out, each naming a report. What merges must
// be whole: every status counted, total + missing = list_total (where known), files in list order, and the
// merged report merges again alone to the same counts. Nothing the merge allocates may outgrow
// the reports by more than what their shard counts account for (the RSS limit checks that).
#include "fuzz_support.h"

#include "app/batch/report_merge.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace tessera::app;

bool namesAReport(const std::string& what)
{
    return what.find(".json") != std::string::npos;
}

void checkMerged(const MergedReport& merged)
{
    const auto doc = nlohmann::json::parse(merged.json);
    const auto& files = doc.at("files");
    if (files.size() != merged.total || merged.ok + merged.skipped + merged.failed + merged.cancelled != merged.total ||
        doc.at("missing_positions").size() != merged.missing) {
        std::abort();
    }
    // Where the list's size is known, the files and the missing places make it up; where it is
    // not (reports from before shards), nothing is counted missing.
    if (doc.contains("list_total") ? merged.total + merged.missing != doc["list_total"].get<std::size_t>()
                                   : merged.missing != 0) {
        std::abort();
    }
    long long previous = 0;
    for (const auto& file : files) {
        const long long key =
            file.contains("position") ? file["position"].get<long long>() : file["index"].get<long long>();
        if (key <= previous) {
            std::abort();  // not in list order, or a place listed twice
        }
        previous = key;
    }
    // A merged report is a report: alone, it merges to itself.
    MergedReport again;
    try {
        again = mergeReports({{"merged.json", merged.json}});
    } catch (const std::exception&) {
        std::abort();
    }
    if (again.total != merged.total || again.ok != merged.ok || again.skipped != merged.skipped ||
        again.failed != merged.failed || again.cancelled != merged.cancelled || again.missing != merged.missing) {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> parts = tessera::fuzz::splitAtNul(data, size);
    std::vector<ReportText> reports;
    for (std::size_t i = 0; i < parts.size() && i < 8; ++i) {
        reports.push_back({"r" + std::to_string(i) + ".json", parts[i]});
    }
    // The file a user names reads back as the same text.
    const std::string path =
        tessera::fuzz::writeScratch("r0.json", reinterpret_cast<const std::uint8_t*>(parts[0].data()), parts[0].size());
    if (readReportFile(path) != parts[0]) {
        std::abort();
    }
    try {
        checkMerged(mergeReports(reports));
    } catch (const ReportUnreadable& e) {
        if (!namesAReport(e.what())) {
            std::abort();
        }
    } catch (const ReportsDisagree& e) {
        if (!namesAReport(e.what())) {
            std::abort();
        }
    }
    return 0;
}
