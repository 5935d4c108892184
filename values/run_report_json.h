// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/run_report.h"

#include <string>

namespace tessera::values {

/// A run's report as one JSON object, the same shape from every front end (`tessera-cli apply
/// --json`'s "run", the batch report's files, the Python module's last_run()): placement, the
/// devices that recorded work ("gpu:N", "cpu"), each step's plan and method, the plan of tiles
/// or bands, wall, kernel and host milliseconds, what fell back and why under which policy,
/// events, retries, tiles, slots and every timing record. indent as nlohmann's dump (-1: one
/// line). Throws only bad_alloc.
std::string runReportJson(const RunReport& report, int indent = -1);

}  // namespace tessera::values
