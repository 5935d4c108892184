// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// Joins the JSON reports of a batch's shards (`tessera-cli batch-report merge`). No Qt.
namespace tessera::app {

/// A report that cannot be read as one (not a regular file, too large, not JSON, nested too
/// deep, a field of the wrong type, a status other than ok, skipped, failed or cancelled). Names
/// the file.
class ReportUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reports that belong to different jobs (another output folder, name template, format, filter
/// chain or whole list), reports made from different lists (one place, two files), or a report
/// that contradicts itself (its counts, a place listed twice, past the list or outside its
/// shard, more or fewer files than its shard takes). Names the files and what differs.
class ReportsDisagree : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The largest report read: a list of a million files makes about 400 MB.
inline constexpr std::uintmax_t kMaxReportBytes = std::uintmax_t{512} << 20;

/// The text of the report file at path under the input rule (files::readInputFile: a regular
/// file of at most kMaxReportBytes). Throws ReportUnreadable naming the file.
std::string readReportFile(const std::string& path);

/// One report to merge: where it came from (for messages) and its text.
struct ReportText {
    std::string path;
    std::string text;
};

/// The merged report and its counts.
struct MergedReport {
    std::string json;
    std::size_t total = 0;
    std::size_t ok = 0;
    std::size_t skipped = 0;
    std::size_t failed = 0;
    std::size_t cancelled = 0;
    std::size_t missing = 0;  ///< positions of the whole list that no report lists
};

/// Merges reports of one job into a report of the same shape that lists every file once, in
/// list order, keyed by its position in the whole list and its input path. Where several
/// reports list a file, the one that finished last wins ("finished_unix_ms"; a report without
/// it counts as oldest, a tie goes to the later argument), except that a later "skipped, the
/// output exists" does not hide the earlier run that wrote that very output. The counts are
/// recomputed; "merged_from" lists the reports and "missing_positions" what none of them covers.
/// JSON nested deeper than files::kMaxJsonDepth is refused before it is built. Every report
/// must account for what it claims (list_total and shard against the files it lists), so what
/// the merge allocates stays in proportion to the reports' size. Throws ReportUnreadable or
/// ReportsDisagree.
MergedReport mergeReports(const std::vector<ReportText>& reports);

}  // namespace tessera::app
