// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/batch/batch_plan.h"
#include "app/version_info.h"

#include <string>

namespace tessera::app {

/// What every manifest of a run shares: the chain, the job's settings and the versions.
struct ManifestContext {
    filters::FilterChain chain;
    std::string nameTemplate;
    std::string policy;
    std::string date;
    VersionInfo versions;

    /// Reads the versions (and the CUDA driver's) once for the run. Never throws.
    static ManifestContext collect(const BatchPlan& plan, const BatchJob& job);
};

/// The sidecar path for an output: the output path with ".json" appended.
std::string manifestPath(const std::string& output);

/// Writes result's sidecar beside result.output (saveTextFile: temporary file, rename): input
/// path and SHA-256, output, every filter setting, device, versions and timings. Throws
/// std::runtime_error naming the sidecar when it cannot be written.
void writeManifest(const ManifestContext& context, const FileResult& result, const std::string& inputSha256);

/// Lower-case hex SHA-256 of a file's bytes. Throws std::runtime_error naming the file when it
/// cannot be read.
std::string sha256File(const std::string& path);

}  // namespace tessera::app
