// SPDX-License-Identifier: Apache-2.0
// A fit-zoom preview computed for the shown blocks alone equals the full result reduced the same
// way: 8- and 16-bit within 1, float within a relative 1e-4, whatever the kernel, anchor, border,
// depth, channels, factor and size (partial blocks at the edges included), saturation included.
#include "app/engine/reduced_preview.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <string>

namespace tessera::app {
namespace {

using filters::FilterChain;
using filters::FilterSpec;

/// A photo-like image: smooth regions, edges and some noise, reaching both ends of the range.
cv::Mat photo(int rows, int cols, int type, unsigned seed)
{
    cv::RNG rng(seed);
    cv::Mat noise(rows, cols, CV_MAKETYPE(CV_32F, CV_MAT_CN(type)));
    rng.fill(noise, cv::RNG::UNIFORM, 0.0, 1.0);
    cv::GaussianBlur(noise, noise, cv::Size(0, 0), 3.0);
    cv::normalize(noise, noise, 0.0, 1.0, cv::NORM_MINMAX);
    cv::rectangle(noise, cv::Rect(cols / 4, rows / 4, cols / 3, rows / 3), cv::Scalar::all(1.0), cv::FILLED);
    cv::Mat out;
    const double top = CV_MAT_DEPTH(type) == CV_8U ? 255.0 : CV_MAT_DEPTH(type) == CV_16U ? 65535.0 : 2.0;
    noise.convertTo(out, type, top);
    return out;
}

/// Largest difference of the fast reduction from the full result reduced, over its range.
void expectMatches(const cv::Mat& src, const FilterSpec& spec, int factor, const std::string& what)
{
    SCOPED_TRACE(what + " factor " + std::to_string(factor) + " size " + std::to_string(src.cols) + "x" +
                 std::to_string(src.rows));
    const FilterChain chain{{spec}};
    const std::optional<cv::Mat> fast = reducedCorrelation(src, chain, factor);
    ASSERT_TRUE(fast.has_value());
    const cv::Mat reference = reduceByBlocks(filters::applyCpu(src, chain), factor);
    ASSERT_EQ(fast->type(), reference.type());
    ASSERT_EQ(fast->size(), reference.size());
    const double diff = cv::norm(*fast, reference, cv::NORM_INF);
    if (fast->depth() == CV_32F) {
        const double scale = std::max(1.0, cv::norm(reference, cv::NORM_INF));
        EXPECT_LE(diff / scale, 1e-4);
    } else {
        EXPECT_LE(diff, 1.0);
    }
}

TEST(ReducedPreview, SeparableBlursMatchTheFullResultReduced)
{
    for (const int factor : {2, 3, 4, 7}) {
        expectMatches(photo(61, 83, CV_8UC3, 1), filters::makeGaussian(2.0), factor, "gaussian u8x3");
        expectMatches(photo(40, 50, CV_16UC1, 2), filters::makeBox(9), factor, "box u16");
    }
}

TEST(ReducedPreview, SaturatingFiltersAreExactWhereThePixelsClip)
{
    for (const int factor : {2, 4, 5}) {
        expectMatches(photo(64, 96, CV_8UC3, 3), filters::makeSharpen(2.0), factor, "sharpen u8x3");
        expectMatches(photo(57, 71, CV_8UC1, 4), filters::makeLaplacian(3), factor, "laplacian u8");
        FilterSpec bright = filters::makeBox(5);
        bright.scale = 1.7;
        bright.offset = 20;
        expectMatches(photo(50, 50, CV_16UC4, 5), bright, factor, "box with gain u16x4");
    }
}

TEST(ReducedPreview, FloatOutputsAndNonSeparableKernels)
{
    FilterSpec sobel = filters::makeSobel(1, 0, 3);
    sobel.depth = filters::OutputDepth::F32;
    expectMatches(photo(64, 64, CV_8UC3, 6), sobel, 4, "sobel to f32");
    FilterSpec custom;
    custom.id = "custom";
    custom.kernel = {5, 4, {1, -2, 0, 3, 1, 0.5, 1, -1, 2, 0, 0, 1, 4, 1, -3, 2, 1, 0, -1, 1}};
    custom.anchor = filters::Point{1, 3};  // off-centre
    custom.depth = filters::OutputDepth::F32;
    for (const auto border : {filters::Border::Reflect101, filters::Border::Reflect, filters::Border::Replicate,
                              filters::Border::Constant, filters::Border::Wrap}) {
        custom.border = border;
        custom.borderValue = 0.25;
        expectMatches(photo(45, 58, CV_32FC1, 7), custom, 3, "custom f32 border " + filters::toString(border));
    }
    custom.depth = filters::OutputDepth::U8;
    expectMatches(photo(45, 58, CV_8UC4, 8), custom, 6, "custom to u8");
}

TEST(ReducedPreview, DeclinesWhatItCannotComputeThisWay)
{
    const cv::Mat img = photo(32, 32, CV_8UC1, 9);
    const FilterSpec box = filters::makeBox(3);
    EXPECT_FALSE(reducedCorrelation(img, FilterChain{{box, box}}, 4).has_value()) << "several steps";
    EXPECT_FALSE(reducedCorrelation(img, FilterChain{{box}}, 1).has_value());
    EXPECT_FALSE(reducedCorrelation(img(cv::Rect(0, 0, 3, 3)), FilterChain{{box}}, 4).has_value());
    cv::Mat withNan = photo(32, 32, CV_32FC1, 10);
    withNan.at<float>(5, 5) = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(reducedCorrelation(withNan, FilterChain{{box}}, 4).has_value()) << "NaN: the full path's rule";
}

TEST(ReducedPreview, BlockMeansAverageThePixelsEachBlockHolds)
{
    cv::Mat img(3, 5, CV_8UC1);
    for (int i = 0; i < 15; ++i) {
        img.at<std::uint8_t>(i / 5, i % 5) = static_cast<std::uint8_t>(i);
    }
    const cv::Mat m = blockMeans(img, 2);
    ASSERT_EQ(m.size(), cv::Size(3, 2));
    EXPECT_FLOAT_EQ(m.at<float>(0, 0), (0 + 1 + 5 + 6) / 4.0f);
    EXPECT_FLOAT_EQ(m.at<float>(0, 2), (4 + 9) / 2.0f);
    EXPECT_FLOAT_EQ(m.at<float>(1, 2), 14.0f);
}

}  // namespace
}  // namespace tessera::app
