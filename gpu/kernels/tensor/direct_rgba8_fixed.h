// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the fixed-point taps of the integer tensor-core RGBA8 kernel
// (direct_rgba8_imma.cu), CUDA-free so that the planner and host tests can follow them.
//
// Each tap w becomes an integer q = round(w 2^s), held as two signed bytes, q = 256 hi + lo, so
// that the tensor cores multiply the image's bytes by hi and by lo exactly into 32-bit sums. The
// result is (256 sum(hi b) + sum(lo b) + bias) >> s, where the bias carries the offset (rounded
// to 2^-s) and half a step, so the shift rounds to nearest. Integer arithmetic is exact: the only
// error is the taps' and the offset's rounding to 2^-s, which the bound below adds up.

#include "filters/filter_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::gpu::detail {

/// Largest error, in output steps, the integer kernel may carry: under half a step the rounded
/// byte stays within 1 of the exactly computed one.
inline constexpr double kRgba8FixedErrorLimit = 0.25;

/// Fixed-point form of a small kernel's taps for 8-bit inputs.
struct Rgba8FixedTaps {
    bool ok = false;              ///< false: no shift keeps the sums in range and the error under the limit
    int shift = 0;                ///< s: each tap is q / 2^s
    std::vector<std::int8_t> hi;  ///< q = 256 hi + lo, row-major like the taps
    std::vector<std::int8_t> lo;
    std::int32_t bias = 0;    ///< round(offset 2^s) + 2^(s - 1): the sums' start
    double errorBound = 0.0;  ///< |result before rounding - exact|, in output steps
};

/// The fixed-point taps for `taps` (scale folded in) and `offset` with the largest shift, at
/// most 24, that keeps every tap within two signed bytes and every sum within 2^30. Never throws.
inline Rgba8FixedTaps rgba8FixedTaps(const std::vector<float>& taps, float offset)
{
    Rgba8FixedTaps f;
    double largest = 0.0;
    for (float t : taps) {
        if (!std::isfinite(t)) {
            return f;
        }
        largest = std::max(largest, std::abs(static_cast<double>(t)));
    }
    if (!std::isfinite(offset) || taps.empty()) {
        return f;
    }
    // Every q from -32639 to 32639 splits into hi = q / 256 rounded to nearest (-127 to 127) and
    // lo = q - 256 hi (-128 to 127).
    constexpr double kLargestQ = 32639.0;
    for (int s = 24; s >= 1; --s) {
        const double unit = std::ldexp(1.0, s);
        if (std::nearbyint(largest * unit) > kLargestQ) {
            continue;
        }
        const double offsetQ = std::nearbyint(static_cast<double>(offset) * unit);
        double absSum = 0.0;
        double tapError = 0.0;
        for (float t : taps) {
            const double q = std::nearbyint(static_cast<double>(t) * unit);
            absSum += std::abs(q);
            tapError += std::abs(static_cast<double>(t) - q / unit);
        }
        // Every partial sum lies within 255 sum|q| of the bias.
        if (255.0 * absSum + std::abs(offsetQ) + unit > 0x1p30) {
            continue;
        }
        f.shift = s;
        f.errorBound = 255.0 * tapError + std::abs(static_cast<double>(offset) - offsetQ / unit);
        if (f.errorBound > kRgba8FixedErrorLimit) {
            return f;  // a smaller shift only rounds the taps more coarsely
        }
        f.bias = static_cast<std::int32_t>(offsetQ) + (std::int32_t{1} << (s - 1));
        for (float t : taps) {
            const auto q = static_cast<int>(std::nearbyint(static_cast<double>(t) * unit));
            // Round q / 256 to nearest so that the remainder fits a signed byte.
            const int h = static_cast<int>(std::floor((q + 128) / 256.0));
            f.hi.push_back(static_cast<std::int8_t>(h));
            f.lo.push_back(static_cast<std::int8_t>(q - 256 * h));
        }
        f.ok = true;
        return f;
    }
    return f;
}

/// The same for a spec, its taps and offset as the plan's (scale folded in, then rounded to float).
inline Rgba8FixedTaps rgba8FixedTaps(const filters::FilterSpec& spec)
{
    std::vector<float> taps;
    taps.reserve(spec.kernel.weights.size());
    for (double w : spec.kernel.weights) {
        taps.push_back(static_cast<float>(w * spec.scale));
    }
    return rgba8FixedTaps(taps, static_cast<float>(spec.offset));
}

/// m16n8k32 products the integer kernel runs for a k x k kernel: per 16 lines x 4 outputs, two
/// (high and low tap bytes) for each of two output pairs and k kernel rows.
inline double rgba8ImmaCount(int k, double pixels)
{
    return pixels * k / 16.0;
}

}  // namespace tessera::gpu::detail
