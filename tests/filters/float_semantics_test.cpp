// SPDX-License-Identifier: Apache-2.0
// The float rule on the CPU path: NaN and infinity reach exactly the outputs whose window holds
// them, and a huge value stays out of the outputs whose window does not, whatever route OpenCV
// takes inside (its DFT starts at 50 to 130 taps).

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "filters/float_range.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tessera::filters {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// The correlation in double straight from its definition (borders by borderInterpolate), and
/// beside it sum |k| |x| over each output's window: the scale of that output's own bound.
struct Reference {
    cv::Mat value;  // CV_64FC(n)
    cv::Mat scale;  // CV_64FC(n)
};

Reference reference(const cv::Mat& src, const FilterSpec& spec)
{
    const int n = src.channels();
    Reference r{cv::Mat(src.size(), CV_64FC(n)), cv::Mat(src.size(), CV_64FC(n))};
    const Point a = spec.effectiveAnchor();
    const int border = toCvBorder(spec.border);
    for (int y = 0; y < src.rows; ++y) {
        for (int x = 0; x < src.cols; ++x) {
            for (int c = 0; c < n; ++c) {
                double sum = 0.0;
                double scale = 0.0;
                for (int ky = 0; ky < spec.kernel.height; ++ky) {
                    for (int kx = 0; kx < spec.kernel.width; ++kx) {
                        const int sy = cv::borderInterpolate(y + ky - a.y, src.rows, border);
                        const int sx = cv::borderInterpolate(x + kx - a.x, src.cols, border);
                        const double v =
                            sy < 0 || sx < 0 ? spec.borderValue : static_cast<double>(src.ptr<float>(sy)[sx * n + c]);
                        const double w = spec.kernel.at(kx, ky) * spec.scale;
                        sum += w * v;
                        scale += std::abs(w) * std::abs(v);
                    }
                }
                r.value.ptr<double>(y)[x * n + c] = sum + spec.offset;
                r.scale.ptr<double>(y)[x * n + c] = scale + std::abs(spec.offset);
            }
        }
    }
    return r;
}

FilterSpec denseSpec(int kw, int kh, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> tap(-0.2, 1.0);
    Kernel2D k;
    k.width = kw;
    k.height = kh;
    k.weights.resize(static_cast<std::size_t>(kw) * kh);
    double sum = 0.0;
    for (double& w : k.weights) {
        w = tap(rng);
        sum += std::abs(w);
    }
    for (double& w : k.weights) {
        w /= sum;
    }
    return makeCustom(k);
}

cv::Mat randomImage(int rows, int cols, int channels, std::mt19937_64& rng)
{
    cv::Mat m(rows, cols, CV_32FC(channels));
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int y = 0; y < rows; ++y) {
        float* p = m.ptr<float>(y);
        for (int i = 0; i < cols * channels; ++i) {
            p[i] = u(rng);
        }
    }
    return m;
}

/// Every element: NaN exactly where the reference is NaN, the same infinity where it is
/// infinite, and elsewhere within 1e-5 of the output's own window scale.
void expectRule(const cv::Mat& out, const Reference& ref, const std::string& what)
{
    ASSERT_EQ(out.type(), CV_MAKETYPE(CV_32F, ref.value.channels())) << what;
    int bad = 0;
    const int n = ref.value.channels();
    for (int y = 0; y < out.rows && bad < 5; ++y) {
        for (int i = 0; i < out.cols * n && bad < 5; ++i) {
            const double got = out.ptr<float>(y)[i];
            const double want = ref.value.ptr<double>(y)[i];
            const double scale = ref.scale.ptr<double>(y)[i];
            bool ok = false;
            if (std::isnan(want)) {
                ok = std::isnan(got);
            } else if (std::isinf(want) || std::isinf(scale)) {
                ok = got == want || (std::isnan(scale) && std::isnan(got));
            } else {
                ok = std::isfinite(got) && std::abs(got - want) <= 1e-5 * scale + 1e-30;
            }
            if (!ok) {
                ++bad;
                ADD_FAILURE() << what << ": at row " << y << " element " << i << " got " << got << ", want " << want
                              << " (window scale " << scale << ")";
            }
        }
    }
}

struct Poison {
    const char* name;
    float value;
};

constexpr Poison kPoisons[] = {{"NaN", kNaN},   {"+inf", kInf},    {"-inf", -kInf},
                               {"1e30", 1e30f}, {"-3e38", -3e38f}, {"1e-38", 1e-38f}};

TEST(FloatSemantics, NonFiniteAndHugePixelsStayInTheirWindowsForEveryKernelSize)
{
    std::mt19937_64 rng(20261204);
    const int sizes[][2] = {{3, 3}, {7, 7}, {15, 15}, {17, 9}, {31, 5}, {1, 61}};
    for (const auto& size : sizes) {
        for (const Poison& poison : kPoisons) {
            for (const Border border : {Border::Reflect101, Border::Constant, Border::Wrap}) {
                cv::Mat src = randomImage(41, 53, 1, rng);
                src.at<float>(20, 26) = poison.value;
                src.at<float>(3, 50) = poison.value;
                FilterSpec spec = denseSpec(size[0], size[1], rng);
                spec.border = border;
                const std::string what = std::to_string(size[0]) + "x" + std::to_string(size[1]) + " " + poison.name +
                                         " border " + std::to_string(static_cast<int>(border));
                expectRule(applyCpu(src, spec), reference(src, spec), what);
            }
        }
    }
}

TEST(FloatSemantics, ManyChannelsAndAMixOfPoisons)
{
    std::mt19937_64 rng(7);
    cv::Mat src = randomImage(37, 45, 3, rng);
    src.ptr<float>(5)[3 * 7 + 1] = kNaN;
    src.ptr<float>(30)[3 * 40 + 2] = kInf;
    src.ptr<float>(30)[3 * 41 + 2] = -kInf;  // +inf and -inf in one window: NaN there
    src.ptr<float>(18)[3 * 20 + 0] = 1e30f;
    FilterSpec spec = denseSpec(15, 15, rng);
    spec.offset = 0.25;
    expectRule(applyCpu(src, spec), reference(src, spec), "15x15 on three channels");
}

TEST(FloatSemantics, OrdinaryDataKeepsTheTransformsBound)
{
    // The route for ordinary data is OpenCV's choice; it must still match the definition.
    std::mt19937_64 rng(11);
    const cv::Mat src = randomImage(64, 70, 1, rng);
    const FilterSpec spec = denseSpec(15, 15, rng);
    const cv::Mat out = applyCpu(src, spec);
    const Reference ref = reference(src, spec);
    double worst = 0.0;
    for (int y = 0; y < out.rows; ++y) {
        for (int x = 0; x < out.cols; ++x) {
            worst = std::max(worst, std::abs(out.at<float>(y, x) - ref.value.at<double>(y, x)));
        }
    }
    EXPECT_LT(worst, 2e-4);  // sum |k| = 1, max |x| < 1
}

TEST(FloatRange, CountsExponentsOfTheMaximumAndTheMedian)
{
    cv::Mat m(10, 10, CV_32F, cv::Scalar(0.75f));  // frexp exponent 0
    FloatRange r = scanFloatRange(m);
    EXPECT_FALSE(r.nonFinite);
    EXPECT_EQ(r.maxExponent, 0);
    EXPECT_EQ(r.medianExponent, 0);
    EXPECT_EQ(r.values, 100u);
    EXPECT_TRUE(transformSafe(r));

    m.at<float>(4, 4) = -1000.0f;  // exponent 10: within 2^9 of the median? no
    r = scanFloatRange(m);
    EXPECT_EQ(r.maxExponent, 10);
    EXPECT_EQ(r.medianExponent, 0);
    EXPECT_FALSE(transformSafe(r));

    m.at<float>(4, 4) = 500.0f;  // exponent 9: just inside
    EXPECT_TRUE(transformSafe(scanFloatRange(m)));

    m.at<float>(4, 4) = kNaN;
    r = scanFloatRange(m);
    EXPECT_TRUE(r.nonFinite);
    EXPECT_FALSE(transformSafe(r));
}

TEST(FloatRange, TheMedianIsRobustToAFewOutliersAndZerosCountAsTiny)
{
    cv::Mat m(100, 100, CV_32F, cv::Scalar(1.0f));
    for (int i = 0; i < 100; ++i) {
        m.at<float>(i, i) = 1e30f;  // 1 % of the pixels
    }
    FloatRange r = scanFloatRange(m);
    EXPECT_EQ(r.medianExponent, 1);
    EXPECT_FALSE(transformSafe(r));

    const cv::Mat zeros(8, 8, CV_32FC3, cv::Scalar::all(0.0));
    r = scanFloatRange(zeros);
    EXPECT_EQ(r.maxExponent, FloatRange::kTinyExponent);
    EXPECT_TRUE(transformSafe(r));

    const cv::Mat bytes(4, 4, CV_8UC4, cv::Scalar::all(200));
    r = scanFloatRange(bytes);
    EXPECT_EQ(r.maxExponent, 8);
    EXPECT_EQ(r.values, 64u);
}

}  // namespace
}  // namespace tessera::filters
