#pragma once

#include "app/batch/batch_job.h"
#include "app/version_info.h"

#include <string>
#include <vector>

namespace tessera::app {

/// The results as CSV with a header row: file, status, device, milliseconds, output, error
/// (RFC 4180 quoting).
std::string resultsCsv(const std::vector<FileResult>& files);

/// A JSON report: counts, wall time, devices, note, the chain with every setting, the job's
/// settings, versions and every file's result.
std::string reportJson(const BatchSummary& summary, const BatchJob& job, const filters::FilterChain& chain,
                       const VersionInfo& versions);

/// Writes text to path through a temporary file in the same folder and a rename. Throws
/// std::runtime_error naming path.
void saveTextFile(const std::string& path, const std::string& text);

}  // namespace tessera::app
