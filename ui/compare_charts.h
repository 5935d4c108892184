// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/compare_results.h"

class QChart;

namespace tessera::ui {

/// A bar per target of current (and a second bar of loaded, matched by target key or label,
/// when it is not empty): median megapixels per second, with a whisker from the slowest to the
/// fastest run. Bar sets are named after the results' titles. The caller owns the chart.
QChart* makeThroughputChart(const CompareResults& current, const CompareResults& loaded);

/// Per device, its roofline on log-log axes (flops per byte against GFLOP/s): memory
/// bandwidth rising to the FMA ceiling; and each method's achieved rate as a point. Devices
/// without calibration get points only. The caller owns the chart.
QChart* makeRooflineChart(const CompareResults& results);

}  // namespace tessera::ui
