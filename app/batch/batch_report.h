// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/batch/batch_shard.h"
#include "app/version_info.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tessera::app {

/// What part of the whole job a report covers.
struct ReportScope {
    std::optional<BatchShard> shard;  ///< set when the run was one shard of the job
    std::size_t listTotal = 0;        ///< entries in the whole expanded list (every shard's)
};

/// The results as CSV with a header row: file, status, device, milliseconds, output, error
/// (RFC 4180 quoting). A shard's CSV starts each row with the shard ("2/4") and the file's
/// position in the whole list.
std::string resultsCsv(const std::vector<FileResult>& files, const std::optional<BatchShard>& shard = {});

/// A JSON report: counts, wall time, when it finished, devices, note, the chain with every
/// setting, the job's settings, the shard, versions and every file's result.
std::string reportJson(const BatchSummary& summary, const BatchJob& job, const filters::FilterChain& chain,
                       const VersionInfo& versions, const ReportScope& scope = {});

/// Now as "2026-12-01T21:30:05.123Z" and as milliseconds since 1970 (UTC).
struct ReportTime {
    std::string iso;
    long long unixMs = 0;
};
ReportTime reportTimeNow();

/// Writes text to path under the output rule (files::writeOutputFile): a regular file is replaced
/// through a temporary and a rename, keeping its mode; a character device or FIFO is written
/// straight; anything else is refused. Throws std::runtime_error naming path.
void saveTextFile(const std::string& path, const std::string& text);

}  // namespace tessera::app
