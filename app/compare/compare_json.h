// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/compare/compare_runner.h"
#include "values/device_calibration.h"
#include "values/device_info.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>

namespace tessera::app {

/// A comparison as saved: the report, the devices it ran on and their calibrations (by device
/// key: "gpu:N", "cpu"), and the machine's name, so that a file from another machine can be
/// shown beside the current results.
struct SavedComparison {
    CompareReport report;
    values::DeviceSnapshot snapshot;
    std::map<std::string, values::DeviceCalibration> calibrations;
    std::string host;
    std::string cpu;
};

/// The comparison as one JSON document (heat maps are not saved; infinite PSNR is null).
nlohmann::json toJson(const SavedComparison& saved);
/// Reads what toJson wrote; throws std::runtime_error naming what is missing or malformed.
SavedComparison comparisonFromJson(const nlohmann::json& doc);

/// Writes saved to path under the output rule (files::writeOutputFile); throws std::runtime_error.
void saveComparison(const std::string& path, const SavedComparison& saved);
/// Reads a file saveComparison wrote, under the input rule (a regular file of at most 64 MiB,
/// JSON nested at most files::kMaxJsonDepth deep); throws std::runtime_error naming path.
SavedComparison loadComparison(const std::string& path);

}  // namespace tessera::app
