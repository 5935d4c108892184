// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

// Joins the JSON reports of a batch's shards (`tessera-cli batch-report merge`). No Qt.
namespace tessera::app {

/// A report that cannot be read as one (not JSON, a field of the wrong type). Names the file.
class ReportUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reports that belong to different jobs (another output folder, name template, format, filter
/// chain or whole list). Names both files and what differs.
class ReportsDisagree : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

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
/// Throws ReportUnreadable or ReportsDisagree.
MergedReport mergeReports(const std::vector<ReportText>& reports);

}  // namespace tessera::app
