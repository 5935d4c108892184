// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/bench/bench_cases.h"
#include "app/bench/bench_check.h"
#include "app/bench/bench_options.h"
#include "app/bench/bench_result.h"
#include "values/device_info.h"

#include <opencv2/core/mat.hpp>

#include <functional>
#include <optional>
#include <vector>

namespace tessera::app::bench {

/// Gives the case's CPU reference, built at first use (so CPU-only runs never pay for it).
using ReferenceSource = std::function<const Reference&()>;

/// Called with each finished line, so lines appear while the benchmark runs.
using ResultSink = std::function<void(const Result&)>;

/// Times a device-to-device copy of a width x height image of 4-byte pixels (read + write
/// counted): the ceiling that a filter reading and writing such an image can approach.
/// Throws CudaError / OutOfDeviceMemory.
Result measureCopyGpu(const values::DeviceInfo& device, const Options& options);

/// Runs one case on one GPU: the naive kernel first (when selected), then auto and every
/// forceable method that applies, each with a CPU-path check and options.runs timed runs on
/// one stream. A method that fails becomes a line with `error` set; nothing is thrown except
/// for failures to set up the images.
void runCaseGpu(const BenchCase& c, const cv::Mat& input, const ReferenceSource& reference,
                const values::DeviceInfo& device, const Options& options, std::optional<double> ceilingGBs,
                const ResultSink& sink);

/// Times a host memcpy of the same bytes as measureCopyGpu (the CPU's ceiling).
Result measureCopyCpu(const Options& options);

/// Times the OpenCV CPU path (filters::applyCpu, wall clock) on the whole image and checks
/// its output at sampled pixels against a double-precision direct sum.
Result runCaseCpu(const BenchCase& c, const cv::Mat& input, const Options& options, std::optional<double> ceilingGBs);

}  // namespace tessera::app::bench
