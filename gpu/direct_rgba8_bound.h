// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the arithmetic of the walking RGBA8 kernel's one-instruction byte conversion
// (direct_rgba8.cu), CUDA-free so that host tests can follow it.
//
// A byte b written to bits 8..15 of the mantissa under the exponent of 1 is the float
// 1 + b / 2^15, exactly, in one byte permute. Against taps scaled by 2^15, with the sums started
// at offset - 2^15 x (sum of taps), the products add up to offset + sum(w b). The sums are larger
// than the result by about 2^15 x sum|w|, so their rounding costs low bits: the kernel takes this
// route only where the bound below is under kRgba8BiasedErrorLimit output steps.

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::gpu::detail {

/// The tap scale that matches values of 1 + b / 2^15.
inline constexpr float kRgba8BiasedScale = 32768.0f;
/// Largest error bound, in output steps, for which the one-instruction conversion is taken. Below
/// half a step the rounded byte stays within 1 of the exactly computed one.
inline constexpr double kRgba8BiasedErrorLimit = 0.25;

/// The float the byte permute makes of byte b: 1 + b / 2^15.
inline float rgba8BiasedValue(std::uint8_t b)
{
    return std::bit_cast<float>(0x3F800000u | (static_cast<std::uint32_t>(b) << 8));
}

/// A bound on |computed - exact| for one output of the biased route. Every partial sum lies within
/// |offset| + 2^15 sum|w| (the start) + 2^15 sum|w| (1 + 255 / 2^15) (the products); the start and
/// each of the n FMAs round once, by at most 2^-24 of that.
inline double rgba8BiasedErrorBound(const std::vector<float>& taps, float offset)
{
    double absSum = 0.0;
    for (float t : taps) {
        absSum += std::abs(static_cast<double>(t));
    }
    const double scale = kRgba8BiasedScale;
    const double largest = std::abs(static_cast<double>(offset)) + scale * absSum * (2.0 + 255.0 / scale);
    return static_cast<double>(taps.size() + 1) * largest * 0x1p-24;
}

/// Whether the walking RGBA8 kernel takes the one-instruction conversion for these taps (scale
/// folded in) and offset: the launch and the plan's description both ask this.
inline bool rgba8TakesBiasedBytes(const std::vector<float>& taps, float offset)
{
    return rgba8BiasedErrorBound(taps, offset) <= kRgba8BiasedErrorLimit;
}

}  // namespace tessera::gpu::detail
