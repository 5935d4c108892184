// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/version_info.h"

#include <nlohmann/json.hpp>

// JSON pieces shared by the batch report and the manifests; included by app/ sources only.
namespace tessera::app {

/// Every setting of every step: id, kernel size, anchor, weights, separability, border, border
/// value, scale, offset and depth, enough to rebuild the chain exactly.
nlohmann::ordered_json chainJson(const filters::FilterChain& chain);

/// Tessera, Qt, OpenCV, CUDA runtime and driver versions and the device code architectures.
nlohmann::ordered_json versionsJson(const VersionInfo& versions);

/// One file's result as the report lists it; input and output as putPath() writes them.
nlohmann::ordered_json fileResultJson(const FileResult& result);

}  // namespace tessera::app
