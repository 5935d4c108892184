// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::app::bench {

/// One row of the docs/performance.md case table: an input format and a filter.
struct BenchCase {
    std::string name;    ///< e.g. "rgba8-custom31"
    std::string format;  ///< "rgba8" or "f32c1"
    int cvType = 0;      ///< OpenCV type of the input (CV_8UC4, CV_32FC1)
    std::string kernel;  ///< "custom31", "gaussian31", ...
    filters::FilterSpec spec;
    std::optional<double> targetMs;  ///< the table's target at 8192 x 8192
    std::vector<std::string> groups;
};

/// Result of resolving --cases.
struct CaseSelection {
    std::vector<BenchCase> cases;          ///< in table order, no duplicates
    std::vector<std::string> unavailable;  ///< groups that later work will add
    bool preview = false;                  ///< the Engine's preview latency (bench_preview.h)
    bool multi = false;                    ///< the multi-GPU cases (bench_multi.h)
    bool batch = false;                    ///< the batch against its codec floor (bench_batch.h)
};

/// Builds the selected cases; random kernels come from `seed`. Throws std::invalid_argument
/// naming an unknown case or group.
CaseSelection selectCases(const std::vector<std::string>& names, unsigned seed);

/// Every case name, in table order.
std::vector<std::string> allCaseNames();

}  // namespace tessera::app::bench
