// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/run_report.h"

#include <string>
#include <vector>

namespace tessera::capi {

/// A run's report as one JSON object: where it ran ("cpu", "gpu:0,1"), the placement, the
/// devices that recorded work, the method of each step, the times, what fell back and why,
/// and every timing record. `note` says anything the device choice itself had to say.
/// Throws only bad_alloc.
std::string reportJson(const values::RunReport& report, const std::string& where, const std::string& note);

/// The records as Chrome trace JSON, in the format of `tessera-cli apply --trace` (one
/// complete event per record, one process per device, one thread per stream, the args
/// tessera's trace reader needs). Throws only bad_alloc.
std::string chromeTrace(const std::vector<values::TimingRecord>& records);

}  // namespace tessera::capi
