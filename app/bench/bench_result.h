// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tessera::app::bench {

/// The copy bandwidth the floor in docs/performance.md is computed from (read + write counted).
inline constexpr double kReferenceCeilingGBs = 4150.0;

/// One measured line: a case on one device with one method (or the copy ceiling).
struct Result {
    std::string caseName;
    std::string format;
    std::string kernel;
    /// Requested: auto, direct, separable, fft, naive, opencv; memcpy (the CPU's copy line),
    /// copy-kernel (a GPU's copy line).
    std::string method;
    std::string chosen;  ///< what ran (the planner's pick for auto)
    std::string plan;    ///< Plan::describe() or a short description
    int width = 0;
    int height = 0;
    values::DeviceId device;  ///< the GPU measured, or the CPU
    std::string deviceName;
    std::vector<double> ms;  ///< one entry per timed run
    double bytes = 0.0;      ///< input + output bytes of one run
    std::size_t workspaceBytes = 0;
    std::string check;  ///< how max_abs_err was obtained; empty: not checked
    double maxAbsErr = 0.0;
    bool checkFinite = true;
    bool checkOk = true;
    std::optional<double> targetMs;      ///< only at 8192 x 8192
    std::optional<double> naiveMs;       ///< median of the naive line of the same case and device
    std::optional<double> ceilingGBs;    ///< measured copy bandwidth on the same device
    std::string error;                   ///< set when the line could not be measured
    std::string skipped;                 ///< set when a named variant does not apply to the case (not an error)
    std::vector<values::DeviceId> gpus;  ///< multi-GPU lines: every GPU the run used (device is the first)
    std::optional<double> speedup;       ///< multi-GPU lines: one GPU's median / this median
    std::optional<double> baselineMs;    ///< host-to-host lines: the pinned copy of the same bytes

    double median() const;
    double minimum() const;
    double maximum() const;
    /// The q-quantile of ms (nearest rank), e.g. 0.95 for p95.
    double percentile(double q) const;
};

/// The JSON object of one line (schema in tests/perf/README.md).
nlohmann::ordered_json toJson(const Result& r);

/// The closing human-readable table.
std::string formatTable(const std::vector<Result>& results);

}  // namespace tessera::app::bench
