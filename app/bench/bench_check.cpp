// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_check.h"

#include "filters/cpu_executor.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera::app::bench {

namespace {

constexpr long long kFullCheckPixels = 2048LL * 2048LL;
constexpr int kBandRows = 16;

double channelValue(const cv::Mat& m, int x, int y, int c)
{
    const int cn = m.channels();
    switch (m.depth()) {
    case CV_8U: return m.ptr<std::uint8_t>(y)[x * cn + c];
    case CV_16U: return m.ptr<std::uint16_t>(y)[x * cn + c];
    default: return m.ptr<float>(y)[x * cn + c];
    }
}

double roundLike(double v, int depth)
{
    switch (depth) {
    case CV_8U: return cv::saturate_cast<std::uint8_t>(v);
    case CV_16U: return cv::saturate_cast<std::uint16_t>(v);
    default: return static_cast<float>(v);
    }
}

}  // namespace

Reference::Reference(const cv::Mat& input, const filters::FilterSpec& spec)
{
    const int h = input.rows;
    if (static_cast<long long>(input.cols) * h <= kFullCheckPixels || h <= 4 * kBandRows) {
        kind_ = "cpu-full";
        bands_.push_back({0, filters::applyCpu(input, spec)});
        return;
    }
    kind_ = "cpu-bands:4x" + std::to_string(kBandRows);
    const filters::Halo halo = spec.halo();
    for (int y0 : {0, h / 3, (2 * h) / 3, h - kBandRows}) {
        const int top = std::max(0, y0 - halo.top);
        const int bottom = std::min(h, y0 + kBandRows + halo.bottom);
        // A standalone copy: its own border rule then only touches rows that are cropped away,
        // except at the true image edges, where it is exactly the rule being checked.
        const cv::Mat strip = input.rowRange(top, bottom).clone();
        const cv::Mat out = filters::applyCpu(strip, spec);
        bands_.push_back({y0, out.rowRange(y0 - top, y0 - top + kBandRows).clone()});
    }
}

double toleranceFor(int cvDepth)
{
    return cvDepth == CV_32F ? 1e-3 : 1.0;
}

Comparison compareImages(const cv::Mat& got, const cv::Mat& expected)
{
    CV_Assert(got.size() == expected.size() && got.type() == expected.type());
    cv::Mat a;
    cv::Mat b;
    got.convertTo(a, CV_64F);
    expected.convertTo(b, CV_64F);
    Comparison r;
    const int n = a.cols * a.channels();
    for (int y = 0; y < a.rows; ++y) {
        const double* pa = a.ptr<double>(y);
        const double* pb = b.ptr<double>(y);
        for (int i = 0; i < n; ++i) {
            if (!std::isfinite(pa[i])) {
                r.finite = false;
                continue;
            }
            r.maxAbsErr = std::max(r.maxAbsErr, std::abs(pa[i] - pb[i]));
        }
    }
    r.ok = r.finite && r.maxAbsErr <= toleranceFor(got.depth());
    return r;
}

Comparison compareSampled(const cv::Mat& input, const cv::Mat& output, const filters::FilterSpec& spec, int samples,
                          unsigned seed)
{
    const int w = input.cols;
    const int h = input.rows;
    const int cn = input.channels();
    const int border = filters::toCvBorder(spec.border);
    const filters::Point anchor = spec.effectiveAnchor();
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dx(0, w - 1);
    std::uniform_int_distribution<int> dy(0, h - 1);
    Comparison r;
    for (int s = 0; s < samples; ++s) {
        int x = dx(rng);
        int y = dy(rng);
        if (s < 4) {
            x = (s & 1) ? w - 1 : 0;
            y = (s & 2) ? h - 1 : 0;
        }
        for (int c = 0; c < cn; ++c) {
            double sum = 0.0;
            for (int ky = 0; ky < spec.kernel.height; ++ky) {
                const int sy = cv::borderInterpolate(y + ky - anchor.y, h, border);
                for (int kx = 0; kx < spec.kernel.width; ++kx) {
                    const int sx = cv::borderInterpolate(x + kx - anchor.x, w, border);
                    const double v = (sx < 0 || sy < 0) ? spec.borderValue : channelValue(input, sx, sy, c);
                    sum += spec.kernel.at(kx, ky) * v;
                }
            }
            const double expected = roundLike(spec.scale * sum + spec.offset, output.depth());
            const double got = channelValue(output, x, y, c);
            if (!std::isfinite(got)) {
                r.finite = false;
                continue;
            }
            r.maxAbsErr = std::max(r.maxAbsErr, std::abs(got - expected));
        }
    }
    r.ok = r.finite && r.maxAbsErr <= toleranceFor(output.depth());
    return r;
}

}  // namespace tessera::app::bench
