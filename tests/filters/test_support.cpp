// SPDX-License-Identifier: Apache-2.0
#include "test_support.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tessera::filters::testing {

std::uint32_t freshSeed()
{
    if (const char* fixed = std::getenv("TESSERA_TEST_SEED")) {
        return static_cast<std::uint32_t>(std::strtoul(fixed, nullptr, 10));
    }
    return std::random_device{}();
}

std::string seedNote(std::uint32_t seed)
{
    return "seed " + std::to_string(seed) + " (replay with TESSERA_TEST_SEED=" + std::to_string(seed) + ")";
}

cv::Mat randomImage(int rows, int cols, int type, std::mt19937& rng)
{
    cv::Mat m(rows, cols, type);
    const int n = cols * CV_MAT_CN(type);
    for (int y = 0; y < rows; ++y) {
        switch (CV_MAT_DEPTH(type)) {
        case CV_8U: {
            std::uniform_int_distribution<int> d(0, 255);
            auto* row = m.ptr<std::uint8_t>(y);
            for (int i = 0; i < n; ++i) {
                row[i] = static_cast<std::uint8_t>(d(rng));
            }
            break;
        }
        case CV_16U: {
            std::uniform_int_distribution<int> d(0, 65535);
            auto* row = m.ptr<std::uint16_t>(y);
            for (int i = 0; i < n; ++i) {
                row[i] = static_cast<std::uint16_t>(d(rng));
            }
            break;
        }
        default: {
            std::uniform_real_distribution<float> d(-1.0f, 1.0f);
            auto* row = m.ptr<float>(y);
            for (int i = 0; i < n; ++i) {
                row[i] = d(rng);
            }
            break;
        }
        }
    }
    return m;
}

Kernel2D randomKernel(int width, int height, std::mt19937& rng)
{
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    Kernel2D k{width, height, {}};
    for (int i = 0; i < width * height; ++i) {
        k.weights.push_back(d(rng));
    }
    return k;
}

int referenceBorderIndex(int p, int n, Border b)
{
    if (p >= 0 && p < n) {
        return p;
    }
    switch (b) {
    case Border::Constant: return -1;
    case Border::Replicate: return p < 0 ? 0 : n - 1;
    case Border::Wrap: return ((p % n) + n) % n;
    case Border::Reflect: {
        // Period 2n: a b c | c b a | a b c ...
        const int period = 2 * n;
        const int m = ((p % period) + period) % period;
        return m < n ? m : period - 1 - m;
    }
    case Border::Reflect101: {
        // Period 2n - 2: a b c | b | a b c ...; a single pixel reflects onto itself.
        if (n == 1) {
            return 0;
        }
        const int period = 2 * n - 2;
        const int m = ((p % period) + period) % period;
        return m < n ? m : period - m;
    }
    }
    return -1;
}

namespace {

double pixel(const cv::Mat& m, int x, int y, int c)
{
    const int i = x * m.channels() + c;
    switch (m.depth()) {
    case CV_8U: return m.ptr<std::uint8_t>(y)[i];
    case CV_16U: return m.ptr<std::uint16_t>(y)[i];
    default: return m.ptr<float>(y)[i];
    }
}

}  // namespace

cv::Mat referenceFilter(const cv::Mat& src, const FilterSpec& spec)
{
    const int cn = src.channels();
    const Kernel2D& k = spec.kernel;
    const int ax = spec.anchor ? spec.anchor->x : k.width / 2;
    const int ay = spec.anchor ? spec.anchor->y : k.height / 2;
    cv::Mat out(src.rows, src.cols, CV_64FC(cn));
    for (int y = 0; y < src.rows; ++y) {
        for (int x = 0; x < src.cols; ++x) {
            for (int c = 0; c < cn; ++c) {
                double sum = 0.0;
                for (int j = 0; j < k.height; ++j) {
                    const int sy = referenceBorderIndex(y + j - ay, src.rows, spec.border);
                    for (int i = 0; i < k.width; ++i) {
                        const int sx = referenceBorderIndex(x + i - ax, src.cols, spec.border);
                        const double v = (sx < 0 || sy < 0) ? spec.borderValue : pixel(src, sx, sy, c);
                        sum += k.weights[static_cast<size_t>(j) * k.width + i] * v;
                    }
                }
                out.ptr<double>(y)[x * cn + c] = spec.scale * sum + spec.offset;
            }
        }
    }
    return out;
}

int expectedDepth(const FilterSpec& spec, int srcDepth)
{
    switch (spec.depth) {
    case OutputDepth::U8: return CV_8U;
    case OutputDepth::U16: return CV_16U;
    case OutputDepth::F32: return CV_32F;
    case OutputDepth::Same: break;
    }
    return srcDepth;
}

std::string depthName(int depth)
{
    switch (depth) {
    case CV_8U: return "u8";
    case CV_16U: return "u16";
    case CV_32F: return "f32";
    default: return "depth" + std::to_string(depth);
    }
}

std::string caseName(const cv::Mat& src, const FilterSpec& spec)
{
    std::ostringstream s;
    s << spec.id << " " << spec.kernel.width << "x" << spec.kernel.height << " on " << depthName(src.depth()) << " x"
      << src.channels() << " " << src.cols << "x" << src.rows << " border " << toString(spec.border);
    if (spec.border == Border::Constant) {
        s << "(" << spec.borderValue << ")";
    }
    s << " -> " << toString(spec.depth);
    return s.str();
}

::testing::AssertionResult matchesReference(const cv::Mat& src, const FilterSpec& spec, const cv::Mat& actual)
{
    const int depth = expectedDepth(spec, src.depth());
    if (actual.rows != src.rows || actual.cols != src.cols || actual.channels() != src.channels() ||
        actual.depth() != depth) {
        return ::testing::AssertionFailure() << "got " << actual.cols << "x" << actual.rows << " x" << actual.channels()
                                             << " " << depthName(actual.depth()) << ", expected " << src.cols << "x"
                                             << src.rows << " x" << src.channels() << " " << depthName(depth);
    }
    const cv::Mat ref = referenceFilter(src, spec);
    double maxInput = spec.border == Border::Constant ? std::abs(spec.borderValue) : 0.0;
    for (int y = 0; y < src.rows; ++y) {
        for (int x = 0; x < src.cols; ++x) {
            for (int c = 0; c < src.channels(); ++c) {
                maxInput = std::max(maxInput, std::abs(pixel(src, x, y, c)));
            }
        }
    }
    double kernelMass = 0.0;
    for (double w : spec.kernel.weights) {
        kernelMass += std::abs(w);
    }
    const double floatTolerance =
        1e-5 * std::max(1.0, std::abs(spec.scale) * kernelMass * maxInput + std::abs(spec.offset));

    int mismatches = 0;
    std::ostringstream first;
    for (int y = 0; y < src.rows; ++y) {
        for (int x = 0; x < src.cols; ++x) {
            for (int c = 0; c < src.channels(); ++c) {
                const double exact = ref.ptr<double>(y)[x * src.channels() + c];
                const double got = pixel(actual, x, y, c);
                double expected = exact;
                double tolerance = floatTolerance;
                if (depth != CV_32F) {
                    const double top = depth == CV_8U ? 255.0 : 65535.0;
                    expected = std::clamp(std::round(exact), 0.0, top);
                    tolerance = 1.0;
                }
                if (!(std::abs(got - expected) <= tolerance)) {
                    if (mismatches == 0) {
                        first << "first at (x " << x << ", y " << y << ", channel " << c << "): got " << got
                              << ", expected " << expected << " (exact " << exact << ", tolerance " << tolerance << ")";
                    }
                    ++mismatches;
                }
            }
        }
    }
    if (mismatches > 0) {
        return ::testing::AssertionFailure() << mismatches << " mismatching values; " << first.str();
    }
    return ::testing::AssertionSuccess();
}

std::vector<BorderCase> allBorderCases()
{
    return {{Border::Reflect101, false}, {Border::Reflect, false}, {Border::Replicate, false},
            {Border::Constant, false},   {Border::Constant, true}, {Border::Wrap, false}};
}

double nonZeroBorderValue(int depth)
{
    switch (depth) {
    case CV_8U: return 77.0;
    case CV_16U: return 40000.0;
    default: return 0.625;
    }
}

}  // namespace tessera::filters::testing
