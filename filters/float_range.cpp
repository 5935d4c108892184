// SPDX-License-Identifier: Apache-2.0
#include "filters/float_range.h"

#include <opencv2/core.hpp>

#include <array>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace tessera::filters {

namespace {

// Histogram of biased float exponents: bin 0 holds zeros and subnormals, 255 NaN and infinity.
using Bins = std::array<std::uint64_t, 256>;

inline unsigned exponentBits(float v)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return (bits >> 23) & 0xFFu;
}

void countRow(const cv::Mat& image, int y, Bins& bins)
{
    const int n = image.cols * image.channels();
    switch (image.depth()) {
    case CV_32F: {
        const float* row = image.ptr<float>(y);
        for (int i = 0; i < n; ++i) {
            ++bins[exponentBits(row[i])];
        }
        break;
    }
    case CV_16U: {
        const auto* row = image.ptr<std::uint16_t>(y);
        for (int i = 0; i < n; ++i) {
            ++bins[exponentBits(static_cast<float>(row[i]))];
        }
        break;
    }
    case CV_8U: {
        const auto* row = image.ptr<std::uint8_t>(y);
        for (int i = 0; i < n; ++i) {
            ++bins[exponentBits(static_cast<float>(row[i]))];
        }
        break;
    }
    default: throw std::invalid_argument("scanFloatRange: expected a u8, u16 or f32 image");
    }
}

/// frexp's exponent of the magnitudes in biased bin b (bin 0: kTinyExponent).
int frexpExponent(int bin)
{
    return bin == 0 ? FloatRange::kTinyExponent : bin - 126;
}

}  // namespace

FloatRange scanFloatRange(const cv::Mat& image)
{
    const int depth = image.depth();
    if (depth != CV_8U && depth != CV_16U && depth != CV_32F) {
        throw std::invalid_argument("scanFloatRange: expected a u8, u16 or f32 image");
    }
    FloatRange r;
    if (image.empty()) {
        return r;
    }
    Bins total{};
    std::mutex mutex;
    cv::parallel_for_(cv::Range(0, image.rows), [&](const cv::Range& rows) {
        Bins bins{};
        for (int y = rows.start; y < rows.end; ++y) {
            countRow(image, y, bins);
        }
        std::lock_guard lock(mutex);
        for (std::size_t b = 0; b < bins.size(); ++b) {
            total[b] += bins[b];
        }
    });
    for (std::uint64_t n : total) {
        r.values += n;
    }
    r.nonFinite = total[255] != 0;
    for (int b = 254; b >= 0; --b) {
        if (total[static_cast<std::size_t>(b)] != 0) {
            r.maxExponent = frexpExponent(b);
            break;
        }
    }
    // The median of all samples, the non-finite ones counted as the largest.
    const std::uint64_t half = (r.values + 1) / 2;
    std::uint64_t seen = 0;
    for (int b = 0; b < 256; ++b) {
        seen += total[static_cast<std::size_t>(b)];
        if (seen >= half) {
            r.medianExponent = frexpExponent(std::min(b, 254));
            break;
        }
    }
    return r;
}

bool transformSafe(const FloatRange& range)
{
    if (range.nonFinite) {
        return false;
    }
    if (range.maxExponent == FloatRange::kTinyExponent) {
        return true;  // every value is zero or below 2^-126
    }
    return range.maxExponent - range.medianExponent <= kTransformRangeLog2;
}

}  // namespace tessera::filters
