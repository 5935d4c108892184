// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/compare/compare_runner.h"
#include "values/device_calibration.h"
#include "gpu/device_info.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>

namespace tessera::app {

/// A comparison as saved: the report, the devices it ran on and their calibrations (by device
/// key: "gpu:N", "cpu"), and the machine's name, so that a file from another machine can be
/// shown beside the current results.
struct SavedComparison {
    CompareReport report;
    gpu::DeviceSnapshot snapshot;
    std::map<std::string, gpu::DeviceCalibration> calibrations;
    std::string host;
    std::string cpu;
};

/// The comparison as one JSON document (heat maps are not saved; infinite PSNR is null).
nlohmann::json toJson(const SavedComparison& saved);
/// Reads what toJson wrote; throws std::runtime_error naming what is missing or malformed.
SavedComparison comparisonFromJson(const nlohmann::json& doc);

/// Writes saved to path (through a temporary file); throws std::runtime_error.
void saveComparison(const std::string& path, const SavedComparison& saved);
/// Reads a file saveComparison wrote; throws std::runtime_error.
SavedComparison loadComparison(const std::string& path);

}  // namespace tessera::app
