// SPDX-License-Identifier: Apache-2.0
// Every built-in filter (defaults and a few other settings) against the reference convolution,
// over every depth, channel count and border mode, on an odd-sized image and on one smaller
// than most kernels.

#include "filters/cpu_executor.h"
#include "filters/registry.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <cmath>

namespace tessera::filters {
namespace {

using testing::allBorderCases;
using testing::caseName;
using testing::freshSeed;
using testing::matchesReference;
using testing::nonZeroBorderValue;
using testing::randomImage;
using testing::seedNote;

struct GridCase {
    std::string label;
    std::string id;
    std::map<std::string, double> values;
    std::optional<Kernel2D> kernel;
    std::optional<Point> anchor;
};

void PrintTo(const GridCase& c, std::ostream* os)
{
    *os << c.label;
}

// Deterministic, irregular weights so custom kernels are neither symmetric nor separable.
Kernel2D wavyKernel(int width, int height)
{
    Kernel2D k{width, height, {}};
    for (int i = 0; i < width * height; ++i) {
        k.weights.push_back(std::sin(1.7 * i + 0.3) + 0.25);
    }
    return k;
}

std::vector<GridCase> gridCases()
{
    std::vector<GridCase> cases;
    for (const auto& desc : builtinRegistry().all()) {
        cases.push_back({desc.id + "_defaults", desc.id, desc.defaults().values, {}, {}});
    }
    const std::vector<GridCase> more = {
        {"box_4_sum", "box", {{"size", 4}, {"normalize", 0}}, {}, {}},
        {"box_1", "box", {{"size", 1}}, {}, {}},
        {"gaussian_sigma2", "gaussian", {{"sigma", 2.0}}, {}, {}},
        {"gaussian_0p8_size5", "gaussian", {{"sigma", 0.8}, {"size", 5}}, {}, {}},
        {"sharpen_2p5", "sharpen", {{"amount", 2.5}}, {}, {}},
        {"unsharp_1p5_0p7", "unsharp", {{"sigma", 1.5}, {"amount", 0.7}}, {}, {}},
        {"laplacian_3", "laplacian", {{"size", 3}}, {}, {}},
        {"log_0p8", "log", {{"sigma", 0.8}}, {}, {}},
        {"sobel_dy_5", "sobel", {{"dx", 0}, {"dy", 1}, {"size", 5}}, {}, {}},
        {"sobel_dxdy_3", "sobel", {{"dx", 1}, {"dy", 1}, {"size", 3}}, {}, {}},
        {"sobel_dx2_7", "sobel", {{"dx", 2}, {"dy", 0}, {"size", 7}}, {}, {}},
        {"sobel_dx_1", "sobel", {{"dx", 1}, {"dy", 0}, {"size", 1}}, {}, {}},
        {"scharr_dy", "scharr", {{"dx", 0}, {"dy", 1}}, {}, {}},
        {"prewitt_vertical", "prewitt", {{"direction", 1}}, {}, {}},
        {"emboss_120_2", "emboss", {{"angle", 120}, {"strength", 2}}, {}, {}},
        {"motion_6_30", "motion_blur", {{"length", 6}, {"angle", 30}}, {}, {}},
        {"motion_5_90", "motion_blur", {{"length", 5}, {"angle", 90}}, {}, {}},
        {"custom_4x6_anchor", "custom", {}, wavyKernel(4, 6), Point{0, 5}},
        {"custom_3x3_normalized", "custom", {{"normalize", 1}}, wavyKernel(3, 3), {}},
        {"custom_2x2", "custom", {}, wavyKernel(2, 2), {}},
    };
    cases.insert(cases.end(), more.begin(), more.end());
    return cases;
}

class BuiltinGrid : public ::testing::TestWithParam<GridCase> {};

TEST_P(BuiltinGrid, MatchesReferenceForEveryFormatAndBorder)
{
    const GridCase& c = GetParam();
    ParamValues values;
    values.values = c.values;
    values.kernel = c.kernel;
    values.anchor = c.anchor;
    const FilterSpec base = builtinRegistry().get(c.id).build(values);

    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Size sizes[] = {{17, 13}, {5, 3}};
    for (const cv::Size size : sizes) {
        for (const int depth : {CV_8U, CV_16U, CV_32F}) {
            for (const int channels : {1, 3, 4}) {
                const cv::Mat src = randomImage(size.height, size.width, CV_MAKETYPE(depth, channels), rng);
                for (const auto& bc : allBorderCases()) {
                    FilterSpec spec = base;
                    spec.border = bc.border;
                    spec.borderValue = bc.nonZeroConstant ? nonZeroBorderValue(depth) : 0.0;
                    SCOPED_TRACE(caseName(src, spec));
                    const cv::Mat dst = applyCpu(src, spec);
                    ASSERT_TRUE(matchesReference(src, spec, dst));
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllFilters, BuiltinGrid, ::testing::ValuesIn(gridCases()),
                         [](const ::testing::TestParamInfo<GridCase>& param) { return param.param.label; });

}  // namespace
}  // namespace tessera::filters
