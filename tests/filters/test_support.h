// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared helpers for the filters tests: fresh random seeds, random images, and an independent
// reference convolution (plain loops in double precision, own border rule, no OpenCV filtering).

#include "filters/filter_spec.h"

#include <gtest/gtest.h>
#include <opencv2/core/mat.hpp>

#include <cstdint>
#include <random>
#include <string>

namespace tessera::filters::testing {

/// A fresh seed per call (TESSERA_TEST_SEED in the environment replays one).
std::uint32_t freshSeed();
/// Text for SCOPED_TRACE so a failure prints how to replay it.
std::string seedNote(std::uint32_t seed);

/// Random image of the given cv type: u8 and u16 over their full range, f32 in [-1, 1].
cv::Mat randomImage(int rows, int cols, int type, std::mt19937& rng);
/// Random kernel with weights in [-1, 1].
Kernel2D randomKernel(int width, int height, std::mt19937& rng);

/// Index of the source pixel that position p (possibly outside 0..n-1) reads under border b;
/// -1 means "the constant border value".
int referenceBorderIndex(int p, int n, Border b);
/// The exact filter result before rounding: CV_64F with src's channels.
cv::Mat referenceFilter(const cv::Mat& src, const FilterSpec& spec);
/// cv depth the spec should produce for src (written independently of the executor).
int expectedDepth(const FilterSpec& spec, int srcDepth);

/// Compares actual with the reference: size, channels and depth exactly; u8/u16 within 1 of
/// the rounded, saturated reference; f32 within 1e-5 of scale * sum|k| * max|input| + |offset|.
::testing::AssertionResult matchesReference(const cv::Mat& src, const FilterSpec& spec, const cv::Mat& actual);

/// Short name of a cv depth for traces ("u8", "u16", "f32").
std::string depthName(int depth);
/// "u8 x3 17x13 wrap" style trace text.
std::string caseName(const cv::Mat& src, const FilterSpec& spec);

/// Every border mode; Constant appears twice, with 0 and with a non-zero value.
struct BorderCase {
    Border border;
    bool nonZeroConstant;
};
std::vector<BorderCase> allBorderCases();
/// A constant border value that fits the depth (and is not 0).
double nonZeroBorderValue(int depth);

}  // namespace tessera::filters::testing
