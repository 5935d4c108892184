// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <string>
#include <vector>

namespace tessera::app::bench {

/// Rows of the expected output: the CPU path's result for rows y0 .. y0 + expected.rows - 1.
struct Band {
    int y0 = 0;
    cv::Mat expected;
};

/// The CPU path's output on part of the image, computed once per case and shared by every
/// method and device. Small images (up to 2048 x 2048 pixels) are checked whole ("cpu-full");
/// larger ones on four full-width bands of 16 rows: the top and bottom rows (borders) and two
/// inside ("cpu-bands:4x16"). Each band is filtered by applyCpu on a strip holding the band and
/// its halo rows, so border handling at the true image edges is the CPU path's own.
class Reference {
public:
    /// Runs applyCpu; throws what it throws.
    Reference(const cv::Mat& input, const filters::FilterSpec& spec);
    const std::string& kind() const { return kind_; }
    const std::vector<Band>& bands() const { return bands_; }

private:
    std::string kind_;
    std::vector<Band> bands_;
};

/// Largest absolute difference over every channel; `finite` is false when `got` holds NaN or
/// infinity (a poisoned pixel that was never written reads as NaN for float outputs).
struct Comparison {
    double maxAbsErr = 0.0;
    bool finite = true;
    bool ok = true;  ///< finite and within tolerance
};

/// Allowed difference for an output depth: 1 for integer outputs (rounding of a float sum
/// that lands near .5), 1e-3 for float (inputs in [0, 1), unit-sum kernels, FFT round-off).
double toleranceFor(int cvDepth);

/// Compares two images of one size and type.
Comparison compareImages(const cv::Mat& got, const cv::Mat& expected);

/// Checks `output` (the whole filtered image) at `samples` pixels, the four corners among them,
/// against a double-precision direct sum over `input` with the spec's border rule, rounded
/// and saturated like the CPU path. Used for the CPU path itself ("direct-double:N").
Comparison compareSampled(const cv::Mat& input, const cv::Mat& output, const filters::FilterSpec& spec, int samples,
                          unsigned seed);

}  // namespace tessera::app::bench
